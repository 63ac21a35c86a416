"""`make bench`, GNOME on Wayland against X11 at the same size (1280×720): the real host streams at 60 fps to the
Python reference client while the screen changes 60 times a second, once from headless Mutter (ScreenCast +
PipeWire; a GTK client moves a band over its pattern) and once from a private Xvfb of the same size (XDamage +
XShm; the band painted through XPutImage). Run under scripts/with-mutter.

Printed, Mutter against X11 measured in the same run: decoded frames per second, the host's CPU per frame, and
the display server's CPU per frame (mutter renders with software GL here; Xvfb only copies)."""

import asyncio
import os
import pathlib
import random
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "live"))
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parent / "interop"))

from livehelpers import Daemon, paired_device, run  # noqa: E402
from test_mutter_live import GTKClient  # noqa: E402
from touchdeck.packets import parse_video  # noqa: E402
from xscreen import VirtualScreen, XImageAccess  # noqa: E402

WIDTH, HEIGHT, RATE, SECONDS = 1280, 720, 60, 8
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def stream(host, server_pid):
    """(decoded frames, host CPU s, display server CPU s) over SECONDS of a changing screen."""
    import av

    async def scenario():
        client, _, _ = await paired_device(host, "Bench")
        host.cli("devices", "allow-screen", "Bench", "on")
        await client.send({"type": "listDisplays"})
        display = (await client.recv_type("displays", timeout=30))["displays"][0]
        await client.send({"type": "startScreen", "displayId": display["id"], "maxSide": WIDTH, "fps": RATE})
        await client.recv_type("screenStarted", timeout=30)
        decoder = av.CodecContext.create("h264", "r")
        decoder.decode(av.Packet(parse_video(await client.recv_binary(timeout=30)).frame))
        await asyncio.sleep(0.5)
        host_before, server_before = cpu_seconds(host.process.pid), cpu_seconds(server_pid)
        decoded = 0
        ends = time.monotonic() + SECONDS
        while time.monotonic() < ends:
            decoded += len(decoder.decode(av.Packet(parse_video(await client.recv_binary(timeout=10)).frame)))
        host_cpu = cpu_seconds(host.process.pid) - host_before
        server_cpu = cpu_seconds(server_pid) - server_before
        await client.close()
        return decoded, host_cpu, server_cpu

    return run(scenario())


class XPainter(threading.Thread):
    """Moves a 400×300 band over the X screen RATE times a second, like the GTK client's --animate."""

    def __init__(self, display):
        super().__init__(daemon=True)
        self.pixels = XImageAccess(display)
        self.running = True

    def run(self):
        colours = random.Random(3)
        next_at = time.monotonic()
        step = 0
        while self.running:
            step += 1
            self.pixels.fill((step * 37) % (WIDTH - 400), (step * 23) % (HEIGHT - 300), 400, 300,
                             colours.randrange(0, 0xFFFFFF))
            next_at += 1 / RATE
            time.sleep(max(0, next_at - time.monotonic()))

    def stop(self):
        self.running = False
        self.join(5)
        self.pixels.close()


def mutter_run(home):
    client = GTKClient(["--animate", str(RATE)])
    wayland = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    host = Daemon(home=home, env={"WAYLAND_DISPLAY": wayland}).start()
    try:
        return stream(host, int(os.environ["TOUCHDECK_MUTTER_PID"]))
    finally:
        host.stop()
        client.stop()


def x11_run(home):
    with VirtualScreen(WIDTH, HEIGHT) as screen:
        painter = XPainter(screen.display)
        painter.start()
        # The override: the environment here is the Wayland session's.
        host = Daemon(home=home, env={"DISPLAY": screen.display, "TOUCHDECK_DESKTOP": "x11"}).start()
        try:
            return stream(host, screen.process.pid)
        finally:
            host.stop()
            painter.stop()


def main():
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        m_frames, m_host, m_server = mutter_run(pathlib.Path(first))
        x_frames, x_host, x_server = x11_run(pathlib.Path(second))
    m_fps, x_fps = m_frames / SECONDS, x_frames / SECONDS
    per = lambda cpu, frames: 1000 * cpu / max(1, frames)  # noqa: E731
    print(f"mutter stream {WIDTH}x{HEIGHT}: {m_fps:.1f} fps vs X11 {x_fps:.1f} fps "
          f"({m_fps / max(x_fps, 0.1):.2f}x), changes {RATE}/s")
    print(f"mutter stream host CPU per frame: {per(m_host, m_frames):.2f} ms vs X11 {per(x_host, x_frames):.2f} ms "
          f"({per(m_host, m_frames) / max(per(x_host, x_frames), 0.01):.2f}x)")
    print(f"mutter stream display server CPU per frame: mutter {per(m_server, m_frames):.2f} ms vs Xvfb "
          f"{per(x_server, x_frames):.2f} ms ({per(m_server, m_frames) / max(per(x_server, x_frames), 0.01):.2f}x)")


if __name__ == "__main__":
    main()
