"""Media keys in the editor and on the deck (PROTOCOL §6 "Layout": the `media` kind and `mediaState`): a play/pause
and a next-track key made through the editor and read back from the host's config.json exactly; pressed with no
media player on the host's session bus, the host's reason "no media player" is shown and the key looks idle; with a
fake MPRIS player (Tests/support/fake_mpris.py) the key follows the player, paused, then playing after a press.
Headless Chromium against the real daemon, on a private session bus (dbus-daemon), at iPad and phone sizes."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from mprisbus import fake_player, private_bus
from pages import eventually, key, pair, save, tap, wait
from test_key_kinds import SIZES, add_sheet, clear_deck, sized, wait_stored

PLAY = {"label": "Play/Pause", "kind": "media", "action": "playPause"}
NEXT = {"label": "Next track", "kind": "media", "action": "next"}


@pytest.fixture(scope="module")
def bus():
    with private_bus() as address:
        yield address


@pytest.fixture(scope="module")
def host(bus):
    """The daemon on the private bus (this module's own host instead of conftest's)."""
    daemon = Daemon(env={"DBUS_SESSION_BUS_ADDRESS": bus})
    daemon.start()
    yield daemon
    daemon.stop()


@pytest.fixture
def player(bus, tmp_path):
    """The fake player `testplayer`, paused, on the bus; yields a function reading the calls it received."""
    with fake_player(bus, tmp_path / "calls.txt") as calls:
        yield calls


def media_look(driver, index):
    """What the media key at this slot of page 0 shows: its look (data-media), its mark (an icon, by name) and its caption."""
    return driver.execute_script("""
        const key = document.querySelector(`.key[data-page="0"][data-index="${arguments[0]}"]`);
        return key && [key.dataset.media, key.querySelector('.media-mark')?.dataset.mark,
                       key.querySelector('.media-status')?.textContent];""", index)


def shot(driver, output, name, size):
    driver.save_screenshot(str(output / f"media-{name}-{size[0]}x{size[1]}.png"))


def add_media_key(driver, index, action_name):
    add_sheet(driver, index, "media")
    Select(driver.find_element(By.ID, "edit-media-action")).select_by_visible_text(action_name)
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == action_name


@SIZES
def test_a_media_key_made_in_the_editor_says_when_there_is_no_player(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 0, "media")
    actions = [option.text for option in Select(driver.find_element(By.ID, "edit-media-action")).options]
    assert actions == ["Play/Pause", "Previous track", "Next track", "Stop"]
    assert driver.find_element(By.ID, "edit-label").get_attribute("placeholder") == "Play/Pause"
    shot(driver, output, "sheet", size)
    save(driver)
    wait_stored(host, driver, 0, 0, PLAY)
    assert media_look(driver, 0) == ["idle", "play", "No player"]

    tap(driver, key(driver, 0, 0))
    toast = driver.find_element(By.ID, "toast")
    wait(driver, lambda d: toast.is_displayed() and "no media player" in toast.text.lower(), what="the host's reason")
    assert "failed" in key(driver, 0, 0).get_attribute("class")
    shot(driver, output, "no-player", size)


@SIZES
def test_a_media_key_follows_the_player_and_shows_playing_after_a_press(host, browsers, output, size, player):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_media_key(driver, 0, "Play/Pause")
    save(driver)
    wait_stored(host, driver, 0, 0, PLAY)
    add_media_key(driver, 1, "Next track")
    save(driver)
    wait_stored(host, driver, 0, 1, NEXT)
    # The host looks for players once a second and says what it found.
    wait(driver, lambda d: media_look(d, 0) == ["paused", "play", "Paused · testplayer"], what="the paused player")
    assert media_look(driver, 1) == ["paused", "next", "Paused · testplayer"]
    shot(driver, output, "paused", size)

    tap(driver, key(driver, 0, 0))
    wait(driver, lambda d: media_look(d, 0) == ["playing", "pause", "Playing · testplayer"], what="the playing look")
    assert player() == ["PlayPause"]
    eventually(lambda: "glow" not in key(driver, 0, 0).get_attribute("class"), what="the press glow to fade")
    shot(driver, output, "playing", size)
