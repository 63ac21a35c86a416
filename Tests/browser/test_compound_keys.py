"""Multi-action and toggle keys made in the editor (PROTOCOL §6 "Layout", issue 22), headless Chromium against the
real daemon at iPad and phone sizes. A multi-action's steps are added, reordered and removed, a delay out of the
host's range is said in the sheet and nothing is sent, the add buttons stop at 16 steps, and the saved key is read
back from the host's config.json exactly. A toggle's two actions and labels are saved; pressing it shows the state
the host keeps (its label and look), and a failed action leaves it as it was."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import fill, key, key_label, long_press, pair, save, tap, wait
from test_key_kinds import SIZES, add_sheet, clear_deck, eventually, sheet_open, shot, sized, stored, wait_stored


def row(driver, number, inside="#edit-steps li"):
    return driver.find_elements(By.CSS_SELECTOR, inside)[number - 1]


def set_row(element, kind, value):
    Select(element.find_element(By.CSS_SELECTOR, "select.held-kind")).select_by_value(kind)
    field = element.find_element(By.CSS_SELECTOR, "input.held-value")
    field.clear()
    field.send_keys(value)


def step_count(driver):
    return len(driver.find_elements(By.CSS_SELECTOR, "#edit-steps li"))


def tool(driver, label):
    driver.find_element(By.CSS_SELECTOR, f'.step-tool[aria-label="{label}"]').click()


@SIZES
def test_a_multi_action_is_made_from_steps_added_reordered_and_removed(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 0, "multi")
    add_key, add_delay = driver.find_element(By.ID, "edit-add-step"), driver.find_element(By.ID, "edit-add-delay")
    add_key.click()
    set_row(row(driver, 1), "hotkey", "Ctrl+Shift+T")
    add_delay.click()
    set_row(row(driver, 2), "delay", "20000")
    add_key.click()
    set_row(row(driver, 3), "text", "ls")
    add_key.click()
    set_row(row(driver, 4), "command", "echo gone")
    tool(driver, "Remove step 4")
    tool(driver, "Move step 3 up")  # the text before the delay
    assert step_count(driver) == 3
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "3 steps"
    shot(driver, output, "multi-steps", size)

    # A delay the host would refuse is said in the sheet; nothing is sent.
    save(driver)
    assert driver.find_element(By.ID, "edit-error").text == "Step 3: a delay is 10 to 10000 ms."
    assert sheet_open(driver) and stored(host, 0, 0) is None
    set_row(row(driver, 3), "delay", "300")
    save(driver)
    wait_stored(host, driver, 0, 0, {"label": "3 steps", "kind": "multi", "steps": [
        {"label": "", "kind": "hotkey", "key": "t", "modifiers": ["ctrl", "shift"]},
        {"label": "", "kind": "text", "text": "ls", "enter": False},
        {"kind": "delay", "ms": 300}]})
    assert "kind-multi" in key(driver, 0, 0).get_attribute("class")
    shot(driver, output, "multi-deck", size)

    # Opened again, the steps are the stored ones; the add buttons stop at the host's 16.
    long_press(driver, key(driver, 0, 0))
    wait(driver, sheet_open, what="the edit sheet")
    assert step_count(driver) == 3
    assert row(driver, 1).find_element(By.CSS_SELECTOR, "input.held-value").get_attribute("value") == "Ctrl+Shift+T"
    for _ in range(13):
        add_delay.click()
    assert step_count(driver) == 16 and not add_delay.is_enabled() and not add_key.is_enabled()
    driver.find_element(By.ID, "edit-cancel").click()


@SIZES
def test_a_toggle_is_made_with_two_actions_and_shows_the_state_the_host_keeps(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 1, "toggle")
    fill(driver, "edit-label", "Mic")
    set_row(driver.find_element(By.CSS_SELECTOR, "#edit-toggle-on .held-row"), "command", "true")
    fill(driver, "edit-on-label", "Mic on")
    set_row(driver.find_element(By.CSS_SELECTOR, "#edit-toggle-off .held-row"), "command", "false")
    fill(driver, "edit-off-label", "Mic off")
    shot(driver, output, "toggle-sheet", size)
    save(driver)
    toggle = {"label": "Mic", "kind": "toggle", "onLabel": "Mic on", "offLabel": "Mic off", "state": "off",
              "on": {"label": "", "kind": "command", "command": "true"},
              "off": {"label": "", "kind": "command", "command": "false"}}
    eventually(lambda: stored(host, 0, 1) == toggle, what="the host to store the toggle")
    wait(driver, lambda d: key_label(d, 0, 1) == "Mic off", what="the toggle, off")
    assert key(driver, 0, 1).get_attribute("data-toggle") == "off"

    # Pressed: `true` worked, the host flips the state and every device draws it.
    tap(driver, key(driver, 0, 1))
    wait(driver, lambda d: key_label(d, 0, 1) == "Mic on", what="the toggle, on")
    assert key(driver, 0, 1).get_attribute("data-toggle") == "on"
    assert stored(host, 0, 1) == {**toggle, "state": "on"}
    shot(driver, output, "toggle-on", size)

    # Pressed again: `false` fails, the key says so and stays on.
    tap(driver, key(driver, 0, 1))
    wait(driver, lambda d: "failed" in key(d, 0, 1).get_attribute("class"), what="the failed press")
    assert key_label(driver, 0, 1) == "Mic on" and stored(host, 0, 1)["state"] == "on"

    # Opened again, the sheet shows both actions and labels.
    long_press(driver, key(driver, 0, 1))
    wait(driver, sheet_open, what="the edit sheet")
    assert driver.find_element(By.ID, "edit-on-label").get_attribute("value") == "Mic on"
    off_value = driver.find_element(By.CSS_SELECTOR, "#edit-toggle-off input.held-value").get_attribute("value")
    assert off_value == "false"
    driver.find_element(By.ID, "edit-cancel").click()
