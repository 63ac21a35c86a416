"""`make bench` (via scripts/bench): the CPU a stranger can make the real daemon spend with `pairStart`s.

A stranger who knows no PIN sends `pairStart`s for a few seconds, as fast as the host answers, over several
connections (reconnecting whenever the pre-auth flood guard closes one). Since every accepted `pairStart`
spends one of the PIN's 5 tries (PROTOCOL §3), the host runs SPAKE2 at most 5 times per PIN whatever arrives;
the rest are answered `noPin` during the back-off. Printed: the `pairStart`s answered, the SPAKE2 runs they
caused, and the host's CPU time, as a ratio against a baseline measured in the same run — the host CPU of the
same number of `pairStart`s if each ran SPAKE2 (measured on fresh PINs from `touchdeck pair`, 5 runs each)."""

import asyncio
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402
from touchdeck.handshake import DevicePairing  # noqa: E402
from touchdeck.transports import Closed  # noqa: E402

FLOOD_SECONDS = 5
CONNECTIONS = 4
BASELINE_PINS = 40
GUESS = "000000"


def host_cpu(pid):
    """CPU seconds the process's threads have run, from the scheduler's nanosecond counters (finer than the
    10 ms ticks of /proc/PID/stat; the daemon's threads live as long as it does)."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / 1e9


async def connect(host):
    return await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")


async def spake2_baseline(host, starts):
    """Host CPU per `pairStart` that runs SPAKE2: a fresh PIN, then its 5 tries, timed around the exchange only."""
    pid, spent, runs = host.process.pid, 0.0, 0
    for _ in range(BASELINE_PINS):
        host.pin()
        client = await connect(host)
        before = host_cpu(pid)
        for start in starts[:5]:
            await client.send_plain(start)
            assert (await client.recv())["type"] == "pairChallenge"
            runs += 1
        spent += host_cpu(pid) - before
        await client.close()
    return spent / runs


async def stranger(host, starts, deadline, counts):
    """One stranger's connection after another, each sending `pairStart`s until the host closes it."""
    while time.monotonic() < deadline:
        client = await connect(host)
        try:
            for start in starts:
                if time.monotonic() >= deadline:
                    break
                await client.send_plain(start)
                reply = await client.recv()
                kind = reply["type"] if reply["type"] != "pairingFailed" else reply["reason"]
                counts[kind] = counts.get(kind, 0) + 1
        except Closed:
            counts["closed by the flood guard"] = counts.get("closed by the flood guard", 0) + 1
        finally:
            await client.close()


async def flood(host, starts):
    host.pin()
    counts = {}
    pid = host.process.pid
    before = host_cpu(pid)
    deadline = time.monotonic() + FLOOD_SECONDS
    await asyncio.gather(*(stranger(host, starts, deadline, counts) for _ in range(CONNECTIONS)))
    return host_cpu(pid) - before, counts


async def main():
    # Made before any timing: the client's own SPAKE2 arithmetic is slow Python and not what is measured.
    starts = [DevicePairing(GUESS, "stranger").start() for _ in range(50)]
    host = Daemon().start()
    try:
        per_run = await spake2_baseline(host, starts)
        cpu, counts = await flood(host, starts)
    finally:
        host.stop()
    answered = sum(n for kind, n in counts.items() if kind != "closed by the flood guard")
    runs = counts.get("pairChallenge", 0)
    unbounded = answered * per_run
    print("# a stranger's pairStart flood (baseline: host CPU of a pairStart that runs SPAKE2, this run)")
    print(f"{'baseline pairStart with SPAKE2':<44} {per_run * 1e3:7.3f} ms host CPU each ({BASELINE_PINS * 5} runs)")
    print(f"{f'flood, {FLOOD_SECONDS} s, {CONNECTIONS} connections':<44} {answered} pairStarts answered, "
          f"{runs} SPAKE2 runs (at most 5 per PIN), {cpu:.3f} s host CPU ({cpu / FLOOD_SECONDS:.0%} of a core)")
    print(f"{'  vs. each of them running SPAKE2':<44} {cpu:.3f} s vs {unbounded:.3f} s ({cpu / unbounded:5.2f}x)")
    print(f"{'  answers':<44} " + ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())))
    if runs > 5:
        sys.exit(f"bench_pin: {runs} SPAKE2 runs on one PIN; the bound is 5")


if __name__ == "__main__":
    asyncio.run(main())
