"""The viewer's keyboard (`Web/app/keyboard.js`) in headless Chromium, loaded from the real daemon's web root with
a `send` that records what it would send: Send and Send + Enter send the cleaned text, each special key sends its
`pressKey`, a held backspace repeats until the finger lifts (a touch pointer), and stops when the page loses focus
while it is still held; the covered height follows opening and closing. Then the app's own panel in the viewer,
against the real host and an X text field that records what reaches it (Tests/support/xtext.py): sticky Ctrl + s
in live mode arrives as Ctrl+S, F5 as F5, a hardware Ctrl+Z as Ctrl+Z, at iPad and phone sizes (issue 19.15)."""

import pathlib
import subprocess
import sys
import time

import pytest

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from pages import eventually, pair, wait
from viewer import emulate_size, pair_as_viewer, start_viewing

XTEXT = pathlib.Path(__file__).resolve().parents[1] / "support" / "xtext.py"
IPAD = (1194, 834)
PHONE = (390, 844)

SETUP = """
const done = arguments[arguments.length - 1];
import('/app/keyboard.js').then((module) => {
  window.sent = [];
  window.covers = [];
  window.keyboard = module.createKeyboard(document.body, { send: (message) => window.sent.push(message) });
  // The app attaches a keyboard of its own to the viewer (closed, hidden): the tests look only at this one.
  window.keyboard.element.classList.add('under-test');
  window.keyboard.onCoverChange((height) => window.covers.push(height));
  window.keyboard.open();
  done(true);
}, (error) => done(String(error)));
"""


def sent(driver):
    return driver.execute_script("return window.sent")


def backspaces(driver):
    return sum(1 for message in sent(driver) if message == {"type": "pressKey", "key": "backspace"})


