"""When the viewer may type, against the real daemon under the test desktop (issue 20.10, PROTOCOL §6 "Who may
type"): only from `screenStarted` until viewing stops. What lands is read in an X text field that records every key
it receives (Tests/support/xtext.py).

Each test holds one of the test desktop's servers still (Tests/support/holds.py) to keep the host in the state
under test for as long as the test needs, instead of racing it:
- a start waiting for its sound: with the sound server stopped, the viewing has begun (`touchdeck status` names
  the viewer) but `screenStarted` cannot go out, as the sound has not answered. `typeText` and `pressKey` then
  get `typed{ok:false}` and type nothing; once started, typing lands (and only that).
- keys waiting when viewing stops: with the X server grabbed, the viewer's keypad key cannot reach the desktop,
  so its `typeText` and `pressKey` sent next wait behind it; `stopScreen` is answered meanwhile. Released, the
  keypad key lands (it was being typed), the two waiting ones are dropped with `typed{ok:false}`."""

import os
import pathlib
import subprocess
import sys

import pytest

from deskhome import eventually
from holds import sound_server_stopped, x_server_grabbed
from livehelpers import Daemon, paired_device, run

XTEXT = pathlib.Path(__file__).resolve().parents[1] / "support" / "xtext.py"
NOT_VIEWER = {"type": "typed", "ok": False, "reason": "only the device viewing the screen may type"}
ENDED = {"type": "typed", "ok": False, "reason": "viewing ended before the keys were typed"}


@pytest.fixture
def host(tmp_path):
    if not os.environ.get("DISPLAY") or not os.environ.get("PULSE_SERVER"):
        pytest.fail("DISPLAY or PULSE_SERVER not set: run these tests under scripts/with-desktop (make test-py)")
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


async def allowed_viewer(host, name="Tablet"):
    """A paired device allowed to view; returns it and the first monitor's id."""
    client, _, _ = await paired_device(host, name, protocol=3)
    host.cli("devices", "allow-screen", name, "on")
    await client.recv_type("screenPermission", timeout=20)
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    return client, displays["displays"][0]["id"]


async def answers(client, count):
    """The next `count` answers to typing (`typed`, `keypadResult`) and whether `screenStarted` came among them."""
    got, started = [], False
    while len(got) < count:
        message = await client.recv(timeout=20)
        if isinstance(message, dict) and message.get("type") in ("typed", "keypadResult"):
            got.append(message)
        started = started or (isinstance(message, dict) and message.get("type") == "screenStarted")
    return got, started


def test_typing_while_the_start_waits_is_refused_and_types_nothing(host, field):
    async def scenario():
        client, display = await allowed_viewer(host)
        with sound_server_stopped():
            await client.send({"type": "startScreen", "displayId": display, "maxSide": 320, "fps": 30,
                               "audio": True})
            # The viewing has begun on the host; its screenStarted waits for the sound, which cannot answer now.
            assert eventually(lambda: "Screen viewer: Tablet (" in host.cli("status")), host.cli("status")
            await client.send({"type": "typeText", "text": "early", "enter": True})
            await client.send({"type": "pressKey", "key": "tab"})
            refused, started = await answers(client, 2)
            assert not started, "screenStarted went out while the sound server was stopped"
        assert refused == [NOT_VIEWER, NOT_VIEWER]
        await client.recv_type("screenStarted", timeout=30)
        await client.send({"type": "typeText", "text": "late"})
        assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        await client.close()

    run(scenario())
    # Keys reach the field in the order sent: anything typed before "late" would stand before it.
    assert eventually(lambda: field() == "late"), f"the field received {field()!r}"


def test_keys_waiting_when_viewing_stops_are_dropped_not_typed(host, field):
    async def scenario():
        client, display = await allowed_viewer(host)
        await client.send({"type": "startScreen", "displayId": display, "maxSide": 320, "fps": 30})
        await client.recv_type("screenStarted", timeout=30)
        await client.send({"type": "typeText", "text": "first"})  # the host's keyboard connection is open now
        assert await client.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
        with x_server_grabbed():
            await client.send({"type": "keypad", "key": "7"})  # reaches the keyboard and waits there for X
            await client.send({"type": "typeText", "text": "dropped", "enter": True})
            await client.send({"type": "pressKey", "key": "tab"})
            await client.send({"type": "stopScreen"})
            stopped = await client.recv_type("screenStopped", timeout=20)
        assert stopped == {"type": "screenStopped", "reason": "requested"}, stopped
        got, _ = await answers(client, 3)
        assert got == [{"type": "keypadResult", "ok": True}, ENDED, ENDED], got
        await client.close()

    run(scenario())
    assert eventually(lambda: field() == "first7"), f"the field received {field()!r}"
