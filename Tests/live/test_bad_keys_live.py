"""Bad keys get a clear error and the config is untouched (issue 22, PROTOCOL §6 "Layout"), on the real daemon.

A hotkey of five modifiers and no key is refused with the reason Tests/Fixtures/rules/chords.json gives for it (the
words DeckKit's KeyChord.Problem and the fixture share), not a generic "invalid value"; a text key of 1 MiB, which
sealed (about 1.4 MiB) is well under the 16 MiB a paired device may send, reaches the layout's check and is refused
as longer than 4096 characters. Each time config.json stays byte-identical, and the device, and a new connection of
it, can still press."""

import json
import pathlib

from deskhome import eventually
from livehelpers import Daemon, paired_device, reconnect, run

CHORDS = json.loads((pathlib.Path(__file__).resolve().parents[1] / "Fixtures/rules/chords.json").read_text())
MARKER = 11  # an empty slot: its press is answered after everything the host sent before


async def until_marker(client):
    """Every message the host sent `client` before the answer to a press of the empty MARKER slot."""
    await client.send({"type": "press", "page": 0, "index": MARKER})
    seen = []
    while True:
        message = await client.recv(timeout=15)
        if message.get("type") == "pressResult" and message.get("index") == MARKER:
            return seen
        seen.append(message)


def refused_without_change(daemon, tmp_path, bad, reason):
    """Sets a command key, then sends `bad` in slot 1: it must be refused with `reason` and nothing else, leave
    config.json byte-identical, and the key must still press from this connection and from a new one."""
    config = daemon.config_dir / "config.json"
    pressed = tmp_path / "pressed.txt"
    write = {"label": "Write", "kind": "command", "command": f"echo pressed >> '{pressed}'"}

    async def scenario():
        client, device_id, secret = await paired_device(daemon, "Tablet", protocol=3)
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": write})
        assert (await client.recv_type("layout"))["pages"][0][0] == write
        await until_marker(client)
        before = config.read_bytes()

        await client.send({"type": "setButton", "page": 0, "index": 1, "button": bad})
        seen = await until_marker(client)
        assert seen == [{"type": "error", "code": "badMessage", "message": reason, "request": "setButton"}], seen
        assert config.read_bytes() == before, "a refused key changed config.json"

        await client.send({"type": "press", "page": 0, "index": 0})
        result = await client.recv_type("pressResult", timeout=15)
        assert result["index"] == 0 and result["ok"] is True, result
        assert eventually(lambda: pressed.exists() and pressed.read_text() == "pressed\n"), "the key did not run"
        again, layout = await reconnect(daemon, device_id, secret)
        assert layout["pages"][0][:2] == [write, None], layout["pages"][0]
        await again.send({"type": "press", "page": 0, "index": 0})
        assert (await again.recv_type("pressResult", timeout=15))["ok"] is True
        assert eventually(lambda: pressed.read_text() == "pressed\n" * 2), "the key did not run again"
        await client.close()
        await again.close()
        return before

    before = run(scenario())
    assert config.read_bytes() == before


def test_a_hotkey_of_five_modifiers_and_no_key_is_refused_with_its_reason(tmp_path):
    five = next(c for c in CHORDS["chords"] if c["name"] == "five modifiers and no key")
    assert "key" not in five and len(five["modifiers"]) == 5 and five["problem"] == "noKey", five
    bad = {"label": "Chord", "kind": "hotkey", "modifiers": five["modifiers"]}
    daemon = Daemon(home=tmp_path / "home").start()
    try:
        refused_without_change(daemon, tmp_path, bad, "a hotkey needs a key besides its modifiers")
        assert CHORDS["reasons"]["noKey"] == "a hotkey needs a key besides its modifiers"
    finally:
        daemon.stop()


def test_a_text_key_of_1_MiB_is_refused_as_too_long(tmp_path):
    bad = {"label": "Snippet", "kind": "text", "text": "x" * (1 << 20), "enter": False}
    daemon = Daemon(home=tmp_path / "home").start()
    try:
        refused_without_change(daemon, tmp_path, bad, "the text is too long (at most 4096)")
    finally:
        daemon.stop()


def test_a_text_key_of_4096_characters_is_kept_and_4097_is_not(tmp_path):
    """The limit the 1 MiB text met is the text's own, in characters: 4096 of them, each two bytes, is kept."""
    daemon = Daemon(home=tmp_path / "home").start()

    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        at_limit = {"label": "Snippet", "kind": "text", "text": "é" * 4096, "enter": False}
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": at_limit})
        assert (await client.recv_type("layout"))["pages"][0][0] == at_limit
        await client.send({"type": "setButton", "page": 0, "index": 1, "button": {**at_limit, "text": "é" * 4097}})
        refused = await client.recv_type("error")
        await client.close()
        return refused

    try:
        refused = run(scenario())
    finally:
        daemon.stop()
    assert refused == {"type": "error", "code": "badMessage", "message": "the text is too long (at most 4096)",
                       "request": "setButton"}, refused
