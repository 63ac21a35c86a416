"""`make bench` (via scripts/bench, under scripts/with-desktop for its PulseAudio null sink): with 20 authorized
devices on the real daemon, press→result round trips (an empty slot, and a button whose action returns at once,
through the real action path), layout fan-out, a command button's full press (shell start included) and the time
from a `pactl` volume change to all 20 devices. Each is printed as a ratio against a named baseline measured in
the same run: an unsealed WebSocket echo round trip on loopback with the same client library (`websockets`),
`$SHELL -ic true` started directly, and `pactl subscribe` seeing the same change. The front door: presses while
64 strangers hold waiting sockets and while two strangers send 64 KiB hellos in a loop, each against the same
presses with nobody at the door, measured just before (DESIGN.md#transport; goal: p99 within 2x); the flood also
against a second host that reads a paused stranger again as soon as its deficit is refilled (the rule before issue
27's change: `resumeBytes=1`)."""

import asyncio
import os
import subprocess
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
from strangers import FRONT_DOOR_ENV, close_all, loopback, open_strangers, spread  # noqa: E402

DEVICES = 20
PRESSES = 2000
EDITS = 100
ECHOES = 2000
SHELL_RUNS = 30
VOLUME_CHANGES = 50
# A command of only spaces: the action runner answers at once ("empty command") without starting anything,
# so the round trip is the session, the dispatch and the reply — the action itself costs nothing.
INSTANT = {"label": "instant", "kind": "command", "command": " "}
SHELL_TRUE = {"label": "true", "kind": "command", "command": "true"}


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


async def press_round_trips(devices, index, count=PRESSES):
    samples = []
    for i in range(count):
        client = devices[i % len(devices)]
        start = time.perf_counter()
        await client.send({"type": "press", "page": 0, "index": index})
        await client.recv_type("pressResult", timeout=30)
        samples.append(time.perf_counter() - start)
    return samples


async def put_button(devices, index, button):
    await devices[0].send({"type": "setButton", "page": 0, "index": index, "button": button})
    await asyncio.gather(*(client.recv_type("layout") for client in devices))


