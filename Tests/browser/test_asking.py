"""Asking on the computer, as a user of a device that may not view sees it (headless Chromium against the real
host, with a test notification server on a private session bus): the refusal offers "Ask the computer", the tab
says "Asked the computer…" while the question is open, Cancel withdraws it, and "Allow once" pressed on the
computer starts the view. Screenshots at iPad and phone sizes in test-output/browser/."""

import pathlib
import sys

from selenium.webdriver.common.by import By

from conftest import OUTPUT
from pages import wait
from viewer import emulate_size, open_screen_tab, viewer_state, wait_viewer

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from askdesk import AskingDesktop  # noqa: E402
from pages import open_app, wait_layout, wait_state  # noqa: E402


def pair(browser, host, name):
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


def message(driver):
    return driver.find_element(By.CSS_SELECTOR, ".screen-message").text


def button(driver, label):
    return next(b for b in driver.find_elements(By.CSS_SELECTOR, ".screen-message button") if b.text == label)


def test_ask_the_computer_waits_for_the_answer_and_allow_once_starts_the_view(tmp_path, browsers):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    desk = AskingDesktop(tmp_path, ask_seconds="30")
    try:
        for size, (width, height) in {"ipad": (1180, 820), "phone": (390, 844)}.items():
            browser = browsers()
            driver = browser.driver
            emulate_size(driver, width, height)
            pair(browser, desk.host, f"Asking {size}")
            open_screen_tab(driver)
            wait_viewer(driver, "denied")
            assert "Ask the computer, or on the computer run:" in message(driver)
            driver.save_screenshot(str(OUTPUT / f"asking-refused-{size}.png"))

            desk.answer("none")
            asked = len(desk.questions())
            button(driver, "Ask the computer").click()
            wait_viewer(driver, "asking")
            wait(driver, lambda d: len(desk.questions()) == asked + 1, what="the question on the computer")
            assert message(driver).startswith("Asked the computer…")
            driver.save_screenshot(str(OUTPUT / f"asking-waiting-{size}.png"))
            question = desk.questions()[-1]
            button(driver, "Cancel").click()
            wait_viewer(driver, "denied")
            wait(driver, lambda d: question["id"] in desk.closed(), what="the question withdrawn")
            if size == "phone":
                break  # the answer's path is the same at every size

            desk.answer("once")
            button(driver, "Ask the computer").click()
            wait(driver, lambda d: viewer_state(d) in ("choosing", "starting", "viewing"), 20, "the view after Allow once")
            if viewer_state(driver) == "choosing":
                driver.find_element(By.CSS_SELECTOR, ".display-card").click()
            wait_viewer(driver, "viewing")
            driver.execute_script("window.touchdeckViewer?.shown(false)")
    finally:
        desk.stop()
