"""The viewer's keyboard (`Web/app/keyboard.js`) in headless Chromium, loaded from the real daemon's web root with
a `send` that records what it would send: Send and Send + Enter send the cleaned text, each special key sends its
`pressKey`, a held backspace repeats until the finger lifts (a touch pointer), and stops when the page loses focus
while it is still held; the covered height follows opening and closing."""

import time

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

from pages import pair, wait

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
