"""`listDisplays` on the real daemon against a real X server (PROTOCOL §6 "Screen", DESIGN.md#viewing): two XRandR
monitors of a private Xvfb listed left to right, each with a 320 px JPEG thumbnail whose colours are the ones painted
there; a device that is not allowed learns nothing, and `touchdeck devices allow-screen` applies to a connected
device at once, and a device that pairs again starts without it; a host with no display answers `noPermission`."""

import base64
import io
import pathlib
import re
import sys

import pytest
from PIL import Image

from livehelpers import Daemon, paired_device, run
from touchdeck.client import DeckClient, Unauthorized

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from xscreen import VirtualScreen  # noqa: E402

RED, GREEN, BLUE, YELLOW = 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00
NOT_ALLOWED = {"type": "displays", "status": "notAllowed", "displays": []}


@pytest.fixture(scope="module")
def two_monitors():
    """A 3000×1200 screen: LEFT 1920×1080 at (0, 0), red above green; RIGHT 1080×1200 at (1920, 0), blue left of
    yellow. RIGHT is defined first, so the host must sort. The strip below LEFT belongs to no monitor."""
    with VirtualScreen(3000, 1200) as screen:
        screen.set_monitor("RIGHT", 1920, 0, 1080, 1200)
        # Giving the one output to LEFT removes the automatic monitor that covers the whole screen.
        screen.set_monitor("LEFT", 0, 0, 1920, 1080, output="screen")
        assert "Monitors: 2" in screen.monitors(), screen.monitors()
        screen.paint([
            (0, 0, 1920, 540, RED), (0, 540, 1920, 540, GREEN), (0, 1080, 1920, 120, 0xFFFFFF),
            (1920, 0, 540, 1200, BLUE), (2460, 0, 540, 1200, YELLOW),
        ])
        yield screen


@pytest.fixture
def viewer_host(tmp_path, two_monitors):
    host = Daemon(home=tmp_path, env={"DISPLAY": two_monitors.display}).start()
    yield host
    host.stop()


def thumbnail(entry):
    prefix = "data:image/jpeg;base64,"
    assert entry["thumbnail"].startswith(prefix)
    image = Image.open(io.BytesIO(base64.b64decode(entry["thumbnail"][len(prefix):])))
    assert image.format == "JPEG"
    return image.convert("RGB")


def near(pixel, colour):
    expected = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)
    return all(abs(a - b) <= 16 for a, b in zip(pixel, expected))


async def list_displays(client):
    await client.send({"type": "listDisplays"})
    return await client.recv_type("displays", timeout=20)


def test_an_allowed_device_sees_each_monitor_left_to_right_with_its_own_picture(viewer_host):
    async def scenario():
        client, _, _ = await paired_device(viewer_host, "Tablet")
        viewer_host.cli("devices", "allow-screen", "Tablet", "on")
        answer = await list_displays(client)
        await client.close()
        return answer

    answer = run(scenario())
    assert answer["status"] == "ok"
    left, right = answer["displays"]
    assert (left["name"], left["width"], left["height"]) == ("LEFT", 1920, 1080)
    assert (right["name"], right["width"], right["height"]) == ("RIGHT", 1080, 1200)
    assert isinstance(left["id"], int) and isinstance(right["id"], int) and left["id"] != right["id"]

    picture = thumbnail(left)
    assert picture.size == (320, 180)
    assert near(picture.getpixel((160, 45)), RED), picture.getpixel((160, 45))
    assert near(picture.getpixel((160, 135)), GREEN), picture.getpixel((160, 135))
    assert near(picture.getpixel((5, 175)), GREEN) and near(picture.getpixel((314, 5)), RED)

    picture = thumbnail(right)
    assert picture.size == (288, 320)
    assert near(picture.getpixel((72, 160)), BLUE), picture.getpixel((72, 160))
    assert near(picture.getpixel((216, 160)), YELLOW), picture.getpixel((216, 160))
    assert near(picture.getpixel((5, 315)), BLUE) and near(picture.getpixel((282, 5)), YELLOW)


