"""The web client in a real browser against the real daemon (issue 6)."""

import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from pages import (choose_kind, eventually, fill, key, key_label, long_press, open_app, pair, save, state, tap,
                   wait, wait_state)


def test_pairing_survives_reload_and_revoke_sends_back_to_pairing(host, browsers, output):
    browser = browsers()
    pair(browser, host, screenshot=output / "pair-sheet.png")
    driver = browser.driver
    assert "Connected to" in driver.find_element(By.ID, "status-text").text
    driver.refresh()
    wait_state(driver, "ready")
    assert not driver.find_element(By.ID, "pair-sheet").is_displayed()
    device_id = driver.execute_script("return localStorage.getItem('touchdeck.deviceId')")
    host.cli("devices", "revoke", device_id)
    wait_state(driver, "needPin")
    assert "no longer paired" in driver.find_element(By.ID, "pair-error").text
    assert driver.execute_script("return localStorage.getItem('touchdeck.secret')") is None


def test_command_button_added_pressed_and_renamed_everywhere(host, browsers, output):
    first, second = browsers(), browsers()
    pair(first, host)
    pair(second, host)
    driver = first.driver
    marker = host.home / "pressed.txt"
    tap(driver, key(driver, 0, 0))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
    choose_kind(driver, "command")
    fill(driver, "edit-label", "Touch file")
    fill(driver, "edit-command", f"echo pressed > {marker}")
    driver.save_screenshot(str(output / "edit-sheet.png"))
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 0) == "Touch file", what="the new button from the host")
    wait(second.driver, lambda d: key_label(d, 0, 0) == "Touch file", what="the new button on the second device")

    tap(driver, key(driver, 0, 0))
    wait(driver, lambda d: "glow" in key(d, 0, 0).get_attribute("class"), what="the result glow")
    eventually(lambda: marker.exists() and marker.read_text().strip() == "pressed", what="the command's file")

    long_press(driver, key(driver, 0, 0))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the edit sheet")
    assert driver.find_element(By.ID, "edit-command").get_attribute("value").startswith("echo pressed")
    fill(driver, "edit-label", "Renamed")
    save(driver)
    wait(second.driver, lambda d: key_label(d, 0, 0) == "Renamed", what="the renamed button on the second device")


def test_app_picked_by_hangul_initials(host, browsers, output):
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    tap(driver, key(driver, 0, 5))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
    choose_kind(driver, "app")
    driver.find_element(By.ID, "pick-app").click()
    search = driver.find_element(By.ID, "app-search")
    wait(driver, lambda d: search.is_displayed(), what="the picker")
    assert driver.switch_to.active_element != search, "the search field must not take focus on open"
    search.send_keys("ㄱㅅㄱ")  # the initials of 계산기 (seed rule: initials only, no spaces)
    wait(driver, lambda d: d.find_element(By.ID, "app-count").text == "1 app", what="one result")
    # Read in one script call: a catalog arriving meanwhile re-renders the rows.
    row = driver.execute_script(
        "const r = document.querySelector('.app-row'); return [r.textContent, r.querySelector('mark')?.textContent]")
    driver.save_screenshot(str(output / "app-picker.png"))
    assert "테스트 계산기" in row[0]
    assert row[1] == "계산기", "the matched initials are highlighted"
    search.send_keys("\n")
    wait(driver, lambda d: not d.find_element(By.ID, "app-picker").is_displayed(), what="the picker to close")
    assert driver.find_element(By.ID, "edit-label").get_attribute("value") == "테스트 계산기"
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 5) == "테스트 계산기", what="the app button")
    tap(driver, key(driver, 0, 5))
    eventually(lambda: (host.home / "launched.txt").exists(), what="the app to launch")


def pactl(*args):
    return subprocess.run(["pactl", *args], capture_output=True, text=True, check=True).stdout


def sink_percent():
    out = pactl("get-sink-volume", "@DEFAULT_SINK@")
    return int(out.split("/")[1].strip().rstrip("%"))


def gauge_percent(driver):
    return int(driver.find_element(By.ID, "gauge").get_attribute("aria-valuenow"))


def test_volume_gauge_follows_pactl_and_drives_it(host, browsers):
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    pactl("set-sink-volume", "@DEFAULT_SINK@", "30%")
    wait(driver, lambda d: gauge_percent(d) == 30, what="the gauge at 30")
    track = driver.find_element(By.CSS_SELECTOR, ".gauge-track")
    height = track.size["height"]
    # Drag from the bottom to 80 % of the track's height.
    (ActionChains(driver).move_to_element_with_offset(track, 0, height // 2 - 2).click_and_hold()
     .move_by_offset(0, -int(height * 0.4)).pause(0.1).move_by_offset(0, -int(height * 0.4)).release().perform())
    eventually(lambda: abs(sink_percent() - 80) <= 3, what=f"pactl near 80 % (now {sink_percent()})")


def test_keypad_digits_reach_an_x_client_under_another_layout(host, browsers, tmp_path, output):
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    subprocess.run(["setxkbmap", "de"], check=True)
    typed = tmp_path / "typed.txt"
    recorder = subprocess.Popen(["python3", str(host_support() / "xkeys.py"), str(typed)])
    try:
        eventually(typed.exists, what="the X client window")
        driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="keypad"]').click()
        driver.save_screenshot(str(output / "keypad.png"))
        for k in ["1", "2", "+", "3", "enter"]:
            tap(driver, driver.find_element(By.CSS_SELECTOR, f'.keypad [data-key="{k}"]'))
        eventually(lambda: typed.read_text() == "12+3<Return>", what=f"typed keys (got {typed.read_text()!r})")
    finally:
        recorder.terminate()
        subprocess.run(["setxkbmap", "us"], check=False)


