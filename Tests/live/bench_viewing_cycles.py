"""`make bench` (under scripts/with-desktop for its Xvfb): the host's memory over 2,000 viewing start/stop cycles
(startScreen, the first frame, stopScreen), sampled every 250 cycles, with the host as it runs (two allocator
arenas and a fixed mmap threshold, `touchdeck serve`'s own settings) against the same host with glibc's defaults
(TOUCHDECK_MALLOC=glibc: eight arenas per core, a rising mmap threshold) in the same run. Prints the RSS growth
from cycle 250 (after warm-up) to the end and the ratio bounded/default."""

import asyncio
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
sys.path.insert(0, str(HERE))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon, rss  # noqa: E402
from livehelpers import paired_device  # noqa: E402

CYCLES = 2000
EVERY = 250


async def cycles(host):
    client, _, _ = await paired_device(host, "Cycles")
    host.cli("devices", "allow-screen", "Cycles", "on")
    await client.send({"type": "listDisplays"})
    display = (await client.recv_type("displays", timeout=20))["displays"][0]["id"]
    samples = []
    for cycle in range(CYCLES + 1):
        await client.send({"type": "startScreen", "displayId": display, "maxSide": 640, "fps": 30})
        await client.recv_type("screenStarted", timeout=20)
        # As the web viewer does: a keyframe right after screenStarted (a frame sent before it is skipped here).
        await client.send({"type": "requestKeyframe"})
        await client.recv_binary(timeout=20)
        await client.send({"type": "stopScreen"})
        await client.recv_type("screenStopped", timeout=20)
        if cycle % EVERY == 0:
            samples.append(rss(host.process.pid) / (1 << 20))
    await client.close()
    return samples


def growth(env):
    with tempfile.TemporaryDirectory() as folder:
        home = pathlib.Path(folder) / "home"
        home.mkdir()
        host = Daemon(home=home, env=env).start()
        try:
            samples = asyncio.run(cycles(host))
        finally:
            host.stop()
    return samples[1], samples[-1]


def main():
    bounded = growth({})
    default = growth({"TOUCHDECK_MALLOC": "glibc"})
    grown = [end - start for start, end in (bounded, default)]
    print(f"viewing start/stop, RSS from cycle {EVERY} to {CYCLES}: bounded {bounded[0]:.0f} → {bounded[1]:.0f} MB "
          f"(+{grown[0]:.1f}), glibc's default {default[0]:.0f} → {default[1]:.0f} MB (+{grown[1]:.1f}); "
          f"growth bounded/default {grown[0] / grown[1]:.2f}×" if grown[1] > 0 else "default did not grow")


if __name__ == "__main__":
    main()
