"""GNOME on Wayland end to end: the real daemon on a private headless Mutter (run under scripts/with-mutter) serves
the screen through Mutter's ScreenCast + PipeWire and takes the pointer and the keypad through its RemoteDesktop.
A GTK client (gtk_pattern.py) paints a known pattern fullscreen and prints its input events as JSON lines. What is
checked: the decoded keyframe against the pattern (PSNR-Y), clicks at the right pixels, the wheel's direction,
keypad keys, text and special keys arriving in the client (or failing with the character named), and a recording
(`touchdeck record`) read by ffprobe and decoded against the pattern. Skipped outside scripts/with-mutter."""

import asyncio
import base64
import io
import json
import os
import pathlib
import subprocess
import sys
import threading
import time

import av
import pytest
from PIL import Image

LIVE = pathlib.Path(__file__).resolve().parents[1] / "live"
sys.path.insert(0, str(LIVE))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from h264check import luma, psnr, reference_luma  # noqa: E402
from livehelpers import Daemon, paired_device, run  # noqa: E402
from touchdeck.packets import parse_video  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("TOUCHDECK_MUTTER_SIZE") != "1280x720",
                                reason="needs scripts/with-mutter with its one 1280x720 monitor")

WIDTH, HEIGHT, BLOCK = 1280, 720, 80
CLIENT = pathlib.Path(__file__).resolve().parent / "gtk_pattern.py"


def pattern_block(column, row):
    """gtk_pattern.py's colours, mirrored."""
    return ((column * 37 + 20) % 256, (row * 59 + 40) % 256, ((column + row) * 91 + 60) % 256)


