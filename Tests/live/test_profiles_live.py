"""Profiles against the real daemon (PROTOCOL §6 "Profiles"): two devices, one following the shared profile and one
keeping its own, a profile key that switches the shared one, a protocol-2 device shown the current profile as its
deck, the choice remembered per device across a restart; `touchdeck profile list|switch|export|import` round trip,
icons carried; and every bad import (truncated, huge, a later version, an icon it does not carry) refused with a
clear error and config.json byte-identical, from the CLI and from a device."""

import base64
import hashlib
import json

from livehelpers import paired_device, reconnect, run

KEY = {"label": "Blog", "kind": "command", "command": "blogrun"}
GO_PHONE = {"label": "Phone deck", "kind": "profile", "profile": "Phone"}
# The first bytes of a PNG; the host only checks the signature and the digest of a stored icon it is given.
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + b"\x00\x00\x00\x0dIHDR" + bytes(13)
ICON = hashlib.sha256(PNG).hexdigest()[:32] + ".png"


async def before_marker(client):
    """Every message the host sent this client until now: a press of an empty slot is answered after them all."""
    await client.send({"type": "press", "page": 0, "index": 11})
    seen = []
    while True:
        message = await client.recv()
        if message.get("type") == "pressResult" and message.get("index") == 11:
            assert message["reason"] == "empty slot", message
            return seen
        seen.append(message)


def layouts(messages):
    return [m for m in messages if m.get("type") == "layout"]


def test_one_device_follows_one_keeps_its_own_and_a_profile_key_switches(daemon):
    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        phone, phone_id, phone_secret = await paired_device(daemon, "Phone", protocol=3)
        old, _, _ = await paired_device(daemon, "Old", protocol=2)
        assert (await tablet.recv_type("profiles")) == {
            "type": "profiles", "names": ["Default"], "current": "Default", "shown": "Default", "follows": True}
        await tablet.send({"type": "setButton", "page": 0, "index": 0, "button": KEY})
        await tablet.send({"type": "addProfile", "name": "Phone"})
        shown = await tablet.recv_type("profiles")
        assert shown["names"] == ["Default", "Phone"] and shown["current"] == "Default", shown
        await before_marker(phone)

        # The phone keeps a profile of its own: switching it changes only the phone's deck.
        await phone.send({"type": "followProfile", "follow": False})
        assert (await phone.recv_type("profiles"))["follows"] is False
        await phone.send({"type": "switchProfile", "name": "Phone"})
        mine = await phone.recv_type("layout")
        assert mine["profile"] == "Phone" and mine["pages"] == [[None] * 12], mine
        assert (await phone.recv_type("profiles"))["shown"] == "Phone"
        await phone.send({"type": "setButton", "page": 0, "index": 3, "button": KEY})
        assert (await phone.recv_type("layout"))["pages"][0][3] == KEY
        assert layouts(await before_marker(tablet)) == [], "only the phone's deck changed"
        assert all(m["profile"] == "Default" for m in layouts(await before_marker(old)))

        # A profile key on the shared deck switches the shared profile: the tablet and the old device go along, the
        # phone that keeps its own stays (it is told the shared one changed).
        await tablet.send({"type": "setButton", "page": 0, "index": 1, "button": GO_PHONE})
        await tablet.send({"type": "press", "page": 0, "index": 1})
        result = await tablet.recv_type("pressResult")
        assert result["ok"] is True and result["index"] == 1, result
        switched = await tablet.recv_type("layout")
        assert switched["profile"] == "Phone" and switched["pages"][0][3] == KEY
        seen = await before_marker(old)
        assert [m["pages"][0][3] for m in layouts(seen)][-1] == KEY, "the protocol-2 device shows the current one"
        assert "profiles" not in {m["type"] for m in seen}, "a protocol-2 device is not sent profiles"
        seen = await before_marker(phone)
        assert layouts(seen) == [] and seen[-1]["current"] == "Phone" and seen[-1]["shown"] == "Phone", seen

        listing = daemon.cli("profile", "list")
        assert "* Phone (4x3, 1 page) — kept by Phone" in listing and "  Default (4x3, 1 page)" in listing, listing
        out = daemon.cli("profile", "switch", "Default")
        assert out.startswith("Devices that follow the shared profile now show Default.\n* Default"), out
        assert (await tablet.recv_type("layout"))["profile"] == "Default"
        assert daemon.cli_failure("profile", "switch", "Nope") == "touchdeck: no profile is called Nope\n"
        await phone.send({"type": "press", "page": 0, "index": 3})  # a key of the phone's own deck runs
        assert (await phone.recv_type("pressResult"))["ok"] is True
        for client in (tablet, phone, old):
            await client.close()
        return phone_id, phone_secret

    remembered = run(scenario())
    record = next(d for d in json.loads((daemon.config_dir / "devices.json").read_text())["devices"]
                  if d["id"] == remembered[0])
    assert record["profile"] == "Phone", "remembered by device id"
    daemon.stop()
    daemon.start()

    async def after_restart():
        # The device id keeps its own profile; the shared one is the one switched to last.
        phone, layout = await reconnect(daemon, *remembered)
        assert layout["profile"] == "Phone" and layout["pages"][0][3] == KEY
        assert daemon.cli("profile").startswith("* Default (4x3, 1 page)\n  Phone (4x3, 1 page) — kept by Phone")
        await phone.close()

    run(after_restart())