def host_support():
    from daemon import ROOT
    return ROOT / "Tests" / "support"


def test_stopped_daemon_dims_the_deck_and_it_comes_back(host, browsers):
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    host.stop()
    wait_state(driver, "waiting")
    app = driver.find_element(By.ID, "app")
    assert "disconnected" in app.get_attribute("class")
    opacity = driver.execute_script("return getComputedStyle(document.querySelector('.views')).opacity")
    assert float(opacity) == 0.55
    assert driver.execute_script("return getComputedStyle(document.querySelector('.views')).pointerEvents") == "none"
    host.start()
    wait_state(driver, "ready", timeout=30)
    assert "connected" in app.get_attribute("class").split()
    # The browser itself reports the refused connections while the host was down; those are not ours.
    browser.console = [e for e in browser.driver.get_log("browser")
                       if "ERR_CONNECTION_REFUSED" not in e["message"] and "WebSocket connection" not in e["message"]]


def test_screenshots_landscape_and_portrait(host, browsers, output):
    for name, size in {"deck-landscape": (1194, 834), "deck-portrait": (390, 844)}.items():
        browser = browsers(width=size[0], height=size[1])
        pair(browser, host)
        driver = browser.driver
        driver.set_window_size(*size)
        scroll = driver.execute_script("return [document.documentElement.scrollHeight, innerHeight]")
        assert scroll[0] <= scroll[1], f"{name}: the page scrolls ({scroll})"
        driver.save_screenshot(str(output / f"{name}.png"))
        assert state(driver) == "ready"


def test_picker_renders_only_the_rows_in_view(host, browsers):
    from conftest import MANY_APPS
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    tap(driver, key(driver, 0, 7))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
    driver.find_element(By.ID, "pick-app").click()
    count = driver.find_element(By.ID, "app-count")
    wait(driver, lambda d: count.text.endswith(" apps") and int(count.text.split()[0]) > MANY_APPS, what="the apps")
    total = int(count.text.split()[0])
    rows = driver.find_elements(By.CSS_SELECTOR, ".app-row")
    assert 0 < len(rows) < 40 < total, f"{len(rows)} rows rendered for {total} apps"
    driver.execute_script("document.querySelector('#app-list').scrollTop = 52 * 150")
    wait(driver, lambda d: any("Filler" in r.text for r in d.find_elements(By.CSS_SELECTOR, ".app-row")), what="rows after a scroll")
    tops = driver.execute_script("return [...document.querySelectorAll('.app-row')].map(r => parseInt(r.style.top))")
    assert min(tops) > 52 * 100, "scrolling renders the rows now in view, not the first ones"
    driver.find_element(By.ID, "picker-cancel").click()


def test_pages_swipe_and_every_key_has_a_name_and_an_edit_action(host, browsers):
    browser = browsers()
    pair(browser, host)
    driver = browser.driver
    for index in range(12):
        driver.execute_script("window.touchdeck.send(arguments[0])", {
            "type": "setButton", "page": 0, "index": index,
            "button": {"label": f"Key {index}", "kind": "command", "command": "true"}})
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".dots button")) == 2, what="a second page and its dot")
    wait(driver, lambda d: key_label(d, 0, 11) == "Key 11", what="the full first page")
    # Read in one script call: a layout arriving meanwhile re-renders the keys.
    names = driver.execute_script("return [...document.querySelectorAll('.key')].map(k => k.getAttribute('aria-label'))")
    assert names and all(names), f"every key has an accessible name: {names}"
    assert key_label(driver, 1, 0) == "Empty slot"
    edit = key(driver, 0, 3).find_element(By.CSS_SELECTOR, ".edit-action")
    assert edit.get_attribute("aria-label") == "Edit Key 3"
    driver.execute_script("arguments[0].click()", edit)
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the edit sheet from the Edit action")
    assert driver.find_element(By.ID, "edit-label").get_attribute("value") == "Key 3"
    driver.find_element(By.ID, "edit-cancel").click()

    pages = driver.find_element(By.ID, "pages")
    (ActionChains(driver).move_to_element_with_offset(pages, 200, 0).click_and_hold().move_by_offset(-120, 0)
     .move_by_offset(-120, 0).release().perform())
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".dots button")[1].get_attribute("aria-selected") == "true",
         what="the second page after a swipe")
    for index in range(12):
        driver.execute_script("window.touchdeck.send(arguments[0])", {"type": "clearButton", "page": 0, "index": index})
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".dots button")) == 1, what="back to one page")
