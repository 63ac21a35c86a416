"""Hotkeys held while pressed in the web client (issue 22, push-to-talk; PROTOCOL §6 "Hold while pressed"): the edit
sheet's "Hold while pressed" saves `hold: true` (and nothing when off) and shows it again; a finger on such a key
sends `pressDown` at once and `pressUp` once when it lifts, never `press`, and an X client recording key events
(Tests/support/xkeyevents.py) sees Ctrl, Shift and M go down and nothing come up until the finger lifts, however
long past the long-press time it stays; a long press on it opens no editor, while the header's Edit mode opens the
editor of any key with a tap and presses nothing. A device that may not edit has no Edit toggle. Headless Chromium
against the real daemon at iPad (mouse) and phone (touch, through CDP) sizes; the editor also in WebKitGTK.
Screenshots: test-output/browser/hold-*.png."""

import os
import shutil
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from pages import eventually, fill, key, long_press, save, tap, wait
from test_edit_permission import pair_named
from test_key_kinds import add_sheet, clear_deck, sheet_open, sized, toggle, wait_stored
from viewer import CdpTouch
import xkeyevents

IPAD = (1194, 834)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [IPAD, PHONE], ids=["ipad", "phone"])
NAMES = (f"Hold {n}" for n in range(1000))
TALK = {"label": "Ctrl+Shift+M", "kind": "hotkey", "key": "m", "modifiers": ["ctrl", "shift"], "hold": True}
DOWN = ["down Control_L", "down Shift_L", "down m"]
UP = ["up m", "up Shift_L", "up Control_L"]
# Longer than deck.js's LONG_PRESS_MS (0.45 s): a hold that long would open the editor of an ordinary key.
PAST_LONG_PRESS = 1.0


@pytest.fixture
def events(tmp_path):
    """An X client recording keys down and up (as test_key_hold_live.py); yields a function that reads what it saw
    (a key's auto-repeated downs while it is down left out)."""
    out = tmp_path / "events.txt"
    recorder = xkeyevents.start(out)
    eventually(out.exists, what="the X key recorder")

    yield lambda: xkeyevents.without_repeats(out.read_text(encoding="utf-8").splitlines())
    recorder.terminate()
    recorder.wait(10)


def record_presses(driver):
    """From now on the page keeps every press, pressDown and pressUp it sends (read with `presses_sent`)."""
    driver.execute_script("""
        const client = window.touchdeck, send = client.send.bind(client);
        window.presses = [];
        client.send = (message) => {
          if (['press', 'pressDown', 'pressUp'].includes(message.type)) window.presses.push(message);
          return send(message);
        };""")


def presses_sent(driver):
    return driver.execute_script("return window.presses")


def make_hold_key(host, driver, index, output, tag):
    """A Ctrl+Shift+M hotkey with "Hold while pressed", through the add sheet of an empty slot."""
    add_sheet(driver, index, "hotkey")
    hint = driver.find_element(By.ID, "edit-hold-hint")
    assert not driver.find_element(By.ID, "edit-hold").is_selected() and not hint.is_displayed()
    toggle(driver, "ctrl")
    toggle(driver, "shift")
    fill(driver, "edit-hotkey-char", "m")
    driver.find_element(By.CSS_SELECTOR, "label.hold-choice").click()
    assert driver.find_element(By.ID, "edit-hold").is_selected()
    assert hint.is_displayed() and "Edit at the top" in hint.text
    driver.find_element(By.ID, "edit-sheet").screenshot(str(output / f"hold-sheet-{tag}.png"))
    save(driver)
    wait_stored(host, driver, 0, index, TALK)


class Finger:
    """A real pointer on a key: the mouse through WebDriver actions (iPad size) or a touch through CDP (phone)."""

    def __init__(self, driver, touch):
        self.driver, self.touch = driver, touch

    def down(self, element):
        if self.touch:
            r = self.driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)
            CdpTouch(self.driver).start((r["x"] + r["width"] / 2, r["y"] + r["height"] / 2))
        else:
            ActionChains(self.driver).move_to_element(element).click_and_hold().perform()

    def up(self):
        if self.touch:
            CdpTouch(self.driver).end()
        else:
            ActionChains(self.driver).release().perform()


def keys_seen_up_to_now(driver, events):
    """Everything the host's keyboard sent so far, once a keypad 1 sent after it (through the same keyboard, in
    the device's key order) has arrived in the X client."""
    before = events().count("up 1")
    driver.execute_script("window.touchdeck.send({type: 'keypad', key: '1'})")
    eventually(lambda: events().count("up 1") > before, what=f"the keypad 1 in the X client ({events()})")
    return events()


def header_fits(driver):
    """Every header item inside the screen and nothing scrolled sideways in the header."""
    return driver.execute_script("""
        const header = document.querySelector('header.status');
        const shown = [...header.children].filter((el) => el.getClientRects().length > 0);
        return header.scrollWidth <= header.clientWidth
          && shown.every((el) => { const r = el.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth; });""")


