"""The deck's protocol-3 key kinds in the editor (PROTOCOL §6 "Layout", issue 22): a hotkey chosen from the lists
and one recorded from a hardware key press (Ctrl+Shift+T through WebDriver's keyboard actions), a text key with
Return after it, an open key whose target is checked as the host checks it, a refusal of the host shown in the
sheet, and a key of a kind this app does not know pressed but not edited. Each saved key is read back from the
host's config.json exactly. Headless Chromium against the real daemon at iPad and phone sizes; pressing the
recorded hotkey lands as <Ctrl+Shift+T> in an X client that records key presses (Tests/support/xtext.py)."""

import pathlib
import subprocess
import sys

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from pages import choose_kind, eventually, fill, key, key_label, long_press, pair, save, tap, wait
from viewer import emulate_size

XTEXT = pathlib.Path(__file__).resolve().parents[1] / "support" / "xtext.py"
IPAD = (1194, 834)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [IPAD, PHONE], ids=["ipad", "phone"])


def sized(browsers, size):
    browser = browsers(width=max(size[0], 500), height=size[1])
    emulate_size(browser.driver, *size)
    return browser


def stored(host, page, index):
    """The button the host saved in its config dir at this slot (None for an empty one)."""
    path = host.config_dir / "config.json"
    if not path.exists():  # a host that has saved nothing yet
        return None
    pages = host.saved_layout()["pages"]
    return pages[page][index] if page < len(pages) else None


def wait_stored(host, driver, page, index, button):
    """The host stored exactly this button, and the page drew the layout that brings it (so a key found next is
    not replaced under the test)."""
    eventually(lambda: stored(host, page, index) == button, what=f"the host to store {button}")
    wait(driver, lambda d: key_label(d, page, index) == button["label"], what=f"the {button['label']} key on the deck")


def clear_deck(driver):
    """Every slot of the first page empty: each size starts on the same deck."""
    wanted = driver.execute_script("""
        const full = [...document.querySelectorAll('.key[data-page="0"]:not(.empty)')].map((k) => Number(k.dataset.index));
        for (const index of full) window.touchdeck.send({type: 'clearButton', page: 0, index});
        return Number(document.querySelector('#pages').dataset.layouts) + full.length;""")
    # One layout per clear: once the last has been drawn, no key found later is replaced under the test.
    wait(driver, lambda d: d.execute_script("return Number(document.querySelector('#pages').dataset.layouts)") >= wanted,
         what="an empty first page")


def add_sheet(driver, index, kind):
    tap(driver, key(driver, 0, index))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
    choose_kind(driver, kind)
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f".kind-{kind}").is_displayed(), what=f"the {kind} fields")


def sheet_open(driver):
    return driver.execute_script("return document.getElementById('edit-sheet').open")


def toggle(driver, modifier):
    driver.find_element(By.CSS_SELECTOR, f'input[name="modifier"][value="{modifier}"]').find_element(By.XPATH, "..").click()


def chord_text(driver):
    return driver.find_element(By.ID, "edit-chord").text


def shot(driver, output, name, size):
    path = output / f"key-kinds-{name}-{size[0]}x{size[1]}.png"
    driver.save_screenshot(str(path))
    return path


