"""Extend on sway end to end (PROTOCOL §6 "Extend"): the real daemon on a private headless sway (scripts/with-sway)
makes a headless output of the device's size and scale right of HEADLESS-1 over sway's IPC, streams it through the
ScreenCast portal (the harness's chooser picks the output the test names, as the computer's user would in the
portal's chooser) and drives it through wlroots' virtual pointer, then takes it away. Debian 12's sway 1.7 can
neither unplug nor disable a headless output (wlroots 0.15), so there "taken away" means parked: emptied, 320x240,
out of the pointer's reach, and re-used by the next Extend. What is checked: the output's mode, scale and place,
the stream's size, a click at the stream's centre landing at the centre of a window moved onto it, `status`, the
window back on HEADLESS-1 after the end, no output leaked over 20 rounds, a second device refused as busy, and a
killed host's output taken away at the next start; a parked output is not listed in `displays`. Skipped outside
scripts/with-sway."""

import asyncio
import json
import os
import pathlib
import signal
import subprocess
import time

import av
import pytest

from test_mutter_live import GTKClient, next_video
from livehelpers import Daemon, paired_device, run

pytestmark = pytest.mark.skipif("TOUCHDECK_SWAY_PID" not in os.environ, reason="needs scripts/with-sway")

IPAD = {"width": 2388, "height": 1668, "scale": 2, "placement": "right"}


def swaymsg(*args):
    folder = pathlib.Path(os.environ["WAYLAND_DISPLAY"]).parent
    socket = next(folder.glob("sway-ipc.*.sock"))
    done = subprocess.run(["swaymsg", "-s", str(socket), "-r", *args], capture_output=True, text=True, timeout=10)
    return json.loads(done.stdout)


def outputs():
    return {output["name"]: output for output in swaymsg("-t", "get_outputs")}


def window_output():
    """The output the pattern window is on."""
    def find(node, output=None):
        output = node["name"] if node.get("type") == "output" else output
        if node.get("name") == "touchdeck-pattern" and node.get("type") == "con":
            return output
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            found = find(child, output)
            if found:
                return found
        return None
    return find(swaymsg("-t", "get_tree"))


def expect_output():
    """The output the host will use (a parked one it made, else the next HEADLESS-N), told to the portal's chooser."""
    names = sorted((name for name in outputs() if name != "HEADLESS-1"), key=lambda n: int(n.split("-")[1]))
    name = names[0] if names else "HEADLESS-2"
    pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).write_text(name + "\n")
    return name


def parked_or_gone(name):
    output = outputs().get(name)
    return output is None or not output["active"] or (
        output["rect"]["x"] >= 100_000 and (output["rect"]["width"], output["rect"]["height"]) == (320, 240))


def taken_away(name, seconds=30):
    """Waits for the output to be gone, off or parked: the host takes it away once the capture has stopped, after
    `screenStopped` went out."""
    ends = time.monotonic() + seconds
    while not parked_or_gone(name) and time.monotonic() < ends:
        time.sleep(0.05)
    return parked_or_gone(name)


@pytest.fixture(autouse=True)
def chooser():
    """The portal's chooser answers HEADLESS-1 again after each test: later tests view the usual monitor."""
    yield
    pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def state():
    return sway_state()


def sway_state():
    """One state folder for every host on this sway, as a user has: a parked output is re-used, not made again (a
    host with a folder of its own would take an earlier host's parked output for a monitor of the computer's)."""
    folder = pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).parent / "host-state"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def host(tmp_path, state):
    host = Daemon(home=tmp_path, env={"XDG_STATE_HOME": str(state)}).start()
    yield host
    host.stop()


async def extend(device, request=IPAD):
    await device.send({"type": "startScreen", "displayId": 0, "maxSide": 3840, "fps": 30, "extend": request})
    while True:
        message = await device.recv(60)
        if isinstance(message, dict) and message["type"] in ("screenStarted", "screenDenied"):
            return message


async def stop(device):
    await device.send({"type": "stopScreen"})
    await device.recv_type("screenStopped", timeout=60)


async def viewer(host, name="Tablet"):
    device, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    return device


