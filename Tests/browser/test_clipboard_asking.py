"""Asking the computer to paste, as the user of a viewer without the clipboard permission sees it (headless Chromium
against the real host, with a test notification server on a private session bus and the browser's clipboard
permission granted through CDP): Paste's refusal offers "Ask the computer" with the command,
Deny says so and offers to ask again, and Allow once pressed on the computer sets the X clipboard (xclip reads it).
Screenshots at iPad and phone sizes in test-output/browser/."""

import pathlib
import subprocess
import sys

from selenium.webdriver.common.by import By

from pages import wait
from viewer import emulate_size, pair_as_viewer, start_viewing

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from askdesk import AskingDesktop  # noqa: E402


def x_clipboard():
    return subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True, timeout=20).stdout


def test_paste_refused_offers_to_ask_deny_says_so_and_allow_once_pastes(tmp_path, browsers, output):
    desk = AskingDesktop(tmp_path, ask_seconds="30")
    try:
        for size, (width, height) in {"ipad": (1194, 834), "phone": (390, 844)}.items():
            name = f"Paste asking {size}"
            browser = browsers(width=max(width, 500), height=height)
            driver = browser.driver
            emulate_size(driver, width, height)
            pair_as_viewer(browser, desk.host, name)
            driver.execute_cdp_cmd("Browser.grantPermissions", {
                "origin": desk.host.https.rstrip("/"),
                "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
            start_viewing(driver)
            text = f"asked paste from the {size}"
            driver.execute_async_script(
                "navigator.clipboard.writeText(arguments[0]).then(() => arguments[1](true))", text)
            bar = driver.find_element(By.CSS_SELECTOR, ".clipboard-ask")
            ask = bar.find_element(By.CSS_SELECTOR, ".clipboard-copy")

            driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="paste"]').click()
            wait(driver, lambda d: bar.is_displayed() and "Not allowed to paste" in bar.text, what="the refusal bar")
            assert f'touchdeck devices allow-clipboard "{name}" on' in bar.text
            assert ask.is_displayed() and ask.text == "Ask the computer"
            box, stage = bar.rect, driver.find_element(By.CSS_SELECTOR, ".screen-stage").rect
            assert box["x"] >= stage["x"] and box["x"] + box["width"] <= stage["x"] + stage["width"] + 1, (box, stage)
            driver.save_screenshot(str(output / f"clipboard-asking-refused-{size}.png"))

            asked = len(desk.questions())
            desk.answer("deny")
            ask.click()
            wait(driver, lambda d: "The computer said no" in bar.text, what="Deny on the bar")
            assert len(desk.questions()) == asked + 1 and desk.questions()[-1]["summary"] == \
                f"TouchDeck: {name} asks to paste on this computer"
            assert ask.is_displayed(), "asking again is offered"
            assert x_clipboard() != text.encode(), "a denied paste sets nothing"
            driver.save_screenshot(str(output / f"clipboard-asking-denied-{size}.png"))

            desk.answer("once")
            ask.click()
            wait(driver, lambda d: not bar.is_displayed(), 20, "the bar to go once pasted")
            assert x_clipboard() == text.encode()
            driver.execute_script("window.touchdeckViewer.shown(false)")  # one device views at a time
    finally:
        desk.stop()