@SIZES
def test_a_held_key_holds_its_chord_until_the_finger_lifts_and_edit_mode_edits_it(host, browsers, output, size, events):
    tag = f"{size[0]}x{size[1]}"
    browser = sized(browsers, size)
    driver = browser.driver
    name = next(NAMES)
    pair_named(browser, host, name)
    clear_deck(driver)
    edit = driver.find_element(By.ID, "edit-mode")
    assert edit.is_displayed() and edit.accessible_name == "Edit keys" and edit.get_attribute("aria-pressed") == "false"
    assert header_fits(driver), "the header fits the screen"
    make_hold_key(host, driver, 0, output, tag)
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 1, "
                          "button: {label: 'Mail', kind: 'command', command: 'true'}})")
    wait(driver, lambda d: key(d, 0, 1).get_attribute("aria-label") == "Mail", what="the Mail key")
    talk = key(driver, 0, 0)
    assert "hold-key" in talk.get_attribute("class")
    record_presses(driver)

    # Held well past the long-press time: the chord goes down at once and stays down; no editor, no move.
    finger = Finger(driver, touch=size == PHONE)
    finger.down(talk)
    eventually(lambda: events()[:3] == DOWN, what=f"the chord down in the X client ({events()})")
    time.sleep(PAST_LONG_PRESS)
    assert keys_seen_up_to_now(driver, events) == DOWN + ["down 1", "up 1"], "nothing came up while held"
    assert "held" in key(driver, 0, 0).get_attribute("class")
    assert not sheet_open(driver), "a long press on a held key opens no editor"
    assert not driver.find_elements(By.CSS_SELECTOR, ".key.lifted, .drag-ghost"), "nor lifts it to move"
    driver.save_screenshot(str(output / f"hold-held-{tag}.png"))
    finger.up()
    eventually(lambda: "up Control_L" in events(), what=f"the chord up in the X client ({events()})")
    assert keys_seen_up_to_now(driver, events) == DOWN + ["down 1", "up 1"] + UP + ["down 1", "up 1"]
    wait(driver, lambda d: "held" not in key(d, 0, 0).get_attribute("class"), what="the key let go")
    assert presses_sent(driver) == [{"type": "pressDown", "page": 0, "index": 0}, {"type": "pressUp", "page": 0, "index": 0}]
    assert not sheet_open(driver)

    # Edit mode: the toggle shows it is on; a tap on the hold key opens its editor with Hold on, presses nothing.
    tap(driver, edit)
    wait(driver, lambda d: edit.get_attribute("aria-pressed") == "true", what="edit mode on")
    assert edit.text == "Done" and edit.accessible_name == "Edit keys"
    assert header_fits(driver), "the header fits the screen in edit mode"
    driver.save_screenshot(str(output / f"hold-edit-mode-{tag}.png"))
    tap(driver, key(driver, 0, 0))
    wait(driver, sheet_open, what="the hold key's editor")
    assert driver.find_element(By.ID, "edit-title").text == "Edit button"
    assert driver.find_element(By.ID, "edit-chord").text == "Ctrl+Shift+M"
    assert driver.find_element(By.ID, "edit-hold").is_selected(), "Hold shown again"
    # Turned off: saved without `hold` at all.
    driver.find_element(By.CSS_SELECTOR, "label.hold-choice").click()
    fill(driver, "edit-label", "Mute mic")
    save(driver)
    wait_stored(host, driver, 0, 0, {"label": "Mute mic", "kind": "hotkey", "key": "m", "modifiers": ["ctrl", "shift"]})
    # An ordinary key tapped in edit mode opens its editor too, and is not pressed.
    tap(driver, key(driver, 0, 1))
    wait(driver, sheet_open, what="the Mail key's editor")
    assert driver.find_element(By.ID, "edit-label").get_attribute("value") == "Mail"
    driver.find_element(By.ID, "edit-cancel").click()
    assert presses_sent(driver) == [{"type": "pressDown", "page": 0, "index": 0}, {"type": "pressUp", "page": 0, "index": 0}]
    assert edit.get_attribute("aria-pressed") == "true", "still in edit mode after an edit"

    # Done: taps press again (the key is no longer held: a plain press).
    tap(driver, edit)
    wait(driver, lambda d: edit.get_attribute("aria-pressed") == "false" and edit.text == "Edit", what="edit mode off")
    tap(driver, key(driver, 0, 1))
    wait(driver, lambda d: "glow" in key(d, 0, 1).get_attribute("class"), what="the Mail press answered")
    assert presses_sent(driver)[-1] == {"type": "press", "page": 0, "index": 1}

    # A device that may not edit: edit mode ends and there is no toggle.
    tap(driver, edit)
    wait(driver, lambda d: edit.get_attribute("aria-pressed") == "true", what="edit mode on again")
    host.cli("devices", "allow-edit", name, "off")
    wait(driver, lambda d: not edit.is_displayed(), what="the Edit toggle to go")
    assert edit.get_attribute("aria-pressed") == "false", "edit mode ended"
    tap(driver, key(driver, 0, 1))
    wait(driver, lambda d: len(presses_sent(d)) == 4, what="the tap to press, not edit")
    assert not sheet_open(driver)
    assert header_fits(driver)
    host.cli("devices", "allow-edit", name, "on")
    wait(driver, lambda d: edit.is_displayed(), what="the Edit toggle back")