def touch(driver, element, hold):
    """A finger on `element` for `hold` seconds (None: left down)."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down()
    if hold is not None:
        actions.pointer_action.pause(hold).pointer_up()
    actions.perform()


def keyboard_page(browsers, host):
    browser = browsers()
    pair(browser, host)  # the PIN sheet of an unpaired page would sit above the keyboard
    assert browser.driver.execute_async_script(SETUP) is True
    return browser.driver


def test_send_and_send_enter_send_the_cleaned_text_and_special_keys_their_press(browsers, host):
    driver = keyboard_page(browsers, host)
    field = driver.find_element(By.CSS_SELECTOR, ".under-test input")
    field.send_keys("안녕하세요 café ✓ 123")
    driver.find_element(By.CSS_SELECTOR, ".under-test .send-enter").click()
    assert field.get_attribute("value") == ""
    field.send_keys("ls -la")
    driver.find_element(By.CSS_SELECTOR, ".under-test .send").click()
    driver.find_element(By.CSS_SELECTOR, ".under-test .send").click()  # empty: nothing is sent
    keys = ["esc", "tab", "shiftTab", "left", "up", "down", "right", "selectAll", "ctrlC", "return"]
    for key in keys:
        driver.find_element(By.CSS_SELECTOR, f'.under-test button[data-key="{key}"]').click()
    assert sent(driver) == [
        {"type": "typeText", "text": "안녕하세요 café ✓ 123", "enter": True},
        {"type": "typeText", "text": "ls -la", "enter": False},
    ] + [{"type": "pressKey", "key": key} for key in keys]


def test_a_held_backspace_repeats_until_the_finger_lifts(browsers, host):
    driver = keyboard_page(browsers, host)
    button = driver.find_element(By.CSS_SELECTOR, '.under-test button[data-key="backspace"]')
    touch(driver, button, hold=0.05)
    assert backspaces(driver) == 1, "a short tap presses once"
    touch(driver, button, hold=0.9)
    held = backspaces(driver) - 1
    assert held >= 2, f"held 0.9 s, backspace was sent {held} times: it did not repeat"
    time.sleep(0.5)  # long enough for several repeats, had it not stopped
    assert backspaces(driver) - 1 == held, "the repeat went on after the finger lifted"


def test_the_repeat_stops_when_the_page_loses_focus_while_held(browsers, host):
    driver = keyboard_page(browsers, host)
    button = driver.find_element(By.CSS_SELECTOR, '.under-test button[data-key="backspace"]')
    touch(driver, button, hold=None)
    wait(driver, lambda d: backspaces(d) >= 2, what="the repeat to start")
    driver.execute_script("window.dispatchEvent(new Event('blur'))")
    stopped = backspaces(driver)
    time.sleep(0.5)
    assert backspaces(driver) == stopped, "the repeat went on after the page lost focus"


def test_the_covered_height_follows_opening_and_closing(browsers, host):
    driver = keyboard_page(browsers, host)
    opened = driver.execute_script("return window.keyboard.coveredHeight()")
    assert opened > 0
    driver.execute_script("window.keyboard.close()")
    assert driver.execute_script("return window.keyboard.coveredHeight()") == 0
    assert driver.execute_script("return window.covers") == [opened, 0]


def test_the_hide_button_closes_the_panel_it_covers_the_toolbar_with(browsers, host):
    driver = keyboard_page(browsers, host)
    opened = driver.execute_script("return window.keyboard.coveredHeight()")
    driver.find_element(By.CSS_SELECTOR, ".under-test .hide").click()
    assert not driver.find_element(By.CSS_SELECTOR, ".under-test").is_displayed()
    assert driver.execute_script("return window.covers") == [opened, 0]


@pytest.fixture(scope="module")
def x_field(tmp_path_factory):
    """The X text field (it takes the display's focus); yields a function that reads what it received so far."""
    out = tmp_path_factory.mktemp("xtext") / "field.txt"
    recorder = subprocess.Popen([sys.executable, str(XTEXT), str(out)])
    eventually(out.exists, what="the X text field")
    yield lambda: out.read_text(encoding="utf-8")
    recorder.terminate()
    recorder.wait(10)


PANEL = "#screen-view .keyboard"


def panel_button(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, f"{PANEL} {selector}")


def modifier_state(driver, name):
    return panel_button(driver, f'[data-modifier="{name}"]').get_attribute("data-state")


def test_live_mode_sends_sticky_ctrl_s_as_a_chord_and_f5_as_its_key(host, browsers, x_field, output):
    for n, size in enumerate((IPAD, PHONE)):
        browser = browsers(width=max(size[0], 500), height=size[1])
        driver = browser.driver
        emulate_size(driver, *size)
        pair_as_viewer(browser, host, f"Keyboard {n}")
        start_viewing(driver)
        driver.execute_script("""window.typedAnswers = [];
            window.touchdeck.addEventListener('typed', ({ detail }) => window.typedAnswers.push(detail));""")
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="keyboard"]').click()
        field = panel_button(driver, "input")
        wait(driver, lambda d: field.is_displayed(), what="the keyboard panel")
        before = x_field()
        driver.save_screenshot(str(output / f"keyboard-compose-{size[0]}x{size[1]}.png"))

        panel_button(driver, ".live").click()
        assert panel_button(driver, ".live").get_attribute("aria-checked") == "true"
        assert not panel_button(driver, ".send").is_displayed(), "live mode has nothing to Send"
        panel_button(driver, '[data-modifier="ctrl"]').click()
        assert modifier_state(driver, "ctrl") == "once"
        driver.save_screenshot(str(output / f"keyboard-live-ctrl-{size[0]}x{size[1]}.png"))
        field.send_keys("s")
        assert modifier_state(driver, "ctrl") == "off", "a tapped Ctrl is held for one key only"
        field.send_keys("ab")  # plain characters: typed as text
        field.send_keys(Keys.CONTROL + "z" + Keys.CONTROL)  # a hardware keyboard's Ctrl goes through too
        field.send_keys(Keys.BACKSPACE)
        if panel_button(driver, ".more").is_displayed():  # a narrow screen: the F-keys are on the second page
            panel_button(driver, ".more").click()
        panel_button(driver, '[data-key="f5"]').click()
        expected = "<Ctrl+s>ab<Ctrl+z><BackSpace><F5>"
        eventually(lambda: x_field()[len(before):] == expected, 20,
                   f"{expected} in the X field (it has {x_field()[len(before):]!r})")
        assert field.get_attribute("value") == "", "live keys are sent, not left in the field"
        # One `typed` for each of the six keys and characters sent, each ok.
        answers = eventually(lambda: (lambda a: a if len(a) >= 6 else None)(
            driver.execute_script("return window.typedAnswers")), what="six typed answers")
        assert len(answers) == 6 and all(a["ok"] for a in answers), answers

        # A double tap locks Shift until it is tapped again; the lock shows.
        ActionChains(driver).double_click(panel_button(driver, '[data-modifier="shift"]')).perform()
        assert modifier_state(driver, "shift") == "locked"
        driver.save_screenshot(str(output / f"keyboard-more-shift-locked-{size[0]}x{size[1]}.png"))
        panel_button(driver, '[data-key="home"]').click()
        assert modifier_state(driver, "shift") == "locked", "a locked modifier stays after a key"
        panel_button(driver, '[data-modifier="shift"]').click()
        assert modifier_state(driver, "shift") == "off"
        eventually(lambda: x_field()[len(before):] == expected + "<Home>", 20, "Shift+Home")
        driver.execute_script("window.touchdeckViewer.shown(false)")  # one device views at a time
