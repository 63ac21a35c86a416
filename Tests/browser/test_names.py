"""The PIN sheet asks for the device's name, prefilled with a guess; the host keeps names unique (issue 9 §5)."""

import re

from selenium.webdriver.common.by import By

from pages import open_app, wait, wait_layout, wait_state


def listed_names(host):
    rows = host.cli("devices").strip().splitlines()
    table = rows[1:rows.index("")] if "" in rows else rows[1:]
    return sorted(re.split(r"\s{2,}", row)[0] for row in table)


def name_field(browser, host):
    driver = browser.driver
    open_app(browser, host)
    wait_state(driver, "needPin")
    field = driver.find_element(By.ID, "device-name")
    wait(driver, lambda d: field.is_displayed(), what="the name field on the PIN sheet")
    return field


def submit_pin(browser, host):
    driver = browser.driver
    driver.find_element(By.ID, "pin").send_keys(host.pin())
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait_state(driver, "ready")
    wait_layout(driver)


def test_the_name_typed_on_the_pin_sheet_reaches_the_host_and_guesses_are_numbered(host, browsers, output):
    typed, guessed, again = browsers(), browsers(), browsers()
    field = name_field(typed, host)
    # Headless Chromium on Linux: the guess names the browser and the system, not "Browser (Linux x86_64)".
    assert field.get_attribute("value") == "Chrome on Linux"
    assert typed.driver.find_element(By.CSS_SELECTOR, "label[for=device-name]").text.startswith("Name of this device")
    typed.driver.save_screenshot(str(output / "pair-sheet-name.png"))
    field.clear()
    field.send_keys("  Desk\u202e tablet ")
    submit_pin(typed, host)
    assert typed.driver.execute_script("return localStorage.getItem('touchdeck.deviceName')") == "Desk tablet"

    for browser in (guessed, again):
        assert name_field(browser, host).get_attribute("value") == "Chrome on Linux"
        submit_pin(browser, host)
    assert listed_names(host) == ["Chrome on Linux", "Chrome on Linux 2", "Desk tablet"]

    # The name is remembered: once its pairing is revoked, the reloaded sheet offers it again.
    device_id = typed.driver.execute_script("return localStorage.getItem('touchdeck.deviceId')")
    host.cli("devices", "revoke", device_id)
    wait_state(typed.driver, "needPin")
    typed.driver.refresh()
    assert name_field(typed, host).get_attribute("value") == "Desk tablet"
