"""`make bench` (via scripts/bench): press→result round trip and layout fan-out with 20 authorized devices on
the real daemon, printed as ratios against a baseline measured in the same run: a plain, unsealed WebSocket
echo round trip on loopback with the same client library (`websockets`)."""

import asyncio
import os
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

import websockets  # noqa: E402
from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402

DEVICES = 20
PRESSES = 2000
EDITS = 100
ECHOES = 2000


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def echo_baseline():
    async def echo(socket):
        async for message in socket:
            await socket.send(message)

    async with websockets.serve(echo, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        async with websockets.connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            text = '{"type":"press","page":0,"index":5}'
            samples = []
            for _ in range(ECHOES):
                start = time.perf_counter()
                await client.send(text)
                await client.recv()
                samples.append(time.perf_counter() - start)
    return samples


async def authorized_devices(host):
    devices = []
    for number in range(DEVICES):
        client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
        await client.hello(f"bench-{number}")
        device_id, secret = await client.pair(host.pin())
        await client.authenticate(device_id, secret)
        await client.recv_type("layout")
        devices.append(client)
    return devices


async def press_round_trips(devices):
    samples = []
    for i in range(PRESSES):
        client = devices[i % len(devices)]
        start = time.perf_counter()
        await client.send({"type": "press", "page": 0, "index": 5})
        await client.recv_type("pressResult")
        samples.append(time.perf_counter() - start)
    return samples


async def edit_fan_out(devices):
    samples = []
    for i in range(EDITS):
        button = {"label": f"b{i}", "kind": "command", "command": "true"}
        start = time.perf_counter()
        await devices[0].send({"type": "setButton", "page": 0, "index": i % 5, "button": button})
        await asyncio.gather(*(client.recv_type("layout") for client in devices))
        samples.append(time.perf_counter() - start)
    return samples


def report(name, samples, baseline):
    p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
    b50, b99 = percentile(baseline, 0.5), percentile(baseline, 0.99)
    print(f"{name:<44} p50 {p50 * 1e3:7.3f} ms ({p50 / b50:5.2f}x)   p99 {p99 * 1e3:7.3f} ms ({p99 / b99:5.2f}x)")


async def main():
    baseline = await echo_baseline()
    host = Daemon().start()
    try:
        devices = await authorized_devices(host)
        presses = await press_round_trips(devices)
        edits = await edit_fan_out(devices)
        for client in devices:
            await client.close()
    finally:
        host.stop()
    print("# host (baseline: unsealed WebSocket echo on loopback, same client library, this run)")
    report("baseline ws-echo round trip", baseline, baseline)
    report(f"press→pressResult, sealed, {DEVICES} devices", presses, baseline)
    report(f"setButton→layout at all {DEVICES} devices", edits, baseline)


if __name__ == "__main__":
    asyncio.run(main())
