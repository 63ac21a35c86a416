"""`make bench`, recording (DESIGN.md#recording): the real host records a private 1920×1080 Xvfb whose screen a painter
changes 90 times a second, at 60 fps (with the system sound when the host has a sound source), for the same
time in three runs, each measured as the host's CPU per second:

- viewing alone: one device streams the screen at 60 fps (the baseline);
- recording alone: `touchdeck record start --fps 60`, nobody viewing;
- recording while viewing: both at once (one capture and, at the same size and rate, one encode feeds both:
  DESIGN.md#recording);
- the same two with the viewer at 1904 px, whose encode cannot serve the native-size recording: an encoder each,
  as before one encode served both (the before beside the after, in the same run).

Printed as ratios to viewing alone (goal < 1.3× for recording alone, and ≤ 1.3× for recording while viewing),
with the frame rate each recording kept (frames in the file over its duration) so a cheap recording that
dropped frames does not pass for a good one."""

import asyncio
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parent / "interop"))

from bench_stream import NAMES, cpu_seconds
from livehelpers import Daemon, paired_device, run
from test_stream_live import HEIGHT, WIDTH, Painter, next_video, start_viewing

from xscreen import VirtualScreen  # noqa: E402

SECONDS = 8
# A viewer a little smaller than the screen: its encode cannot serve a native-size recording, so each has its own
# encoder, as every recording while viewing had before one encode served both.
APART = 1904


async def viewer(host, max_side):
    name = next(NAMES)
    client, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    await start_viewing(client, fps=60, max_side=max_side)
    return client


def measure(host, screen, viewing, recording, max_side=WIDTH):
    """Host CPU seconds per second over SECONDS, and the frames the viewer received in that time (0 without one)."""
    painter = Painter(screen.display)

    async def scenario():
        client = await viewer(host, max_side) if viewing else None
        if client:
            await next_video(client)
        if recording:
            out = host.cli("record", "start", "--fps", "60")
            assert "Recording" in out, out
        await asyncio.sleep(0.5)  # past the first keyframes
        before = cpu_seconds(host.process.pid)
        ends = time.monotonic() + SECONDS
        received = 0
        while time.monotonic() < ends:
            if client:
                await next_video(client)
                received += 1
            else:
                await asyncio.sleep(0.1)
        cpu = cpu_seconds(host.process.pid) - before
        if recording:
            host.cli("record", "stop")
        if client:
            await client.close()
        return cpu / SECONDS, received / SECONDS

    painter.start()
    try:
        return run(scenario())
    finally:
        painter.stop()


def newest_recording(home):
    files = sorted((home / "Videos" / "TouchDeck").glob("*.mp4"), key=lambda p: p.stat().st_mtime)
    return files[-1]


def kept(path):
    """Frames per second in the file, and whether it has a sound track."""
    done = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-show_streams", "-show_format", "-of", "json",
                           str(path)], capture_output=True, text=True, timeout=120, check=True)
    info = json.loads(done.stdout)
    video = next(s for s in info["streams"] if s["codec_type"] == "video")
    sound = any(s["codec_type"] == "audio" for s in info["streams"])
    return int(video["nb_read_packets"]) / float(info["format"]["duration"]), sound


def main():
    with tempfile.TemporaryDirectory() as folder, VirtualScreen(WIDTH, HEIGHT) as screen:
        home = pathlib.Path(folder)
        host = Daemon(home=home, env={"DISPLAY": screen.display}).start()
        try:
            viewing, viewed_fps = measure(host, screen, viewing=True, recording=False)
            alone, _ = measure(host, screen, viewing=False, recording=True)
            alone_fps, sound = kept(newest_recording(home))
            both, _ = measure(host, screen, viewing=True, recording=True)
            both_fps, _ = kept(newest_recording(home))
            apart_viewing, apart_viewed_fps = measure(host, screen, viewing=True, recording=False, max_side=APART)
            apart, _ = measure(host, screen, viewing=True, recording=True, max_side=APART)
            apart_fps, _ = kept(newest_recording(home))
        finally:
            host.stop()
    with_sound = "with sound" if sound else "without sound (the file has no sound track)"
    print(f"record 1080p60, {with_sound}: viewing alone {viewing * 100:.0f} % of a core;"
          f" recording alone {alone * 100:.0f} % ({alone_fps:.1f} fps kept) → {alone / viewing:.2f}× (goal < 1.3×)")
    print(f"record 1080p60 while viewing: {both * 100:.0f} % of a core ({both_fps:.1f} fps kept) →"
          f" {both / viewing:.2f}× viewing alone (goal ≤ 1.3×); recording adds {(both - viewing) / viewing:.2f}×")
    # A loaded machine keeps fewer frames, and fewer frames cost less: CPU per frame kept says the same without that.
    print(f"record 1080p60 per frame: viewing alone {viewing / viewed_fps * 1e3:.1f} ms of CPU a frame"
          f" ({viewed_fps:.1f} fps); recording alone {alone / alone_fps / (viewing / viewed_fps):.2f}×;"
          f" recording while viewing {both / both_fps / (viewing / viewed_fps):.2f}× (one encode serves both)")
    per_frame_apart = apart_viewing / apart_viewed_fps
    print(f"record 1080p60 while viewing at {APART} px, an encoder each (as before one encode served both):"
          f" {apart / apart_viewing:.2f}× its viewing alone, {apart / apart_fps / per_frame_apart:.2f}× per frame kept")


if __name__ == "__main__":
    main()
