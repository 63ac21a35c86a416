"""A hotkey key held while pressed (issue 22, PROTOCOL §6 "Hold while pressed"), on the real daemon under the test
desktop's Xvfb: an X client records every key going down and coming up (Tests/support/xkeyevents.py). `pressDown`
puts Ctrl and Shift, then M, down and nothing comes up (a keypad key sent after it, through the same keyboard, is
seen first); `pressUp` brings M, Shift and Ctrl up in that order. A connection that closes while it holds the chord
has it released, and a device's plain `press` of the same key taps it."""

import os

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, run
import xkeyevents

TALK = {"label": "Talk", "kind": "hotkey", "key": "m", "modifiers": ["ctrl", "shift"], "hold": True}
DOWN = ["down Control_L", "down Shift_L", "down m"]
UP = ["up m", "up Shift_L", "up Control_L"]


@pytest.fixture
def host(tmp_path):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop")
    daemon = Daemon(home=tmp_path / "home").start()
    yield daemon
    daemon.stop()


@pytest.fixture
def events(tmp_path):
    """Starts the recorder; yields a function that reads the events seen so far (auto-repeated downs of a key
    already down left out)."""
    out = tmp_path / "events.txt"
    recorder = xkeyevents.start(out)
    assert eventually(out.exists), "the X key recorder did not open"

    yield lambda: xkeyevents.without_repeats(out.read_text(encoding="utf-8").splitlines())
    recorder.terminate()
    recorder.wait(10)


async def hold_down(client, events):
    """Sets the key, sends `pressDown`, and returns once the X client has seen everything the keyboard sent up to
    then: a keypad 1 sent after it through the same keyboard has arrived."""
    await client.send({"type": "setButton", "page": 0, "index": 0, "button": TALK})
    await client.recv_type("layout")
    await client.send({"type": "pressDown", "page": 0, "index": 0})
    assert await client.recv_type("pressResult") == {"type": "pressResult", "page": 0, "index": 0, "ok": True}
    await client.send({"type": "keypad", "key": "1"})
    assert (await client.recv_type("keypadResult"))["ok"] is True
    assert eventually(lambda: "up 1" in events()), events()
    return events()


def test_the_chord_is_held_until_the_finger_lifts(host, events):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck", protocol=3)
        assert await hold_down(client, events) == DOWN + ["down 1", "up 1"], "nothing came up while held"
        await client.send({"type": "pressUp", "page": 0, "index": 0})
        assert eventually(lambda: "up Control_L" in events()), events()
        assert events() == DOWN + ["down 1", "up 1"] + UP
        # An older device's press of the same key taps the chord.
        await client.send({"type": "press", "page": 0, "index": 0})
        assert (await client.recv_type("pressResult"))["ok"] is True
        assert eventually(lambda: len(events()) == 14), events()
        assert events()[8:] == DOWN + UP
        await client.close()

    run(scenario())


def test_a_connection_that_closes_while_holding_lets_go(host, events):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck", protocol=3)
        assert await hold_down(client, events) == DOWN + ["down 1", "up 1"]
        await client.close()

    run(scenario())
    assert eventually(lambda: "up Control_L" in events()), events()
    assert events() == DOWN + ["down 1", "up 1"] + UP
