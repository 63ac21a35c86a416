"""Decks that follow the focused app in the web client (issue 23, PROTOCOL §6 "Profiles"): the header's ◎ asks for the
apps the profile shown is for and the host keeps them (config.json); when such an app gets the focus on the computer
(the test plays the X window manager: Tests/support/xfocus.py), the page shows that profile, its header saying why,
and the profile it was on once the focus leaves. Headless Chromium at phone size against the real daemon under Xvfb;
screenshot test-output/browser/focus-profile-phone.png."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from pages import pair, wait
from test_key_kinds import sized
from test_profile_edits import answer
from test_profiles import header
from xfocus import FakeWindowManager


def shown_profile(driver):
    return driver.execute_script("return document.querySelector('#app').dataset.profile")


def test_the_header_sets_a_profiles_apps_and_the_deck_follows_the_focused_window(browsers, output, tmp_path):
    host = Daemon(home=tmp_path)
    host.config_dir.mkdir(mode=0o700, parents=True)
    empty = {"grid": "4x3", "pages": [[None] * 12]}
    (host.config_dir / "config.json").write_text(json.dumps({
        "profiles": [{"name": "Default", "layout": empty}, {"name": "Editing", "layout": empty}],
        "currentProfile": "Default"}))
    host.start()
    wm = FakeWindowManager()
    try:
        phone = sized(browsers, (390, 844))
        pair(phone, host)
        driver = phone.driver
        wait(driver, lambda d: header(d)["names"] == ["Default", "Editing"], what="the picker")
        Select(driver.find_element(By.ID, "profile-pick")).select_by_value("Editing")
        wait(driver, lambda d: shown_profile(d) == "Editing", what="the Editing deck")
        answer(driver, prompt=" FocusEditor, org.example.Editor.desktop ")
        driver.find_element(By.ID, "profile-apps").click()
        saved = lambda: json.loads((host.config_dir / "config.json").read_text())["profiles"][1].get("apps")  # noqa: E731
        wait(driver, lambda d: saved() == ["FocusEditor", "org.example.Editor.desktop"], what="the apps saved")
        assert header(driver)["inside"], "the header with its buttons fits the phone's width"

        Select(driver.find_element(By.ID, "profile-pick")).select_by_value("Default")
        wait(driver, lambda d: shown_profile(d) == "Default", what="the Default deck")
        editor = wm.window("focuseditor", "FocusEditor")
        wm.activate(editor)
        wait(driver, lambda d: shown_profile(d) == "Editing", what="the focused app's profile")
        title = driver.find_element(By.CSS_SELECTOR, ".profile-choice").get_attribute("title")
        assert title == "Shown while an app it is for has the focus on the computer", title
        driver.save_screenshot(str(output / "focus-profile-phone.png"))
        wm.activate(wm.window("xterm", "XTerm"))
        wait(driver, lambda d: shown_profile(d) == "Default", what="the profile it was on")
    finally:
        wm.close()
        host.stop()
