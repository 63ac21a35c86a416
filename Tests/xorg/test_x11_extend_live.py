"""Extend on X11 end to end (PROTOCOL §6 "Extend"): the real daemon on a private Xorg with the dummy driver
(scripts/with-xorg-dummy) gives an output that is off (DUMMY1) a mode of the device's size, turns it on beside DUMMY0
through XRandR, streams and drives it like any monitor, and turns it off again, putting the screen and every CRTC back.
What is checked: xrandr's view of the new output (size, place, the screen grown), an X window moved onto it seen in the
stream (PSNR-Y against what it drew), a click at the stream's centre landing at the window's centre, `status`, the
output off within 2 s of stopScreen, a killed host's output taken away (and DUMMY0 moved back) at the next start,
`doctor`, and after each test the whole of `xrandr --verbose` as it was before the first. The dummy driver calls an
output connected from its first mode set on and lists the screen's modes for it from then on; no RandR request undoes
that, so for DUMMY1 the comparison allows exactly that (docs/ARCHITECTURE.md, X11 Extend). Skipped outside
scripts/with-xorg-dummy."""

import asyncio
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

import av
import numpy
import pytest
from PIL import Image

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "live"))

from h264check import luma, reference_luma  # noqa: E402
from livehelpers import Daemon, paired_device, run  # noqa: E402
from touchdeck.packets import parse_video  # noqa: E402
from xpattern import BLOCK, pattern_block  # noqa: E402

pytestmark = pytest.mark.skipif("TOUCHDECK_XORG_DUMMY" not in os.environ, reason="needs scripts/with-xorg-dummy")

IPAD = {"width": 2388, "height": 1668, "scale": 2, "placement": "right"}


def xrandr(*args):
    return subprocess.run(["xrandr", *args], capture_output=True, text=True, timeout=20, check=True).stdout


def lit():
    """The outputs that are on: name → (width, height, x, y)."""
    found = re.findall(r"^(\S+) connected (?:primary )?(\d+)x(\d+)\+(\d+)\+(\d+)", xrandr(), re.M)
    return {name: tuple(int(value) for value in rest) for name, *rest in found}


def verbose():
    """`xrandr --verbose` as output blocks (header line → its lines), without the timestamps, which move with
    every change."""
    blocks, name = {}, "screen"
    for line in xrandr("--verbose").splitlines():
        if "Timestamp:" in line:
            continue
        if not line.startswith((" ", "\t")) and not line.startswith("Screen "):
            name = line.split()[0]
        blocks.setdefault(name, []).append(line)
    return blocks


def after_dummy_use(before, used):
    """What `before` becomes once the dummy driver has lit `used` and it was turned off again: that output is called
    connected and lists the screen's modes (DUMMY0's, none current); nothing else changes."""
    expected = {name: list(lines) for name, lines in before.items()}
    mode = re.compile(r"^(  \S+ \(0x|        [hv]: )")
    modes = [line.replace(" *current", "") for line in before["DUMMY0"] if mode.match(line)]
    expected[used] = [line.replace(f"{used} disconnected", f"{used} connected", 1) for line in before[used]] + modes
    return expected


def monitor_off_within(name, seconds):
    ends = time.monotonic() + seconds
    while name in lit():
        if time.monotonic() > ends:
            return False
        time.sleep(0.05)
    return True


