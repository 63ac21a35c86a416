"""`make bench`, recording (DESIGN.md#recording): the real host records a private 1920×1080 Xvfb whose screen a painter
changes 90 times a second, at 60 fps (with the system sound when the host has a sound source), for the same
time in three runs, each measured as the host's CPU per second:

- viewing alone: one device streams the screen at 60 fps (the baseline);
- recording alone: `touchdeck record start --fps 60`, nobody viewing;
- recording while viewing: both at once (one capture and, at the same size and rate, one encode feeds both:
  DESIGN.md#recording).

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

from bench_stream import cpu_seconds, viewer
from livehelpers import Daemon, run
from test_stream_live import HEIGHT, WIDTH, Painter, next_video

from xscreen import VirtualScreen  # noqa: E402

SECONDS = 8


def measure(host, screen, viewing, recording):
    """Host CPU seconds per second over SECONDS, and the frames the viewer received in that time (0 without one)."""
    painter = Painter(screen.display)

    async def scenario():
        client = await viewer(host) if viewing else None
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
        finally:
            host.stop()
    with_sound = "with sound" if sound else "without sound (the file has no sound track)"
    print(f"record 1080p60, {with_sound}: viewing alone {viewing * 100:.0f} % of a core;"
          f" recording alone {alone * 100:.0f} % ({alone_fps:.1f} fps kept) → {alone / viewing:.2f}× (goal < 1.3×)")
    print(f"record 1080p60 while viewing: {both * 100:.0f} % of a core ({both_fps:.1f} fps kept) →"
          f" {both / viewing:.2f}× viewing alone (goal ≤ 1.3×; 1.91× with an encoder each, before one encode"
          f" served both); recording adds {(both - viewing) / viewing:.2f}×")
    # A loaded machine keeps fewer frames, and fewer frames cost less: CPU per frame kept says the same without that.
    print(f"record 1080p60 per frame: viewing alone {viewing / viewed_fps * 1e3:.1f} ms of CPU a frame"
          f" ({viewed_fps:.1f} fps); recording alone {alone / alone_fps / (viewing / viewed_fps):.2f}×;"
          f" recording while viewing {both / both_fps / (viewing / viewed_fps):.2f}×")


if __name__ == "__main__":
    main()
