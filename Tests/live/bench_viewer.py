"""`make bench`, the web viewer: the real host captures a private 1920×1080 Xvfb that a painter changes 90 times a
second and streams it at 60 fps to headless Chromium, which opens the sealed packets in JS and decodes them with
WebCodecs. Printed, each beside a baseline measured in this run:
- capture → decoded p50 / p99 in Chromium (goal p50 < 25 ms), against the Python reference client opening the
  same stream and decoding it with PyAV (libavcodec) on the same machine;
- decoded frames per second in Chromium (goal ≥ 55), against the frames the Python client decoded;
- the JS open of a sealed 300 KB frame in the page (goal < 4 ms), against OpenSSL's chacha20-poly1305 on the
  same size (`openssl speed`)."""

import asyncio
import pathlib
import re
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parent / "interop"))
sys.path.insert(0, str(HERE.parent / "browser"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

from livehelpers import Daemon, run  # noqa: E402
from bench_stream import viewer as python_viewer, percentile  # noqa: E402
from test_stream_live import HEIGHT, WIDTH, Decoder, Painter, next_video  # noqa: E402
from viewer import pair_as_viewer, start_viewing  # noqa: E402
from xscreen import VirtualScreen  # noqa: E402

SECONDS = 8
FRAME = 300 * 1024


class Chromium:
    """Headless Chromium big enough to ask for the whole 1920×1080 monitor."""

    def __init__(self):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--ignore-certificate-errors", "--disable-gpu",
                    f"--window-size={WIDTH},{HEIGHT}", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def chromium_stream(host, screen):
    browser = Chromium()
    driver = browser.driver
    painter = Painter(screen.display)
    try:
        pair_as_viewer(browser, host, "Bench browser")
        start_viewing(driver)
        painter.start()
        time.sleep(1.5)
        driver.execute_script("window.touchdeckViewer.pipe.stats.samples = []")
        before = driver.execute_script("return window.touchdeckViewer.debug.stats.decoded")
        time.sleep(SECONDS)
        stats = driver.execute_script("return window.touchdeckViewer.debug.stats")
        open_ms = js_open_ms(driver)
        driver.execute_script("window.touchdeckViewer.shown(false)")
        parts = {key: percentile([s[key] for s in stats["samples"]], 0.5) for key in ("host", "network", "decode")}
        parts["draw"] = stats.get("drawMs", 0)
        return [s["total"] for s in stats["samples"]], (stats["decoded"] - before) / SECONDS, open_ms, parts
    finally:
        painter.stop()
        driver.quit()


def js_open_ms(driver):
    """Median time of SecureChannel.openBinary on a sealed 300 KB frame, in the page's own JS engine."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/core/secure.js').then(({ SecureChannel }) => {
            const a = new Uint8Array(32).fill(1), b = new Uint8Array(32).fill(2);
            const host = new SecureChannel({ sendKey: a, receiveKey: b });
            const device = new SecureChannel({ sendKey: b, receiveKey: a });
            const sealed = host.sealBinary(Uint8Array.from({ length: arguments[0] }, (_, i) => (i * 131) & 255));
            const times = [];
            for (let i = 0; i < 60; i += 1) {
                device.receivedBinary = 0n;
                const start = performance.now();
                device.openBinary(sealed);
                times.push(performance.now() - start);
            }
            times.sort((x, y) => x - y);
            done(times[times.length >> 1]);
        });
    """.replace("arguments[0]", str(FRAME)))


def python_stream(host, screen):
    painter = Painter(screen.display)

    async def scenario():
        client = await python_viewer(host)
        decoder = Decoder()
        decoder.decode(await next_video(client))
        painter.start()
        warm = time.monotonic() + 1.5
        while time.monotonic() < warm:  # read (and decode) all along: a reader that pauses gets a backlog
            decoder.decode(await next_video(client))
        latencies, frames = [], 0
        ends = time.monotonic() + SECONDS
        while time.monotonic() < ends:
            packet = await next_video(client)
            decoded = decoder.decode(packet)
            now = time.time()
            frames += len(decoded)
            if decoded:
                latencies.append(now * 1000 - packet.capture_time_us / 1000)
        await client.close()
        return latencies, frames / SECONDS

    try:
        return run(scenario())
    finally:
        painter.stop()


def openssl_ms():
    out = subprocess.run(["openssl", "speed", "-evp", "chacha20-poly1305", "-bytes", str(FRAME), "-seconds", "2",
                          "-mr"], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"^\+F:\d+:[^:]+:([0-9.]+)$", out, re.M).group(1))
    return FRAME / rate * 1000


def main():
    with VirtualScreen(WIDTH, HEIGHT) as screen:
        host = Daemon(env={"DISPLAY": screen.display}).start()
        try:
            base_latency, base_fps = python_stream(host, screen)
            latency, fps, open_ms, parts = chromium_stream(host, screen)
        finally:
            host.stop()
    base_open = openssl_ms()
    p50, p99 = percentile(latency, 0.5), percentile(latency, 0.99)
    draw_ms = parts["draw"]
    b50, b99 = percentile(base_latency, 0.5), percentile(base_latency, 0.99)
    print(f"# web viewer: {WIDTH}x{HEIGHT} at 60 fps on loopback, headless Chromium (WebCodecs), {SECONDS} s")
    print(f"baseline  Python client + PyAV capture→decoded  p50 {b50:6.1f} ms  p99 {b99:6.1f} ms  {base_fps:5.1f} fps")
    print(f"Chromium  capture→decoded                       p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
          f"  = {p50 / b50:.2f}× / {p99 / b99:.2f}× baseline  (goal p50 < 25 ms)")
    print(f"          of which (p50 each): host {parts['host']:.1f} ms, network + JS opening {parts['network']:.1f} ms,"
          f" decode {parts['decode']:.1f} ms; drawing {draw_ms:.1f} ms a frame")
    print(f"Chromium  decoded frames per second             {fps:5.1f} fps  = {fps / base_fps:.2f}× baseline  (goal ≥ 55)")
    print(f"baseline  openssl chacha20-poly1305, 300 KB     {base_open:6.2f} ms")
    print(f"Chromium  JS openBinary, 300 KB (median)        {open_ms:6.2f} ms  = {open_ms / base_open:.1f}× baseline"
          "  (goal < 4 ms)")


if __name__ == "__main__":
    main()
