"""Multi-actions and toggles on the real daemon under the test desktop's Xvfb (PROTOCOL §6 "Layout", issue 22).

A multi-action's key steps arrive in an X client that records the X server's time of each key press
(Tests/support/xkeytimes.py): in order, each gap the asked delay (±50 ms, measured on the X server's clock); a
failing step stops the rest and is named; a second press cancels a run. A toggle's state is kept by the host,
flips only when its action worked, shows on two devices and survives a restart of the host."""

import os
import pathlib
import subprocess
import sys

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, press_key, reconnect, run

XKEYTIMES = pathlib.Path(__file__).resolve().parents[1] / "support" / "xkeytimes.py"
TOLERANCE_MS = 50


@pytest.fixture
def host(tmp_path):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop")
    daemon = Daemon(home=tmp_path / "home").start()
    yield daemon
    daemon.stop()


@pytest.fixture
def keys(tmp_path):
    """Starts the key recorder; yields a function that reads [(X server ms, text)] received so far."""
    out = tmp_path / "keys.txt"
    recorder = subprocess.Popen([sys.executable, str(XKEYTIMES), str(out)])
    assert eventually(out.exists), "the X key recorder did not open"

    def received():
        lines = out.read_text(encoding="utf-8").splitlines()
        return [(int(time), text) for time, text in (line.split(" ", 1) for line in lines)]

    yield received
    recorder.terminate()
    recorder.wait(10)


def hotkey(key):
    return {"label": "", "kind": "hotkey", "key": key}


def delay(ms):
    return {"kind": "delay", "ms": ms}


def multi(*steps):
    return {"label": "Steps", "kind": "multi", "steps": list(steps)}


async def final_answer(client):
    """A multi-action's answers: `running:true` at once, then the outcome; returns the outcome."""
    started = await client.recv_type("pressResult", timeout=20)
    assert started.get("running") is True, started
    return await client.recv_type("pressResult", timeout=30)


def typed(keys):
    return "".join(text for _, text in keys())


def test_steps_arrive_in_order_with_their_delays_and_a_failing_step_stops_the_rest(host, keys):
    asked = [150, 400]

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        started = await press_key(client, 0, multi(hotkey("a"), delay(asked[0]), hotkey("b"), delay(asked[1]),
                                                   hotkey("c")))
        assert started["running"] is True, started
        done = await client.recv_type("pressResult", timeout=30)
        failing = multi(hotkey("x"), {"label": "", "kind": "open", "target": "~/Nowhere"}, hotkey("y"))
        await press_key(client, 1, failing)
        failed = await client.recv_type("pressResult", timeout=30)
        # A key pressed after the run's answer: once it has landed, every key the run pressed has landed too (one
        # lane), so what the recorder holds is all the failing run did.
        after = await press_key(client, 2, hotkey("z"))
        await client.close()
        return done, failed, after

    done, failed, after = run(scenario())
    assert done == {"type": "pressResult", "page": 0, "index": 0, "ok": True}, done
    assert failed == {"type": "pressResult", "page": 0, "index": 1, "ok": False,
                      "reason": "step 2 of 3: not found: ~/Nowhere"}, failed
    assert after["ok"], after
    assert eventually(lambda: typed(keys).endswith("z")), f"received {keys()!r}"
    received = keys()
    assert [text for _, text in received] == ["a", "b", "c", "x", "z"], received
    gaps = [received[1][0] - received[0][0], received[2][0] - received[1][0]]
    assert all(abs(gap - want) <= TOLERANCE_MS for gap, want in zip(gaps, asked)), \
        f"gaps {gaps} ms on the X server's clock, asked {asked} ms"


def test_a_second_press_cancels_a_running_multi_action(host, keys):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        started = await press_key(client, 0, multi(hotkey("p"), delay(10_000), hotkey("q")))
        assert started["running"] is True, started
        assert eventually(lambda: typed(keys) == "p"), f"received {keys()!r}"
        await client.send({"type": "press", "page": 0, "index": 0})
        first = await client.recv_type("pressResult", timeout=20)
        second = await client.recv_type("pressResult", timeout=20)
        after = await press_key(client, 1, hotkey("z"))
        await client.close()
        return first, second, after

    first, second, after = run(scenario())
    cancelled = {"type": "pressResult", "page": 0, "index": 0, "ok": False, "reason": "cancelled before step 3 of 3"}
    assert first == cancelled and second == cancelled, (first, second)
    assert after["ok"], after
    assert eventually(lambda: typed(keys).endswith("z")), f"received {keys()!r}"
    assert typed(keys) == "pz", "the step after the cancelled delay must not run"


