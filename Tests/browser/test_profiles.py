"""Profiles in the web client (PROTOCOL §6 "Profiles", issue 22): a profile file exported by another host is
imported through the editor's file picker and a profile key made to it; then one device switches profile from the
deck's header while another, "Only here", keeps its own. Headless Chromium against the real daemon (and a second
daemon that exports the file); screenshots of the header with the picker at iPad landscape and portrait and at
phone size (test-output/browser/profiles-*.png)."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from pages import choose_kind, fill, key, key_label, long_press, pair, save, wait
from test_key_kinds import sized
from viewer import emulate_size

OTHER_KEYS = [{"label": "Mute", "kind": "hotkey", "key": "mute"}, {"label": "Notes", "kind": "text", "text": "hi", "enter": False},
              None, None, None, None]


def exported_elsewhere(tmp_path):
    """A profile file written by `touchdeck profile export` on another host, whose deck is a 3x2 "Phone"."""
    other = Daemon(home=tmp_path / "other")
    other.config_dir.mkdir(parents=True)
    (other.config_dir / "config.json").write_text(json.dumps({
        "profiles": [{"name": "Phone", "layout": {"grid": "3x2", "pages": [OTHER_KEYS, [None] * 6]}}],
        "currentProfile": "Phone"}))
    other.start()
    try:
        path = tmp_path / "phone-profile.json"
        other.cli("profile", "export", "Phone", str(path))
        return path
    finally:
        other.stop()


def shown(driver):
    return driver.execute_script("return document.querySelector('#app').dataset.profile")


def header(driver):
    return driver.execute_script("""
        const box = document.querySelector('.profile-choice');
        const pick = document.querySelector('#profile-pick');
        const r = box.getBoundingClientRect();
        return {visible: !box.hidden && r.width > 0, names: [...pick.options].map((o) => o.value), value: pick.value,
                own: document.querySelector('#profile-own').checked, inside: r.right <= innerWidth + 1 && r.left >= 0};""")


def test_an_imported_profile_is_shown_on_one_device_while_another_keeps_its_own(host, browsers, output, tmp_path):
    path = exported_elsewhere(tmp_path)
    ipad = sized(browsers, (1194, 834))
    phone = sized(browsers, (390, 844))
    pair(ipad, host)
    pair(phone, host)
    tablet = ipad.driver
    assert not header(tablet)["visible"], "one profile: no picker"

    # The editor's file picker: a profile key to the imported profile.
    long_press(tablet, key(tablet, 0, 0))
    wait(tablet, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the edit sheet")
    choose_kind(tablet, "profile")
    picker = tablet.find_element(By.ID, "edit-profile-file")
    tablet.execute_script("arguments[0].hidden = false", picker)  # WebDriver types a path only into a shown input
    picker.send_keys(str(path))
    note = tablet.find_element(By.ID, "edit-profile-note")
    wait(tablet, lambda d: note.text == "Imported as “Phone”.", what="the import's answer")
    assert Select(tablet.find_element(By.ID, "edit-profile")).first_selected_option.get_attribute("value") == "Phone"
    tablet.save_screenshot(str(output / "profiles-import-1194x834.png"))
    fill(tablet, "edit-label", "Phone deck")
    save(tablet)
    wait(tablet, lambda d: key_label(d, 0, 0) == "Phone deck", what="the profile key")
    config = json.loads((host.config_dir / "config.json").read_text())
    imported = next(p for p in config["profiles"] if p["name"] == "Phone")
    assert imported["layout"] == {"grid": "3x2", "pages": [OTHER_KEYS, [None] * 6]}, imported
    assert config["profiles"][0]["layout"]["pages"][0][0] == {"label": "Phone deck", "kind": "profile",
                                                             "profile": "Phone"}

    # The phone keeps the profile it shows (Default) as its own; the iPad switches the shared one from its header.
    wait(phone.driver, lambda d: header(d)["names"] == ["Default", "Phone"], what="the phone's picker")
    phone.driver.find_element(By.CSS_SELECTOR, ".profile-own").click()
    wait(phone.driver, lambda d: header(d)["own"] and kept(host) == ["Default"], what="Only here")
    Select(tablet.find_element(By.ID, "profile-pick")).select_by_value("Phone")
    wait(tablet, lambda d: shown(d) == "Phone" and key_label(d, 0, 0) == "Mute", what="the iPad on Phone")
    assert tablet.execute_script("return document.querySelector('#app').dataset.grid") == "3x2"
    assert json.loads((host.config_dir / "config.json").read_text())["currentProfile"] == "Phone"
    assert shown(phone.driver) == "Default" and key_label(phone.driver, 0, 0) == "Phone deck", "the phone kept its own"
    assert header(phone.driver)["value"] == "Default"

    for browser, sizes in ((ipad, [(1194, 834), (834, 1194)]), (phone, [(390, 844)])):
        for width, height in sizes:
            emulate_size(browser.driver, width, height)
            wait(browser.driver, lambda d: header(d)["visible"] and header(d)["inside"], what="the picker on screen")
            browser.driver.save_screenshot(str(output / f"profiles-header-{width}x{height}.png"))

    # Back to following: the phone shows the shared profile again.
    phone.driver.find_element(By.CSS_SELECTOR, ".profile-own").click()
    wait(phone.driver, lambda d: shown(d) == "Phone" and key_label(d, 0, 0) == "Mute", what="the phone following")


def kept(host):
    """The profiles paired devices keep as their own, as the host remembers them by device id."""
    return [d["profile"] for d in json.loads((host.config_dir / "devices.json").read_text())["devices"] if "profile" in d]
