"""The web client's Extend on sway (issue 24), in headless Chromium emulating an iPad (1194x834 CSS px at ratio 2)
against the real daemon on a private headless sway (scripts/with-sway; the portal's chooser picks the output the
test names, as the computer's user would). The picker offers Extend with its placement; choosing it makes an
output of the device's size in device pixels at scale 2 on the chosen side (sway's get_outputs), streamed at that
size and drawn 1:1 on the canvas's device pixels; a window moved onto the new output shows in a screenshot of the
stage where it is; turning the device (emulated) makes the output portrait once the resizes have settled, with one
new request for a storm of resizes. Screenshots at iPad size and phone size, both ways up:
test-output/browser/extend-sway-*.png. Skipped outside scripts/with-sway."""

import io
import os
import pathlib
import sys

import pytest
from PIL import Image
from selenium.webdriver.common.by import By

from test_mutter_live import GTKClient, pattern_block
from test_sway_extend_live import expect_output, outputs, sway_state, swaymsg, taken_away, window_output
from livehelpers import Daemon, ROOT

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
from chromium import Browser  # noqa: E402
from pages import eventually, wait  # noqa: E402
from viewer import open_screen_tab, pair_as_viewer, wait_viewer  # noqa: E402

pytestmark = pytest.mark.skipif("TOUCHDECK_SWAY_PID" not in os.environ or "TOUCHDECK_MUTTER_PID" in os.environ,
                                reason="needs scripts/with-sway")

OUTPUT = ROOT / "test-output" / "browser"
BLOCK = 80  # the pattern window's blocks, in layout pixels (gtk_pattern.py)


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    home = tmp_path_factory.mktemp("extend-web")
    daemon = Daemon(home=home, env={"XDG_STATE_HOME": str(sway_state())}).start()
    yield daemon
    daemon.stop()


@pytest.fixture(scope="module")
def window():
    """The GTK pattern (80-px blocks of known colours, full screen); its corner flips so the output keeps damage."""
    client = GTKClient(["--tick", "5"])
    yield client
    client.stop()


@pytest.fixture
def browser():
    made = Browser(1194, 834)
    yield made
    made.quit()
    # The portal's chooser answers HEADLESS-1 again: later tests view the usual monitor.
    pathlib.Path(os.environ["TOUCHDECK_SWAY_PICK"]).unlink(missing_ok=True)


def device(driver, width, height, ratio):
    """The page as a device of this many CSS px at this pixel ratio (a turn is the same call with the sides swapped)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": ratio, "mobile": False,
        "screenWidth": width, "screenHeight": height})


def view(driver):
    """What the page shows: the stream's size, the canvas's own pixels and its box in device pixels."""
    return driver.execute_script("""
        const v = window.touchdeckViewer, canvas = document.querySelector('.screen-canvas');
        const box = canvas.getBoundingClientRect(), stage = document.querySelector('.screen-stage').getBoundingClientRect();
        return {state: v.debug.state, started: v.debug.started, starts: v.debug.counts.starts,
                canvas: [canvas.width, canvas.height], decoded: v.debug.stats.decoded,
                box: [box.width * devicePixelRatio, box.height * devicePixelRatio],
                stage: [stage.left, stage.top, stage.width, stage.height],
                fullscreen: document.querySelector('.app').classList.contains('fullscreen')};""")


def showing(driver, width, height):
    """Viewing a stream of this size, its frames on the canvas."""
    now = view(driver)
    return now["state"] == "viewing" and now["started"] and (now["started"]["width"], now["started"]["height"]) == (
        width, height) and now["canvas"] == [width, height] and now["decoded"] > 0


def mode(name):
    output = outputs()[name]
    return output["current_mode"]["width"], output["current_mode"]["height"], output["scale"]


def stage_shot(driver, tag):
    """A screenshot of the stage (device pixels), saved as test-output/browser/extend-sway-TAG.png."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    page.save(OUTPUT / f"extend-sway-{tag}.png")
    left, top, width, height = view(driver)["stage"]
    ratio = page.width / driver.execute_script("return innerWidth")
    return page.crop((round(left * ratio), round(top * ratio), round((left + width) * ratio),
                      round((top + height) * ratio)))


