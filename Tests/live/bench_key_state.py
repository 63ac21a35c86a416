"""`make bench` (via scripts/bench, under scripts/with-desktop): keys that show what is true (issue 23, PROTOCOL §6
"Live looks"), on the real daemon.

1. A state command's line → the key's label shown in headless Chromium, p50/p99: the command reads lines from a
   pipe the bench writes to (one line every 200 ms, slower than the 10-a-second coalescing, so no line waits for
   it), and a MutationObserver in the page notes when the keycap shows the line's label (the page's clock is this
   machine's). Beside it, in the same run and the same page, the press round trip the page sees (`press` of an empty
   slot → `pressResult`, sealed both ways), as the baseline.
2. The host's CPU with 20 keys whose state commands each print a label 10 times a second (200 updates a second to
   one device that reads them), against two baselines in the same run: the 20 commands' own CPU (bash and its
   `sleep`s), and the host's CPU answering 200 presses a second from the same device."""

import asyncio
import os
import pathlib
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "support"))
sys.path.insert(0, str(HERE.parents[0] / "interop"))
sys.path.insert(0, str(HERE.parents[0] / "browser"))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402
from chromium import Browser  # noqa: E402
from pages import pair, wait  # noqa: E402

LINES = 60
KEYS = 20
SECONDS = 10
TICKS = os.sysconf("SC_CLK_TCK")
# Notes, for each label the watched keycap shows, the time it was first shown.
OBSERVE = """window.benchShown = {};
const cap = () => document.querySelector(`.key[data-page='0'][data-index='0'] .label`);
new MutationObserver(() => {
  const text = cap()?.textContent;
  if (text && !(text in window.benchShown)) window.benchShown[text] = Date.now();
}).observe(document.querySelector('#pages'), {subtree: true, childList: true, characterData: true});"""
# Presses an empty slot and resolves with the round trip in ms (the page's own client, sealed both ways).
PRESS = """const done = arguments[arguments.length - 1];
const client = window.touchdeck;
const start = performance.now();
const heard = ({ detail }) => {
  if (detail.index !== 11) return;
  client.removeEventListener('pressResult', heard);
  done(performance.now() - start);
};
client.addEventListener('pressResult', heard);
client.send({ type: 'press', page: 0, index: 11 });"""


def percentiles(samples):
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def show(p):
    return f"p50 {p[0]:6.2f} ms p99 {p[1]:6.2f} ms"


def state_line_in_browser(host, folder):
    """(line → shown, press round trip) in ms, each a list."""
    pipe = pathlib.Path(folder) / "lines"
    os.mkfifo(pipe)
    browser = Browser()
    try:
        pair(browser, host)
        driver = browser.driver
        button = {"label": "Bench", "kind": "command", "command": "true",
                  "stateCommand": {"command": f"exec cat {pipe}"}}
        driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 0, button: arguments[0]})",
                              button)
        driver.execute_script(OBSERVE)
        writer = open(pipe, "w")  # opens once the key's command has the pipe open for reading
        written = {}
        with writer:
            for n in range(LINES):
                label = f"s{n}"
                written[label] = time.time()
                writer.write(f'{{"label":"{label}"}}\n')
                writer.flush()
                time.sleep(0.2)
            wait(driver, lambda d: f"s{LINES - 1}" in d.execute_script("return window.benchShown"), 30,
                 "the last line on the keycap")
        shown = driver.execute_script("return window.benchShown")
        missing = [label for label in written if label not in shown]
        assert not missing, f"lines never shown: {missing}"
        lines = [shown[label] - written[label] * 1000 for label in written]
        presses = [driver.execute_async_script(PRESS) for _ in range(LINES)]
        return lines, presses
    finally:
        browser.quit()


def cpu_seconds(pid, children=False):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if children else 0)
    return used / TICKS


def commands_with(marker):
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


async def drain(client, counts):
    while True:
        message = await client.recv(timeout=3600)
        counts[message.get("type")] = counts.get(message.get("type"), 0) + 1


async def device(host):
    pin = host.pin()
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    await client.hello("Bench", protocol=3)
    device_id, secret = await client.pair(pin)
    await client.authenticate(device_id, secret)
    await client.recv_type("layout")
    return client


async def host_cpu(host):
    """(host CPU with 20 keys at 10 a second, their commands' CPU, host CPU at 200 presses a second, updates seen),
    CPU as a share of one core."""
    client = await device(host)
    marker = "touchdeck-bench-key"
    for index in range(KEYS):
        command = (f': {marker}; n=0; while :; do n=$((n+1)); echo "{{\\"label\\":\\"k{index} $n\\"}}"; '
                   "sleep 0.1; done")
        await client.send({"type": "setButton", "page": index // 12, "index": index % 12,
                           "button": {"label": f"k{index}", "kind": "command", "command": "true",
                                      "stateCommand": {"command": command}}})
        await client.recv_type("layout")
    counts = {}
    reader = asyncio.create_task(drain(client, counts))
    await asyncio.sleep(2)  # every command started and printing
    commands = commands_with(marker)
    pid = host.process.pid
    host_before, commands_before, updates_before = cpu_seconds(pid), sum(cpu_seconds(p, True) for p in commands), \
        counts.get("keyState", 0)
    await asyncio.sleep(SECONDS)
    host_used = cpu_seconds(pid) - host_before
    commands_used = sum(cpu_seconds(p, True) for p in commands) - commands_before
    updates = counts.get("keyState", 0) - updates_before
    for index in range(KEYS):  # the commands stop with their keys
        await client.send({"type": "clearButton", "page": index // 12, "index": index % 12})
    await asyncio.sleep(2)
    before = cpu_seconds(pid)
    started = time.monotonic()
    for n in range(200 * SECONDS):
        await client.send({"type": "press", "page": 0, "index": 11})
        await asyncio.sleep(max(0.0, started + (n + 1) / 200 - time.monotonic()))
    pressed = cpu_seconds(pid) - before
    reader.cancel()
    await client.close()
    return host_used / SECONDS, commands_used / SECONDS, pressed / SECONDS, updates / SECONDS


def main():
    with tempfile.TemporaryDirectory() as folder:
        host = Daemon(home=pathlib.Path(folder) / "home", env={"SHELL": "/bin/bash"}).start()
        try:
            lines, presses = state_line_in_browser(host, folder)
            line, press = percentiles(lines), percentiles(presses)
            print(f"state line → label shown in Chromium ({LINES} lines): {show(line)}; the page's press round trip "
                  f"{show(press)}; ratio {line[0] / press[0]:5.2f}x (p50, lower is better; goal: within 100 ms)",
                  flush=True)
        finally:
            host.stop()
        host = Daemon(home=pathlib.Path(folder) / "home2", env={"SHELL": "/bin/bash"}).start()
        try:
            keys, commands, presses, rate = asyncio.run(host_cpu(host))
            print(f"host CPU, {KEYS} keys × 10 updates/s ({rate:.0f} keyState/s reached the device): "
                  f"{keys * 100:5.1f}% of a core; their commands {commands * 100:5.1f}% (ratio {keys / commands:5.2f}x); "
                  f"200 presses/s {presses * 100:5.1f}% (ratio {keys / presses:5.2f}x)", flush=True)
        finally:
            host.stop()


if __name__ == "__main__":
    main()
