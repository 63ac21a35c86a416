"""`make bench`, Extend on sway (issue 24): the tablet as an extra monitor against a real monitor of the same size, in
the same run. Run under scripts/with-sway: its headless output HEADLESS-1 is set to the virtual monitor's size and
scale (2388×1668 at scale 2, an iPad's), and one GTK client, fullscreen, moves a band over its pattern 30 times a
second on whichever output it is on (the same content changing the same way on both).

Printed, Extend against HEADLESS-1:
- Extend → first decoded frame, p50 over ROUNDS: `startScreen{extend}` until the Python reference client decodes a
  frame (the host makes or re-uses the output, sets its mode, starts the portal capture; a watcher moves the
  window onto the output once sway shows it at the asked mode: xdg-desktop-portal-wlr copies an output only once
  it is damaged), against `startScreen` of HEADLESS-1 → first decoded frame. Rounds alternate, after one unmeasured
  round each (the portal's chooser, a first `create_output`).
- the host's CPU per decoded frame viewing the virtual monitor, and sway's, against viewing HEADLESS-1, at the same
  size and fps (maxSide = the width: no scaling), over MEASURES alternating viewings of SECONDS each."""

import asyncio
import json
import os
import pathlib
import socket
import statistics
import struct
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

WIDTH, HEIGHT, SCALE, RATE = 2388, 1668, 2, 30
EXTEND = {"width": WIDTH, "height": HEIGHT, "scale": SCALE, "placement": "right"}
ROUNDS, SECONDS, MEASURES = 5, 6, 2
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Sway:
    """sway's IPC on one socket (i3-ipc framing: magic, length, type), kept open: the watcher asks it often."""

    def __init__(self):
        folder = pathlib.Path(os.environ["WAYLAND_DISPLAY"]).parent
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(str(next(folder.glob("sway-ipc.*.sock"))))
        self.lock = threading.Lock()

    def ask(self, kind, payload=""):
        body = payload.encode()
        with self.lock:
            self.socket.sendall(b"i3-ipc" + struct.pack("<II", len(body), kind) + body)
            header = self._read(14)
            return json.loads(self._read(struct.unpack("<II", header[6:])[0]))

    def _read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.socket.recv(count - len(data))
            assert chunk, "sway closed its IPC socket"
            data += chunk
        return data

    def command(self, text):
        return self.ask(0, text)

    def outputs(self):
        return {output["name"]: output for output in self.ask(3)}


def shown_at_size(output):
    mode = output.get("current_mode") or {}
    return output["active"] and (mode.get("width"), mode.get("height")) == (WIDTH, HEIGHT)


class WindowMover(threading.Thread):
    """Moves the GTK window onto the first output other than HEADLESS-1 that sway shows at the asked mode."""

    def __init__(self, sway, pid):
        super().__init__(daemon=True)
        self.sway, self.pid, self.done = sway, pid, threading.Event()
        self.start()

    def run(self):
        while not self.done.is_set():
            shown = [name for name, output in self.sway.outputs().items()
                     if name != "HEADLESS-1" and shown_at_size(output)]
            if shown:
                self.sway.command(f"[pid={self.pid}] move container to output {shown[0]}, focus, fullscreen enable")
                return
            time.sleep(0.005)


def expected_output(sway):
    """The output the host will use (a parked one it made, else the next HEADLESS-N), told to the portal's chooser
    (the computer's user picks it once; the Extend restore token keeps it)."""
    names = sorted((name for name in sway.outputs() if name != "HEADLESS-1"), key=lambda n: int(n.split("-")[1]))
    name = names[0] if names else "HEADLESS-2"
    pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).write_text(name + "\n")
    return name


