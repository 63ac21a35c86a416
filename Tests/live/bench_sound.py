"""`make bench`, sound while viewing: the real host routes the private PulseAudio's sound to its own sink and
sends it to the Python reference client.

Printed, each against a baseline measured in the same run:
- capture → played latency p50: a 10 ms click written to the default sink (`pacat`, 10 ms latency) every 250 ms;
  its arrival at the device after `parec` (10 ms latency, reading our sink's monitor at the same time) saw it,
  plus the 60 ms the device's jitter buffer holds before playing (goal < 120 ms); and from the app's write, the
  device against parec (PulseAudio's own null sink → monitor path is most of it);
- CPU of the sound path: the host's CPU while it streams sound with a still screen minus the same host viewing
  without sound, as a share of one core, against `parec` recording the same monitor for the same time."""

import asyncio
import os
import pathlib
import statistics
import subprocess
import sys
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parent / "interop"))

import numpy  # noqa: E402
from livehelpers import Daemon, run  # noqa: E402
from test_sound_live import viewer_with_sound  # noqa: E402
from soundhelpers import OURS  # noqa: E402

SECONDS = 10
CLICK_EVERY = 0.25
JITTER_START = 0.06
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Clicker(threading.Thread):
    """Writes silence to `pacat` in real time, with a loud 10 ms click every CLICK_EVERY s; notes when each left."""

    def __init__(self):
        super().__init__(daemon=True)
        argv = ["pacat", "--playback", "--raw", "--format=s16le", "--rate=48000", "--channels=2", "--latency-msec=10"]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE)
        self.clicks = []
        self.running = True

    def run(self):
        silence = bytes(480 * 4)
        click = numpy.full(960, 20000, dtype="<i2").tobytes()
        start = time.monotonic()
        written = 0
        while self.running:
            due = start + written * 0.01
            time.sleep(max(0, due - time.monotonic()))
            loud = written % round(CLICK_EVERY / 0.01) == 0
            if loud:
                self.clicks.append(time.monotonic())
            self.process.stdin.write(click if loud else silence)
            self.process.stdin.flush()
            written += 1

    def stop(self):
        self.running = False
        self.join(5)
        self.process.terminate()
        self.process.wait(10)


def onsets(arrivals):
    """Times of the packets/chunks where a click starts (a loud sample after silence)."""
    found, loud = [], False
    for at, samples in arrivals:
        now = bool(len(samples)) and int(numpy.abs(samples).max()) > 10000
        if now and not loud:
            found.append(at)
        loud = now
    return found


def pairs(clicks, device, baseline):
    """(app → device, app → parec) for every click both heard."""
    out = []
    for click in clicks:
        heard = [[at - click for at in arrived if 0 <= at - click < CLICK_EVERY] for arrived in (device, baseline)]
        if heard[0] and heard[1]:
            out.append((heard[0][0], heard[1][0]))
    return out


def parec_arrivals(seconds):
    argv = ["parec", f"--device={OURS}.monitor", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
            "--latency-msec=10"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE)
    arrivals = []
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        chunk = process.stdout.read1(1920)
        arrivals.append((time.monotonic(), numpy.frombuffer(chunk[: len(chunk) // 2 * 2], dtype="<i2")))
    cpu = cpu_seconds(process.pid)
    process.terminate()
    process.wait(10)
    return arrivals, cpu


async def device_arrivals(client, seconds):
    arrivals = []
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        data = await client.recv_binary(timeout=5)
        if data[0] == 2:
            arrivals.append((time.monotonic(), numpy.frombuffer(data[6:], dtype="<i2")))
    return arrivals


async def measure(host):
    client, started = await viewer_with_sound(host)
    assert started["audio"], "sound did not start"
    clicker = Clicker()
    clicker.start()
    try:
        await asyncio.sleep(1)
        # Both read the same clicks at once: parec marks when the sound was in our sink's monitor (the capture).
        recording = asyncio.ensure_future(asyncio.to_thread(parec_arrivals, SECONDS))
        device = await device_arrivals(client, SECONDS)
        baseline, parec_cpu = await recording
        clicks = list(clicker.clicks)
    finally:
        clicker.stop()
    await client.close()
    return pairs(clicks, onsets(device), onsets(baseline)), parec_cpu


async def cpu_share(host, audio):
    """The host's CPU over SECONDS while one device views a still screen, with or without sound, per core."""
    from livehelpers import paired_device

    client, _, _ = await paired_device(host, f"cpu-{audio}")
    host.cli("devices", "allow-screen", f"cpu-{audio}", "on")
    await client.send({"type": "listDisplays"})
    display = (await client.recv_type("displays", timeout=20))["displays"][0]
    await client.send({"type": "startScreen", "displayId": display["id"], "maxSide": 640, "fps": 30, "audio": audio})
    await client.recv_type("screenStarted", timeout=20)
    reader = asyncio.ensure_future(drain(client))
    await asyncio.sleep(1)
    before = cpu_seconds(host.process.pid)
    await asyncio.sleep(SECONDS)
    used = cpu_seconds(host.process.pid) - before
    reader.cancel()
    await client.close()
    return used / SECONDS


async def drain(client):
    while True:
        await client.recv_binary(timeout=60)


def main():
    host = Daemon().start()
    try:
        clicks, parec_cpu = run(measure(host))
        quiet = run(cpu_share(host, False))
        loud = run(cpu_share(host, True))
    finally:
        host.stop()
    assert clicks, "no click was heard by both the device and parec"
    capture_to_played = statistics.median(device - parec for device, parec in clicks) + JITTER_START
    app_to_device = statistics.median(device for device, _ in clicks)
    app_to_parec = statistics.median(parec for _, parec in clicks)
    print(f"sound capture → played p50 {capture_to_played * 1000:.0f} ms (goal < 120 ms: arrival after parec saw it on "
          f"the monitor + {JITTER_START * 1000:.0f} ms jitter buffer); from the app's write: device "
          f"{app_to_device * 1000:.0f} ms vs parec {app_to_parec * 1000:.0f} ms: {app_to_device / app_to_parec:.2f}× "
          f"({len(clicks)} clicks)")
    sound_cpu = max(0.0, loud - quiet)
    parec_share = parec_cpu / SECONDS
    print(f"sound path CPU {sound_cpu * 100:.2f} % of a core (host viewing with sound {loud * 100:.2f} %, without "
          f"{quiet * 100:.2f} %) vs parec recording the monitor {parec_share * 100:.2f} %: "
          f"{sound_cpu / parec_share if parec_share else float('nan'):.2f}×")


if __name__ == "__main__":
    main()
