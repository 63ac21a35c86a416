"""The Screen tab in WebKitGTK (MiniBrowser through WebKitWebDriver: the engine of iPad Safari) against the real
host capturing a private Xvfb. WebKitGTK decodes H.264 through GStreamer, so this needs gstreamer1.0-libav
(scripts/bootstrap). `new Touch()` is not constructible in WebKit and its driver has no touch source here, so
input goes through the real pointer path with a mouse (click, double click, right click, drag, wheel); the
touch gestures (tap, two-finger tap, pan, hold-and-drag) are covered in Chromium (test_screen.py)."""

import os
import shutil
import time

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.webkitgtk.service import Service

from pages import eventually
from test_screen import BROKEN_DELTA, HEIGHT, NAMES, WIDTH, Painter, counts, frames_per_second, host, screen  # noqa: F401
from test_screen import newest_picture, screen_viewer, screenshot
from viewer import XRecorder, decoded, mouse_at_pixels, pair_as_viewer, start_viewing, video_box, viewer_state, wait_viewer

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
# WebKitGTK's GStreamer path hands back frames whose levels are about 1.5 % low (240 → 237, 30 → 28: measured
# on the pattern's flat areas), in some runs and not others, whatever the page does (drawImage, or bitmaps with
# or without colour conversion). That uniform shift alone costs 1–2 dB; the picture is otherwise the same.
# Chromium is held to 35 dB (test_screen.py).
FLOOR = 33

pytestmark = [
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),
    pytest.mark.skipif(not (shutil.which("WebKitWebDriver") and os.path.exists(MINIBROWSER)),
                       reason="webkit2gtk-driver comes from scripts/bootstrap test"),
]


class WebKit:
    """One MiniBrowser on the desktop's display, trusting the host's certificate for this session only."""

    def __init__(self, width=1194, height=834):
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        options.set_capability("acceptInsecureCerts", True)
        # The web process sandbox is bwrap, which cannot run inside the test's containers here.
        env = {**os.environ, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1"}
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path="/usr/bin/WebKitWebDriver",
                                                                           env=env))
        self.driver.set_window_size(width, height)


@pytest.fixture
def webkit_viewer(host):
    browser = WebKit()
    try:
        pair_as_viewer(browser, host, next(NAMES))
        start_viewing(browser.driver)
        yield browser
        browser.driver.execute_script("window.touchdeckViewer?.shown(false)")
    finally:
        browser.driver.quit()


@pytest.fixture
def recorder(screen, tmp_path):  # noqa: F811
    recorder = XRecorder(screen.display, tmp_path / "x-events.jsonl")
    yield recorder
    recorder.stop()


def test_webkit_shows_the_screen_at_35_db(webkit_viewer, screen, output):  # noqa: F811
    driver = webkit_viewer.driver
    quality = newest_picture(driver, screenshot(screen), FLOOR)
    print(f"WebKit PSNR-Y canvas vs X screenshot: {quality:.1f} dB")
    driver.save_screenshot(str(output / "webkit-screen-view-1194x834.png"))


def test_webkit_mouse_clicks_double_clicks_right_clicks_drags_and_wheels_at_their_pixels(webkit_viewer, recorder):
    mouse_at_pixels(webkit_viewer.driver, recorder, WIDTH, HEIGHT)


def test_webkit_fps_toggle_halves_the_rate_without_a_restart(webkit_viewer, screen):  # noqa: F811
    driver = webkit_viewer.driver
    painter = Painter(screen.display)
    painter.start()
    try:
        time.sleep(1)
        at_60 = frames_per_second(driver)
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="fps"]').click()
        time.sleep(1)
        at_30 = frames_per_second(driver)
    finally:
        painter.stop()
    print(f"WebKit frames per second: {at_60:.1f} at 60, {at_30:.1f} at 30")
    assert at_30 <= 31.5
    assert counts(driver)["starts"] == 1
    assert viewer_state(driver) == "viewing"


def test_webkit_recovers_from_an_undecodable_frame(webkit_viewer, screen):  # noqa: F811
    driver = webkit_viewer.driver
    newest_picture(driver, screenshot(screen), FLOOR)
    before = counts(driver)
    driver.execute_script("window.touchdeckViewer.core.packet(new Uint8Array(arguments[0]))", list(BROKEN_DELTA))
    eventually(lambda: counts(driver)["keyframes"] > before["keyframes"], what="a keyframe after the request")
    assert counts(driver)["keyframeRequests"] > before["keyframeRequests"]
    assert viewer_state(driver) == "viewing"
    newest_picture(driver, screenshot(screen), FLOOR)


def test_webkit_hidden_page_stops_the_stream_and_showing_it_restarts(webkit_viewer, host):  # noqa: F811
    driver = webkit_viewer.driver
    assert screen_viewer(host)
    driver.minimize_window()  # the page becomes hidden
    eventually(lambda: not screen_viewer(host), what="the host to stop streaming")
    assert viewer_state(driver) == "hidden"
    at_hiding = decoded(driver)
    driver.set_window_size(1194, 834)
    driver.maximize_window()
    wait_viewer(driver, "viewing")
    eventually(lambda: screen_viewer(host), what="the host streaming again")
    eventually(lambda: decoded(driver) > at_hiding, what="new frames after showing the page")
    assert counts(driver)["starts"] == 2
