"""Extend where the desktop cannot add a monitor (issue 24), in headless Chromium against the real host capturing the
Xvfb of `scripts/with-desktop`: the picker shows Extend beside the monitor, greyed, with the host's own reason (what
`displays.extend.reason` says to a reference client), and nothing to tap. Screenshots at iPad and phone sizes, both
ways up (test-output/browser/extend-unoffered-*.png). The offered card is tested under sway
(Tests/wayland/test_sway_extend_web.py)."""

import itertools
import pathlib
import sys

import pytest
from selenium.webdriver.common.by import By

from viewer import emulate_size, pair_as_viewer, wait_viewer

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "live"))
from livehelpers import paired_device, run  # noqa: E402

NAMES = (f"Extend tablet {n}" for n in itertools.count())


@pytest.fixture(scope="module")
def offer(host):
    """displays.extend as the reference client hears it."""
    async def scenario():
        client, _, _ = await paired_device(host, "Extend probe")
        host.cli("devices", "allow-screen", "Extend probe", "on")
        await client.send({"type": "listDisplays"})
        displays = await client.recv_type("displays", timeout=30)
        await client.close()
        return displays["extend"]
    return run(scenario())


@pytest.mark.parametrize("size", [(1194, 834), (834, 1194), (390, 844), (844, 390)],
                         ids=["ipad-landscape", "ipad-portrait", "phone-portrait", "phone-landscape"])
def test_the_picker_shows_extend_greyed_with_the_hosts_reason(host, offer, browsers, output, size):
    assert offer["offered"] is False and offer["reason"], offer
    browser = browsers(width=max(size[0], 500), height=size[1])
    driver = browser.driver
    emulate_size(driver, *size)
    pair_as_viewer(browser, host, next(NAMES))
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="screen"]').click()
    wait_viewer(driver, "viewing")  # the only monitor starts at once (issue 19); Monitors shows the picker
    driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="monitors"]').click()
    wait_viewer(driver, "choosing")
    card = driver.find_element(By.CSS_SELECTOR, ".extend-card")
    driver.save_screenshot(str(output / f"extend-unoffered-{size[0]}x{size[1]}.png"))
    start = card.find_element(By.CSS_SELECTOR, ".extend-start")
    reason = card.find_element(By.CSS_SELECTOR, ".extend-reason")
    assert card.get_attribute("aria-disabled") == "true"
    assert not start.is_enabled()
    assert card.find_elements(By.CSS_SELECTOR, ".extend-side") == []
    assert "Use this device as an extra monitor" in card.text
    assert reason.text == offer["reason"]
    # The reason reads at full contrast and whole, on screen, beside the monitor's card.
    assert reason.value_of_css_property("opacity") == "1"
    looks = driver.execute_script("""
        const card = document.querySelector('.display-card');
        return {whole: arguments[0].scrollHeight <= arguments[0].clientHeight + 1, cards: !!card,
                colour: getComputedStyle(arguments[0]).color};""", reason)
    assert looks["cards"] and looks["whole"], looks
    assert looks["colour"] == "rgb(236, 239, 244)", looks
    # The picker may scroll on a phone held sideways; the card is reachable there.
    driver.execute_script("arguments[0].scrollIntoView()", reason)
    assert driver.execute_script("""const r = arguments[0].getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;""", reason)
    driver.execute_script("arguments[0].click()", start)
    assert driver.execute_script("return window.touchdeckViewer.debug.state") == "choosing"
