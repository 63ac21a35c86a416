"""The Screen tab in headless Chromium against the real host capturing a private Xvfb (SPEC §7): the picture
(PSNR-Y of the canvas against an X screenshot), touches through the DevTools protocol arriving as clicks,
double clicks, right clicks, scrolls and drags at the right X pixels, the fps toggle, hiding and showing the
page, recovery from an undecodable frame, and screenshots in landscape and portrait."""

import json
import os
import pathlib
import subprocess
import sys
import time

import pytest
from PIL import Image

from conftest import Browser
from pages import eventually, wait
from viewer import (canvas_image, decoded, page_point, pair_as_viewer, pattern, psnr_y, start_viewing, video_box,
                    viewer_state, wait_viewer)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from daemon import Daemon  # noqa: E402
from xscreen import VirtualScreen, XImageAccess  # noqa: E402

# Small enough that the video is the monitor's own pixels (no scaling) on every device size tested here.
WIDTH, HEIGHT = 1024, 576
XPOINTER = pathlib.Path(__file__).resolve().parents[1] / "support" / "xpointer.py"


@pytest.fixture(scope="module")
def screen():
    with VirtualScreen(WIDTH, HEIGHT) as screen:
        pixels = XImageAccess(screen.display)
        bgrx, _ = pattern(WIDTH, HEIGHT)
        pixels.put(bgrx, 0, 0, WIDTH, HEIGHT)
        pixels.close()
        yield screen


@pytest.fixture(scope="module")
def host(screen):
    daemon = Daemon(env={"DISPLAY": screen.display})
    daemon.start()
    yield daemon
    daemon.stop()


@pytest.fixture
def viewer(host, browsers):
    """A browser paired and allowed, viewing the private screen."""
    browser = browsers()
    pair_as_viewer(browser, host)
    start_viewing(browser.driver)
    yield browser
    browser.driver.execute_script("window.touchdeckViewer.shown(false)")


def screenshot(screen):
    pixels = XImageAccess(screen.display)
    bgrx = pixels.grab(0, 0, WIDTH, HEIGHT)
    pixels.close()
    return Image.frombytes("RGB", (WIDTH, HEIGHT), bgrx, "raw", "BGRX")


def newest_picture(driver, reference, floor=35):
    """Waits for the canvas to match `reference` (frames keep coming until the encoder's quality settles)."""
    best = [0.0]

    def good():
        best[0] = psnr_y(canvas_image(driver), reference)
        return best[0] >= floor
    eventually(good, 20, f"the canvas within {floor} dB of the screen (best {best[0]:.1f} dB)")
    return best[0]


def test_the_canvas_shows_the_screen_at_35_db(viewer, screen, output):
    driver = viewer.driver
    started = driver.execute_script("return window.touchdeckViewer.debug.started")
    assert (started["width"], started["height"]) == (WIDTH, HEIGHT)
    quality = newest_picture(driver, screenshot(screen))
    print(f"PSNR-Y canvas vs X screenshot: {quality:.1f} dB")
    canvas_image(driver).save(output / "screen-canvas.png")
