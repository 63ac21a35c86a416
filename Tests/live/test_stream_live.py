"""Screen viewing end to end (PROTOCOL §6 "Screen", §7 "Video"): the real daemon captures a private Xvfb
(1920×1080) and streams H.264 to the Python reference client, which opens the sealed binary packets and decodes
them with PyAV. What is checked: the picture (PSNR-Y against a screenshot of the same display), the frame rate
of a changing screen, silence of a still one, keyframes on request, access (not allowed, busy, locked), the
pointer arriving in an X client that records its events, and a viewer that stops reading."""

import asyncio
import os
import pathlib
import random
import subprocess
import sys
import threading
import time

import av
import pytest
from PIL import Image, ImageDraw

from h264check import psnr, reference_luma, luma
from livehelpers import Daemon, paired_device, rss, run
from touchdeck.packets import parse_video

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from xscreen import VirtualScreen, XImageAccess  # noqa: E402

WIDTH, HEIGHT = 1920, 1080
XPOINTER = pathlib.Path(__file__).resolve().parents[1] / "support" / "xpointer.py"


@pytest.fixture
def screen():
    with VirtualScreen(WIDTH, HEIGHT) as screen:
        yield screen


@pytest.fixture
def host(tmp_path, screen):
    host = Daemon(home=tmp_path, env={"DISPLAY": screen.display}).start()
    yield host
    host.stop()


def text_page(width=WIDTH, height=HEIGHT):
    """A text-heavy page as BGRX bytes: dark lines of small text on white, like a terminal or an editor."""
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    words = random.Random(7)
    for row, y in enumerate(range(4, height - 12, 14)):
        line = " ".join("".join(words.choice("abcdefghijklmnopqrstuvwxyz0123456789{}();=") for _ in range(
            words.randint(2, 9))) for _ in range(40))
        draw.text((6 + (row % 3) * 4, y), line, fill=(20, 20, 30) if row % 5 else (30, 60, 160))
    r, g, b = image.split()
    return Image.merge("RGBA", (b, g, r, Image.new("L", image.size, 0))).tobytes()


class Decoder:
    """PyAV's H.264 decoder fed with the Annex-B access units of the host's packets."""

    def __init__(self):
        self.codec = av.CodecContext.create("h264", "r")

    def decode(self, packet):
        return self.codec.decode(av.Packet(packet.frame))


async def start_viewing(client, fps=60, max_side=WIDTH):
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    assert displays["status"] == "ok", displays
    display = displays["displays"][0]
    await client.send({"type": "startScreen", "displayId": display["id"], "maxSide": max_side, "fps": fps})
    started = await client.recv_type("screenStarted", timeout=20)
    return display, started


async def next_video(client, timeout=10):
    packet = parse_video(await client.recv_binary(timeout=timeout))
    assert packet is not None
    return packet


async def allowed_viewer(host, name="Tablet"):
    client, device_id, secret = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    return client


def test_a_text_screen_decodes_at_40_db_against_a_screenshot(host, screen):
    pixels = XImageAccess(screen.display)
    pixels.put(text_page(), 0, 0, WIDTH, HEIGHT)
    shot = pixels.grab(0, 0, WIDTH, HEIGHT)
    pixels.close()

    async def scenario():
        client = await allowed_viewer(host)
        display, started = await start_viewing(client)
        assert (started["width"], started["height"], started["fps"]) == (WIDTH, HEIGHT, 60)
        first = await next_video(client)
        await client.send({"type": "stopScreen"})
        await client.close()
        return display, first

    display, first = run(scenario())
    assert (display["width"], display["height"]) == (WIDTH, HEIGHT)
    assert first.keyframe and len(first.parameter_sets) == 2
    frames = Decoder().decode(first)
    assert len(frames) == 1
    decoded = frames[0].reformat(format="yuv420p")
    quality = psnr(luma(decoded), reference_luma(shot, WIDTH, HEIGHT))
    print(f"PSNR-Y {quality:.1f} dB, keyframe {len(first.frame)} bytes")
    assert quality >= 40


class Painter(threading.Thread):
    """Changes a band of the screen `rate` times per second until stopped."""

    def __init__(self, display, rate=90):
        super().__init__(daemon=True)
        self.pixels = XImageAccess(display)
        self.interval = 1 / rate
        self.running = True
        self.painted = 0

    def run(self):
        colours = random.Random(3)
        next_at = time.monotonic()
        while self.running:
            self.pixels.fill(colours.randrange(0, WIDTH - 400), colours.randrange(0, HEIGHT - 300), 400, 300,
                             colours.randrange(0, 0xFFFFFF))
            self.painted += 1
            next_at += self.interval
            time.sleep(max(0, next_at - time.monotonic()))

    def stop(self):
        self.running = False
        self.join(5)
        self.pixels.close()


