"""Stored icons against the real daemon (PROTOCOL §6 "Stored icons", issue 22 "Looks"): a 4000×3000 JPEG chosen on
a device becomes a 144×108 PNG in icons/ (0600, named by the start of its SHA-256), a key shows it by name only —
the layout every device gets carries no picture — and `getIcon` hands the PNG to another device. SVG, a file that is
no picture, a file over 1 MiB and a 20 MiB one (over the 16 MiB message limit once sealed: the connection is closed)
are refused with their reasons, config.json byte-identical and no icon written; so is a device that may not edit."""

import base64
import hashlib
import io
import json
import stat

from PIL import Image, ImageDraw

from livehelpers import closed_code, paired_device, reconnect, run

MARKER = 11  # an empty slot: its press is answered after everything the host sent before


def photo(width=4000, height=3000):
    """A JPEG of `width`×`height` under 1 MiB: a red left half with a white disc, a blue right half."""
    image = Image.new("RGB", (width, height), (20, 80, 200))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width // 2 - 1, height], fill=(220, 30, 30))
    draw.ellipse([width // 8, height // 4, width * 3 // 8, height * 3 // 4], fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


async def until_marker(client):
    """Every message the host sent `client` before the answer to a press of the empty MARKER slot."""
    await client.send({"type": "press", "page": 0, "index": MARKER})
    seen = []
    while True:
        message = await client.recv(timeout=15)
        if message.get("type") == "pressResult" and message.get("index") == MARKER:
            assert message["reason"] == "empty slot", message
            return seen
        seen.append(message)


async def store(client, data, timeout=20):
    """Sends `storeIcon` and returns the answer: `iconStored` or the `error` for it."""
    await client.send({"type": "storeIcon", "data": base64.b64encode(data).decode()})
    while True:
        message = await client.recv(timeout=timeout)
        if message.get("type") == "iconStored" or message.get("request") == "storeIcon":
            return message


def test_a_big_photo_becomes_a_144px_png_a_key_shows_by_name_and_another_device_gets_it(daemon):
    jpeg = photo()
    assert len(jpeg) <= 1 << 20, len(jpeg)
    icons = daemon.config_dir / "icons"

    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        phone, _, _ = await paired_device(daemon, "Phone", protocol=3)
        stored = await store(tablet, jpeg)
        assert stored["type"] == "iconStored", stored
        name = stored["name"]
        png = (icons / name).read_bytes()
        assert name == hashlib.sha256(png).hexdigest()[:32] + ".png", "named by the start of its digest"
        assert stat.S_IMODE((icons / name).stat().st_mode) == 0o600
        assert stat.S_IMODE(icons.stat().st_mode) == 0o700
        picture = Image.open(io.BytesIO(png))
        assert (picture.format, picture.size, picture.mode) == ("PNG", (144, 108), "RGBA")
        red, blue, white = picture.getpixel((10, 10)), picture.getpixel((130, 10)), picture.getpixel((36, 54))
        assert max(abs(a - b) for a, b in zip(red, (220, 30, 30, 255))) <= 8, red
        assert max(abs(a - b) for a, b in zip(blue, (20, 80, 200, 255))) <= 8, blue
        assert min(white[:3]) >= 240, white
        assert (await store(tablet, jpeg))["name"] == name, "the same picture again: the same icon"
        assert sorted(p.name for p in icons.iterdir()) == [name], "one file, no leftovers"

        key = {"label": "Photo", "kind": "command", "command": "true", "icon": {"image": name}, "hideLabel": True}
        await tablet.send({"type": "setButton", "page": 0, "index": 4, "button": key})
        layout = await tablet.recv_type("layout")
        assert layout["pages"][0][4] == key
        shown = await phone.recv_type("layout")
        assert shown["pages"][0][4] == key
        wire = json.dumps(shown)
        assert len(wire) < 1000 and base64.b64encode(png)[:40].decode() not in wire, "the layout carries the name only"
        assert daemon.saved_layout()["pages"][0][4] == key

        await phone.send({"type": "getIcon", "name": name})
        icon = await phone.recv_type("icon")
        assert icon["name"] == name and base64.b64decode(icon["data"]) == png
        absent = "0" * 32 + ".png"
        await phone.send({"type": "getIcon", "name": absent})
        assert await phone.recv_type("icon") == {"type": "icon", "name": absent}, "no data: not stored here"
        await phone.send({"type": "getIcon", "name": "../config.json"})
        refused = await phone.recv_type("error")
        assert refused["code"] == "badMessage" and refused["request"] == "getIcon", refused
        for client in (tablet, phone):
            await client.close()

    run(scenario())


def test_svg_other_files_and_large_files_are_refused_with_the_reason_and_nothing_changes(daemon):
    config = daemon.config_dir / "config.json"
    icons = daemon.config_dir / "icons"
    svg = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    over = photo(400, 300) + bytes((1 << 20) + 1000)  # a JPEG's bytes, padded past 1 MiB
    refusals = [
        (svg, "SVG is not accepted (an SVG file can carry script): choose a PNG, JPEG or WebP image"),
        (b"GIF89a\x01\x00\x01\x00", "not a PNG, JPEG or WebP image"),
        (over, f"the image is {len(over)} bytes; at most 1 MiB (1048576 bytes)"),
        (b"\x89PNG\r\n\x1a\n" + bytes(300), "the image could not be read as a PNG"),
    ]

    async def scenario():
        tablet, device_id, secret = await paired_device(daemon, "Tablet", protocol=3)
        await tablet.send({"type": "setButton", "page": 0, "index": 0,
                           "button": {"label": "A", "kind": "command", "command": "true"}})
        await tablet.recv_type("layout")
        before = config.read_bytes()
        for data, reason in refusals:
            refused = await store(tablet, data)
            assert refused["type"] == "error" and refused["code"] == "badMessage", refused
            assert refused["message"].startswith(reason), refused
            assert [m["type"] for m in await until_marker(tablet)] == [], "nothing else came"
        assert config.read_bytes() == before
        assert not icons.exists() or list(icons.iterdir()) == []

        # 20 MiB: sealed, the message is over the 16 MiB limit, and the host closes the connection unread.
        await tablet.send({"type": "storeIcon", "data": base64.b64encode(photo(400, 300) + bytes(20 << 20)).decode()})
        assert await closed_code(tablet, timeout=30) == 1009
        assert config.read_bytes() == before
        assert not icons.exists() or list(icons.iterdir()) == []
        again, layout = await reconnect(daemon, device_id, secret)
        assert layout["pages"][0][0]["label"] == "A", "the host goes on"
        await again.close()

    run(scenario())


def test_a_device_that_may_not_edit_cannot_store_an_icon_but_may_get_one(daemon):
    icons = daemon.config_dir / "icons"
    config = daemon.config_dir / "config.json"

    async def scenario():
        owner, _, _ = await paired_device(daemon, "Owner", protocol=3)
        guest, _, _ = await paired_device(daemon, "Guest", protocol=3)
        name = (await store(owner, photo(800, 600)))["name"]
        assert "Deck editing denied for Guest" in daemon.cli("devices", "allow-edit", "Guest", "off")
        assert (await guest.recv_type("editPermission", timeout=10))["allowed"] is False
        before = config.read_bytes()
        refused = await store(guest, photo(600, 800))
        assert refused["type"] == "error" and refused["code"] == "notAllowed", refused
        assert refused["request"] == "storeIcon" and 'touchdeck devices allow-edit "Guest" on' in refused["message"]
        assert sorted(p.name for p in icons.iterdir()) == [name], "nothing written"
        assert config.read_bytes() == before
        await guest.send({"type": "getIcon", "name": name})
        assert base64.b64decode((await guest.recv_type("icon"))["data"]) == (icons / name).read_bytes()
        for client in (owner, guest):
            await client.close()

    run(scenario())
