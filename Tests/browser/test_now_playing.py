"""A now-playing tile in Chromium against the real daemon (PROTOCOL §6 "Tiles and sliders", "What a media key shows"):
made in the editor (the Now playing kind, across two slots) and stored by the host as a 2-slot tile; with a fake MPRIS
player (Tests/support/fake_mpris.py) on the host's private session bus, the tile shows the track's title, artist and
album art (the host's PNG, drawn as an image of the art's colour) across both slots; Next on the player brings the
next title and art. At iPad and phone sizes."""

import json

import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from mprisbus import fake_player, private_bus
from pages import key, pair, save, wait
from test_key_kinds import SIZES, add_sheet, clear_deck, sized, wait_stored

TILE = {"label": "Now playing", "kind": "nowPlaying", "span": 2}


@pytest.fixture(scope="module")
def bus():
    with private_bus() as address:
        yield address


@pytest.fixture(scope="module")
def host(bus):
    daemon = Daemon(env={"DBUS_SESSION_BUS_ADDRESS": bus})
    daemon.start()
    yield daemon
    daemon.stop()


@pytest.fixture
def player(bus, tmp_path):
    Image.new("RGB", (300, 300), (230, 30, 30)).save(tmp_path / "red.png")
    Image.new("RGB", (300, 300), (30, 200, 60)).save(tmp_path / "green.jpg")
    tracks = [{"title": "Red Song", "artist": "The Fakes", "length": 200, "artUrl": (tmp_path / "red.png").as_uri()},
              {"title": "Green Song", "artist": "Others", "length": 100, "artUrl": (tmp_path / "green.jpg").as_uri()}]
    (tmp_path / "tracks.json").write_text(json.dumps(tracks))
    with fake_player(bus, tmp_path / "calls.txt", status="Playing", tracks=tmp_path / "tracks.json") as calls:
        yield calls


def tile(driver):
    """The tile at slot 0: title, artist, the art's middle pixel (drawn into a canvas), its width in slots' terms."""
    return driver.execute_script("""
        const key = document.querySelector('.key[data-page="0"][data-index="0"]');
        const art = key?.querySelector('.np-art');
        if (!key || !art) return null;
        let pixel = null;
        if (art.complete && art.naturalWidth) {
          const canvas = document.createElement('canvas');
          canvas.width = art.naturalWidth; canvas.height = art.naturalHeight;
          const g = canvas.getContext('2d');
          g.drawImage(art, 0, 0);
          pixel = [...g.getImageData(art.naturalWidth >> 1, art.naturalHeight >> 1, 1, 1).data.slice(0, 3)];
        }
        const single = document.querySelector('.key[data-page="0"][data-index="2"]').getBoundingClientRect().width;
        return {title: key.querySelector('.np-title').textContent, artist: key.querySelector('.np-artist').textContent,
                pixel, wide: key.getBoundingClientRect().width / single,
                covered: document.querySelectorAll('.key[data-page="0"][data-index="1"]').length};""")


def red(look):
    return look and look["pixel"] and look["pixel"][0] > 180 and look["pixel"][1] < 80


def green(look):
    return look and look["pixel"] and look["pixel"][1] > 150 and look["pixel"][0] < 80


@SIZES
def test_the_tile_shows_the_title_and_art_and_follows_the_next_track(host, browsers, output, size, player):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 0, "nowPlaying")
    assert Select(driver.find_element(By.ID, "edit-span-along")).first_selected_option.get_attribute("value") == "row"
    save(driver)
    wait_stored(host, driver, 0, 0, TILE)
    wait(driver, lambda d: (t := tile(d)) and t["title"] == "Red Song" and red(t), what="the red song and its art")
    look = tile(driver)
    assert look["artist"] == "The Fakes"
    assert look["covered"] == 0, "the slot the tile covers is not drawn"
    assert look["wide"] > 1.9, "the tile spans two slots"
    driver.save_screenshot(str(output / f"now-playing-red-{size[0]}x{size[1]}.png"))

    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 3, button: arguments[0]})",
                          {"label": "Next", "kind": "media", "action": "next"})
    wait(driver, lambda d: key(d, 0, 3).get_attribute("aria-label") == "Next", what="the next key")
    key(driver, 0, 3).click()
    wait(driver, lambda d: (t := tile(d)) and t["title"] == "Green Song" and green(t), what="the green song and its art")
    assert tile(driver)["artist"] == "Others"
    assert player() == ["Next"]
    driver.save_screenshot(str(output / f"now-playing-green-{size[0]}x{size[1]}.png"))