def test_extend_makes_a_scaled_output_right_of_headless_1_streams_and_drives_it_and_parks_it(host):
    client = GTKClient(["--tick", "5"])

    async def scenario():
        device = await viewer(host)
        await device.send({"type": "listDisplays"})
        displays = await device.recv_type("displays", timeout=30)
        name = expect_output()
        started = await extend(device)
        assert started["type"] == "screenStarted", started
        made = outputs()[name]
        swaymsg(f'[title="touchdeck-pattern"] move container to output {name}, focus, fullscreen enable')
        frame = None
        while frame is None or frame.width != IPAD["width"]:
            packet = await next_video(device, timeout=30)
            if packet.keyframe or frame is not None:
                frames = av.CodecContext.create("h264", "r").decode(av.Packet(packet.frame))
                frame = frames[0] if frames else frame
        mark = len(client.since(0))
        await device.send({"type": "pointer", "kind": "click", "x": 0.5, "y": 0.5})
        index = await asyncio.to_thread(client.wait, lambda e: e["event"] == "press", 20, mark)
        press = client.since(0)[index] if index is not None else None
        status = host.cli("status")
        await stop(device)
        # A parked output is nobody's to view: it is not listed.
        assert await asyncio.to_thread(taken_away, name), outputs()[name]
        await device.send({"type": "listDisplays"})
        after = [display["name"] for display in (await device.recv_type("displays", timeout=30))["displays"]]
        await device.close()
        return displays, name, started, made, frame, press, status, after

    try:
        displays, name, started, made, frame, press, status, after = run(scenario())
        assert displays["extend"] == {"offered": True}, displays
        assert (started["width"], started["height"]) == (2388, 1668)
        assert made["active"] and made["scale"] == 2
        assert (made["current_mode"]["width"], made["current_mode"]["height"]) == (2388, 1668)
        headless = outputs()["HEADLESS-1"]["rect"]
        assert made["rect"] == {"x": headless["x"] + headless["width"], "y": headless["y"], "width": 1194,
                                "height": 834}, made["rect"]
        assert (frame.width, frame.height) == (2388, 1668)
        # The stream's centre is the window's centre, in the window's (layout) pixels.
        assert press is not None and (press["button"], press["x"], press["y"]) == (1, 597, 417), press
        assert f"extended onto the monitor made for it, {name}" in status, status
        assert after == ["HEADLESS-1"], after
        assert window_output() == "HEADLESS-1"
    finally:
        client.stop()


def test_a_turn_resizes_the_output_in_place_and_the_window_on_it_stays(host):
    """A device that turned asks Extend again on its viewing: sway's output gets the new mode where it is (no
    output made or parked meanwhile), the window moved onto it stays on it, and the new stream is the turned size."""
    client = GTKClient(["--tick", "5"])

    async def scenario():
        device = await viewer(host)
        name = expect_output()
        started = await extend(device)
        assert started["type"] == "screenStarted", started
        swaymsg(f'[title="touchdeck-pattern"] move container to output {name}, focus, fullscreen enable')
        before = sorted(outputs())
        turned = await extend(device, {**IPAD, "width": 1668, "height": 2388})
        frame = None
        while frame is None:
            packet = await next_video(device, timeout=30)
            if packet.keyframe:
                frames = av.CodecContext.create("h264", "r").decode(av.Packet(packet.frame))
                frame = frames[0] if frames else None
        output = outputs()[name]
        where = window_output()
        await stop(device)
        assert await asyncio.to_thread(taken_away, name), outputs()[name]
        await device.close()
        return before, turned, frame, output, where

    try:
        before, turned, frame, output, where = run(scenario())
        assert (turned["type"], turned["width"], turned["height"]) == ("screenStarted", 1668, 2388), turned
        assert (frame.width, frame.height) == (1668, 2388)
        assert sorted(outputs()) == before, "an output was made for the turn"
        assert output["active"] and (output["current_mode"]["width"], output["current_mode"]["height"]) == (1668, 2388)
        assert output["rect"]["width"] == 834 and output["rect"]["height"] == 1194, output["rect"]
        assert where == output["name"], f"the window went to {where}"
        assert window_output() == "HEADLESS-1", "the window did not go back when the monitor went"
    finally:
        client.stop()


def test_twenty_rounds_leak_no_output(host):
    async def scenario():
        device = await viewer(host)
        counts = []
        for _ in range(20):
            name = expect_output()
            started = await extend(device, {**IPAD, "width": 1280, "height": 800, "scale": 1})
            assert started["type"] == "screenStarted", started
            assert outputs()[name]["active"]
            await stop(device)
            assert await asyncio.to_thread(taken_away, name), outputs()[name]
            counts.append(len(outputs()))
        await device.close()
        return counts

    counts = run(scenario())
    assert len(set(counts)) == 1 and counts[0] <= 3, counts


def test_a_second_device_asking_to_extend_is_busy_and_a_bad_size_is_refused(host):
    async def scenario():
        tablet = await viewer(host, "Tablet")
        phone = await viewer(host, "Phone")
        expect_output()
        assert (await extend(tablet))["type"] == "screenStarted"
        busy = await extend(phone)
        await phone.send({"type": "startScreen", "displayId": 0, "maxSide": 3840, "extend": {**IPAD, "width": 10}})
        bad = await phone.recv_type("error", timeout=10)
        await stop(tablet)
        await phone.close()
        await tablet.close()
        return busy, bad

    busy, bad = run(scenario())
    assert busy == {"type": "screenDenied", "reason": "busy", "viewer": "Tablet"}
    assert bad["code"] == "badMessage" and "extend" in bad["message"], bad


def test_a_killed_host_leaves_no_monitor_after_the_next_start(host):
    async def scenario():
        device = await viewer(host)
        name = expect_output()
        assert (await extend(device))["type"] == "screenStarted"
        return name

    name = run(scenario())
    assert outputs()[name]["active"] and not parked_or_gone(name)
    host.process.send_signal(signal.SIGKILL)
    host.process.wait()
    host.start()
    assert parked_or_gone(name), outputs()[name]
    assert "removed the monitors a host left" in host.log()
