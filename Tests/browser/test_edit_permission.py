"""A device that may not change the deck (README "What each device may do", PROTOCOL "Who may edit"): with
`touchdeck devices allow-edit NAME off`, long-press and empty slots say how to allow it instead of opening the edit
sheet, and the "+" of empty slots goes; `on` again and the sheet opens, without a reload. An edit refused after it
was sent closes the sheet and leaves the host's layout; the answer is remembered across a reload. In headless
Chromium against the real daemon, at iPad and phone sizes."""

from selenium.webdriver.common.by import By

from pages import fill, key, long_press, open_app, save, tap, wait, wait_layout, wait_state
from viewer import emulate_size

NAMES = (f"Edit lock {n}" for n in range(1000))
IPAD = (1194, 834)
PHONE = (390, 844)


def sized(browsers, size):
    browser = browsers(width=max(size[0], 500), height=size[1])
    emulate_size(browser.driver, *size)
    return browser


def pair_named(browser, host, name):
    driver = browser.driver
    open_app(browser, host)
    wait_state(driver, "needPin")
    field = driver.find_element(By.ID, "device-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "pin").send_keys(host.pin())
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait_state(driver, "ready")
    wait_layout(driver)


def set_button(driver, index, button):
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
                          index, button)
    wait(driver, lambda d: key(d, 0, index).get_attribute("aria-label") == button["label"], what="the new button")


def is_open(driver, dialog_id):
    return driver.execute_script("return document.getElementById(arguments[0]).open", dialog_id)


def plus_shows(driver):
    """Whether the first empty slot shows its "+" (what invites adding a key)."""
    return driver.execute_script("""
        const plus = document.querySelector('.key.empty .plus');
        return getComputedStyle(plus).visibility === 'visible' && plus.getBoundingClientRect().width > 0;""")


def notice_text(driver):
    return driver.find_element(By.ID, "edit-refused").text


def dismiss_notice(driver):
    driver.find_element(By.ID, "edit-refused-ok").click()
    wait(driver, lambda d: not is_open(d, "edit-refused"), what="the notice to close")


def test_allow_edit_off_explains_instead_of_editing_and_on_edits_again(host, browsers, output):
    for size in (IPAD, PHONE):
        tag = f"{size[0]}x{size[1]}"
        browser = sized(browsers, size)
        driver = browser.driver
        name = next(NAMES)
        pair_named(browser, host, name)
        set_button(driver, 0, {"label": "Mail", "kind": "command", "command": "true"})
        assert plus_shows(driver), "a device that may edit sees the + on empty slots"

        host.cli("devices", "allow-edit", name, "off")
        wait(driver, lambda d: not plus_shows(d), what="the + to go when editing is turned off")
        driver.save_screenshot(str(output / f"edit-off-deck-{tag}.png"))
        long_press(driver, key(driver, 0, 0))
        wait(driver, lambda d: is_open(d, "edit-refused"), what="the notice after a long-press")
        assert not is_open(driver, "edit-sheet"), "the edit sheet does not open"
        text = notice_text(driver)
        assert "This device can only press keys" in text, text
        assert f'touchdeck devices allow-edit "{name}" on' in text, text
        driver.save_screenshot(str(output / f"edit-off-notice-{tag}.png"))
        dismiss_notice(driver)
        tap(driver, key(driver, 0, 1))  # an empty slot: no "add a key" either
        wait(driver, lambda d: is_open(d, "edit-refused"), what="the notice after a tap on an empty slot")
        assert not is_open(driver, "edit-sheet")
        dismiss_notice(driver)
        tap(driver, key(driver, 0, 0))  # pressing still works
        wait(driver, lambda d: "glow" in key(d, 0, 0).get_attribute("class"), what="the press to be answered")

        host.cli("devices", "allow-edit", name, "on")
        wait(driver, lambda d: plus_shows(d), what="the + back when editing is turned on")
        long_press(driver, key(driver, 0, 0))
        wait(driver, lambda d: is_open(d, "edit-sheet"), what="the edit sheet, editing allowed again")
        assert driver.find_element(By.ID, "edit-label").get_attribute("value") == "Mail"
        driver.save_screenshot(str(output / f"edit-on-sheet-{tag}.png"))

        # Turned off while the sheet is open: it closes and says why.
        host.cli("devices", "allow-edit", name, "off")
        wait(driver, lambda d: is_open(d, "edit-refused") and not is_open(d, "edit-sheet"),
             what="the sheet to close with the notice")
        dismiss_notice(driver)


def test_an_edit_refused_after_it_was_sent_closes_the_sheet_and_is_remembered(host, browsers, output):
    browser = sized(browsers, PHONE)
    driver = browser.driver
    name = next(NAMES)
    pair_named(browser, host, name)
    set_button(driver, 0, {"label": "Keep", "kind": "command", "command": "true"})
    # Turned off while the page is closed: the device does not know (the host does not say at authorization).
    driver.get("about:blank")
    host.cli("devices", "allow-edit", name, "off")
    open_app(browser, host)
    wait_state(driver, "ready")
    wait_layout(driver)
    assert plus_shows(driver), "not told yet: counted as allowed"
    long_press(driver, key(driver, 0, 0))
    wait(driver, lambda d: is_open(d, "edit-sheet"), what="the edit sheet")
    fill(driver, "edit-label", "Changed")
    save(driver)
    wait(driver, lambda d: is_open(d, "edit-refused"), what="the host's refusal as the notice")
    assert not is_open(driver, "edit-sheet")
    assert f'touchdeck devices allow-edit "{name}" on' in notice_text(driver)
    assert key(driver, 0, 0).get_attribute("aria-label") == "Keep", "the key shows the host's layout"
    assert not driver.find_element(By.ID, "toast").is_displayed(), "one notice, not a toast as well"
    driver.save_screenshot(str(output / "edit-refused-after-save-390x844.png"))
    dismiss_notice(driver)
    assert not plus_shows(driver)

    driver.refresh()
    wait_state(driver, "ready")
    wait_layout(driver)
    assert not plus_shows(driver), "remembered across a reload"
    long_press(driver, key(driver, 0, 0))
    wait(driver, lambda d: is_open(d, "edit-refused"), what="the notice after a reload")
    assert not is_open(driver, "edit-sheet")
