"""Live looks in the web client (issue 23, PROTOCOL §6 "Live looks"): a key whose state command prints a label a
second shows each label in turn, then a badge, the on look and a value bar, then a small error mark with the reason
as its title once a line is not JSON; each update lands on the same keycap (no redraw of the deck). Its edit sheet
shows the state command and the reason, and saving the key (a new label) keeps the state command in config.json.
Headless Chromium against the real daemon at iPad and phone sizes; screenshots test-output/browser/live-looks-*.png."""

import json

import pytest
from selenium.webdriver.common.by import By

from pages import fill, key, long_press, pair, save, wait
from test_key_kinds import sized

SIZES = pytest.mark.parametrize("size,index", [((1194, 834), 0), ((390, 844), 1)], ids=["ipad", "phone"])
# Three labels a second apart, then a badge, on and a value, then a line that is not JSON; then it stays running.
STATE = ('for i in 1 2 3; do echo "{\\"label\\":\\"n$i\\"}"; sleep 1; done; '
         'echo \'{"badge":"7","state":"on","value":0.6}\'; sleep 1; echo \'{oops\'; sleep 60')
LOOK = 30  # seconds: generous, the command needs about five


def face_label(driver, index):
    return driver.execute_script(
        "const k = document.querySelector(`.key[data-page='0'][data-index='${arguments[0]}']`);"
        "return k && k.querySelector('.label')?.textContent", index)


def same_keycap(driver, index):
    """Whether the keycap marked by `mark_keycap` is still the one in the deck (updates landed in place)."""
    return driver.execute_script(
        "return document.querySelector(`.key[data-page='0'][data-index='${arguments[0]}']`)?._liveTest === true", index)


def stored_button(host, index):
    path = host.config_dir / "config.json"
    if not path.exists():
        return None
    pages = host.saved_layout()["pages"]
    return pages[0][index]


@SIZES
def test_a_state_command_drives_its_key_and_saving_the_key_keeps_it(host, browsers, output, size, index):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    button = {"label": f"Live {index}", "kind": "command", "command": "true", "stateCommand": {"command": STATE}}
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
                          index, button)
    wait(driver, lambda d: face_label(d, index) == "n1", LOOK, "the first label from the state command")
    driver.execute_script(
        "document.querySelector(`.key[data-page='0'][data-index='${arguments[0]}']`)._liveTest = true;"
        "window.layoutsAtN1 = document.querySelector('#pages').dataset.layouts", index)
    for label in ("n2", "n3"):
        wait(driver, lambda d: face_label(d, index) == label, LOOK, f"the label {label}")
    wait(driver, lambda d: key(d, 0, index).find_elements(By.CSS_SELECTOR, ".live-badge"), LOOK, "the badge")
    cap = key(driver, 0, index)
    assert cap.find_element(By.CSS_SELECTOR, ".live-badge").text == "7"
    assert cap.get_attribute("data-live") == "on"
    assert driver.execute_script("return arguments[0].querySelector('.live-value').style.getPropertyValue('--value')",
                                 cap) == "0.6"
    assert face_label(driver, index) == "n3", "fields a line leaves out stay as they were"
    driver.save_screenshot(str(output / f"live-looks-badge-{size[0]}x{size[1]}.png"))
    wait(driver, lambda d: key(d, 0, index).find_elements(By.CSS_SELECTOR, ".live-error"), LOOK, "the error mark")
    cap = key(driver, 0, index)
    assert "invalid JSON" in cap.get_attribute("title"), cap.get_attribute("title")
    assert "invalid JSON" in cap.get_attribute("aria-description")
    assert cap.find_element(By.CSS_SELECTOR, ".live-badge").text == "7", "earlier lines stand"
    assert same_keycap(driver, index), "every update landed on the same keycap"
    assert driver.execute_script("return document.querySelector('#pages').dataset.layouts === window.layoutsAtN1"), \
        "no layout was drawn for the updates"
    driver.save_screenshot(str(output / f"live-looks-error-{size[0]}x{size[1]}.png"))

    # The edit sheet shows the state command and why it failed; a new label saved keeps the state command.
    long_press(driver, cap)
    sheet = driver.find_element(By.ID, "edit-sheet")
    wait(driver, lambda d: sheet.is_displayed(), what="the edit sheet")
    assert driver.find_element(By.ID, "edit-state-command").get_attribute("value") == STATE
    assert driver.find_element(By.ID, "edit-state-every").get_attribute("value") == ""
    reason = driver.find_element(By.ID, "edit-state-error")
    assert reason.is_displayed() and "invalid JSON" in reason.text, reason.text
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", reason)
    driver.save_screenshot(str(output / f"live-looks-sheet-{size[0]}x{size[1]}.png"))
    fill(driver, "edit-label", f"Edited {index}")
    save(driver)
    wait(driver, lambda d: (stored_button(host, index) or {}).get("label") == f"Edited {index}", what="the save")
    saved = stored_button(host, index)
    assert saved["stateCommand"] == {"command": STATE}, json.dumps(saved)
    assert saved["command"] == "true"
    # The changed key's command starts again: its labels come again on the key drawn anew.
    wait(driver, lambda d: face_label(d, index) in ("n1", "n2", "n3"), LOOK, "the state command running again")