def record_ctrl_shift_t(driver):
    driver.find_element(By.ID, "edit-record-chord").click()
    wait(driver, lambda d: "Press the keys" in chord_text(d), what="the sheet to listen for a chord")
    # A lone Ctrl, then Shift, are no chord yet: the T completes it.
    (ActionChains(driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("t")
     .key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform())
    wait(driver, lambda d: chord_text(d) == "Ctrl+Shift+T", what="the recorded chord")


@SIZES
def test_a_hotkey_from_the_lists_is_named_after_its_chord(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 0, "hotkey")
    toggle(driver, "super")
    Select(driver.find_element(By.ID, "edit-hotkey-key")).select_by_visible_text("F13")
    assert chord_text(driver) == "Super+F13"
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "Super+F13"
    shot(driver, output, "hotkey-lists", size)
    save(driver)
    wait_stored(host, driver, 0, 0, {"label": "Super+F13", "kind": "hotkey", "key": "f13", "modifiers": ["super"]})
    wait(driver, lambda d: key_label(d, 0, 0) == "Super+F13", what="the hotkey key on the deck")

    # A media key from the list, and a typed letter with Ctrl: both as the host names them.
    add_sheet(driver, 1, "hotkey")
    Select(driver.find_element(By.ID, "edit-hotkey-key")).select_by_visible_text("Play/Pause")
    save(driver)
    wait_stored(host, driver, 0, 1, {"label": "Play/Pause", "kind": "hotkey", "key": "playPause"})
    add_sheet(driver, 2, "hotkey")
    toggle(driver, "ctrl")
    fill(driver, "edit-hotkey-char", "Z")
    assert chord_text(driver) == "Ctrl+Z"
    fill(driver, "edit-label", "Undo")
    save(driver)
    wait_stored(host, driver, 0, 2, {"label": "Undo", "kind": "hotkey", "key": "z", "modifiers": ["ctrl"]})
    wait(driver, lambda d: "Ctrl+Z" in key(d, 0, 2).text, what="the chord under the label")
    shot(driver, output, "hotkey-deck", size)

    # Opened again, the sheet shows the stored chord.
    long_press(driver, key(driver, 0, 2))
    wait(driver, sheet_open, what="the edit sheet")
    assert chord_text(driver) == "Ctrl+Z"
    driver.find_element(By.ID, "edit-cancel").click()


@SIZES
def test_a_chord_recorded_from_a_hardware_key_press_is_stored_and_pressed(host, browsers, output, size, tmp_path):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 4, "hotkey")
    driver.find_element(By.ID, "edit-record-chord").click()
    wait(driver, lambda d: "Press the keys" in chord_text(d), what="the sheet to listen for a chord")
    shot(driver, output, "hotkey-recording", size)
    driver.find_element(By.ID, "edit-record-chord").click()  # stopped, then recorded for real
    record_ctrl_shift_t(driver)
    assert sheet_open(driver), "the keys went to the recorder, not to the sheet"
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "Ctrl+Shift+T"
    shot(driver, output, "hotkey-recorded", size)
    save(driver)
    button = {"label": "Ctrl+Shift+T", "kind": "hotkey", "key": "t", "modifiers": ["ctrl", "shift"]}
    wait_stored(host, driver, 0, 4, button)

    # Pressed: the chord arrives in an X client, as the desktop's own keyboard would send it.
    out = tmp_path / "field.txt"
    recorder = subprocess.Popen([sys.executable, str(XTEXT), str(out)])
    try:
        eventually(out.exists, what="the X text field")
        tap(driver, key(driver, 0, 4))
        wait(driver, lambda d: "glow" in key(d, 0, 4).get_attribute("class"), what="the press to be answered")
        eventually(lambda: out.read_text() == "<Ctrl+Shift+T>", what=f"the chord in the X client ({out.read_text()!r})")
    finally:
        recorder.terminate()
        recorder.wait(10)


@SIZES
def test_a_text_key_counts_its_characters_and_presses_return_after(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 3, "text")
    area = driver.find_element(By.ID, "edit-text")
    area.send_keys("Kind regards,")
    area.send_keys(Keys.SHIFT, Keys.ENTER)
    area.send_keys("Ann 👋🏽")
    assert driver.find_element(By.ID, "edit-text-count").text == "19 / 4096"  # the waving hand and its skin tone are one character
    driver.find_element(By.CSS_SELECTOR, "label.switch").click()
    assert driver.find_element(By.ID, "edit-enter").is_selected()
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "Kind regards,"
    shot(driver, output, "text", size)
    save(driver)
    wait_stored(host, driver, 0, 3, {"label": "Kind regards,", "kind": "text", "text": "Kind regards,\nAnn 👋🏽", "enter": True})

    # Over 4096 characters: said in the sheet, nothing sent.
    add_sheet(driver, 5, "text")
    driver.execute_script("""const a = document.getElementById('edit-text'); a.value = 'é'.repeat(4097);
        a.dispatchEvent(new Event('input', {bubbles: true}));""")
    assert driver.find_element(By.ID, "edit-text-count").text == "4097 / 4096"
    save(driver)
    assert "at most 4096 characters" in driver.find_element(By.ID, "edit-error").text
    assert sheet_open(driver)
    driver.find_element(By.ID, "edit-cancel").click()
    assert stored(host, 0, 5) is None


