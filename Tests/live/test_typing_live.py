"""Typing on the real daemon under the test desktop's Xvfb (PROTOCOL §6 "Text input", DESIGN.md#typing): text lands as
characters in an X text field that records what it receives (Tests/support/xtext.py) under the `us` and `de`
layouts, Return lands after the text, the special keys arrive as keys, only the viewer may type, and a
protocol-1 device is told typing needs protocol 2."""

import os
import pathlib
import subprocess
import sys

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, press_key, run

XTEXT = pathlib.Path(__file__).resolve().parents[1] / "support" / "xtext.py"
TEXT = "안녕하세요 café ✓ 123"


@pytest.fixture
def host(tmp_path):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop (make test-py)")
    daemon = Daemon(home=tmp_path).start()
    yield daemon
    daemon.stop()


@pytest.fixture
def field(tmp_path):
    """Starts the recording text field; yields a function that reads what it received so far."""
    out = tmp_path / "field.txt"
    recorder = subprocess.Popen([sys.executable, str(XTEXT), str(out)])
    assert eventually(out.exists), "the X text field did not open"
    yield lambda: out.read_text(encoding="utf-8")
    recorder.terminate()
    recorder.wait(10)


@pytest.fixture
def layout():
    """Sets an X keyboard layout for the test; `us` again afterwards."""
    def use(name):
        subprocess.run(["setxkbmap", name], check=True, timeout=10)
    yield use
    use("us")


async def viewer(host, name="Tablet", protocol=2):
    """A paired device, allowed to view, viewing the first monitor (typing needs viewing)."""
    client, _, _ = await paired_device(host, name, protocol=protocol)
    host.cli("devices", "allow-screen", name, "on")
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    assert (await client.recv_type("screenStarted", timeout=20))["type"] == "screenStarted"
    return client


@pytest.mark.parametrize("name", ["us", "de"])
def test_text_lands_as_characters_and_return_after_it(host, field, layout, name):
    layout(name)

    async def scenario():
        client = await viewer(host)
        await client.send({"type": "typeText", "text": TEXT, "enter": True})
        assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        # Again: the spare keycodes are bound already, the text still lands (and the layout's own keys too).
        await client.send({"type": "typeText", "text": "é=ü y"})
        assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        await client.close()

    run(scenario())
    expected = TEXT + "<Return>" + "é=ü y"
    assert eventually(lambda: field() == expected), f"the field received {field()!r}"


def test_a_text_needing_more_keysyms_than_there_are_spare_keycodes_still_lands_exactly(host, field):
    # Xvfb's evdev keymap has 19 keycodes with no keysyms; 120 different syllables need them reused, in steps.
    syllables = "".join(chr(0xAC00 + 37 * n) for n in range(120))
    text = f"{syllables} {syllables[::-1]}"

    async def scenario():
        client = await viewer(host)
        await client.send({"type": "typeText", "text": text})
        assert await client.recv_type("typed", timeout=60) == {"type": "typed", "ok": True}
        await client.close()

    run(scenario())
    assert eventually(lambda: field() == text), f"the field received {field()!r}"


def test_line_breaks_sent_by_a_careless_device_never_press_return(host, field):
    async def scenario():
        client = await viewer(host)
        await client.send({"type": "typeText", "text": "ls\r\nrm\t-x"})
        assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        await client.close()

    run(scenario())
    assert eventually(lambda: field() == "ls rm -x"), f"the field received {field()!r}"


def test_special_keys_arrive_as_keys_in_order(host, field, layout):
    layout("de")
    keys = ["esc", "tab", "shiftTab", "up", "down", "left", "right", "selectAll", "backspace", "ctrlC", "return"]

    async def scenario():
        client = await viewer(host)
        for key in keys:
            await client.send({"type": "pressKey", "key": key})
        for _ in keys:
            assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        await client.close()

    run(scenario())
    expected = ("<Escape><Tab><ISO_Left_Tab><Up><Down><Left><Right><Ctrl+a><BackSpace><Ctrl+c><Return>")
    assert eventually(lambda: field() == expected), f"the field received {field()!r}"


def test_chords_and_the_panels_keys_arrive_with_their_modifiers_whatever_the_layout(host, field, layout):
    # On a German layout z and y swap places: Ctrl+Z must press the key that types z.
    layout("de")
    chords = [("z", ["ctrl"]), ("t", ["ctrl", "shift"]), ("tab", ["alt"]), ("e", ["super"]), ("f5", []),
              ("pageUp", []), ("pageDown", []), ("home", []), ("end", []), ("delete", []), ("f12", ["ctrl"])]

    async def scenario():
        client = await viewer(host)
        for key, modifiers in chords:
            await client.send({"type": "pressKey", "key": key, "modifiers": modifiers})
        answers = [await client.recv_type("typed", timeout=20) for _ in chords]
        await client.close()
        return answers

    assert run(scenario()) == [{"type": "typed", "ok": True}] * len(chords)
    expected = "<Ctrl+z><Ctrl+Shift+T><Alt+Tab><Super+e><F5><Prior><Next><Home><End><Delete><Ctrl+F12>"
    assert eventually(lambda: field() == expected), f"the field received {field()!r}"


