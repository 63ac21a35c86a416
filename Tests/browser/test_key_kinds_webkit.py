"""The key editor in WebKitGTK (MiniBrowser through WebKitWebDriver: the engine of iPad Safari) against the real
host: a hotkey recorded from a hardware key press (Ctrl+Shift+T through WebDriver's keyboard actions), a text key
and an open key, each read back exactly from the host's config.json. The sizes and the rest are in Chromium
(test_key_kinds.py)."""

import os
import shutil

import pytest
from selenium.webdriver.common.by import By

from pages import fill, pair, save
from test_key_kinds import add_sheet, record_ctrl_shift_t, wait_stored
from test_screen_webkit import MINIBROWSER, WebKit

pytestmark = [
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),
    pytest.mark.skipif(not (shutil.which("WebKitWebDriver") and os.path.exists(MINIBROWSER)),
                       reason="webkit2gtk-driver comes from scripts/bootstrap test"),
]


@pytest.fixture
def webkit():
    browser = WebKit()
    yield browser
    browser.driver.quit()


def test_webkit_editor_records_a_chord_and_makes_text_and_open_keys(host, webkit, output):
    driver = webkit.driver
    pair(webkit, host)
    add_sheet(driver, 8, "hotkey")
    record_ctrl_shift_t(driver)
    fill(driver, "edit-label", "New tab")
    # WebKit's page screenshot leaves out the top layer a modal dialog is in; the sheet's own picture shows it.
    driver.find_element(By.ID, "edit-sheet").screenshot(str(output / "key-kinds-webkit-hotkey-sheet.png"))
    save(driver)
    wait_stored(host, driver, 0, 8, {"label": "New tab", "kind": "hotkey", "key": "t", "modifiers": ["ctrl", "shift"]})

    add_sheet(driver, 9, "text")
    driver.find_element(By.ID, "edit-text").send_keys("git status")
    driver.find_element(By.CSS_SELECTOR, "label.switch").click()
    save(driver)
    wait_stored(host, driver, 0, 9, {"label": "git status", "kind": "text", "text": "git status", "enter": True})

    add_sheet(driver, 10, "open")
    fill(driver, "edit-target", "mailto:ann@example.com")
    save(driver)
    wait_stored(host, driver, 0, 10, {"label": "ann@example.com", "kind": "open", "target": "mailto:ann@example.com"})