def test_export_and_import_round_trip_and_each_bad_import_leaves_the_config_untouched(daemon, tmp_path):
    config = daemon.config_dir / "config.json"

    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        (daemon.config_dir / "icons").mkdir()
        (daemon.config_dir / "icons" / ICON).write_bytes(PNG)  # as an upload would have stored it
        pictured = {**KEY, "icon": {"image": ICON}}
        await tablet.send({"type": "setGrid", "grid": "3x2"})
        await tablet.send({"type": "setButton", "page": 0, "index": 2, "button": pictured})
        layout = await tablet.recv_type("layout")
        layout = await tablet.recv_type("layout")
        assert layout["pages"][0][2] == pictured, layout
        missing = {**KEY, "icon": {"image": "0" * 32 + ".png"}}
        await tablet.send({"type": "setButton", "page": 0, "index": 3, "button": missing})
        refused = await tablet.recv_type("error")
        assert refused["message"] == f"the icon {'0' * 32}.png is not stored on this host", refused

        exported = tmp_path / "default.json"
        assert daemon.cli("profile", "export", "Default", str(exported)) == f"Exported Default to {exported}.\n"
        file = json.loads(exported.read_text())
        assert file["format"] == "touchdeck-profile" and file["version"] == 1 and file["name"] == "Default"
        assert file["layout"]["grid"] == "3x2" and file["layout"]["pages"][0][2] == pictured
        assert base64.b64decode(file["icons"][ICON]) == PNG, "the stored icon travels inside"

        # The icon is gone from this host (as on another computer): the import brings it back.
        (daemon.config_dir / "icons" / ICON).unlink()
        out = daemon.cli("profile", "import", str(exported))
        assert out.startswith("Imported as Default (2).\n") and "  Default (2) (3x2, 1 page)" in out, out
        assert (daemon.config_dir / "icons" / ICON).read_bytes() == PNG
        assert (await tablet.recv_type("profiles"))["names"] == ["Default", "Default (2)"]
        saved = json.loads(config.read_text())["profiles"]
        assert saved[1]["name"] == "Default (2)" and saved[1]["layout"] == saved[0]["layout"]

        text = exported.read_text()
        bad = {
            "truncated": (text[: len(text) // 2], "the profile file is not complete JSON (cut short?)"),
            "huge": (" " * (3 << 20) + text, "the profile file is larger than 2 MiB"),
            "later": (json.dumps({**file, "version": 2}),
                      "the profile file is version 2, made by a later TouchDeck; this host reads version 1"),
            "iconless": (json.dumps({**file, "icons": {}}),
                         f"a key shows the icon {ICON}, which the profile file does not carry"),
        }
        before = config.read_bytes()
        for name, (content, reason) in bad.items():
            path = tmp_path / f"{name}.json"
            path.write_text(content)
            said = daemon.cli_failure("profile", "import", str(path))
            assert reason in said, (name, said)
            assert config.read_bytes() == before, f"{name}: the config changed"
            if name == "huge":
                continue  # the host's cap is also the device's: a message past it is refused the same way below
            await tablet.send({"type": "importProfile", "file": content})
            error = await tablet.recv_type("error")
            assert error["code"] == "badMessage" and error["request"] == "importProfile", error
            assert reason in error["message"], (name, error)
            assert config.read_bytes() == before, f"{name} from a device: the config changed"
        await tablet.send({"type": "importProfile", "file": " " * (2 << 20) + "{}"})
        error = await tablet.recv_type("error")
        assert error["message"] == "the profile file is larger than 2 MiB", error
        assert config.read_bytes() == before
        await tablet.close()

    run(scenario())