def test_only_the_viewer_may_type(host, field):
    async def scenario():
        watcher = await viewer(host, "Viewer")
        other, _, _ = await paired_device(host, "Other")
        await other.send({"type": "typeText", "text": "intruder", "enter": True})
        assert await other.recv_type("typed") == {"type": "typed", "ok": False,
                                                 "reason": "only the device viewing the screen may type"}
        await other.send({"type": "pressKey", "key": "return"})
        assert (await other.recv_type("typed"))["ok"] is False
        await watcher.send({"type": "typeText", "text": "mine"})
        assert await watcher.recv_type("typed") == {"type": "typed", "ok": True}
        await other.close()
        await watcher.close()

    run(scenario())
    assert eventually(lambda: field() == "mine"), f"the field received {field()!r}"


def test_a_protocol_one_device_is_told_typing_needs_protocol_two(host, field):
    async def scenario():
        client = await viewer(host, protocol=1)
        await client.send({"type": "typeText", "text": "old"})
        error = await client.recv_type("error")
        assert error == {"type": "error", "code": "unavailable", "request": "typeText",
                         "message": "typeText needs protocol 2; this device said 1"}
        await client.close()

    run(scenario())
    assert field() == ""
    assert "(app update needed)" in host.cli("devices")


@pytest.mark.parametrize("name", ["us", "de"])
def test_hotkey_and_text_keys_reach_the_focused_window_without_viewing(host, field, layout, name):
    # The deck's own keys need no viewing: the owner of the deck made them, any device that may press presses.
    layout(name)
    keys = [{"label": "Undo", "kind": "hotkey", "key": "z", "modifiers": ["ctrl"]},
            {"label": "Reopen", "kind": "hotkey", "key": "t", "modifiers": ["ctrl", "shift"]},
            {"label": "F5", "kind": "hotkey", "key": "f5"},
            {"label": "Sign", "kind": "text", "text": "Grüße, 안녕", "enter": True},
            {"label": "Play", "kind": "hotkey", "key": "playPause"}]

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        answers = [await press_key(client, index, key) for index, key in enumerate(keys)]
        await client.close()
        return answers

    answers = run(scenario())
    assert [answer["ok"] for answer in answers] == [True] * len(keys), answers
    expected = "<Ctrl+z><Ctrl+Shift+T><F5>Grüße, 안녕<Return><XF86AudioPlay>"
    assert eventually(lambda: field() == expected), f"the field received {field()!r}"


def test_an_open_key_reaches_the_default_handler_with_the_exact_target(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    opened = tmp_path / "opened.txt"
    (bin_dir / "xdg-open").write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{opened}'\n")
    (bin_dir / "xdg-open").chmod(0o755)
    folder = tmp_path / "home" / "Projects"
    folder.mkdir(parents=True)
    daemon = Daemon(home=tmp_path / "home", env={"PATH": f"{bin_dir}:{os.environ['PATH']}"}).start()
    url = "https://example.org/a b?q=1&x=é#top"
    try:
        async def scenario():
            client, _, _ = await paired_device(daemon, "Deck")
            ok = await press_key(client, 0, {"label": "Docs", "kind": "open", "target": url})
            home = await press_key(client, 1, {"label": "Projects", "kind": "open", "target": "~/Projects"})
            gone = await press_key(client, 2, {"label": "Gone", "kind": "open", "target": "~/Nowhere"})
            await client.send({"type": "setButton", "page": 0, "index": 3,
                               "button": {"label": "Evil", "kind": "open", "target": "javascript:alert(1)"}})
            refused = await client.recv_type("error", timeout=10)
            await client.close()
            return ok, home, gone, refused

        ok, home, gone, refused = run(scenario())
    finally:
        daemon.stop()
    assert ok["ok"] and home["ok"], (ok, home)
    assert gone == {"type": "pressResult", "page": 0, "index": 2, "ok": False, "reason": "not found: ~/Nowhere"}
    assert refused["code"] == "badMessage" and refused["request"] == "setButton", refused
    assert eventually(lambda: opened.exists() and opened.read_text().splitlines() == [url, str(folder)]), \
        opened.read_text() if opened.exists() else "xdg-open never ran"