def test_a_hold_key_dragged_off_and_lifted_elsewhere_lets_go_once(host, browsers, events):
    """The mouse held on a hold key, moved off the deck and let go there: one pressUp, the chord up."""
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair_named(browser, host, next(NAMES))
    clear_deck(driver)
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 2, button: arguments[0]})", TALK)
    wait(driver, lambda d: "hold-key" in key(d, 0, 2).get_attribute("class"), what="the hold key")
    record_presses(driver)
    ActionChains(driver).move_to_element(key(driver, 0, 2)).click_and_hold().perform()
    eventually(lambda: events()[:3] == DOWN, what=f"the chord down ({events()})")
    header = driver.find_element(By.ID, "status-text")
    ActionChains(driver).move_to_element(header).pause(0.1).release().perform()
    eventually(lambda: "up Control_L" in events(), what=f"the chord up ({events()})")
    assert keys_seen_up_to_now(driver, events) == DOWN + UP + ["down 1", "up 1"]
    assert presses_sent(driver) == [{"type": "pressDown", "page": 0, "index": 2}, {"type": "pressUp", "page": 0, "index": 2}]
    assert "held" not in key(driver, 0, 2).get_attribute("class")
    assert driver.execute_script("return document.querySelector('.dots [aria-selected=true]')"
                                 " === document.querySelector('.dots button')"), "no page turned"


def test_the_page_hidden_while_a_key_is_held_lets_it_go(host, browsers, events):
    browser = sized(browsers, PHONE)
    driver = browser.driver
    pair_named(browser, host, next(NAMES))
    clear_deck(driver)
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 3, button: arguments[0]})", TALK)
    wait(driver, lambda d: "hold-key" in key(d, 0, 3).get_attribute("class"), what="the hold key")
    record_presses(driver)
    finger = Finger(driver, touch=True)
    finger.down(key(driver, 0, 3))
    eventually(lambda: events()[:3] == DOWN, what=f"the chord down ({events()})")
    # The page goes to the background (another app, the screen locked) with the finger still down.
    driver.execute_script("""
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
        document.dispatchEvent(new Event('visibilitychange'));""")
    eventually(lambda: "up Control_L" in events(), what=f"the chord up ({events()})")
    finger.up()  # the lift that follows sends nothing more
    assert keys_seen_up_to_now(driver, events) == DOWN + UP + ["down 1", "up 1"]
    assert [p["type"] for p in presses_sent(driver)] == ["pressDown", "pressUp"]


# The editor in WebKitGTK (the engine of iPad Safari).
WEBKIT = pytest.mark.skipif(
    not (shutil.which("WebKitWebDriver") and os.path.exists("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")),
    reason="webkit2gtk-driver comes from scripts/bootstrap test")


@WEBKIT
@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
def test_webkit_editor_saves_hold_and_edit_mode_opens_it(host, output):
    from test_screen_webkit import WebKit
    from pages import pair

    browser = WebKit()
    driver = browser.driver
    try:
        pair(browser, host)
        clear_deck(driver)
        make_hold_key(host, driver, 5, output, "webkit")
        record_presses(driver)
        long_press(driver, key(driver, 0, 5))
        wait(driver, lambda d: len(presses_sent(d)) == 2, what="the hold's pressDown and pressUp")
        assert [p["type"] for p in presses_sent(driver)] == ["pressDown", "pressUp"]
        assert not sheet_open(driver), "a long press on a hold key opens no editor"
        edit = driver.find_element(By.ID, "edit-mode")
        tap(driver, edit)
        wait(driver, lambda d: edit.get_attribute("aria-pressed") == "true", what="edit mode on")
        tap(driver, key(driver, 0, 5))
        wait(driver, sheet_open, what="the editor in edit mode")
        assert driver.find_element(By.ID, "edit-hold").is_selected()
        assert driver.find_element(By.ID, "edit-chord").text == "Ctrl+Shift+M"
        driver.find_element(By.ID, "edit-cancel").click()
        tap(driver, edit)
        wait(driver, lambda d: edit.get_attribute("aria-pressed") == "false", what="edit mode off")
        assert len(presses_sent(driver)) == 2, "nothing pressed in edit mode"
    finally:
        driver.quit()
