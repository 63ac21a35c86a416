"""Edit permission against the real daemon (issue 20.3, PROTOCOL §6 "Who may edit"): a device that may not change
the deck is refused every edit message a device can send — `setButton`, `clearButton`, `moveButton`, `setGrid`,
`undo`, `addProfile`, `deleteProfile` and `importProfile` (every `mayEdit` guard of DeckServer+Requests and
DeckServer+Profiles) — each with `error{code:"notAllowed", request:T}` naming the `allow-edit` command and nothing
else: no `layout`, `profiles` or `profileImported` for it or for any other device, config.json byte-identical and
no icon written. It can still press the owner's keys. Once allowed, the very same messages are all accepted, so
each refusal above was the permission's, not a malformed message's."""

import base64
import hashlib
import json

from deskhome import eventually
from livehelpers import paired_device, run

GUEST = "Guest phone"
MARKER = 11  # an empty slot of the 4x3 page: its press is answered after everything the host sent before
# The first bytes of a PNG; the host checks the signature and that the name starts the picture's SHA-256.
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + b"\x00\x00\x00\x0dIHDR" + bytes(13)
ICON = hashlib.sha256(PNG).hexdigest()[:32] + ".png"


async def until_marker(client):
    """Every message the host sent `client` before the answer to a press of the empty MARKER slot."""
    await client.send({"type": "press", "page": 0, "index": MARKER})
    seen = []
    while True:
        message = await client.recv(timeout=15)
        if message.get("type") == "pressResult" and message.get("index") == MARKER:
            assert message == {"type": "pressResult", "page": 0, "index": MARKER, "ok": False,
                               "reason": "empty slot"}, message
            return seen
        seen.append(message)


def edits(profile_file):
    """Every edit message a device can send, each valid for the deck the owner set up (the same list is accepted
    in order once the guest may edit), with the answer that shows it took effect."""
    snoop = {"label": "ls", "kind": "command", "command": "ls ~/Videos/TouchDeck"}
    return [
        ({"type": "setButton", "page": 0, "index": 1, "button": snoop}, "layout"),
        ({"type": "moveButton", "fromPage": 0, "fromIndex": 1, "toPage": 0, "toIndex": 5}, "layout"),
        ({"type": "clearButton", "page": 0, "index": 5}, "layout"),
        ({"type": "setGrid", "grid": "3x2"}, "layout"),
        ({"type": "undo"}, "layout"),  # the owner's setup left undo steps: an undo would change the deck
        ({"type": "addProfile", "name": "Guest's own"}, "profiles"),
        ({"type": "deleteProfile", "name": "Spare"}, "profiles"),
        ({"type": "importProfile", "file": profile_file}, "profileImported"),
    ]


def test_a_device_that_may_not_edit_is_refused_every_edit_message_and_can_still_press(daemon, tmp_path):
    config = daemon.config_dir / "config.json"
    icons = daemon.config_dir / "icons"
    pressed = tmp_path / "pressed.txt"

    async def scenario():
        owner, _, _ = await paired_device(daemon, "Owner tablet", protocol=3)
        guest, _, _ = await paired_device(daemon, GUEST, protocol=3)
        # The owner's deck: a key with a stored icon, a command key, a second profile, and undo steps.
        icons.mkdir()
        (icons / ICON).write_bytes(PNG)  # as an upload would have stored it
        write = {"label": "Write", "kind": "command", "command": f"echo pressed >> '{pressed}'"}
        for index, button in [(0, write), (2, {"label": "Pic", "kind": "command", "command": "true",
                                               "icon": {"image": ICON}})]:
            await owner.send({"type": "setButton", "page": 0, "index": index, "button": button})
            assert (await owner.recv_type("layout"))["pages"][0][index] == button
        await owner.send({"type": "addProfile", "name": "Spare"})
        assert (await owner.recv_type("profiles"))["names"] == ["Default", "Spare"]
        exported = tmp_path / "export.json"
        daemon.cli("profile", "export", "Default", str(exported))
        file = json.loads(exported.read_text())
        assert base64.b64decode(file["icons"][ICON]) == PNG, "the file carries the icon"
        profile_file = json.dumps({**file, "name": "Imported"})
        (icons / ICON).unlink()  # an import would write it back: a refused one must not

        assert "Deck editing denied for Guest phone" in daemon.cli("devices", "allow-edit", GUEST, "off")
        assert await guest.recv_type("editPermission", timeout=10) == {"type": "editPermission", "allowed": False}
        await until_marker(owner)
        await until_marker(guest)
        before = config.read_bytes()

        for edit, _ in edits(profile_file):
            await guest.send(edit)
            seen = await until_marker(guest)
            assert [m["type"] for m in seen] == ["error"], (edit["type"], seen)
            refused = seen[0]
            assert refused["code"] == "notAllowed" and refused["request"] == edit["type"], refused
            assert f'touchdeck devices allow-edit "{GUEST}" on' in refused["message"], refused
            assert config.read_bytes() == before, f"{edit['type']} changed the config"
        assert not (icons / ICON).exists(), "the refused import wrote its icon"
        told = await until_marker(owner)
        assert [m for m in told if m["type"] in ("layout", "profiles")] == [], "another device saw a change"

        # Pressing the owner's keys still works.
        await guest.send({"type": "press", "page": 0, "index": 0})
        result = await guest.recv_type("pressResult", timeout=15)
        assert result["index"] == 0 and result["ok"] is True, result
        assert eventually(lambda: pressed.exists() and pressed.read_text() == "pressed\n"), "the key did not run"

        # The same messages from the same device, once it may edit, are all accepted.
        daemon.cli("devices", "allow-edit", GUEST, "on")
        assert (await guest.recv_type("editPermission", timeout=10))["allowed"] is True
        for edit, answer in edits(profile_file):
            await guest.send(edit)
            reply = await guest.recv_type(answer, timeout=15)
            if edit["type"] == "importProfile":
                assert reply["name"] == "Imported", reply
        await until_marker(owner)
        for client in (owner, guest):
            await client.close()

    run(scenario())
    saved = json.loads(config.read_text())
    assert [p["name"] for p in saved["profiles"]] == ["Default", "Guest's own", "Imported"], saved["profiles"]
    assert (icons / ICON).read_bytes() == PNG, "the accepted import wrote its icon"
    layout = daemon.saved_layout()
    assert layout["pages"][0][1] is None and layout["pages"][0][5] is None, "moved, then cleared"
    assert layout.get("grid", "4x3") == "4x3", "setGrid was undone"
