"""Folders and page keys on the deck (PROTOCOL §6 "Folders and pages", issue 22): a folder made in the editor, opened,
a key added inside it (stored in the folder's pages), the back key in its first slot going back to the page the
deck showed, page keys turning pages, and a folder four deep offering no folder inside it. Headless Chromium
against the real daemon; screenshots inside a folder at iPad and phone sizes (test-output/browser/folders-*.png)."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import choose_kind, fill, key, key_label, layouts_drawn, pair, save, tap, wait
from test_key_kinds import clear_deck, sized, stored

IPAD = (1194, 834)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [IPAD, (834, 1194), PHONE], ids=["ipad", "ipad-portrait", "phone"])


def sheet_open(driver):
    return driver.execute_script("return document.getElementById('edit-sheet').open")


def depth(driver):
    return driver.execute_script("return Number(document.querySelector('#pages').dataset.depth)")


def shown_page(driver):
    """The page the dots mark, once the strip has stopped sliding (a key is tapped where it rests)."""
    return driver.execute_script("""
        if (document.querySelector('.page-strip').getAnimations().length) return -1;
        return [...document.querySelectorAll('#dots button')].findIndex((d) => d.getAttribute('aria-selected') === 'true')""")


def add(driver, index, kind, label):
    key(driver, 0, index).click()
    wait(driver, sheet_open, what="the add sheet")
    choose_kind(driver, kind)
    fill(driver, "edit-label", label)


def send(driver, message):
    driver.execute_script("window.touchdeck.send(arguments[0])", message)


@SIZES
def test_a_folder_is_made_entered_filled_and_left_by_its_back_key(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add(driver, 2, "folder", "Media")
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 2) == "Media", what="the folder key")
    assert stored(host, 0, 2) == {"label": "Media", "kind": "folder", "pages": [[None] * 12]}

    tap(driver, key(driver, 0, 2))
    wait(driver, lambda d: depth(d) == 1, what="the folder open")
    back = key(driver, 0, 0)
    assert "back" in back.get_attribute("class") and back.get_attribute("aria-label") == "Back"
    assert "Media" in back.text
    add(driver, 1, "command", "Play")
    fill(driver, "edit-command", "true")
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 1) == "Play", what="the key inside the folder")
    assert depth(driver) == 1, "the folder stays open when the host's layout arrives"
    folder = stored(host, 0, 2)
    assert folder["pages"][0][1] == {"label": "Play", "kind": "command", "command": "true"}
    tap(driver, key(driver, 0, 1))
    wait(driver, lambda d: "glow" in key(d, 0, 1).get_attribute("class"), what="the press inside the folder answered")
    driver.save_screenshot(str(output / f"folders-inside-{size[0]}x{size[1]}.png"))

    tap(driver, key(driver, 0, 0))
    wait(driver, lambda d: depth(d) == 0, what="back on the deck")
    assert key_label(driver, 0, 2) == "Media"
    assert stored(host, 0, 1) is None, "nothing landed on the deck's own slot 1"


def test_page_keys_turn_the_pages_and_a_missing_page_is_said(host, browsers):
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    send(driver, {"type": "setButton", "page": 0, "index": 4, "button": {"label": "One", "kind": "command", "command": "true"}})
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#dots button")) == 2, what="two pages")
    send(driver, {"type": "setButton", "page": 1, "index": 0, "button": {"label": "Back home", "kind": "page", "go": "previous"}})
    wait(driver, lambda d: key_label(d, 1, 0) == "Back home", what="the previous key")
    add(driver, 0, "page", "")
    Select(driver.find_element(By.ID, "edit-page-go")).select_by_value("next")
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "Next page"
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 0) == "Next page", what="the next key")
    assert stored(host, 0, 0) == {"label": "Next page", "kind": "page", "go": "next"}
    tap(driver, key(driver, 0, 0))
    wait(driver, lambda d: shown_page(d) == 1, what="the second page")
    tap(driver, key(driver, 1, 0))
    wait(driver, lambda d: shown_page(d) == 0, what="the first page again")

    add(driver, 5, "page", "Far")
    Select(driver.find_element(By.ID, "edit-page-go")).select_by_value("page")
    fill(driver, "edit-page-number", "9")
    save(driver)
    wait(driver, lambda d: key_label(d, 0, 5) == "Far", what="the numbered page key")
    assert stored(host, 0, 5) == {"label": "Far", "kind": "page", "go": "page", "page": 8}
    tap(driver, key(driver, 0, 5))
    toast = driver.find_element(By.ID, "toast")
    wait(driver, lambda d: toast.is_displayed(), what="the notice")
    assert toast.text == "Page 9 does not exist here.", toast.text
    assert shown_page(driver) == 0


def test_no_folder_is_offered_four_folders_deep(host, browsers):
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    path = []
    for level in range(1, 5):
        before = layouts_drawn(driver)
        send(driver, {"type": "setButton", "page": 0, "index": 1, "button": {"label": f"F{level}", "kind": "folder"},
                      **({"path": path} if path else {})})
        path = path + [{"page": 0, "index": 1}]
        # Each change drawn before the next is sent: no layout arrives later to redraw the key being tapped.
        wait(driver, lambda d: layouts_drawn(d) > before, what=f"the layout with F{level}")
    for level in range(1, 5):
        wait(driver, lambda d: key_label(d, 0, 1) == f"F{level}", what=f"folder F{level}")
        tap(driver, key(driver, 0, 1))
        wait(driver, lambda d: depth(d) == level, what=f"inside F{level}")
    key(driver, 0, 2).click()
    wait(driver, sheet_open, what="the add sheet")
    assert not driver.find_element(By.CSS_SELECTOR, ".kind-choice-folder").is_displayed()
    driver.find_element(By.ID, "edit-cancel").click()
    for level in range(4, 0, -1):
        tap(driver, key(driver, 0, 0))
        wait(driver, lambda d: depth(d) == level - 1, what="one folder up")
