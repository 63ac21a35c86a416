"""A slider in Chromium against the real daemon, under scripts/with-desktop's PulseAudio (PROTOCOL §6 "Tiles and
sliders"): made in the editor (Slider, One app, 3 slots) and stored by the host; drawn across its three slots; a finger
dragged along it moves the app's stream (a `pacat` under a test application.name) as pactl shows, to the value the
slider shows; `pactl set-sink-input-volume` moves the drawn slider. The drag sends at most 20 values a second, the
last one always (counted on the page's sends). At iPad and phone sizes."""

import json
import os
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from daemon import Daemon
from pages import eventually, key, pair, save, wait
from test_key_kinds import SIZES, add_sheet, clear_deck, sized, wait_stored

pytestmark = pytest.mark.skipif("PULSE_SERVER" not in os.environ, reason="needs scripts/with-desktop")

APP = "SliderBrowserApp"
SLIDER = {"label": "Music app", "kind": "slider", "bind": "app", "app": APP, "span": 3}


def pactl(*args):
    return subprocess.run(["pactl", *args], capture_output=True, text=True, check=True, timeout=20).stdout


def app_streams():
    inputs = json.loads(pactl("-f", "json", "list", "sink-inputs"))
    return {s["index"]: s["volume"]["front-left"]["value"] / 65536 for s in inputs
            if s["properties"].get("application.name") == APP}


@pytest.fixture(scope="module")
def host():
    daemon = Daemon()
    daemon.start()
    yield daemon
    daemon.stop()


@pytest.fixture
def app():
    process = subprocess.Popen(["pacat", "--playback", "--raw", f"--client-name={APP}",
                                f"--property=application.name={APP}", "/dev/zero"])
    try:
        eventually(app_streams, what="the app's stream")
        yield
    finally:
        process.terminate()
        process.wait(10)


def shown(driver):
    """The slider's value as drawn (aria-valuenow, 0…100), and its width against a single slot's."""
    return driver.execute_script("""
        const key = document.querySelector('.key[data-page="0"][data-index="0"]');
        const single = document.querySelector('.key[data-page="0"][data-index="3"]').getBoundingClientRect().width;
        return key && [Number(key.getAttribute('aria-valuenow')), key.getBoundingClientRect().width / single,
                       key.querySelector('.slider-value').textContent];""")


@SIZES
def test_dragging_the_slider_moves_the_app_and_pactl_moves_the_slider(host, browsers, output, size, app):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    add_sheet(driver, 0, "slider")
    Select(driver.find_element(By.ID, "edit-slider-bind")).select_by_visible_text("One app")
    driver.find_element(By.ID, "edit-slider-app").send_keys(APP)
    Select(driver.find_element(By.ID, "edit-slider-span")).select_by_visible_text("3")
    driver.find_element(By.ID, "edit-label").send_keys("Music app")
    save(driver)
    wait_stored(host, driver, 0, 0, SLIDER)
    wait(driver, lambda d: shown(d)[0] == 100, what="the app's 100 % on the slider")
    value, wide, _ = shown(driver)
    assert wide > 2.9, "the slider spans three slots"

    # Count the page's setSlider sends while a finger drags from a quarter to three quarters.
    driver.execute_script("""
        window.sliderSends = [];
        const send = window.touchdeck.send.bind(window.touchdeck);
        window.touchdeck.send = (m) => { if (m.type === 'setSlider') window.sliderSends.push([performance.now(), m.value]);
                                         return send(m); };""")
    track = key(driver, 0, 0).find_element(By.CSS_SELECTOR, ".slider-track")
    width = track.size["width"]
    chain = ActionChains(driver).move_to_element_with_offset(track, -width // 4, 0).click_and_hold()
    for step in range(1, 21):
        chain.move_to_element_with_offset(track, -width // 4 + step * width // 40, 0)
    chain.release().perform()
    sends = driver.execute_script("return window.sliderSends")
    last = sends[-1][1]
    assert 0.6 < last < 0.9, sends
    gaps = [b[0] - a[0] for a, b in zip(sends, sends[1:])]
    assert all(gap >= 45 for gap in gaps), f"at most 20 a second: {gaps}"
    eventually(lambda: app_streams() and all(abs(v - last) < 0.01 for v in app_streams().values()),
               what=f"pactl to show {last}")
    wait(driver, lambda d: shown(d)[0] == round(last * 100), what="the slider to show its value")
    driver.save_screenshot(str(output / f"slider-dragged-{size[0]}x{size[1]}.png"))

    (index,) = app_streams()
    pactl("set-sink-input-volume", str(index), "30%")
    wait(driver, lambda d: shown(d)[0] == 30 and shown(d)[2] == "30%", what="pactl's 30 % on the slider")


@SIZES
def test_a_four_slot_slider_fits_the_grid_in_both_orientations(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    wide = {"label": "Volume", "kind": "slider", "bind": "speakers", "span": 4}
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 4, button: arguments[0]})", wide)
    wait(driver, lambda d: key(d, 0, 4).get_attribute("aria-label") == "Volume", what="the slider")
    fits = driver.execute_script("""
        const page = {left: 0, right: document.documentElement.clientWidth};
        const keys = [...document.querySelectorAll('.page:first-child .key')].map((k) => k.getBoundingClientRect());
        const slider = document.querySelector('.key[data-page="0"][data-index="4"]').getBoundingClientRect();
        const single = document.querySelector('.key[data-page="0"][data-index="0"]').getBoundingClientRect();
        return {inside: keys.every((k) => k.left >= page.left - 1 && k.right <= page.right + 1),
                drawn: keys.length, across: Math.round(slider.width / single.width)};""")
    driver.save_screenshot(str(output / f"slider-four-{size[0]}x{size[1]}.png"))
    assert fits["inside"], fits
    assert fits["drawn"] == 9, "twelve slots, three covered"
    assert fits["across"] >= (4 if size[0] > size[1] else 3), fits
