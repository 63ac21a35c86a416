"""`make bench` (via scripts/bench, under scripts/with-desktop for its Xvfb, and again under scripts/with-sway): copy
on the computer → the offer at a viewing device, p50/p99 over many copies, from starting the copying app (`xclip -i`,
or `wl-copy` on sway) to the offer opened by the Python client and to the offer bar shown in headless Chromium
(a MutationObserver in the page notes when the bar shows the copy), against the same copy read back by another app
(`xclip -o` or `wl-paste`, started again until it has the new text) in the same run. A short text and 1 MiB (on X11
INCR: many round trips between the host and the copying app). Prints the times and the ratios to the baseline
(lower is better)."""

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
sys.path.insert(0, str(HERE.parents[0] / "browser"))
sys.path.insert(0, str(HERE.parents[0] / "wayland"))
os.environ.setdefault("TOUCHDECK_BIN", str(HERE.parents[1] / ".build" / "release" / "touchdeck"))

from daemon import Daemon  # noqa: E402
from touchdeck.client import DeckClient  # noqa: E402
from chromium import Browser  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from pages import wait  # noqa: E402
from viewer import pair_as_viewer, start_viewing, viewer_state, wait_viewer  # noqa: E402

TEXTS = {"short": (60, 40), "1 MiB": (1 << 20, 10)}  # name → (bytes, copies)
SWAY = "TOUCHDECK_SWAY_PID" in os.environ
COPY = ["wl-copy", "--foreground"] if SWAY else ["xclip", "-quiet", "-selection", "clipboard", "-i"]
READ = ["wl-paste", "--no-newline"] if SWAY else ["xclip", "-selection", "clipboard", "-o"]
BASELINE = "wl-paste" if SWAY else "xclip -o"
# Marks the offer bar's every change with the time it was shown (the page's clock is this machine's).
OBSERVE = """window.benchOffers = [];
new MutationObserver(() => {
  const bar = document.querySelector('.clipboard-offer');
  if (bar && bar.offsetParent !== null) window.benchOffers.push([Date.now(), bar.textContent]);
}).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});"""


def copy(data):
    process = subprocess.Popen(COPY, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
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


def browser_time(driver, data, n):
    mark = f"copy {n}: "
    driver.execute_script("window.benchOffers = []")
    start = time.time()
    process = copy(data)
    try:
        while time.time() - start < 30:
            shown = driver.execute_script("return window.benchOffers")
            seen = [at for at, text in shown if mark in text]
            if seen:
                return seen[0] / 1000 - start
            time.sleep(0.002)
        return None
    finally:
        process.kill()
        process.wait(10)


def baseline_time(data):
    start = time.monotonic()
    process = copy(data)
    try:
        while time.monotonic() - start < 30:
            out = subprocess.run(READ, capture_output=True, timeout=30).stdout
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


def browser_viewer(host):
    """Chromium paired, allowed the clipboard, viewing, with the offer bar observed."""
    browser = Browser()
    pair_as_viewer(browser, host, "Bench browser")
    host.cli("devices", "allow-clipboard", "Bench browser", "on")
    start_viewing(browser.driver)
    browser.driver.execute_script(OBSERVE)
    return browser.driver


def view_again(driver):
    """The Screen tab opened again after `shown(false)`: the one monitor at once, or picked."""
    driver.execute_script("window.touchdeckViewer.shown(true)")
    wait(driver, lambda d: viewer_state(d) in ("choosing", "viewing"), 20, "the picker or the view")
    if viewer_state(driver) == "choosing":
        driver.find_element(By.CSS_SELECTOR, ".display-card").click()
    wait_viewer(driver, "viewing")


async def measure(host):
    client = await device(host)
    driver = None
    try:
        for name, (size, rounds) in TEXTS.items():
            await view(client)
            ours = percentiles([await host_time(client, text_of(size, n)) for n in range(rounds)])
            await client.send({"type": "stopScreen"})
            await client.recv_type("screenStopped", timeout=20)
            if driver:
                view_again(driver)
            driver = driver or browser_viewer(host)
            shown = percentiles([browser_time(driver, text_of(size, n + rounds), n + rounds) for n in range(rounds)])
            # Nobody views during the baseline: the host reads nothing then (xclip serves one INCR transfer at a time).
            driver.execute_script("window.touchdeckViewer.shown(false)")
            theirs = percentiles([baseline_time(text_of(size, n + 2 * rounds)) for n in range(rounds)])
            yield name, rounds, ours, shown, theirs
    finally:
        if driver:
            driver.quit()
        await client.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        host = Daemon(home=pathlib.Path(folder)).start()
        # xdg-desktop-portal-wlr sends frames only for damage: a GTK window keeps a corner changing.
        ticking = __import__("test_mutter_live").GTKClient(["--tick", "5"]) if SWAY else None
        desktop = "sway" if SWAY else "X11"

        async def report():
            async for name, rounds, ours, shown, theirs in measure(host):
                show = lambda p: f"p50 {p[0] * 1000:6.1f} ms p99 {p[1] * 1000:6.1f} ms" if p else "did not arrive"  # noqa: E731
                ratio = lambda p: f"{p[0] / theirs[0]:5.2f}x" if p and theirs else "  n/a"  # noqa: E731
                print(f"clipboard copy → offer on {desktop} {name:6} ({rounds} copies): {BASELINE} {show(theirs)}\n"
                      f"  Python client {show(ours)} ratio {ratio(ours)}; Chromium's bar shown {show(shown)} "
                      f"ratio {ratio(shown)} (p50, lower is better)", flush=True)

        try:
            asyncio.run(report())
        finally:
            if ticking:
                ticking.stop()
            host.stop()


if __name__ == "__main__":
    main()
