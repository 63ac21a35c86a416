"""What the Screen tab tests share: a host capturing a private Xvfb, a test pattern on it, a browser paired
and allowed to view, and reading the canvas back."""

import base64
import io
import json
import os
import pathlib
import subprocess
import sys
import time

import math

from PIL import Image, ImageChops, ImageDraw, ImageStat
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

from pages import eventually, open_app, wait, wait_layout, wait_state

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))

DEVICE = "Viewer Tab"
XPOINTER = pathlib.Path(__file__).resolve().parents[1] / "support" / "xpointer.py"


def pattern(width, height):
    """Colour blocks, a gradient and lines of text, as BGRX bytes and as the RGB image."""
    image = Image.new("RGB", (width, height), (240, 240, 236))
    draw = ImageDraw.Draw(image)
    colours = [(220, 40, 40), (40, 170, 60), (40, 80, 220), (240, 200, 30), (30, 30, 30), (160, 60, 200)]
    for i, colour in enumerate(colours):
        draw.rectangle((i * width // 6, 0, (i + 1) * width // 6 - 1, height // 5), fill=colour)
    for x in range(width):
        shade = x * 255 // max(1, width - 1)
        draw.line((x, height // 5, x, height // 3), fill=(shade, shade, 255 - shade))
    for row, y in enumerate(range(height // 3 + 8, height - 14, 16)):
        draw.text((10, y), f"{row:02} TouchDeck screen test: the quick brown fox jumps over the lazy dog 0123456789",
                  fill=(20, 20, 30))
    r, g, b = image.split()
    bgrx = Image.merge("RGBA", (b, g, r, Image.new("L", image.size, 0))).tobytes()
    return bgrx, image


def psnr_y(a, b):
    """PSNR of the luma (ITU-R 601 weights, full range, on both sides) between two same-sized images."""
    assert a.size == b.size, (a.size, b.size)
    diff = ImageChops.difference(a.convert("L"), b.convert("L"))
    mse = ImageStat.Stat(diff).sum2[0] / (a.size[0] * a.size[1])
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def pair_as_viewer(browser, host, name=DEVICE):
    """Pairs under `name`, allows it to view, and opens the Screen tab's picker."""
    driver = browser.driver
    open_app(browser, host)
    wait_state(driver, "needPin")
    name_field = driver.find_element(By.ID, "device-name")
    name_field.clear()
    name_field.send_keys(name)
    driver.find_element(By.ID, "pin").send_keys(host.pin())
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait_state(driver, "ready")
    wait_layout(driver)
    host.cli("devices", "allow-screen", name, "on")


def open_screen_tab(driver):
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="screen"]').click()


def viewer_state(driver):
    return driver.execute_script("return window.touchdeckViewer && window.touchdeckViewer.debug.state")


def wait_viewer(driver, wanted, timeout=20):
    wait(driver, lambda d: viewer_state(d) == wanted, timeout, f"viewer state {wanted} (now {viewer_state(driver)})")


def decoded(driver):
    return driver.execute_script("return window.touchdeckViewer.debug.stats.decoded")


def start_viewing(driver):
    """Screen tab → the first monitor (picked from the picker, or at once when it is the only one, issue 19) →
    frames decoded."""
    open_screen_tab(driver)
    wait(driver, lambda d: viewer_state(d) in ("choosing", "starting", "viewing"), 20,
         f"the picker or the view (now {viewer_state(driver)})")
    if viewer_state(driver) == "choosing":
        driver.find_element(By.CSS_SELECTOR, ".display-card").click()
    wait_viewer(driver, "viewing")
    wait(driver, lambda d: decoded(d) > 0 and d.execute_script(
        "return document.querySelector('.screen-canvas').width > 300"), 20, "a decoded frame on the canvas")


def canvas_image(driver):
    """The canvas's own pixels (the decoded video at its size, not the page's scaling)."""
    url = driver.execute_script("return document.querySelector('.screen-canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def video_box(driver):
    """Where the video shows in the page (CSS px): the stage's box with the letterbox taken off."""
    return driver.execute_script("""
        const stage = document.querySelector('.screen-stage').getBoundingClientRect();
        const canvas = document.querySelector('.screen-canvas');
        const scale = Math.min(stage.width / canvas.width, stage.height / canvas.height);
        const w = canvas.width * scale, h = canvas.height * scale;
        return {x: stage.left + (stage.width - w) / 2, y: stage.top + (stage.height - h) / 2, width: w, height: h};
    """)


def page_point(box, monitor, pixel):
    """The page point (CSS px) that shows the monitor's pixel (its centre)."""
    return (box["x"] + (pixel[0] + 0.5) / monitor[0] * box["width"],
            box["y"] + (pixel[1] + 0.5) / monitor[1] * box["height"])


class CdpTouch:
    """Touches synthesized through the DevTools protocol (Input.dispatchTouchEvent): real touch events, with the
    pointer events the browser derives from them."""

    def __init__(self, driver):
        self.driver = driver

    def _send(self, kind, points):
        self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in points]})

    def start(self, *points):
        self._send("touchStart", list(enumerate(points)))

    def move(self, *points):
        self._send("touchMove", list(enumerate(points)))

    def end(self):
        self._send("touchEnd", [])

    def tap(self, point):
        self.start(point)
        self.end()

    def swipe(self, start, end, steps=10):
        self.start(start)
        for i in range(1, steps + 1):
            self.move((start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps))
        self.end()


class XRecorder:
    """Tests/support/xpointer.py on the viewed display: what the X server really delivered."""

    def __init__(self, display, path):
        self.path = path
        self.process = subprocess.Popen([sys.executable, str(XPOINTER), str(path)],
                                        env={**os.environ, "DISPLAY": display})
        eventually(lambda: any(e["type"] == "ready" for e in self.events()), 10, "the X recorder")

    def events(self):
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def presses(self, button=None):
        return [e for e in self.events() if e["type"] == "press" and button in (None, e["button"])]

    def releases(self, button=None):
        return [e for e in self.events() if e["type"] == "release" and button in (None, e["button"])]

    def clear(self):
        self.path.write_text("")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def emulate_size(driver, width, height):
    """A viewport of exactly this many CSS px (headless Chromium will not make a window narrower than 500)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < height,
        "screenWidth": width, "screenHeight": height})


def expected_pixel(box, point, width, height):
    """The monitor pixel the page maps this (whole CSS px) point to."""
    return (int((point[0] - box["x"]) / box["width"] * width), int((point[1] - box["y"]) / box["height"] * height))


def mouse_at_pixels(driver, recorder, width, height):
    """Mouse through W3C actions (the real pointer path): click, double click, right click, drag and wheel land
    on the monitor pixels the page maps them to."""
    box = video_box(driver)
    point = lambda fx, fy: (int(box["x"] + fx * box["width"]), int(box["y"] + fy * box["height"]))  # noqa: E731

    def actions():
        return ActionBuilder(driver)

    a, target = point(0.2, 0.25), None
    act = actions()
    act.pointer_action.move_to_location(*a).click()
    act.perform()
    eventually(lambda: recorder.releases(1), what="the click")
    assert (recorder.presses(1)[0]["x"], recorder.presses(1)[0]["y"]) == expected_pixel(box, a, width, height)

    recorder.clear()
    b = point(0.6, 0.5)
    act = actions()
    act.pointer_action.move_to_location(*b).double_click()
    act.perform()
    eventually(lambda: len(recorder.releases(1)) == 2, what="the double click")
    assert {(p["x"], p["y"]) for p in recorder.presses(1)} == {expected_pixel(box, b, width, height)}

    recorder.clear()
    c = point(0.4, 0.4)
    act = actions()
    act.pointer_action.move_to_location(*c).context_click()
    act.perform()
    eventually(lambda: recorder.releases(3), what="the right click")
    assert (recorder.presses(3)[0]["x"], recorder.presses(3)[0]["y"]) == expected_pixel(box, c, width, height)
    assert not recorder.presses(1)

    recorder.clear()
    source, target = point(0.1, 0.7), point(0.7, 0.8)
    act = actions()
    act.pointer_action.move_to_location(*source).pointer_down()
    for i in range(1, 11):
        act.pointer_action.move_to_location(int(source[0] + (target[0] - source[0]) * i / 10),
                                            int(source[1] + (target[1] - source[1]) * i / 10))
    act.pointer_action.pointer_up()
    act.perform()
    eventually(lambda: recorder.releases(1), what="the end of the drag")
    assert (recorder.presses(1)[0]["x"], recorder.presses(1)[0]["y"]) == expected_pixel(box, source, width, height)
    assert (recorder.releases(1)[0]["x"], recorder.releases(1)[0]["y"]) == expected_pixel(box, target, width, height)

    recorder.clear()
    d = point(0.5, 0.5)
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_viewport(*d), 0, 200).perform()
    # Wheel down 200 px = two notches: the content moves up as on the computer, two wheel-down steps (button 5).
    eventually(lambda: len(recorder.presses(5)) >= 2, what="wheel-down steps")
    time.sleep(0.3)
    assert len(recorder.presses(5)) == 2 and not recorder.presses(4)