@SIZES
def test_an_open_key_takes_what_the_host_opens_and_shows_the_hosts_refusal(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 6, "open")
    fill(driver, "edit-target", "javascript:alert(1)")
    save(driver)
    assert "http://, https:// or mailto:" in driver.find_element(By.ID, "edit-error").text
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "", "no name from a refused target"
    assert sheet_open(driver)
    shot(driver, output, "open-refused-here", size)
    fill(driver, "edit-target", "https://www.example.com/docs")
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "example.com"
    save(driver)
    wait_stored(host, driver, 0, 6, {"label": "example.com", "kind": "open", "target": "https://www.example.com/docs"})
    wait(driver, lambda d: key_label(d, 0, 6) == "example.com", what="the open key")

    # What only the host refuses (a label over 64 characters, past the field's own limit) comes back to the sheet
    # with the host's words, and the key is left as it was.
    long_press(driver, key(driver, 0, 6))
    wait(driver, sheet_open, what="the edit sheet")
    driver.execute_script("document.getElementById('edit-label').value = 'x'.repeat(65)")
    fill(driver, "edit-target", "~/Documents")
    save(driver)
    wait(driver, lambda d: sheet_open(d) and d.find_element(By.ID, "edit-error").text, what="the refusal in the sheet")
    assert "64" in driver.find_element(By.ID, "edit-error").text, driver.find_element(By.ID, "edit-error").text
    assert driver.find_element(By.ID, "edit-target").get_attribute("value") == "~/Documents", "the draft is kept"
    assert driver.find_element(By.ID, "toast").get_attribute("hidden"), "shown in the sheet, not as a toast"
    shot(driver, output, "open-refused-by-host", size)
    fill(driver, "edit-label", "Docs")
    save(driver)
    wait_stored(host, driver, 0, 6, {"label": "Docs", "kind": "open", "target": "~/Documents"})


@SIZES
def test_a_kind_this_app_does_not_know_is_pressed_but_not_edited(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 7, "
                          "button: {label: 'Lights', kind: 'command', command: 'true'}})")
    wait(driver, lambda d: key_label(d, 0, 7) == "Lights", what="the key from the host")
    # A later host's kind, as a layout would bring it: the host itself knows slot 7 as the command above.
    driver.execute_script("""
        const pages = [Array(12).fill(null), Array(12).fill(null)];
        pages[0][7] = {label: 'Lights', kind: 'dial', target: 'volume'};
        window.touchdeck.dispatchEvent(new CustomEvent('layout', {detail: {pages}}));""")
    wait(driver, lambda d: "kind-unknown" in key(d, 0, 7).get_attribute("class"), what="the plain key")
    assert key(driver, 0, 7).text == "Lights"
    tap(driver, key(driver, 0, 7))
    wait(driver, lambda d: "glow" in key(d, 0, 7).get_attribute("class"), what="the press to be answered")
    long_press(driver, key(driver, 0, 7))
    toast = driver.find_element(By.ID, "toast")
    wait(driver, lambda d: toast.is_displayed(), what="the notice")
    assert "cannot edit" in toast.text, toast.text
    assert not sheet_open(driver), "the edit sheet does not open for a kind it would damage"
    shot(driver, output, "unknown-kind", size)