def test_a_multi_action_out_of_its_limits_is_refused_and_the_deck_is_untouched(host):
    bad = [multi(*[hotkey("a")] * 30), multi(hotkey("a"), delay(3_600_000)), multi(hotkey("a"), multi(hotkey("b")))]

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        errors = []
        for button in bad:
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": button})
            errors.append(await client.recv_type("error", timeout=10))
        await client.close()
        return errors

    errors = run(scenario())
    assert [(e["code"], e["request"]) for e in errors] == [("badMessage", "setButton")] * 3, errors
    assert [e["message"] for e in errors] == [
        "a multi-action has 1 to 16 steps", "a delay is 10 ms to 10 s (10…10000)",
        "a multi-action's steps and a toggle's actions cannot be multi-actions or toggles"], errors
    config = host.config_dir / "config.json"
    assert not config.exists() or "multi" not in config.read_text(), "a refused key must not reach the config"


def toggle_in(layout):
    return layout["pages"][0][0]


def test_a_toggle_flips_when_its_action_works_shows_on_two_devices_and_survives_a_restart(host, tmp_path):
    ran = tmp_path / "ran.txt"
    toggle = {"label": "Mic", "kind": "toggle", "onLabel": "Mic on", "offLabel": "Mic off",
              "on": {"label": "", "kind": "command", "command": f"echo on >> '{ran}'"},
              "off": {"label": "", "kind": "command", "command": f"echo off >> '{ran}'; exit 3"}}

    async def first_run():
        # A protocol-2 device (it shows these kinds as plain keys it can press) and a protocol-3 one: both are
        # sent the layout with the state.
        a, a_id, a_secret = await paired_device(host, "Tablet", protocol=2)
        b, b_id, b_secret = await paired_device(host, "Phone", protocol=3)
        await a.send({"type": "setButton", "page": 0, "index": 0, "button": toggle})
        assert toggle_in(await a.recv_type("layout"))["state"] == "off"
        assert toggle_in(await b.recv_type("layout"))["state"] == "off"
        await a.send({"type": "press", "page": 0, "index": 0})
        on_a = await a.recv_type("layout", timeout=20)
        on_b = await b.recv_type("layout", timeout=20)
        pressed = await a.recv_type("pressResult", timeout=20)
        await a.close()
        await b.close()
        return (a_id, a_secret), (b_id, b_secret), on_a, on_b, pressed

    a_keys, b_keys, on_a, on_b, pressed = run(first_run())
    assert pressed == {"type": "pressResult", "page": 0, "index": 0, "ok": True}, pressed
    assert toggle_in(on_a)["state"] == "on" and toggle_in(on_b)["state"] == "on", (on_a, on_b)
    host.stop()
    host.start()

    async def both_connect():
        """Both devices connect again, each at its protocol; returns the connections and the layouts they got."""
        a, a_layout = await reconnect(host, *a_keys, name="Tablet", protocol=2)
        b, b_layout = await reconnect(host, *b_keys, name="Phone", protocol=3)
        return (a, b), (a_layout, b_layout)

    async def after_restart():
        (a, b), layouts = await both_connect()
        await a.send({"type": "press", "page": 0, "index": 0})
        failed = await a.recv_type("pressResult", timeout=20)
        await a.close()
        await b.close()
        (a, b), again = await both_connect()
        await a.close()
        await b.close()
        return layouts, failed, again

    layouts, failed, again = run(after_restart())
    assert [toggle_in(layout)["state"] for layout in layouts] == ["on", "on"], \
        "both devices must see the state the host stored before its restart"
    assert failed["ok"] is False and failed["reason"].startswith("exit 3"), failed
    assert [toggle_in(layout)["state"] for layout in again] == ["on", "on"], "a failed action must not flip the toggle"
    assert ran.read_text().split() == ["on", "off"]
