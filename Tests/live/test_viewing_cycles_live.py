"""Viewing started and stopped 2,000 times by one device (issue 20.12): the host's memory stays flat.

Each cycle is what a viewer does: `startScreen`, `screenStarted`, a keyframe asked for and received, `stopScreen`,
`screenStopped`. The daemon's VmRSS is read after cycle 250 (the allocator's arenas and the caches have grown to
their size by then) and after the last one, each once the host has been idle for a moment. Each cycle used to keep
about 47 KiB (Foundation's `Process` kept what every viewing's notification started, and more): 2,000 cycles
then grew the host by some 80 MiB."""

import asyncio
import time

from livehelpers import Daemon, paired_device, rss, run

MIB = 1024 * 1024
CYCLES = 2000
WARM = 250
# Flat: what the allocator's arenas may still move by, far below the 80 MiB the old per-cycle growth made.
ALLOWED_GROWTH = 16 * MIB


def test_two_thousand_viewings_leave_the_hosts_memory_flat(tmp_path):
    host = Daemon(home=tmp_path).start()
    try:
        async def scenario():
            device, _, _ = await paired_device(host, "Cycles")
            host.cli("devices", "allow-screen", "Cycles", "on")
            await device.send({"type": "listDisplays"})
            display = (await device.recv_type("displays", timeout=20))["displays"][0]["id"]
            samples = {}
            for cycle in range(1, CYCLES + 1):
                await device.send({"type": "startScreen", "displayId": display, "maxSide": 320, "fps": 30})
                await device.recv_type("screenStarted", timeout=20)
                await device.send({"type": "requestKeyframe"})
                await device.recv_binary(timeout=20)
                await device.send({"type": "stopScreen"})
                await device.recv_type("screenStopped", timeout=20)
                if cycle in (WARM, CYCLES):
                    await asyncio.sleep(1)  # the last viewing's teardown ends off the actor
                    samples[cycle] = rss(host.process.pid)
            await device.close()
            return samples

        started = time.monotonic()
        samples = run(scenario())
        print(f"{CYCLES} viewings in {time.monotonic() - started:.0f} s: RSS {samples[WARM] / MIB:.1f} MiB after "
              f"{WARM}, {samples[CYCLES] / MIB:.1f} MiB after {CYCLES}")
        grown = samples[CYCLES] - samples[WARM]
        assert grown <= ALLOWED_GROWTH, (
            f"the host grew {grown / MIB:.1f} MiB over {CYCLES - WARM} viewings "
            f"({grown / (CYCLES - WARM) / 1024:.1f} KiB each)")
    finally:
        host.stop()
