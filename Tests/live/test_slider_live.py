"""Sliders on the real daemon (issue 23, PROTOCOL §6 "Tiles and sliders"), under scripts/with-desktop's PulseAudio: a
slider bound to one app's sink input (matched by application.name; a `pacat` playing silence) moves that stream's
volume (pactl shows it), an outside `pactl set-sink-input-volume` reaches the device as the slider's value, the slider
says the app plays nothing once it quits and finds it again when it starts anew. A microphone slider sets the default source's volume and follows `pactl
set-source-volume`. A script slider runs its command
with {value} 0…100, the last value always. A slider of 5 slots, one over a key and an unknown binding are refused
with the reason while the host keeps serving."""

import asyncio
import json
import os
import subprocess
from contextlib import contextmanager

import pytest

from livehelpers import Daemon, paired_device, run
from soundhelpers import eventually, pactl

pytestmark = pytest.mark.skipif("PULSE_SERVER" not in os.environ, reason="needs scripts/with-desktop")

APP = "SliderTestApp"
SLIDER = {"label": "App", "kind": "slider", "bind": "app", "app": APP, "span": 3}


def app_streams():
    """The app's sink inputs: index → volume 0…1 (front-left)."""
    inputs = json.loads(pactl("-f", "json", "list", "sink-inputs"))
    return {s["index"]: s["volume"]["front-left"]["value"] / 65536 for s in inputs
            if s["properties"].get("application.name") == APP}


@contextmanager
def playing():
    """The app: pacat playing silence under APP's name, until the block ends."""
    process = subprocess.Popen(["pacat", "--playback", "--raw", f"--client-name={APP}",
                                f"--property=application.name={APP}", "/dev/zero"])
    try:
        assert eventually(app_streams), "the app's stream did not appear"
        yield process
    finally:
        process.terminate()
        process.wait(10)
        assert eventually(lambda: not app_streams()), "the app's stream did not go"


async def until(client, wanted, timeout=20):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise TimeoutError("the wanted message did not come")
        message = await client.recv(remaining)
        if isinstance(message, dict) and wanted(message):
            return message


def slider_value(value):
    return lambda m: (m["type"] == "keyState" and m["index"] == 0 and "error" not in m
                      and abs(m["look"].get("value", -1) - value) < 0.011)


def slider_error(m):
    return m["type"] == "keyState" and m["index"] == 0 and "error" in m


def test_a_slider_moves_an_app_follows_outside_changes_and_finds_the_app_again(tmp_path):
    host = Daemon(home=tmp_path / "home").start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            with playing():
                await client.send({"type": "setButton", "page": 0, "index": 0, "button": SLIDER})
                # The slider's first look may come before or after the layout that brings it.
                seen = {}
                await until(client, lambda m: seen.setdefault("layout", m) if m["type"] == "layout"
                            else slider_value(1.0)(m) and seen.setdefault("value", m) and "layout" in seen)
                if "value" not in seen:
                    await until(client, slider_value(1.0))
                await client.send({"type": "setSlider", "page": 0, "index": 0, "value": 0.35})
                moved = eventually(lambda: all(abs(v - 0.35) < 0.01 for v in app_streams().values()))
                (index,) = app_streams()
                pactl("set-sink-input-volume", str(index), "60%")
                outside = await until(client, slider_value(0.6))
            gone = await until(client, slider_error)
            with playing():
                back = await until(client, slider_value(1.0))
                await client.send({"type": "setSlider", "page": 0, "index": 0, "value": 0.2})
                moved_again = eventually(lambda: all(abs(v - 0.2) < 0.01 for v in app_streams().values()))
            await client.close()
            return seen["layout"], moved, outside, gone, back, moved_again

        layout, moved, outside, gone, back, moved_again = run(scenario())
    finally:
        host.stop()
    assert layout["pages"][0][:3] == [SLIDER, None, None], layout["pages"][0]
    assert moved, "pactl shows the slider's value on the app's stream"
    assert outside["look"] == {"value": 0.6}
    assert gone["error"] == f"{APP} plays no sound now", gone
    assert back["look"] == {"value": 1.0}, "the restarted app is found again"
    assert moved_again, "the slider moves the restarted app"