async def shell_presses_and_baseline(host, devices):
    """A command button running `true` (the host starts `$SHELL -i -c true`) until its outcome arrives, interleaved
    with the same shell started directly with the daemon's environment."""
    shell = host.env.get("SHELL", "/bin/sh")
    presses, direct = [], []
    client = devices[0]
    for _ in range(SHELL_RUNS):
        # Press → the result that says how the command ended (the first answer only says it started), as the
        # baseline is start → exit.
        start = time.perf_counter()
        await client.send({"type": "press", "page": 0, "index": 7})
        while (await client.recv_type("pressResult", timeout=30)).get("running"):
            pass
        presses.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([shell, "-ic", "true"], env=host.env, cwd=host.home, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        direct.append(time.perf_counter() - start)
    return presses, direct


async def volume_fan_out(devices):
    """From starting `pactl set-sink-volume` until all devices got the new `volume`, beside the time until a
    `pactl subscribe` client (the sound server's own notification) reported the same change."""
    watcher = await asyncio.create_subprocess_exec(
        "pactl", "subscribe", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    await asyncio.sleep(0.3)  # let the watcher subscribe before the first change
    fan_out, watched = [], []
    try:
        for i in range(VOLUME_CHANGES):
            level = 20 + (i % 2) * 30 + i % 7  # every change differs from the one before
            start = time.perf_counter()
            seen = asyncio.ensure_future(sink_change(watcher, start))
            setter = await asyncio.create_subprocess_exec("pactl", "set-sink-volume", "@DEFAULT_SINK@", f"{level}%")
            await asyncio.gather(*(until_level(client, level / 100) for client in devices))
            fan_out.append(time.perf_counter() - start)
            watched.append(await seen)
            await setter.wait()
    finally:
        watcher.terminate()
        await watcher.wait()
    return fan_out, watched


async def sink_change(watcher, start):
    while True:
        line = await asyncio.wait_for(watcher.stdout.readline(), 10)
        if b"'change' on sink #" in line:
            return time.perf_counter() - start


async def until_level(client, level):
    while abs((await client.recv_type("volume", timeout=10))["level"] - level) > 0.006:
        pass


async def edit_fan_out(devices):
    samples = []
    for i in range(EDITS):
        button = {"label": f"b{i}", "kind": "command", "command": "true"}
        start = time.perf_counter()
        await devices[0].send({"type": "setButton", "page": 0, "index": i % 5, "button": button})
        await asyncio.gather(*(client.recv_type("layout") for client in devices))
        samples.append(time.perf_counter() - start)
    return samples


async def flooded_presses(host, devices):
    """Presses with nobody at the door, then while two strangers send 64 KiB hellos in a loop (from separate
    processes, so they do not share this client's event loop)."""
    quiet = await press_round_trips(devices, 5, count=PRESSES // 4)
    floods = [subprocess.Popen([sys.executable, str(HERE / "strangers.py"), "flood", str(host.port), loopback(n)],
                               env={**os.environ, "PYTHONPATH": str(HERE.parents[0] / "interop")})
              for n in (40, 41)]
    try:
        await asyncio.sleep(0.5)  # both floods under way
        flooded = await press_round_trips(devices, 5, count=PRESSES // 4)
    finally:
        for flood in floods:
            flood.kill()
            flood.wait()
    return quiet, flooded


async def flood_before():
    """The flood against a host with the old rule (`resumeBytes=1`), one authorized device."""
    host = Daemon(env={FRONT_DOOR_ENV: "resumeBytes=1"}).start()
    try:
        client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
        await client.hello("bench-before")
        device_id, secret = await client.pair(host.pin())
        await client.authenticate(device_id, secret)
        await client.recv_type("layout")
        result = await flooded_presses(host, [client])
        await client.close()
        return result
    finally:
        host.stop()


async def front_door(host, devices):
    """Presses while 64 strangers hold waiting connections (8 addresses × 8), and while two strangers send
    64 KiB hellos in a loop (from separate processes, so they do not share this client's event loop), each
    beside presses of the same devices with nobody at the door, measured just before."""
    idle = await press_round_trips(devices, 5, count=PRESSES // 2)
    strangers = await open_strangers(host.port, spread(64, 8))
    held = await press_round_trips(devices, 5, count=PRESSES // 2)
    await close_all(strangers)
    quiet, flooded = await flooded_presses(host, devices)
    return idle, held, quiet, flooded


def report(name, samples, baseline):
    p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
    b50, b99 = percentile(baseline, 0.5), percentile(baseline, 0.99)
    print(f"{name:<44} p50 {p50 * 1e3:7.3f} ms ({p50 / b50:5.2f}x)   p99 {p99 * 1e3:7.3f} ms ({p99 / b99:5.2f}x)")


async def main():
    if not os.environ.get("PULSE_SERVER"):
        sys.exit("bench_press: PULSE_SERVER is not set; run it under scripts/with-desktop (scripts/bench does)")
    baseline = await echo_baseline()
    host = Daemon().start()
    try:
        devices = await authorized_devices(host)
        presses = await press_round_trips(devices, 5)
        await put_button(devices, 6, INSTANT)
        instant = await press_round_trips(devices, 6)
        edits = await edit_fan_out(devices)
        await put_button(devices, 7, SHELL_TRUE)
        shell_presses, shell_direct = await shell_presses_and_baseline(host, devices)
        volumes, watched = await volume_fan_out(devices)
        idle, held, quiet, flooded = await front_door(host, devices)
        for client in devices:
            await client.close()
    finally:
        host.stop()
    quiet_before, flooded_before = await flood_before()
    print("# host (baseline: unsealed WebSocket echo on loopback, same client library, this run)")
    report("baseline ws-echo round trip", baseline, baseline)
    report(f"press→pressResult, empty slot, {DEVICES} devices", presses, baseline)
    report(f"press→pressResult, instant action, {DEVICES} dev", instant, baseline)
    report(f"setButton→layout at all {DEVICES} devices", edits, baseline)
    print(f"# command button (baseline: `{os.path.basename(host.env.get('SHELL', 'sh'))} -ic true` started directly, this run)")
    report("baseline $SHELL -ic true", shell_direct, shell_direct)
    report("press→pressResult, command `true`", shell_presses, shell_direct)
    print("# volume (baseline: `pactl subscribe` seeing the same change, this run; DESIGN.md#deck: within 100 ms)")
    report("baseline pactl set → pactl subscribe event", watched, watched)
    report(f"pactl set → volume at all {DEVICES} devices", volumes, watched)
    print("# front door (baseline: the same press with nobody at the door, just before; goal: p99 within 2x)")
    report("baseline press, nobody waiting", idle, idle)
    report("press while 64 strangers hold sockets", held, idle)
    report("baseline press, nobody flooding", quiet, quiet)
    report("press while 2 strangers send 64 KiB hellos", flooded, quiet)
    report("before (read again at once), nobody flooding", quiet_before, quiet_before)
    report("before, 2 strangers send 64 KiB hellos", flooded_before, quiet_before)


if __name__ == "__main__":
    asyncio.run(main())
