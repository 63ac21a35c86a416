"""`make bench` (via scripts/bench, under scripts/with-desktop for its Xvfb): how fast a deck's hotkey lands.

1. A hotkey key (Shift+T) pressed by a device, from the `press` sent to the key press the X server stamps in a
   recording client (Tests/support/xkeytimes.py), against `xdotool key shift+t` run in the same run: milliseconds
   per chord, best of a few rounds of ROUNDS presses each, and the ratio host/xdotool.
2. A multi-action of 10 hotkey steps with no delay between them against 10 presses of single hotkey keys, each
   sent after the previous one's answer (what a device pressing ten keys does): the time until the tenth key
   landed, and the ratio multi/singles.

The clock of the X server and the test's are different: each round is timed on the test's monotonic clock, from
the send to the moment the recorder's file holds the round's last key."""

import asyncio
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
sys.path.insert(0, str(HERE))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from livehelpers import paired_device  # noqa: E402

XKEYTIMES = HERE.parents[0] / "support" / "xkeytimes.py"
ROUNDS = 5
PRESSES = 20
STEPS = 10


class Recorder:
    """The X client that records key presses; `wait_for(count)` waits until it holds `count` more keys."""

    def __init__(self, folder):
        self.path = pathlib.Path(folder) / "keys.txt"
        self.process = subprocess.Popen([sys.executable, str(XKEYTIMES), str(self.path)])
        deadline = time.monotonic() + 10
        while not self.path.exists():
            if time.monotonic() > deadline:
                raise SystemExit("bench_hotkey: the X key recorder did not open")
            time.sleep(0.02)

    def count(self):
        return len(self.path.read_text(encoding="utf-8").splitlines())

    def wait_for(self, total, timeout=30):
        """True once the file holds `total` keys."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.count() >= total:
                return True
            time.sleep(0.0005)
        return False

    def close(self):
        self.process.terminate()
        self.process.wait(10)


def hotkey(key, modifiers=()):
    return {"label": "", "kind": "hotkey", "key": key, "modifiers": list(modifiers)}


async def set_key(client, index, button):
    await client.send({"type": "setButton", "page": 0, "index": index, "button": button})
    await client.recv_type("layout")


async def host_chords(client, keys):
    """Milliseconds per chord over PRESSES presses of slot 0, each sent after the previous answer."""
    start_count = keys.count()
    start = time.monotonic()
    for _ in range(PRESSES):
        await client.send({"type": "press", "page": 0, "index": 0})
        reply = await client.recv_type("pressResult", timeout=20)
        if not reply.get("ok"):
            raise SystemExit(f"bench_hotkey: the hotkey failed: {reply}")
    if not keys.wait_for(start_count + PRESSES):
        return None
    return (time.monotonic() - start) * 1000 / PRESSES


def xdotool_chords(keys):
    start_count = keys.count()
    start = time.monotonic()
    for _ in range(PRESSES):
        subprocess.run(["xdotool", "key", "shift+t"], check=True, timeout=20)
    if not keys.wait_for(start_count + PRESSES):
        return None
    return (time.monotonic() - start) * 1000 / PRESSES


async def multi_run(client, keys):
    """Milliseconds until the tenth step's key landed, one press of the multi-action in slot 1."""
    start_count = keys.count()
    start = time.monotonic()
    await client.send({"type": "press", "page": 0, "index": 1})
    await client.recv_type("pressResult", timeout=20)  # running
    done = await client.recv_type("pressResult", timeout=30)
    if not done.get("ok") or not keys.wait_for(start_count + STEPS):
        return None
    return (time.monotonic() - start) * 1000


async def single_presses(client, keys):
    """Milliseconds until the tenth of ten single hotkey presses (slots 2…11) landed."""
    start_count = keys.count()
    start = time.monotonic()
    for index in range(2, 2 + STEPS):
        await client.send({"type": "press", "page": 0, "index": index})
        await client.recv_type("pressResult", timeout=20)
    if not keys.wait_for(start_count + STEPS):
        return None
    return (time.monotonic() - start) * 1000


def best(values):
    return None if any(value is None for value in values) else min(values)


def ratio(ours, theirs):
    return "n/a" if ours is None or theirs is None else f"{ours / theirs:.2f}×"


def show(value, unit="ms"):
    return "did not land" if value is None else f"{value:.2f} {unit}"


async def measure(host, keys):
    client, _, _ = await paired_device(host, "Bench", protocol=3)
    await set_key(client, 0, hotkey("t", ["shift"]))
    letters = "abcdefghij"
    await set_key(client, 1, {"label": "Ten", "kind": "multi", "steps": [hotkey(letter) for letter in letters]})
    for offset, letter in enumerate(letters):
        await set_key(client, 2 + offset, hotkey(letter))
    ours = best([await host_chords(client, keys) for _ in range(ROUNDS)])
    # Blocking the loop while xdotool runs is fine: nothing else happens meanwhile.
    theirs = best([xdotool_chords(keys) for _ in range(ROUNDS)])
    multi = best([await multi_run(client, keys) for _ in range(ROUNDS)])
    singles = best([await single_presses(client, keys) for _ in range(ROUNDS)])
    await client.close()
    return ours, theirs, multi, singles


def main():
    with tempfile.TemporaryDirectory() as folder:
        (pathlib.Path(folder) / "home").mkdir()
        host = Daemon(home=pathlib.Path(folder) / "home").start()
        keys = Recorder(folder)
        try:
            ours, theirs, multi, singles = asyncio.run(measure(host, keys))
        finally:
            keys.close()
            host.stop()
    print(f"hotkey press → chord in an X client: host {show(ours)} per chord, xdotool key {show(theirs)}; "
          f"host/xdotool {ratio(ours, theirs)}")
    print(f"{STEPS}-step multi-action (no delays) {show(multi)} against {STEPS} single presses {show(singles)}; "
          f"multi/singles {ratio(multi, singles)}")


if __name__ == "__main__":
    main()
