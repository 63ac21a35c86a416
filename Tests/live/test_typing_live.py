"""Typing on the real daemon under the test desktop's Xvfb (PROTOCOL §6 "Text input", SPEC §8): text lands as
characters in an X text field that records what it receives (Tests/support/xtext.py) under the `us` and `de`
layouts, Return lands after the text, the special keys arrive as keys, only the viewer may type, and a
protocol-1 device is told typing needs protocol 2."""

import os
import pathlib
import subprocess
import sys

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, run

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
        assert error == {"type": "error", "code": "unavailable", "message": "typeText needs protocol 2; this device said 1"}
        await client.close()

    run(scenario())
    assert field() == ""
    assert "(app update needed)" in host.cli("devices")