def test_a_changing_screen_streams_at_the_asked_60_frames_a_second_not_a_slower_pace(host, screen):
    """A screen changing 90 times a second, viewed at 60 fps: the device decodes more than 45 frames a second. That is
    the 60 fps pacing, not a slower one (30 fps, or a frame per paint lost to a stall, stays well under); how close to
    60 the host gets is measured by `make bench` (bench_stream), not here: on this 2-core machine the decoding client,
    the painter and the X server share the cores with the host, and a full `make test` has seen 54.7."""
    painter = Painter(screen.display)

    async def scenario():
        client = await allowed_viewer(host)
        await start_viewing(client, fps=60)
        decoder = Decoder()
        decoder.decode(await next_video(client))
        painter.start()
        await asyncio.sleep(0.5)
        decoded = 0
        ends = time.monotonic() + 10
        while time.monotonic() < ends:
            decoded += len(decoder.decode(await next_video(client)))
        await client.close()
        return decoded

    try:
        decoded = run(scenario())
    finally:
        painter.stop()
    print(f"{decoded / 10:.1f} decoded frames per second ({painter.painted / 10.5:.0f} paints per second)")
    assert decoded > 450


def test_a_still_screen_sends_nothing_after_its_first_frame_and_a_keyframe_on_request(host, screen):
    async def scenario():
        client = await allowed_viewer(host)
        await start_viewing(client)
        first = await next_video(client)
        try:
            extra = await client.recv_binary(timeout=2)
        except TimeoutError:
            extra = None
        await client.send({"type": "requestKeyframe"})
        asked = await next_video(client)
        await client.close()
        return first, extra, asked

    first, extra, asked = run(scenario())
    assert first.keyframe
    assert extra is None, "a still screen sent another frame"
    assert asked.keyframe and len(asked.parameter_sets) == 2
    assert len(Decoder().decode(asked)) == 1


def test_access_not_allowed_reveals_nothing_busy_names_the_viewer_locked_stops_it(host, screen):
    async def scenario():
        stranger, _, _ = await paired_device(host, "Stranger")
        await stranger.send({"type": "startScreen", "displayId": 1, "maxSide": 640})
        denied = await stranger.recv_type("screenDenied", timeout=20)

        viewer = await allowed_viewer(host, "Tablet")
        display, _ = await start_viewing(viewer)
        other = await allowed_viewer(host, "Phone")
        await other.send({"type": "startScreen", "displayId": display["id"], "maxSide": 640})
        busy = await other.recv_type("screenDenied", timeout=20)
        status = host.cli("status")

        env = {**os.environ, "DISPLAY": screen.display}
        subprocess.run(["xset", "s", "activate"], env=env, check=True, timeout=10)
        stopped = await viewer.recv_type("screenStopped", timeout=20)
        await other.send({"type": "startScreen", "displayId": display["id"], "maxSide": 640})
        locked = await other.recv_type("screenDenied", timeout=20)
        subprocess.run(["xset", "s", "reset"], env=env, check=True, timeout=10)
        for client in (stranger, viewer, other):
            await client.close()
        return denied, busy, status, stopped, locked

    denied, busy, status, stopped, locked = run(scenario())
    assert denied == {"type": "screenDenied", "reason": "notAllowed"}
    assert busy == {"type": "screenDenied", "reason": "busy", "viewer": "Tablet"}
    assert "Screen viewer: Tablet (monitor" in status
    assert stopped == {"type": "screenStopped", "reason": "locked"}
    assert locked == {"type": "screenDenied", "reason": "locked"}


def recorded(path, kinds):
    import json
    return [json.loads(line) for line in path.read_text().splitlines() if json.loads(line)["type"] in kinds]