def test_a_script_slider_runs_its_command_with_the_value_the_last_one_always(tmp_path):
    values = tmp_path / "values.txt"
    script = {"label": "Light", "kind": "slider", "bind": "script", "span": 2, "along": "column",
              "command": f"echo {{value}} >> {values}"}
    host = Daemon(home=tmp_path / "home").start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            await client.send({"type": "setButton", "page": 0, "index": 1, "button": script})
            await client.recv_type("layout")
            for step in range(1, 31):
                await client.send({"type": "setSlider", "page": 0, "index": 1, "value": step / 100})
            shown = await until(client, lambda m: m["type"] == "keyState" and m["index"] == 1
                                and m["look"].get("value") == 0.3)
            await client.close()
            return shown

        shown = run(scenario())
        # Each value's command is started detached, so two may append out of order: the last value ran at all.
        ran = eventually(lambda: values.exists() and "30" in values.read_text().split())
    finally:
        host.stop()
    assert shown["look"] == {"value": 0.3}
    assert ran, values.read_text() if values.exists() else "the command never ran"
    seen = [int(v) for v in values.read_text().split()]
    assert len(seen) == len(set(seen)) and set(seen) <= set(range(1, 31)), f"values sent, each run once: {seen}"


def test_bad_sliders_are_refused_with_the_reason(tmp_path):
    host = Daemon(home=tmp_path / "home").start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            answers = []
            for index, button in [(0, {**SLIDER, "span": 5}), (0, {**SLIDER, "bind": "lights"}),
                                  (4, {**SLIDER, "along": "column"}),
                                  (0, {**SLIDER, "bind": "script", "command": "light"})]:
                await client.send({"type": "setButton", "page": 0, "index": index, "button": button})
                answers.append((await client.recv_type("error"))["message"])
            await client.send({"type": "setButton", "page": 0, "index": 1, "button": {"label": "K", "kind": "micMute"}})
            await client.recv_type("layout")
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": SLIDER})
            answers.append((await client.recv_type("error"))["message"])
            await client.send({"type": "setSlider", "page": 0, "index": 1, "value": 0.5})
            answers.append((await client.recv_type("error"))["message"])
            await client.close()
            return answers

        answers = run(scenario())
    finally:
        host.stop()
    assert answers[0] == "a slider spans 2 to 4 slots"
    assert "a slider is bound to speakers, microphone, app (with app) or script (with command)" in answers[1], answers
    assert answers[2] == "a control in slot 4 spanning 3 slots along its column would leave the page"
    assert answers[3] == "a script slider's command holds {value} (0…100) and is at most 4096 bytes"
    assert answers[4] == "slot 1 is covered by the control in slot 0"
    assert answers[5] == "no slider at page 0 slot 1"


def source_volume():
    """The default source's volume 0…1 (front-left or mono)."""
    default = pactl("get-default-source").strip()
    source = next(s for s in json.loads(pactl("-f", "json", "list", "sources")) if s["name"] == default)
    return next(iter(source["volume"].values()))["value"] / 65536


def test_a_microphone_slider_sets_and_follows_the_default_source(tmp_path):
    pactl("set-source-volume", "@DEFAULT_SOURCE@", "100%")
    host = Daemon(home=tmp_path / "home").start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            mic = {"label": "Mic", "kind": "slider", "bind": "microphone", "span": 2}
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": mic})
            first = await until(client, slider_value(1.0))
            await client.send({"type": "setSlider", "page": 0, "index": 0, "value": 0.4})
            moved = eventually(lambda: abs(source_volume() - 0.4) < 0.01)
            pactl("set-source-volume", "@DEFAULT_SOURCE@", "70%")
            outside = await until(client, slider_value(0.7))
            await client.close()
            return first, moved, outside

        first, moved, outside = run(scenario())
    finally:
        host.stop()
        pactl("set-source-volume", "@DEFAULT_SOURCE@", "100%")
    assert first["look"] == {"value": 1.0}
    assert moved, f"pactl shows {source_volume()}"
    assert outside["look"] == {"value": 0.7}
