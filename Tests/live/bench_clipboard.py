"""`make bench` (via scripts/bench, under scripts/with-desktop for its Xvfb): copy on the computer → `clipboardOffer`
received by a viewing device, p50/p99 over many copies, from starting `xclip -i` to the offer opened by the
Python client, against the same copy read back by another X app (`xclip -o`, started again until it has the new
text) in the same run. A short text and 1 MiB (INCR: many round trips between the host and the copying app).
Prints the times and the ratio host/xclip (lower is better)."""

import asyncio
import base64
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402

TEXTS = {"short": (60, 40), "1 MiB": (1 << 20, 10)}  # name → (bytes, copies)


def copy(data):
    process = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    process.stdin.write(data)
    process.stdin.close()
    return process


def text_of(size, n):
    unit = f"copy {n}: 안녕 🙂 ".encode()
    return (unit * (size // len(unit) + 1))[:size].decode("utf-8", "ignore").encode().ljust(size, b".")


async def device(host):
    pin = host.pin()
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    await client.hello("Bench", protocol=3)
    device_id, secret = await client.pair(pin)
    await client.authenticate(device_id, secret)
    await client.recv_type("layout")
    host.cli("devices", "allow-screen", "Bench", "on")
    host.cli("devices", "allow-clipboard", "Bench", "on")
    return client


async def view(client):
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    await client.recv_type("screenStarted", timeout=20)


async def host_time(client, data):
    start = time.monotonic()
    process = copy(data)
    offer = await client.recv_type("clipboardOffer", timeout=30)
    elapsed = time.monotonic() - start
    process.kill()
    process.wait(10)
    return elapsed if base64.b64decode(offer.get("data", "")) == data else None


def xclip_time(data):
    start = time.monotonic()
    process = copy(data)
    try:
        while time.monotonic() - start < 30:
            out = subprocess.run(["xclip", "-selection", "clipboard", "-o"], capture_output=True, timeout=30).stdout
            if out == data:
                return time.monotonic() - start
        return None
    finally:
        process.kill()
        process.wait(10)


def percentiles(times):
    if not times or None in times:
        return None
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


async def measure(host):
    client = await device(host)
    for name, (size, rounds) in TEXTS.items():
        await view(client)
        ours = percentiles([await host_time(client, text_of(size, n)) for n in range(rounds)])
        # Not viewing during the baseline: the host reads nothing then (xclip serves one INCR transfer at a time).
        await client.send({"type": "stopScreen"})
        await client.recv_type("screenStopped", timeout=20)
        theirs = percentiles([xclip_time(text_of(size, n + rounds)) for n in range(rounds)])
        yield name, rounds, ours, theirs
    await client.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        host = Daemon(home=pathlib.Path(folder)).start()

        async def report():
            async for name, rounds, ours, theirs in measure(host):
                show = lambda p: f"p50 {p[0] * 1000:6.1f} ms p99 {p[1] * 1000:6.1f} ms" if p else "did not arrive"  # noqa: E731
                ratio = f"{ours[0] / theirs[0]:5.2f}x" if ours and theirs else "  n/a"
                print(f"clipboard copy → offer {name:6} ({rounds} copies): host {show(ours)}  "
                      f"xclip -o {show(theirs)}  ratio {ratio} (p50, lower is better)", flush=True)

        try:
            asyncio.run(report())
        finally:
            host.stop()


if __name__ == "__main__":
    main()