def test_a_device_not_allowed_learns_nothing_and_allow_screen_applies_at_once(viewer_host):
    async def scenario():
        client, _, _ = await paired_device(viewer_host, "Stranger")
        hidden = await list_displays(client)
        viewer_host.cli("devices", "allow-screen", "Stranger", "on")
        shown = await list_displays(client)
        viewer_host.cli("devices", "allow-screen", "Stranger", "off")
        hidden_again = await list_displays(client)
        await client.close()
        return hidden, shown, hidden_again

    hidden, shown, hidden_again = run(scenario())
    # Nothing but the status: no names, no sizes, no thumbnails.
    assert hidden == {"type": "displays", "status": "notAllowed", "displays": []}
    assert shown["status"] == "ok" and [d["name"] for d in shown["displays"]] == ["LEFT", "RIGHT"]
    assert hidden_again == hidden


def test_a_host_with_no_display_answers_no_permission(tmp_path):
    host = Daemon(home=tmp_path, env={"DISPLAY": ""}).start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Tablet")
            host.cli("devices", "allow-screen", "Tablet", "on")
            answer = await list_displays(client)
            # The host carries on serving the device.
            await client.send({"type": "listApps"})
            await client.recv_type("apps", timeout=20)
            await client.close()
            return answer

        answer = run(scenario())
        # Extend is not offered either, and the answer says why.
        extend = answer.pop("extend")
        assert extend["offered"] is False and extend["reason"]
        assert answer == {"type": "displays", "status": "noPermission", "displays": []}
    finally:
        host.stop()


def screen_column(listing):
    """`touchdeck devices` as {name: its SCREEN column}."""
    rows = listing.splitlines()
    header = next(i for i, row in enumerate(rows) if row.startswith("NAME  "))
    table = rows[header + 1:]
    table = table[:table.index("")] if "" in table else table
    return {cells[0]: cells[1] for cells in (re.split(r"\s{2,}", row) for row in table)}


def test_a_device_that_pairs_again_starts_without_screen_permission(viewer_host):
    """DESIGN.md#viewing: the screen permission is off again when a device pairs anew, whether it pairs again
    under the same name while its old pairing stands (it lost its keys) or after `touchdeck devices revoke`, on
    the connection its revoked id was refused on (PROTOCOL §2)."""
    async def scenario():
        first, first_id, first_secret = await paired_device(viewer_host, "Tablet")
        viewer_host.cli("devices", "allow-screen", "Tablet", "on")
        assert (await list_displays(first))["status"] == "ok", "the permission works before pairing again"
        await first.close()

        # The same device pairs again with the same name, its first pairing still standing.
        again, again_id, _ = await paired_device(viewer_host, "Tablet")
        assert again_id != first_id
        assert await list_displays(again) == NOT_ALLOWED
        assert screen_column(viewer_host.cli("devices")) == {"Tablet": "on", "Tablet 2": "off"}
        await again.close()

        # Revoked, it pairs again on the connection that was refused its old id, and gets back its name.
        viewer_host.cli("devices", "revoke", "Tablet 2")
        viewer_host.cli("devices", "revoke", "Tablet")
        pin = viewer_host.pin()
        client = await DeckClient.connect(f"ws://127.0.0.1:{viewer_host.port}/ws")
        with pytest.raises(Unauthorized) as refused:
            await client.authenticate(first_id, first_secret)
        assert refused.value.reason == "unknownDevice"
        assert (await client.hello("Tablet"))["type"] == "needPairing"
        device_id, secret = await client.pair(pin)
        assert device_id != first_id
        await client.authenticate(device_id, secret)
        await client.recv_type("layout")
        assert await list_displays(client) == NOT_ALLOWED
        assert screen_column(viewer_host.cli("devices")) == {"Tablet": "off"}
        await client.close()

    run(scenario())