def pattern_off_by(shot, scale, columns, rows):
    """The largest difference (any channel) between the stage and the pattern's block colours, at the centres of
    the blocks in `columns` x `rows` (layout pixels times the output's scale)."""
    worst = 0
    for column in columns:
        for row in rows:
            x, y = round((column + 0.5) * BLOCK * scale), round((row + 0.5) * BLOCK * scale)
            seen = shot.getpixel((x, y))
            worst = max(worst, *(abs(a - b) for a, b in zip(seen, pattern_block(column, row))))
    return worst


def test_extend_from_the_picker_is_a_monitor_of_the_device_drawn_1_to_1_that_turns_with_it(host, window, browser):
    driver = browser.driver
    pair_as_viewer(browser, host, "Web tablet")
    device(driver, 1194, 834, 2)
    open_screen_tab(driver)
    wait_viewer(driver, "viewing", 60)  # the only monitor starts at once (issue 19); Monitors shows the picker
    driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="monitors"]').click()
    wait_viewer(driver, "choosing", 30)
    card = driver.find_element(By.CSS_SELECTOR, ".extend-card")
    assert card.get_attribute("aria-disabled") is None
    assert "Use this device as an extra monitor" in card.text
    sides = card.find_elements(By.CSS_SELECTOR, ".extend-side")
    assert [side.text for side in sides] == ["Right of", "Left of", "Above", "Below"]
    assert card.find_element(By.CSS_SELECTOR, '[aria-checked="true"]').text == "Right of"
    card.find_element(By.CSS_SELECTOR, '.extend-side[data-placement="below"]').click()
    assert driver.execute_script("return localStorage.getItem('touchdeck.extendPlacement')") == "below"
    driver.save_screenshot(str(OUTPUT / "extend-sway-picker-1194x834.png"))

    name = expect_output()
    card.find_element(By.CSS_SELECTOR, ".extend-start").click()
    wait(driver, lambda d: showing(d, 2388, 1668), 90, f"the 2388x1668 stream drawn (now {view(driver)})")
    shown = view(driver)
    # Drawn 1:1: the canvas's box is the stream's size in device pixels, in full screen.
    assert shown["box"] == [2388, 1668] and shown["fullscreen"], shown
    assert mode(name) == (2388, 1668, 2)
    made, headless = outputs()[name]["rect"], outputs()["HEADLESS-1"]["rect"]
    assert made == {"x": headless["x"], "y": headless["y"] + headless["height"], "width": 1194, "height": 834}, made

    swaymsg(f'[title="touchdeck-pattern"] move container to output {name}, focus, fullscreen enable')
    # The window's 80-px blocks at scale 2, where the monitor has them (a frame or two may still show the move).
    columns, rows = range(0, 14, 3), range(0, 10, 3)
    shot = eventually(lambda: (lambda s: s if pattern_off_by(s, 2, columns, rows) <= 24 else None)(
        stage_shot(driver, "ipad-1194x834")), 60, "the pattern window on the new monitor")
    assert shot.size == (2388, 1668)

    # A turn: resizes through in-between sizes, then portrait. One new monitor, once they have settled.
    starts = view(driver)["starts"]
    for size in [(1100, 900), (900, 1100), (834, 1194)]:
        device(driver, *size, 2)
    wait(driver, lambda d: showing(d, 1668, 2388), 90, f"the portrait stream drawn (now {view(driver)})")
    turned = view(driver)
    assert turned["starts"] == starts + 1, (starts, turned)
    assert turned["box"] == [1668, 2388], turned
    assert mode(name) == (1668, 2388, 2)
    # The same output, resized in place: the window on it stayed there.
    assert window_output() == name
    portrait = eventually(lambda: (lambda s: s if pattern_off_by(s, 2, range(0, 10, 3), range(0, 14, 3)) <= 24
                                   else None)(stage_shot(driver, "ipad-834x1194")), 60, "the pattern in portrait")
    assert portrait.size == (1668, 2388)

    # A phone (ratio 3): the monitor follows it too, both ways up, the window still on it.
    for width, height in [(390, 844), (844, 390)]:
        device(driver, width, height, 3)
        wait(driver, lambda d: showing(d, width * 3, height * 3), 90, f"the phone's stream (now {view(driver)})")
        assert mode(name) == (width * 3, height * 3, 3)
        stage_shot(driver, f"phone-{width}x{height}")

    assert window_output() == name
    driver.execute_script("window.touchdeckViewer.shown(false)")
    assert taken_away(name), outputs()[name]
    assert window_output() == "HEADLESS-1", "the window did not go back when the monitor went"