def parked(sway, name, seconds=30):
    """Waits for the host to take the output away (gone, off, or parked 320x240 far right)."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        output = sway.outputs().get(name)
        if output is None or not output["active"] or output["rect"]["x"] >= 100_000:
            return
        time.sleep(0.05)
    raise AssertionError(f"{name} was not taken away")


async def first_frame(device, request):
    """Seconds from `request` to the first decoded frame; the decoder is returned to go on decoding."""
    import av

    decoder = av.CodecContext.create("h264", "r")
    began = time.monotonic()
    await device.send(request)
    while True:
        message = await device.recv(60)
        if isinstance(message, dict) and message["type"] in ("screenStarted", "screenDenied"):
            assert message["type"] == "screenStarted", message
            break
    frames = []
    while not frames:
        frames = decoder.decode(av.Packet(parse_video(await device.recv_binary(timeout=30)).frame))
    took = time.monotonic() - began
    assert (frames[0].width, frames[0].height) == (WIDTH, HEIGHT), (frames[0].width, frames[0].height)
    return took, decoder


async def per_frame(device, decoder, sway_pid, host_pid):
    """(decoded frames, host CPU s, sway CPU s) over SECONDS of the viewing already running."""
    import av

    await asyncio.sleep(0.5)
    host_before, sway_before = cpu_seconds(host_pid), cpu_seconds(sway_pid)
    decoded = 0
    ends = time.monotonic() + SECONDS
    while time.monotonic() < ends:
        decoded += len(decoder.decode(av.Packet(parse_video(await device.recv_binary(timeout=10)).frame)))
    return decoded, cpu_seconds(host_pid) - host_before, cpu_seconds(sway_pid) - sway_before


async def stop(device):
    await device.send({"type": "stopScreen"})
    await device.recv_type("screenStopped", timeout=60)


def bench(host, sway, client):
    sway_pid = int(os.environ["TOUCHDECK_SWAY_PID"])
    real = {"type": "startScreen", "maxSide": WIDTH, "fps": RATE}
    extend = {"type": "startScreen", "displayId": 0, "maxSide": WIDTH, "fps": RATE, "extend": EXTEND}

    async def view_real(device, measure=False):
        sway.command(f"[pid={client.process.pid}] move container to output HEADLESS-1, focus, fullscreen enable")
        took, decoder = await first_frame(device, real)
        cost = await per_frame(device, decoder, sway_pid, host.process.pid) if measure else None
        await stop(device)
        return took, cost

    async def view_extended(device, measure=False):
        name = expected_output(sway)
        mover = WindowMover(sway, client.process.pid)
        try:
            took, decoder = await first_frame(device, extend)
        finally:
            mover.done.set()
        cost = await per_frame(device, decoder, sway_pid, host.process.pid) if measure else None
        await stop(device)
        await asyncio.to_thread(parked, sway, name)
        return took, cost

    async def scenario():
        device, _, _ = await paired_device(host, "Bench")
        host.cli("devices", "allow-screen", "Bench", "on")
        await device.send({"type": "listDisplays"})
        display = (await device.recv_type("displays", timeout=30))["displays"][0]
        assert (display["name"], display["width"], display["height"]) == ("HEADLESS-1", WIDTH, HEIGHT), display
        real["displayId"] = display["id"]
        await view_real(device)
        await view_extended(device)
        real_times, extend_times = [], []
        for _ in range(ROUNDS):
            real_times.append((await view_real(device))[0])
            extend_times.append((await view_extended(device))[0])
        # Alternating too, summed: a machine whose load drifts meanwhile weighs on both sides alike.
        real_cost, extend_cost = (0, 0, 0), (0, 0, 0)
        for _ in range(MEASURES):
            real_cost = tuple(map(sum, zip(real_cost, (await view_real(device, measure=True))[1])))
            extend_cost = tuple(map(sum, zip(extend_cost, (await view_extended(device, measure=True))[1])))
        await device.close()
        return real_times, extend_times, real_cost, extend_cost

    return run(scenario())


def main():
    sway = Sway()
    sway.command(f"output HEADLESS-1 mode {WIDTH}x{HEIGHT} scale {SCALE} pos 0 0")
    client = GTKClient(["--animate", str(RATE)])
    try:
        with tempfile.TemporaryDirectory() as home:
            # One state folder for the host's record of the outputs it made (a parked one is re-used).
            host = Daemon(home=pathlib.Path(home), env={"XDG_STATE_HOME": str(pathlib.Path(home) / "state")}).start()
            try:
                real_times, extend_times, real_cost, extend_cost = bench(host, sway, client)
            finally:
                host.stop()
    finally:
        client.stop()
        pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).unlink(missing_ok=True)
    real_p50, extend_p50 = statistics.median(real_times), statistics.median(extend_times)
    print(f"extend {WIDTH}x{HEIGHT} scale {SCALE} → first frame: p50 {1000 * extend_p50:.0f} ms vs startScreen of "
          f"HEADLESS-1 at the same size {1000 * real_p50:.0f} ms ({extend_p50 / real_p50:.2f}x), {ROUNDS} rounds "
          f"(extend {', '.join(f'{1000 * t:.0f}' for t in extend_times)} ms)")
    per = lambda cpu, frames: 1000 * cpu / max(1, frames)  # noqa: E731
    load = os.getloadavg()[0]
    (r_frames, r_host, r_sway), (e_frames, e_host, e_sway) = real_cost, extend_cost
    seconds = SECONDS * MEASURES
    print(f"extend viewing {RATE} fps: {e_frames / seconds:.1f} decoded fps vs HEADLESS-1 {r_frames / seconds:.1f}; "
          f"host CPU per frame {per(e_host, e_frames):.2f} ms vs {per(r_host, r_frames):.2f} ms "
          f"({per(e_host, e_frames) / max(per(r_host, r_frames), 0.01):.2f}x); sway CPU per frame "
          f"{per(e_sway, e_frames):.2f} ms vs {per(r_sway, r_frames):.2f} ms "
          f"({per(e_sway, e_frames) / max(per(r_sway, r_frames), 0.01):.2f}x); load {load:.1f}")


if __name__ == "__main__":
    main()
