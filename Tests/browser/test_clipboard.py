"""The clipboard in the viewer (`Web/app/clipboard.js`) in headless Chromium against the real host, with the
browser's clipboard permission granted through CDP: "Paste to computer" sets the X clipboard (xclip reads it) and
presses Ctrl+V in a focused X text field (Tests/support/xtext.py); a copy made on the computer with xclip shows
the offer bar, whose Copy writes the browser's clipboard; at iPad (both ways round) and phone sizes."""

import base64
import pathlib
import subprocess
import sys

import pytest
from selenium.webdriver.common.by import By

from pages import eventually, wait
from viewer import emulate_size, pair_as_viewer, start_viewing
from clipboards import copier, png  # noqa: F401 (copier is a fixture)

XTEXT = pathlib.Path(__file__).resolve().parents[1] / "support" / "xtext.py"
SIZES = [(1194, 834), (834, 1194), (390, 844)]


def viewer(browsers, host, name, size):
    browser = browsers(width=max(size[0], 500), height=size[1])
    driver = browser.driver
    emulate_size(driver, *size)
    pair_as_viewer(browser, host, name)
    host.cli("devices", "allow-clipboard", name, "on")
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": host.https.rstrip("/"), "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    start_viewing(driver)
    return driver


def browser_clipboard_text(driver):
    return driver.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('error: ' + e))")


def test_paste_sets_the_x_clipboard_and_presses_ctrl_v_in_the_focused_field(host, browsers, tmp_path, output):
    out = tmp_path / "field.txt"
    field = subprocess.Popen([sys.executable, str(XTEXT), str(out)])
    try:
        eventually(out.exists, what="the X text field")
        driver = viewer(browsers, host, "Clip paste", SIZES[0])
        driver.execute_async_script(
            "navigator.clipboard.writeText(arguments[0]).then(() => arguments[1](true))", "세계 👋 from the iPad")
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="paste"]').click()
        eventually(lambda: out.read_text() == "<Ctrl+v>", 20, f"Ctrl+V in the X field (it has {out.read_text()!r})")
        pasted = subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True, timeout=20).stdout
        assert pasted.decode() == "세계 👋 from the iPad"
        # The keyboard panel's Paste does the same.
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="keyboard"]').click()
        paste = driver.find_element(By.CSS_SELECTOR, "#screen-view .keyboard .paste")
        wait(driver, lambda d: paste.is_displayed(), what="the keyboard panel's Paste")
        driver.save_screenshot(str(output / "clipboard-keyboard-paste-1194x834.png"))
        paste.click()
        eventually(lambda: out.read_text() == "<Ctrl+v><Ctrl+v>", 20, f"a second Ctrl+V ({out.read_text()!r})")
        driver.execute_script("window.touchdeckViewer.shown(false)")  # one device views at a time
    finally:
        field.terminate()
        field.wait(10)


def test_a_copy_on_the_computer_is_offered_and_copy_writes_the_browser_clipboard(host, browsers, copier, output):
    for n, size in enumerate(SIZES):
        driver = viewer(browsers, host, f"Clip offer {n}", size)
        text = f"Copied on the PC {n}: 안녕하세요 🙂 " + "a long line that does not fit " * 6
        copier(text.encode())
        bar = driver.find_element(By.CSS_SELECTOR, ".clipboard-offer")
        wait(driver, lambda d: bar.is_displayed() and "안녕하세요" in bar.text, what="the offer bar")
        driver.save_screenshot(str(output / f"clipboard-offer-text-{size[0]}x{size[1]}.png"))
        box, stage = bar.rect, driver.find_element(By.CSS_SELECTOR, ".screen-stage").rect
        assert box["x"] >= stage["x"] and box["x"] + box["width"] <= stage["x"] + stage["width"] + 1, (box, stage)
        bar.find_element(By.CSS_SELECTOR, ".clipboard-copy").click()
        wait(driver, lambda d: not bar.is_displayed(), what="the bar to go once copied")
        assert browser_clipboard_text(driver) == text

        picture = png(160, 90)
        copier(picture, target="image/png")
        wait(driver, lambda d: bar.is_displayed() and "160 × 90" in bar.text, what=f"the image offer ({bar.text!r}, {n})")
        thumb = bar.find_element(By.CSS_SELECTOR, ".clipboard-thumb")
        wait(driver, lambda d: d.execute_script("return arguments[0].naturalWidth", thumb) == 160, what="the thumbnail")
        driver.save_screenshot(str(output / f"clipboard-offer-image-{size[0]}x{size[1]}.png"))
        bar.find_element(By.CSS_SELECTOR, ".clipboard-copy").click()
        wait(driver, lambda d: not bar.is_displayed(), what="the bar to go once the image is copied")
        copied = driver.execute_async_script("""const done = arguments[0];
            navigator.clipboard.read().then(async (items) => {
              const blob = await items[0].getType('image/png');
              const bytes = new Uint8Array(await blob.arrayBuffer());
              done({ types: items[0].types, size: bytes.length });
            }, (e) => done('error: ' + e));""")
        assert copied["types"] == ["image/png"], copied
        driver.execute_script("window.touchdeckViewer.shown(false)")
