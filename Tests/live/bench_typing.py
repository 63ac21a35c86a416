"""`make bench` (via scripts/bench, under scripts/with-desktop for its Xvfb): characters per second landing in an X
text field (Tests/support/xtext.py) when a viewing device sends `typeText` to the real daemon, from the send to
the last character read by the field, against `xdotool type --delay 0` typing the same text into the same field
in the same run. Two texts: plain ASCII (the layout's own keys) and mixed Hangul/Latin-1/symbols (spare keycodes
bound by the host; xdotool remaps a keycode per character). Prints the rates and the ratio host/xdotool; a
baseline that did not land the text exactly says so instead of a rate."""

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
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402

XTEXT = HERE.parents[0] / "support" / "xtext.py"
ROUNDS = 3
TEXTS = {
    "ascii": ("The quick brown fox jumps over the lazy dog 0123456789. " * 36)[:2000],
    "mixed": ("안녕하세요 café ✓ 123 € ß ñ → " * 80)[:2000],
}


class Field:
    """The recording X text field; `landed(text, since)` waits until the field ends with `text`."""

    def __init__(self, folder):
        self.path = pathlib.Path(folder) / "field.txt"
        self.mark = 0
        self.process = subprocess.Popen([sys.executable, str(XTEXT), str(self.path)])
        deadline = time.monotonic() + 10
        while not self.path.exists():
            if time.monotonic() > deadline:
                raise SystemExit("bench_typing: the X text field did not open")
            time.sleep(0.02)

    def size(self):
        return len(self.path.read_text(encoding="utf-8"))

    def landed(self, text, start, timeout=60):
        """Seconds from `start` until the field received exactly `text` after the mark; None if it never did."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            received = self.path.read_text(encoding="utf-8")[self.mark:]
            if len(received) >= len(text):
                return time.monotonic() - start if received == text else None
            time.sleep(0.002)
        return None

    def mark_now(self):
        self.mark = self.size()

    def close(self):
        self.process.terminate()
        self.process.wait(10)


async def viewer(host):
    pin = host.pin()
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    await client.hello("Bench", protocol=2)
    device_id, secret = await client.pair(pin)
    await client.authenticate(device_id, secret)
    await client.recv_type("layout")
    host.cli("devices", "allow-screen", "Bench", "on")
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    await client.recv_type("screenStarted", timeout=20)
    return client


async def host_rate(client, field, text):
    field.mark_now()
    start = time.monotonic()
    await client.send({"type": "typeText", "text": text})
    reply = await client.recv_type("typed", timeout=60)
    if not reply.get("ok"):
        return None
    elapsed = field.landed(text, start)
    return None if elapsed is None else len(text) / elapsed


def xdotool_rate(field, text):
    field.mark_now()
    start = time.monotonic()
    subprocess.run(["xdotool", "type", "--delay", "0", "--", text], check=True, timeout=120)
    elapsed = field.landed(text, start, timeout=10)
    return None if elapsed is None else len(text) / elapsed


def best(rates):
    landed = [rate for rate in rates if rate is not None]
    return max(landed) if len(landed) == len(rates) else None


async def measure(host, field):
    client = await viewer(host)
    for name, text in TEXTS.items():
        ours = best([await host_rate(client, field, text) for _ in range(ROUNDS)])
        # Blocking the loop while xdotool runs is fine: nothing else happens meanwhile.
        theirs = best([xdotool_rate(field, text) for _ in range(ROUNDS)])
        yield name, text, ours, theirs
    await client.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        (pathlib.Path(folder) / "home").mkdir()
        host = Daemon(home=pathlib.Path(folder) / "home").start()
        field = Field(folder)

        async def report():
            async for name, text, ours, theirs in measure(host, field):
                ours_text = f"{ours:8.0f} chars/s" if ours else "   did not land exactly"
                theirs_text = f"{theirs:8.0f} chars/s" if theirs else "did not land exactly"
                ratio = f"{ours / theirs:5.2f}x" if ours and theirs else "  n/a"
                print(f"typing {name:5} ({len(text)} chars): host typeText {ours_text}  "
                      f"xdotool type {theirs_text}  ratio {ratio} (higher is better)", flush=True)

        try:
            asyncio.run(report())
        finally:
            field.close()
            host.stop()


if __name__ == "__main__":
    main()