def test_touches_arrive_as_clicks_wheel_and_drags_in_an_x_client(host, screen, tmp_path):
    out = tmp_path / "events.jsonl"
    env = {**os.environ, "DISPLAY": screen.display}
    recorder = subprocess.Popen([sys.executable, str(XPOINTER), str(out)], env=env)
    try:
        for _ in range(200):
            if out.exists() and '"ready"' in out.read_text():
                break
            time.sleep(0.05)

        async def scenario():
            client = await allowed_viewer(host)
            await start_viewing(client)
            await client.send({"type": "pointer", "kind": "click", "x": 0.25, "y": 0.75})
            await asyncio.sleep(0.6)  # past the double-click window
            await client.send({"type": "pointer", "kind": "rightClick", "x": 0.5, "y": 0.5})
            await client.send({"type": "pointer", "kind": "scroll", "x": 0.5, "y": 0.5, "dx": 0, "dy": 150})
            await client.send({"type": "pointer", "kind": "scroll", "x": 0.5, "y": 0.5, "dx": 0, "dy": -150})
            await asyncio.sleep(0.6)
            await client.send({"type": "pointer", "kind": "down", "x": 0.1, "y": 0.1})
            await client.send({"type": "pointer", "kind": "move", "x": 0.2, "y": 0.2})
            await client.send({"type": "pointer", "kind": "up", "x": 0.3, "y": 0.3})
            await asyncio.sleep(1)
            await client.close()

        run(scenario())
    finally:
        recorder.terminate()
        recorder.wait(10)
    buttons = recorded(out, {"press", "release"})
    first_press = buttons[0]
    assert (first_press["type"], first_press["button"], first_press["x"], first_press["y"]) == ("press", 1, 480, 810)
    assert buttons[1]["type"] == "release" and buttons[1]["button"] == 1
    assert [(b["type"], b["button"]) for b in buttons[2:4]] == [("press", 3), ("release", 3)]
    wheel = [b["button"] for b in buttons[4:] if b["type"] == "press" and b["button"] in (4, 5)]
    assert 4 in wheel and 5 in wheel, buttons
    drag = [b for b in buttons if b["button"] == 1][2:]
    assert [(b["type"], b["x"], b["y"]) for b in drag] == [("press", 192, 108), ("release", 576, 324)], drag
    moves = [m for m in recorded(out, {"motion"}) if m["state"] & 256]
    assert any((m["x"], m["y"]) == (384, 216) for m in moves), moves


def test_a_viewer_that_stops_reading_costs_bounded_memory_and_gets_a_keyframe_after(host, screen):
    painter = Painter(screen.display, rate=60)

    async def scenario():
        client = await allowed_viewer(host)
        await start_viewing(client)
        await next_video(client)
        painter.start()
        for _ in range(30):
            await next_video(client)
        before = rss(host.process.pid) / (1 << 20)
        client.pause_reading()
        await asyncio.sleep(5)
        during = rss(host.process.pid) / (1 << 20)
        client.resume_reading()
        keyframe = None
        ends = time.monotonic() + 15
        while time.monotonic() < ends and keyframe is None:
            packet = await next_video(client)
            if packet.keyframe:
                keyframe = packet
        await client.close()
        return before, during, keyframe

    try:
        before, during, keyframe = run(scenario())
    finally:
        painter.stop()
    print(f"host RSS {before:.0f} MB → {during:.0f} MB while the viewer did not read")
    assert during - before < 100
    assert keyframe is not None


def gray(counter):
    """The counter as a picture: a gray level that differs from the last 200 counters' by at least 37."""
    return 20 + (counter * 37) % 200


def test_after_every_change_the_viewer_ends_on_the_screen_as_it_is(host, screen):
    # In about one round in ten of "something moves, then stops" the last picture sent was one from the movement,
    # and a still screen sends nothing more: the device showed a stale screen. Forty rounds, with a core kept
    # busy, each ending on a counter's own gray; the last decoded picture must show the last counter.
    pixels = XImageAccess(screen.display)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])

    async def scenario():
        client = await allowed_viewer(host)
        await start_viewing(client, fps=30, max_side=640)
        decoder = Decoder()
        counter, stale = 0, []
        for round_ in range(40):
            for _ in range(2 + round_ % 5):
                counter += 1
                value = gray(counter)
                pixels.fill(0, 0, WIDTH, HEIGHT, value << 16 | value << 8 | value)
                await asyncio.sleep(0.004 * (round_ % 4))
            last = None
            while True:  # every packet until the screen has been still for 0.6 s
                try:
                    packet = parse_video(await client.recv_binary(timeout=0.6))
                except TimeoutError:
                    break
                for frame in decoder.decode(packet):
                    last = frame
            # A quarter in from the corner: the pointer is drawn in at the centre.
            luma = None if last is None else last.reformat(format="yuv420p").to_ndarray()[last.height // 4, last.width // 4]
            expected = 16 + 219 * gray(counter) / 255
            if luma is None or abs(float(luma) - expected) > 8:
                stale.append((round_, counter, luma, round(expected)))
        await client.close()
        return stale

    try:
        stale = run(scenario())
    finally:
        burner.kill()
        burner.wait()
        pixels.close()
    assert stale == [], f"rounds that ended on an old picture (round, counter, luma, wanted): {stale}"
