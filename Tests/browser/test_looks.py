"""Key looks in the editor and on the deck (PROTOCOL §6 "Looks", issue 22): a palette colour, an emoji chosen from
the suggestions, "hide the label", an app's icon on a key of another kind, an emoji the host would refuse said in
the sheet before anything is sent, and looks taken off again. Each saved key is read back from the host's
config.json exactly. Headless Chromium against the real daemon; screenshots of the deck at iPad landscape and
portrait and at phone size, for a person to look at (test-output/browser/looks-*.png)."""

import pytest
from selenium.webdriver.common.by import By

from pages import choose_kind, fill, key, key_label, long_press, pair, save, wait
from test_key_kinds import clear_deck, sized, stored, wait_stored

IPAD = (1194, 834)
IPAD_PORTRAIT = (834, 1194)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [IPAD, IPAD_PORTRAIT, PHONE], ids=["ipad", "ipad-portrait", "phone"])
BUILD = {"label": "Build", "kind": "command", "command": "make", "color": "teal", "icon": {"emoji": "🔥"},
         "hideLabel": True}


def sheet_open(driver):
    return driver.execute_script("return document.getElementById('edit-sheet').open")


def add_sheet(driver, index, kind):
    key(driver, 0, index).click()
    wait(driver, sheet_open, what="the add sheet")
    choose_kind(driver, kind)


def choose_colour(driver, name):
    driver.find_element(By.CSS_SELECTOR, f'#edit-colors input[value="{name}"]').find_element(By.XPATH, "..").click()


def checked_colour(driver):
    return driver.execute_script("return document.querySelector('#edit-colors input:checked').value")


def face(driver, index):
    """What the deck drew for slot `index` of page 0: its colour, icon, whether the label shows, the face's paint."""
    return driver.execute_script("""
        const k = document.querySelector(`.key[data-page="0"][data-index="${arguments[0]}"]`);
        const icon = k.querySelector('.icon');
        return {color: k.dataset.color ?? '', emoji: icon?.classList.contains('emoji') ? icon.textContent : '',
                picture: icon?.tagName === 'IMG', labelShown: !k.querySelector('.label').hidden,
                paint: getComputedStyle(k.querySelector('.face')).backgroundImage,
                name: k.getAttribute('aria-label')};""", index)


@SIZES
def test_a_colour_an_emoji_and_a_hidden_label_are_stored_drawn_and_taken_off_again(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 1, "
                          "button: {label: 'Plain', kind: 'command', command: 'true'}})")
    wait(driver, lambda d: key_label(d, 0, 1) == "Plain", what="the plain key")  # drawn: no redraw under the tap
    add_sheet(driver, 0, "command")
    fill(driver, "edit-label", "Build")
    fill(driver, "edit-command", "make")
    assert checked_colour(driver) == "", "a new key has the kind's colour"
    choose_colour(driver, "teal")
    driver.find_element(By.CSS_SELECTOR, '#edit-emoji-choices [data-emoji="🔥"]').click()
    assert driver.find_element(By.ID, "edit-emoji").get_attribute("value") == "🔥"
    driver.find_element(By.ID, "edit-hide-label").find_element(By.XPATH, "..").click()
    driver.save_screenshot(str(output / f"looks-sheet-{size[0]}x{size[1]}.png"))
    save(driver)
    wait_stored(host, driver, 0, 0, BUILD)
    drawn = face(driver, 0)
    assert drawn["color"] == "teal" and drawn["emoji"] == "🔥" and not drawn["labelShown"], drawn
    assert drawn["name"] == "Build", "screen readers still read the hidden label"
    assert drawn["paint"] != face(driver, 1)["paint"], "the colour tints the face"
    driver.save_screenshot(str(output / f"looks-deck-{size[0]}x{size[1]}.png"))

    # Opened again, the sheet shows the looks; taken off, the key is stored as a plain one.
    long_press(driver, key(driver, 0, 0))
    wait(driver, sheet_open, what="the edit sheet")
    assert checked_colour(driver) == "teal"
    assert driver.find_element(By.ID, "edit-emoji").get_attribute("value") == "🔥"
    assert driver.find_element(By.ID, "edit-hide-label").is_selected()
    choose_colour(driver, "")
    driver.find_element(By.ID, "edit-icon-clear").click()
    save(driver)
    plain = {"label": "Build", "kind": "command", "command": "make", "hideLabel": True}
    wait_stored(host, driver, 0, 0, plain)
    # The label was "Build" before too: wait for the layout that takes the looks off.
    drawn = wait(driver, lambda d: (f := face(d, 0))["color"] == "" and f, what="the plain key drawn")
    assert drawn["emoji"] == "" and drawn["labelShown"], "no icon: the label shows anyway"