def pattern_bgra():
    image = Image.new("RGB", (WIDTH, HEIGHT))
    for row in range(HEIGHT // BLOCK + 1):
        for column in range(WIDTH // BLOCK + 1):
            image.paste(pattern_block(column, row), (column * BLOCK, row * BLOCK, (column + 1) * BLOCK,
                                                     (row + 1) * BLOCK))
    r, g, b = image.split()
    return Image.merge("RGBA", (b, g, r, Image.new("L", image.size, 255))).tobytes()


class GTKClient:
    """gtk_pattern.py under the system Python (python3-gi); its events are read on a thread. Stopped by PID."""

    def __init__(self, args=()):
        env = {**os.environ, "GDK_BACKEND": "wayland"}
        self.process = subprocess.Popen(["/usr/bin/python3", str(CLIENT), *args], stdout=subprocess.PIPE, env=env,
                                        text=True)
        self.events = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.wait(lambda e: e["event"] == "ready", 30) is not None, "the GTK client never drew"

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

    def stop(self):
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def client():
    gtk = GTKClient()
    yield gtk
    gtk.stop()


@pytest.fixture
def host(tmp_path, client):
    # The daemon gets its own XDG_RUNTIME_DIR: the compositor's socket is passed by its full path.
    wayland = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    host = Daemon(home=tmp_path, env={"WAYLAND_DISPLAY": wayland}).start()
    yield host
    host.stop()


async def viewer(host):
    device, _, _ = await paired_device(host, "Tablet")
    host.cli("devices", "allow-screen", "Tablet", "on")
    await device.send({"type": "listDisplays"})
    displays = await device.recv_type("displays", timeout=30)
    assert displays["status"] == "ok", displays
    display = displays["displays"][0]
    await device.send({"type": "startScreen", "displayId": display["id"], "maxSide": WIDTH, "fps": 30})
    started = await device.recv_type("screenStarted", timeout=30)
    return device, display, started


async def next_video(device, timeout=20):
    packet = parse_video(await device.recv_binary(timeout=timeout))
    assert packet is not None
    return packet


def test_the_stream_shows_the_clients_pattern(host):
    async def scenario():
        device, display, started = await viewer(host)
        first = await next_video(device)
        await device.send({"type": "stopScreen"})
        await device.close()
        return display, started, first

    display, started, first = run(scenario())
    assert (display["width"], display["height"], display["name"]) == (WIDTH, HEIGHT, "Meta-0")
    # The thumbnail is a short capture's first frame: the pattern's top-left block, scaled down.
    assert display["thumbnail"].startswith("data:image/jpeg;base64,")
    thumbnail = Image.open(io.BytesIO(base64.b64decode(display["thumbnail"].split(",", 1)[1]))).convert("RGB")
    corner = thumbnail.getpixel((2, 2))
    assert all(abs(a - b) <= 12 for a, b in zip(corner, pattern_block(0, 0))), corner
    assert (started["width"], started["height"]) == (WIDTH, HEIGHT)
    assert first.keyframe
    frames = av.CodecContext.create("h264", "r").decode(av.Packet(first.frame))
    assert len(frames) == 1
    quality = psnr(luma(frames[0].reformat(format="yuv420p")), reference_luma(pattern_bgra(), WIDTH, HEIGHT))
    print(f"PSNR-Y {quality:.1f} dB against the pattern, keyframe {len(first.frame)} bytes")
    assert quality >= 35


def test_clicks_the_wheel_and_keypad_keys_reach_the_client(host, client):
    async def scenario():
        device, _, _ = await viewer(host)
        await next_video(device)
        # The very first tap of the viewing, as a user makes it: it must arrive whole (it once lost its press:
        # the client saw only the release, 3 runs of 4).
        mark = len(client.since(0))
        await device.send({"type": "pointer", "kind": "click", "x": 0.25, "y": 0.75})
        released = await asyncio.to_thread(client.wait, lambda e: e["event"] == "release", 10, mark)
        assert released is not None, f"the click never arrived; the client saw {client.since(0)}"
        await asyncio.sleep(0.6)  # past the double-click window
        await device.send({"type": "pointer", "kind": "rightClick", "x": 0.5, "y": 0.5})
        # PROTOCOL §6: the content follows the finger, so a positive dy is the wheel up, a negative one down.
        await device.send({"type": "pointer", "kind": "scroll", "x": 0.5, "y": 0.5, "dx": 0, "dy": 150})
        await asyncio.to_thread(client.wait, lambda e: e["event"] == "scroll", 10, mark)
        await device.send({"type": "pointer", "kind": "scroll", "x": 0.5, "y": 0.5, "dx": 0, "dy": -150})
        results = []
        for key in ["7", "+", "enter"]:
            await device.send({"type": "keypad", "key": key})
            results.append(await device.recv_type("keypadResult", timeout=20))
        await asyncio.to_thread(client.wait, lambda e: e["event"] == "key-release" and e["keyval"] == 0xff0d, 20,
                                mark)
        await device.close()
        return mark, results

    mark, results = run(scenario())
    events = client.since(mark)
    buttons = [(e["event"], e["button"], e["x"], e["y"]) for e in events if e["event"] in ("press", "release")]
    assert buttons[:4] == [("press", 1, 320, 540), ("release", 1, 320, 540), ("press", 3, 640, 360),
                           ("release", 3, 640, 360)], events
    # GDK reports each notch as a discrete event (0 up, 1 down) and a smooth one (4, dy -1 or 1).
    notches = [e["direction"] for e in events if e["event"] == "scroll" and e["direction"] in (0, 1)]
    smooth = [e["dy"] for e in events if e["event"] == "scroll" and e["direction"] == 4]
    assert notches and notches == sorted(notches) and set(notches) == {0, 1}, notches
    assert smooth == sorted(smooth) and smooth[0] < 0 < smooth[-1], smooth
    assert results == [{"type": "keypadResult", "ok": True}] * 3
    typed = [e["keyval"] for e in events if e["event"] == "key-press"]
    assert [k for k in typed if k in (0x37, 0x2b, 0xff0d)] == [0x37, 0x2b, 0xff0d], typed


def test_text_and_special_keys_type_and_a_character_the_layout_lacks_fails_by_name(host, client):
    async def scenario():
        device, _, _ = await viewer(host)
        # The headless seat gets its keyboard with the session's virtual devices, and the client binds it a
        # moment later: press Escape until the client sees one (each wait bounded).
        for _ in range(100):
            await device.send({"type": "pressKey", "key": "esc"})
            assert await device.recv_type("typed", timeout=20) == {"type": "typed", "ok": True}
            if await asyncio.to_thread(client.wait, lambda e: e["event"] == "key-release", 0.1) is not None:
                break
        else:
            raise AssertionError(f"the keyboard never reached the client; it saw {client.since(0)}")
        mark = len(client.since(0))
        answers = []
        for message in [{"type": "typeText", "text": "Hello, €5 (ok)", "enter": True},
                        {"type": "pressKey", "key": "selectAll"},
                        {"type": "typeText", "text": "naïve 한", "enter": True},
                        {"type": "pressKey", "key": "backspace"}]:
            await device.send(message)
            answers.append(await device.recv_type("typed", timeout=20))
        await asyncio.to_thread(client.wait, lambda e: e["event"] == "key-release" and e["keyval"] == 0xff08, 20,
                                mark)
        await device.close()
        return mark, answers

    mark, answers = run(scenario())
    presses = [e for e in client.since(mark) if e["event"] == "key-press"]
    assert answers[0] == answers[1] == answers[3] == {"type": "typed", "ok": True}, answers
    # ï is on the US layout nowhere; the whole text fails, names the character, and Return is not pressed.
    assert answers[2]["ok"] is False and "“ï” (U+00EF)" in answers[2]["reason"], answers[2]
    text = "".join(e["text"] for e in presses if e["keyval"] not in (0xff0d, 0xff08) and not e["state"] & 4)
    assert [e["keyval"] for e in presses if e["keyval"] in (0xff0d, 0xff08)] == [0xff0d, 0xff08], presses
    assert text == "Hello, €5 (ok)", text
    assert any(e["keyval"] == 0x61 and e["state"] & 4 for e in presses), "no Ctrl+A"
    assert not any(e["keyval"] in (0x6e, 0xef) for e in presses), "part of the refused text was typed"


def test_doctor_names_the_gnome_back_end_and_checks_pipewire(host):
    doctor = host.cli("doctor", check=False)
    assert "ok   desktop: GNOME (Mutter on Wayland)" in doctor, doctor
    assert "ok   PipeWire: " in doctor, doctor
    assert "display: DISPLAY is not set" not in doctor, "the X11 checks ran on a Wayland session"
    # Decks that follow the focused app are off on GNOME, and doctor says why (GNOME Shell tells no app the focus).
    assert "ok   focused app: not followed: GNOME Shell tells no app which window has the focus" in doctor, doctor


def test_a_recording_of_the_gnome_screen_is_h264_that_shows_the_pattern(host, tmp_path):
    # The daemon's HOME is tmp_path, with no user-dirs.dirs: ~/Videos. No sound server here: video only.
    videos = tmp_path / "Videos"
    assert "Recording" in host.cli("record", "start", "--fps", "30")
    time.sleep(3)
    assert "Saved" in host.cli("record", "stop")
    files = sorted((videos / "TouchDeck").glob("*.mp4"))
    assert len(files) == 1, files
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_format", "-show_streams", "-of", "json", str(files[0])],
                           capture_output=True, text=True, timeout=60)
    info = json.loads(probe.stdout)
    assert [s["codec_name"] for s in info["streams"]] == ["h264"], info["streams"]
    print(f"recording: {float(info['format']['duration']):.2f} s for 3 s")
    # The pattern is still, so Mutter sends frames only when asked: the stop asks for a last picture, or the file
    # would end at the keep-alive's last one (2.2 s once, before that was done). Mutter sends the first picture a
    # moment after the session starts (1.5 s once in a loaded full run): it is shown from the file's start.
    assert 2.5 <= float(info["format"]["duration"]) <= 3.3, info["format"]
    with av.open(str(files[0])) as container:
        last = None
        for frame in container.decode(video=0):
            last = frame
    assert (last.width, last.height) == (WIDTH, HEIGHT)
    quality = psnr(luma(last.reformat(format="yuv420p")), reference_luma(pattern_bgra(), WIDTH, HEIGHT))
    print(f"recording: PSNR-Y {quality:.1f} dB against the pattern")
    assert quality >= 35
