"""A hotkey that cannot be pressed on X11 fails with its reason and leaves no modifier down (issue 22, PROTOCOL §6
"Layout": "modifiers always released, even when a step fails"), on the real daemon under the test desktop's Xvfb.

The real failure: a key the layout does not have is typed through a spare keycode the host binds to it (XKeyboard,
KeyBindings); with every keycode of the keymap taken (the test fills the empty ones with `xmodmap`, as a user's own
mapping might) and none bound by this host yet, there is none, and the chord fails "no free keycode for the key".
On X11 such a chord fails before anything goes down: a chord's modifiers and key are pressed and released in one
go (XDisplayConnection.tap), so no step can fail between its modifiers going down and coming up. What is checked:
an X client recording every key going down and up (Tests/support/xkeyevents.py) sees each modifier that went down
come up, and the X server holds no key down (XQueryKeymap) — after a multi-action whose hotkey step is followed by
the failing chord, and after a hold key (push-to-talk) whose chord fails at `pressDown`."""

import ctypes
import os
import subprocess

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, press_key, run
import xkeyevents

ZHE = "ж"  # not on the test desktop's us layout: typed through a spare keycode
NO_KEYCODE = "no free keycode for the key"


def chord(key, *modifiers, **more):
    return {"label": "", "kind": "hotkey", "key": key, "modifiers": list(modifiers), **more}


@pytest.fixture
def host(tmp_path):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop")
    daemon = Daemon(home=tmp_path / "home").start()
    yield daemon
    daemon.stop()


@pytest.fixture
def events(tmp_path):
    """Starts the recorder; yields a function that reads the `down NAME` / `up NAME` lines seen so far."""
    out = tmp_path / "events.txt"
    recorder = xkeyevents.start(out)
    assert eventually(out.exists), "the X key recorder did not open"
    yield lambda: out.read_text(encoding="utf-8").splitlines()
    recorder.terminate()
    recorder.wait(10)


@pytest.fixture
def no_spare_keycodes():
    """Gives every keycode with no keysym one (F35), so the host finds none spare; puts them back after."""
    table = subprocess.run(["xmodmap", "-pke"], capture_output=True, text=True, check=True).stdout
    empty = [line.split()[1] for line in table.splitlines() if line.split("=")[1].strip() == ""]
    assert empty, "the test desktop's keymap has no empty keycode to fill"
    subprocess.run(["xmodmap", "-"], input="".join(f"keycode {k} = F35\n" for k in empty), text=True, check=True)
    yield
    subprocess.run(["xmodmap", "-"], input="".join(f"keycode {k} =\n" for k in empty), text=True, check=True)
    after = subprocess.run(["xmodmap", "-pke"], capture_output=True, text=True, check=True).stdout
    assert after == table, "the keymap was not put back as it was"


def keys_down():
    """The keycodes the X server holds down now (XQueryKeymap)."""
    x = ctypes.cdll.LoadLibrary("libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XQueryKeymap.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x.XOpenDisplay(None)
    assert display, "cannot open the display"
    keymap = ctypes.create_string_buffer(32)
    x.XQueryKeymap(display, keymap)
    x.XCloseDisplay(display)
    return [byte * 8 + bit for byte, value in enumerate(keymap.raw) for bit in range(8) if value & (1 << bit)]


def still_down(lines):
    """The keys that went down and did not come up, by the recorder's lines."""
    down = set()
    for line in lines:
        kind, name = line.split(" ", 1)
        (down.add if kind == "down" else down.discard)(name)
    return down


async def after_everything(client, events):
    """Presses a Ctrl+Z key and waits for the recorder to have it: whatever the host pressed before has arrived
    by then (one lane). Returns the lines before it."""
    assert (await press_key(client, 5, chord("z", "ctrl")))["ok"] is True
    assert eventually(lambda: events()[-1:] == ["up Control_L"] and "up z" in events()), events()
    lines = events()
    return lines[:len(lines) - 4]


def test_a_failing_chord_after_a_hotkey_step_leaves_no_modifier_down(host, events, no_spare_keycodes):
    steps = [chord("a", "ctrl", "shift"), chord(ZHE, "ctrl", "alt", "super"), chord("b", "ctrl")]

    async def scenario():
        client, _, _ = await paired_device(host, "Deck", protocol=3)
        # The failing chord alone, as a plain press.
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": {**steps[1], "label": "Zhe"}})
        await client.recv_type("layout")
        await client.send({"type": "press", "page": 0, "index": 0})
        alone = await client.recv_type("pressResult", timeout=20)
        # The multi-action: Ctrl+Shift+A works, the chord fails, Ctrl+B must not run.
        await client.send({"type": "setButton", "page": 0, "index": 1,
                           "button": {"label": "Steps", "kind": "multi", "steps": steps}})
        await client.recv_type("layout")
        await client.send({"type": "press", "page": 0, "index": 1})
        started = await client.recv_type("pressResult", timeout=20)
        assert started.get("running") is True, started
        failed = await client.recv_type("pressResult", timeout=30)
        lines = await after_everything(client, events)
        await client.close()
        return alone, failed, lines

    alone, failed, lines = run(scenario())
    assert alone == {"type": "pressResult", "page": 0, "index": 0, "ok": False, "reason": NO_KEYCODE}, alone
    assert failed == {"type": "pressResult", "page": 0, "index": 1, "ok": False,
                      "reason": f"step 2 of 3: {NO_KEYCODE}"}, failed
    assert lines == ["down Control_L", "down Shift_L", "down a", "up a", "up Shift_L", "up Control_L"], \
        "step 1 pressed and released its chord, the failing step pressed nothing, step 3 did not run"
    assert still_down(events()) == set()
    assert keys_down() == [], "the X server still holds keys down"


def test_a_hold_key_whose_chord_fails_leaves_no_modifier_down(host, events, no_spare_keycodes):
    talk = {**chord(ZHE, "ctrl", "shift", hold=True), "label": "Talk"}

    async def scenario():
        client, _, _ = await paired_device(host, "Deck", protocol=3)
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": talk})
        await client.recv_type("layout")
        await client.send({"type": "pressDown", "page": 0, "index": 0})
        down = await client.recv_type("pressResult", timeout=20)
        held = keys_down()
        await client.send({"type": "pressUp", "page": 0, "index": 0})
        lines = await after_everything(client, events)
        await client.close()
        return down, held, lines

    down, held, lines = run(scenario())
    assert down == {"type": "pressResult", "page": 0, "index": 0, "ok": False, "reason": NO_KEYCODE}, down
    assert held == [], "a chord that failed at pressDown holds keys down"
    assert lines == [], "the failed chord pressed nothing"
    assert still_down(events()) == set()
    assert keys_down() == []
