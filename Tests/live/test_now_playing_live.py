"""Now playing on the real daemon (PROTOCOL §6 "What a media key shows", "Tiles and sliders"): a fake MPRIS player
(Tests/support/fake_mpris.py) on a private session bus plays tracks with titles, artists, albums and album art as
local files; the device is sent each track's title, artist, album, length, position and the art as a PNG data URL
within 144 px. A now-playing tile's press plays or pauses; Next (a media key) changes the track and the player's
PropertiesChanged signal brings the new title and art. Art that is not a local file is not fetched. A tile that
would leave its row, or a key put on a slot a tile covers, is refused with the reason."""

import base64
import io
import json

import pytest
from PIL import Image

from livehelpers import Daemon, paired_device, press_key, run
from mprisbus import fake_player, private_bus

TILE = {"label": "Now playing", "kind": "nowPlaying", "span": 2}
NEXT = {"label": "Next", "kind": "media", "action": "next"}


@pytest.fixture
def bus():
    with private_bus() as address:
        yield address


def tracks_file(tmp_path):
    Image.new("RGB", (400, 300), (220, 20, 20)).save(tmp_path / "one.jpg", quality=95)
    Image.new("RGB", (200, 200), (20, 40, 220)).save(tmp_path / "two.png")
    tracks = [
        {"title": "Track One", "artist": "The Fakes", "album": "Test Album", "length": 215.5,
         "artUrl": (tmp_path / "one.jpg").as_uri()},
        {"title": "Track Two", "artist": "The Fakes", "album": "Test Album", "length": 100,
         "artUrl": (tmp_path / "two.png").as_uri()},
        {"title": "Track Three", "artUrl": "https://example.invalid/cover.png"},
    ]
    path = tmp_path / "tracks.json"
    path.write_text(json.dumps(tracks))
    return path


def picture(art):
    assert art.startswith("data:image/png;base64,"), art[:40]
    image = Image.open(io.BytesIO(base64.b64decode(art.split(",", 1)[1])))
    assert image.format == "PNG"
    return image


async def state_with_title(client, title):
    """The mediaState messages until one names `title`; that one."""
    while True:
        state = await client.recv_type("mediaState", timeout=20)
        if state.get("title") == title:
            return state


def test_the_device_follows_the_player_s_tracks_and_art(bus, tmp_path):
    with fake_player(bus, tmp_path / "calls.txt", status="Playing", tracks=tracks_file(tmp_path)) as calls:
        host = Daemon(home=tmp_path / "home", env={"DBUS_SESSION_BUS_ADDRESS": bus}).start()
        try:
            async def scenario():
                client, _, _ = await paired_device(host, "Deck", protocol=3)
                first = await state_with_title(client, "Track One")
                await client.send({"type": "setButton", "page": 0, "index": 0, "button": TILE})
                layout = await client.recv_type("layout")
                await client.send({"type": "press", "page": 0, "index": 0})
                pressed = await client.recv_type("pressResult", timeout=20)
                paused = await client.recv_type("mediaState", timeout=20)
                assert (await press_key(client, 4, NEXT))["ok"]
                second = await state_with_title(client, "Track Two")
                await client.send({"type": "press", "page": 0, "index": 4})
                await client.recv_type("pressResult", timeout=20)
                third = await state_with_title(client, "Track Three")
                await client.close()
                return first, layout, pressed, paused, second, third

            first, layout, pressed, paused, second, third = run(scenario())
        finally:
            host.stop()
        assert calls() == ["PlayPause", "Next", "Next"], "a tile's press is the player's play/pause"
    assert layout["pages"][0][0] == TILE and layout["pages"][0][1] is None, layout["pages"][0]
    assert pressed["ok"] is True, pressed
    assert (paused["status"], paused["title"]) == ("paused", "Track One"), paused
    assert {k: first[k] for k in ("status", "player", "artist", "album", "length", "position")} == {
        "status": "playing", "player": "testplayer", "artist": "The Fakes", "album": "Test Album", "length": 215.5,
        "position": 30}
    one = picture(first["art"])
    assert one.size == (144, 108), "fitted within 144 px, the aspect kept"
    assert one.convert("RGB").getpixel((72, 54))[0] > 180, "the first track's red cover"
    two = picture(second["art"])
    assert two.size == (144, 144)
    red, _, blue = two.convert("RGB").getpixel((72, 72))
    assert blue > 180 and red < 60, "the second track's blue cover"
    assert "art" not in third, "art that is not a local file is not fetched"
    assert "artist" not in third


def test_a_tile_that_leaves_its_row_or_a_key_on_a_covered_slot_is_refused(tmp_path):
    host = Daemon(home=tmp_path / "home").start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            await client.send({"type": "setButton", "page": 0, "index": 3, "button": TILE})
            outside = await client.recv_type("error")
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": TILE})
            await client.recv_type("layout")
            key = {"label": "Files", "kind": "command", "command": "true"}
            await client.send({"type": "setButton", "page": 0, "index": 1, "button": key})
            covered = await client.recv_type("error")
            await client.send({"type": "setButton", "page": 0, "index": 4, "button": {**TILE, "span": 3}})
            wide = await client.recv_type("error")
            await client.send({"type": "press", "page": 0, "index": 2})
            alive = await client.recv_type("pressResult")
            await client.close()
            return outside, covered, wide, alive

        outside, covered, wide, alive = run(scenario())
    finally:
        host.stop()
    assert (outside["code"], outside["message"]) == (
        "badMessage", "a control in slot 3 spanning 2 slots along its row would leave the page"), outside
    assert covered["message"] == "slot 1 is covered by the control in slot 0", covered
    assert wide["message"] == "a now-playing tile spans 2 slots", wide
    assert alive["reason"] == "empty slot", "the host keeps serving"