class PatternClient:
    """xpattern.py: a window painting the pattern; its events read on a thread. Stopped by PID."""

    def __init__(self, geometry):
        self.process = subprocess.Popen([sys.executable, str(HERE / "xpattern.py"), *map(str, geometry)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.events = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.wait(lambda e: e["event"] == "drawn", 30) is not None, "the pattern window never drew"

    def _read(self):
        for line in self.process.stdout:
            with self.lock:
                self.events.append(json.loads(line))
                self.lock.notify_all()

    def wait(self, match, seconds, start=0):
        """The index of the first event from `start` on matching `match`, waiting up to `seconds`; None if none."""
        ends = time.monotonic() + seconds
        with self.lock:
            while True:
                for index in range(start, len(self.events)):
                    if match(self.events[index]):
                        return index
                left = ends - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    return None
                self.lock.wait(left)

    def since(self, mark):
        with self.lock:
            return list(self.events[mark:])

    def move(self, x, y, width, height):
        self.process.stdin.write(f"move {x} {y} {width} {height}\n")
        self.process.stdin.flush()

    def stop(self):
        self.process.kill()
        self.process.wait(10)


def reference(width, height):
    """What the pattern window paints over width×height, as BGRA."""
    image = Image.new("RGB", (width, height))
    for row in range(height // BLOCK + 1):
        for column in range(width // BLOCK + 1):
            image.paste(pattern_block(column, row), (column * BLOCK, row * BLOCK, (column + 1) * BLOCK,
                                                     (row + 1) * BLOCK))
    r, g, b = image.split()
    return Image.merge("RGBA", (b, g, r, Image.new("L", image.size, 255))).tobytes()


def psnr(a, b):
    x = numpy.frombuffer(a, numpy.uint8).astype(numpy.float64)
    y = numpy.frombuffer(b, numpy.uint8).astype(numpy.float64)
    mse = numpy.mean((x - y) ** 2)
    return float("inf") if mse == 0 else 10 * numpy.log10(255 * 255 / mse)


@pytest.fixture(scope="module")
def pristine():
    """The RandR configuration before any host of this file ran."""
    assert set(lit()) == {"DUMMY0"}, xrandr()
    return verbose()


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    # One state folder for every host of this file, as a user has: the output lit before is re-used.
    return tmp_path_factory.mktemp("state")


@pytest.fixture
def host(tmp_path, state, pristine):
    host = Daemon(home=tmp_path, env={"XDG_STATE_HOME": str(state)}).start()
    yield host
    host.stop()
    # Whatever the test did, the configuration is as it was (with the dummy driver's one change to DUMMY1 once lit).
    assert verbose() in (pristine, after_dummy_use(pristine, "DUMMY1"))


async def viewer(host, name="Tablet"):
    device, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    return device


async def extend(device, request=IPAD):
    await device.send({"type": "startScreen", "displayId": 0, "maxSide": 3840, "fps": 30, "extend": request})
    while True:
        message = await device.recv(60)
        if isinstance(message, dict) and message["type"] in ("screenStarted", "screenDenied"):
            return message


async def next_frame(device, decoder, after):
    """The first frame decoded from a packet that arrived after `after` (monotonic seconds)."""
    while True:
        packet = parse_video(await device.recv_binary(timeout=30))
        frames = decoder.decode(av.Packet(packet.frame))
        if frames and time.monotonic() > after:
            return frames[0]


def test_extend_turns_on_an_output_of_the_devices_size_streams_and_drives_it_and_puts_everything_back(host):
    client = PatternClient((100, 100, 400, 300))

    async def scenario():
        device = await viewer(host)
        await device.send({"type": "listDisplays"})
        displays = await device.recv_type("displays", timeout=30)
        started = await extend(device)
        assert started["type"] == "screenStarted", started
        on, screen = lit(), xrandr().splitlines()[0]
        mark = len(client.since(0))
        client.move(1920, 0, IPAD["width"], IPAD["height"])
        drawn = await asyncio.to_thread(client.wait, lambda e: e["event"] == "drawn" and e["x"] == 1920, 30, mark)
        assert drawn is not None, client.since(0)
        # A frame of a packet that came well after the window was painted there.
        frame = await next_frame(device, av.CodecContext.create("h264", "r"), time.monotonic() + 0.5)
        mark = len(client.since(0))
        await device.send({"type": "pointer", "kind": "click", "x": 0.5, "y": 0.5})
        index = await asyncio.to_thread(client.wait, lambda e: e["event"] == "press", 20, mark)
        press = client.since(0)[index] if index is not None else None
        status = host.cli("status")
        await device.send({"type": "stopScreen"})
        await device.recv_type("screenStopped", timeout=30)
        stopped = time.monotonic()
        off = await asyncio.to_thread(monitor_off_within, "DUMMY1", 30)
        seconds = time.monotonic() - stopped
        await device.close()
        return displays, started, on, screen, frame, press, status, off, seconds

    try:
        displays, started, on, screen, frame, press, status, off, seconds = run(scenario())
    finally:
        client.stop()
    assert displays["extend"] == {"offered": True}, displays
    assert (started["width"], started["height"]) == (2388, 1668)
    assert on == {"DUMMY0": (1920, 1080, 0, 0), "DUMMY1": (2388, 1668, 1920, 0)}, on
    assert "current 4308 x 1668" in screen, screen
    assert (frame.width, frame.height) == (2388, 1668)
    quality = psnr(luma(frame.reformat(format="yuv420p")), reference_luma(reference(2388, 1668), 2388, 1668))
    print(f"PSNR-Y {quality:.1f} dB against the pattern on the made monitor")
    assert quality >= 35
    assert press is not None and (press["button"], press["x"], press["y"]) == (1, 1194, 834), press
    assert "extended onto the monitor made for it, DUMMY1" in status, status
    assert off, f"DUMMY1 still on after stopScreen: {lit()}"
    print(f"DUMMY1 off {seconds:.2f} s after screenStopped")
    assert seconds <= 2, seconds


def test_a_killed_host_leaves_no_monitor_after_the_next_start_and_doctor_says_extend_is_offered(host):
    async def scenario():
        device = await viewer(host)
        started = await extend(device, {**IPAD, "width": 1280, "height": 800, "scale": 1, "placement": "left"})
        return started

    started = run(scenario())
    assert started["type"] == "screenStarted", started
    # Left of DUMMY0: X has no negative coordinates, so DUMMY0 moved right by the new monitor's width.
    assert lit() == {"DUMMY0": (1920, 1080, 1280, 0), "DUMMY1": (1280, 800, 0, 0)}, lit()
    host.process.send_signal(signal.SIGKILL)
    host.process.wait()
    assert "DUMMY1" in lit()
    host.start()
    assert lit() == {"DUMMY0": (1920, 1080, 0, 0)}, lit()
    assert "removed the monitors a host left: DUMMY1" in host.log()
    doctor = host.cli("doctor", check=False)
    assert "extend: offered: an output that was off turned on through XRandR" in doctor, doctor


def test_a_monitor_the_screen_cannot_hold_is_refused_and_a_turned_device_gets_its_monitor_resized_in_place(host):
    async def scenario():
        device = await viewer(host)
        # The dummy driver's screen lives in VideoRam (256000 kB here): 10112x8192 does not fit.
        refused = await extend(device, {**IPAD, "width": 8192, "height": 8192})
        started = await extend(device, {**IPAD, "width": 1280, "height": 800, "placement": "below"})
        on = lit()
        # The device turned: asking again gives that monitor the new size where it is, never off in between (the
        # host logs each monitor it takes away).
        turned = await extend(device, {**IPAD, "width": 800, "height": 1280, "placement": "below"})
        portrait = lit()
        taken_at_turn = host.log().count("the monitor made for Extend is gone")
        await device.send({"type": "stopScreen"})
        await device.recv_type("screenStopped", timeout=30)
        off = await asyncio.to_thread(monitor_off_within, "DUMMY1", 30)
        await device.close()
        return refused, started, on, turned, portrait, taken_at_turn, off

    refused, started, on, turned, portrait, taken_at_turn, off = run(scenario())
    assert refused["type"] == "screenDenied" and refused["reason"] == "cannotExtend", refused
    assert refused["detail"].startswith("the screen could not grow to 10112x8192: the X server refused it"), refused
    assert started["type"] == "screenStarted", started
    assert on == {"DUMMY0": (1920, 1080, 0, 0), "DUMMY1": (1280, 800, 0, 1080)}, on
    assert turned["type"] == "screenStarted" and (turned["width"], turned["height"]) == (800, 1280), turned
    assert portrait == {"DUMMY0": (1920, 1080, 0, 0), "DUMMY1": (800, 1280, 0, 1080)}, portrait
    assert taken_at_turn == 0, "the monitor was taken away and made again at the turn"
    assert off
