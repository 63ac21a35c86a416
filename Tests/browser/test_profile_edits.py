"""Renaming and deleting a profile from the deck's header (issue 22, PROTOCOL §6 "Profiles"): the picker's ✎ asks for
the new name and the host renames the profile (saved in config.json, the picker follows); a name another profile has
is refused on the device before anything is sent; ✕ asks first, and a cancelled question deletes nothing. Headless
Chromium at phone size against the real daemon; screenshot test-output/browser/profile-edits-phone.png."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from pages import pair, wait
from test_key_kinds import sized
from test_profiles import header

KEY = {"label": "Blog", "kind": "command", "command": "blogrun"}


def saved_names(host):
    return [p["name"] for p in json.loads((host.config_dir / "config.json").read_text())["profiles"]]


def toast(driver):
    return driver.execute_script("const t = document.querySelector('#toast'); return t.hidden ? '' : t.textContent")


def answer(driver, prompt=None, confirm=None):
    """What the next prompt() and confirm() answer (a headless browser has no one to ask)."""
    driver.execute_script("window.prompt = () => arguments[0]; window.confirm = () => arguments[1];", prompt, confirm)


def test_a_profile_is_renamed_and_deleted_from_the_header(browsers, output, tmp_path):
    host = Daemon(home=tmp_path)
    host.config_dir.mkdir(mode=0o700, parents=True)
    layout = {"grid": "4x3", "pages": [[KEY] + [None] * 11, [None] * 12]}
    (host.config_dir / "config.json").write_text(json.dumps({
        "profiles": [{"name": "Default", "layout": layout},
                     {"name": "Streaming", "layout": {"grid": "4x3", "pages": [[None] * 12]}}],
        "currentProfile": "Default"}))
    host.start()
    try:
        phone = sized(browsers, (390, 844))
        pair(phone, host)
        driver = phone.driver
        wait(driver, lambda d: header(d)["names"] == ["Default", "Streaming"], what="the picker")
        Select(driver.find_element(By.ID, "profile-pick")).select_by_value("Streaming")
        wait(driver, lambda d: d.execute_script("return document.querySelector('#app').dataset.profile") == "Streaming",
             what="the Streaming deck")

        answer(driver, prompt="  Live ")
        driver.find_element(By.ID, "profile-rename").click()
        wait(driver, lambda d: header(d)["names"] == ["Default", "Live"] and header(d)["value"] == "Live",
             what="the renamed profile in the picker")
        assert saved_names(host) == ["Default", "Live"]
        assert header(driver)["inside"], "the header with its buttons fits the phone's width"
        driver.save_screenshot(str(output / "profile-edits-phone.png"))

        before = (host.config_dir / "config.json").read_bytes()
        answer(driver, prompt="default")
        driver.find_element(By.ID, "profile-rename").click()
        wait(driver, lambda d: toast(d) == "A profile is already called “Default”.", what="the refusal")
        answer(driver, confirm=False)
        driver.find_element(By.ID, "profile-delete").click()
        assert (host.config_dir / "config.json").read_bytes() == before
        assert header(driver)["names"] == ["Default", "Live"]

        answer(driver, confirm=True)
        driver.find_element(By.ID, "profile-delete").click()
        wait(driver, lambda d: not header(d)["visible"], what="one profile left: no picker")
        assert saved_names(host) == ["Default"]
        assert driver.execute_script("return document.querySelector('#app').dataset.profile") == "Default"
    finally:
        host.stop()