def test_an_emoji_the_host_would_refuse_is_said_in_the_sheet(host, browsers):
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 2, "command")
    fill(driver, "edit-label", "Two")
    fill(driver, "edit-command", "true")
    fill(driver, "edit-emoji", "ab")
    save(driver)
    assert driver.find_element(By.ID, "edit-error").text == "An emoji icon is one character, not 2."
    assert sheet_open(driver)
    driver.find_element(By.ID, "edit-cancel").click()
    assert stored(host, 0, 2) is None


def test_an_apps_icon_on_a_command_key(host, browsers, output):
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 3, "command")
    fill(driver, "edit-label", "Sums")
    fill(driver, "edit-command", "bc")
    driver.find_element(By.ID, "edit-icon-app").click()
    search = driver.find_element(By.ID, "app-search")
    wait(driver, lambda d: search.is_displayed(), what="the picker")
    search.send_keys("ㄱㅅㄱ")
    wait(driver, lambda d: d.find_element(By.ID, "app-count").text == "1 app", what="one result")
    search.send_keys("\n")
    wait(driver, lambda d: not d.find_element(By.ID, "app-picker").is_displayed(), what="the picker to close")
    assert "테스트 계산기" in driver.find_element(By.ID, "edit-icon-app").text
    assert driver.find_element(By.ID, "edit-label").get_attribute("value") == "Sums", "an icon does not rename the key"
    save(driver)
    wait_stored(host, driver, 0, 3, {"label": "Sums", "kind": "command", "command": "bc",
                                     "icon": {"app": "touchdeck-test-calc.desktop"}})


GALLERY = [
    {"label": "Build", "kind": "command", "command": "make", "color": "teal", "icon": {"emoji": "🔨"}},
    {"label": "Music", "kind": "media", "action": "playPause", "color": "purple"},
    {"label": "Mail", "kind": "open", "target": "mailto:ann@example.org", "icon": {"emoji": "📧"}, "hideLabel": True},
    {"label": "Undo", "kind": "hotkey", "key": "z", "modifiers": ["ctrl"], "color": "red"},
    {"label": "Sums", "kind": "command", "command": "bc", "icon": {"app": "touchdeck-test-calc.desktop"}, "color": "grey"},
    {"label": "Deploy to production", "kind": "command", "command": "deploy", "color": "orange", "icon": {"emoji": "🚀"}},
    {"label": "Notes", "kind": "terminal", "directory": "~/notes"},
    {"label": "Sign", "kind": "text", "text": "Best regards,", "color": "yellow", "icon": {"emoji": "✍️"}},
    {"label": "Lime", "kind": "command", "command": "true", "color": "lime"},
    {"label": "Flag", "kind": "command", "command": "true", "color": "blue", "icon": {"emoji": "🇩🇪"}, "hideLabel": True},
    {"label": "Media", "kind": "folder"},
    {"label": "Next page", "kind": "page", "go": "next"},
]


@SIZES
def test_a_deck_of_looks_at_every_size(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    for index, button in enumerate(GALLERY):
        driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
                              index, button)
    wait(driver, lambda d: key_label(d, 0, len(GALLERY) - 1) == GALLERY[-1]["label"], what="the last key")
    assert [face(driver, i)["color"] for i in range(len(GALLERY))] == [b.get("color", "") for b in GALLERY]
    assert not face(driver, 2)["labelShown"] and face(driver, 5)["labelShown"]
    driver.save_screenshot(str(output / f"looks-gallery-{size[0]}x{size[1]}.png"))
