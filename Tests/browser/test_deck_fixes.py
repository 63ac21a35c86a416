"""What a new user saw on the deck (issue 11): Korean labels broken mid-word in portrait, a revoked device still
showing its deck behind the PIN sheet, a success glow easy to miss, and a portrait phone leaving a third of the
height empty."""

from selenium.webdriver.common.by import By

from pages import eventually, key, state, tap, wait, wait_state
from viewer import emulate_size, pair_as_viewer

NAMES = (f"Deck fix {n}" for n in range(1000))


def set_button(driver, index, button):
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
                          index, button)
    wait(driver, lambda d: key(d, 0, index).get_attribute("aria-label") == button["label"], what="the new button")


def phone(browsers, host):
    browser = browsers(width=500, height=844)
    emulate_size(browser.driver, 390, 844)
    pair_as_viewer(browser, host, next(NAMES))
    return browser.driver


def test_korean_labels_break_between_words_in_portrait(host, browsers, output):
    driver = phone(browsers, host)
    set_button(driver, 0, {"label": "터미널 테스트", "kind": "terminal", "directory": ""})
    lines = driver.execute_script("""
        const label = document.querySelector('.key[data-page="0"][data-index="0"] .label');
        const text = label.firstChild;
        const tops = [];
        for (let i = 0; i < text.length; i += 1) {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            tops.push(Math.round(range.getBoundingClientRect().top));
        }
        return tops;""")
    words, at = [], 0
    for word in "터미널 테스트".split(" "):
        words.append(lines[at:at + len(word)])
        at += len(word) + 1
    driver.save_screenshot(str(output / "deck-korean-390x844.png"))
    assert len(set(lines)) >= 2, f"the label wraps at this size (else the test shows nothing): {lines}"
    for word in words:
        assert len(set(word)) == 1, f"a word broke across lines: {lines}"


def test_portrait_keys_use_the_height(host, browsers, output):
    driver = phone(browsers, host)
    grid, area = driver.execute_script("""
        const page = document.querySelector('.page').getBoundingClientRect();
        const keys = [...document.querySelectorAll('.page:first-child .key')].map((k) => k.getBoundingClientRect());
        const top = Math.min(...keys.map((k) => k.top)), bottom = Math.max(...keys.map((k) => k.bottom));
        return [bottom - top, document.querySelector('.pages').getBoundingClientRect().height];""")
    driver.save_screenshot(str(output / "deck-portrait-390x844.png"))
    assert grid >= 0.85 * area, f"the keys use {grid:.0f} of {area:.0f} px"
    scroll = driver.execute_script("return [document.documentElement.scrollHeight, innerHeight]")
    assert scroll[0] <= scroll[1]


def test_a_revoked_device_shows_nothing_of_its_deck_behind_the_pin_sheet(host, browsers, output):
    browser = browsers()
    name = next(NAMES)
    pair_as_viewer(browser, host, name)
    driver = browser.driver
    set_button(driver, 3, {"label": "Blog", "kind": "command", "command": "blogrun --draft ~/private/notes"})
    host.cli("devices", "revoke", name)
    wait_state(driver, "needPin", timeout=20)
    wait(driver, lambda d: d.find_element(By.ID, "pin").is_displayed(), what="the PIN sheet")
    driver.save_screenshot(str(output / "deck-revoked.png"))
    assert driver.execute_script("return document.querySelectorAll('.key:not(.empty)').length") == 0
    assert "blogrun" not in driver.execute_script("return document.body.innerText")
    assert "Blog" not in driver.execute_script("return document.querySelector('#pages').innerText")


def test_success_lights_the_whole_key_in_its_kind_colour(host, browsers, output):
    browser = browsers()
    pair_as_viewer(browser, host, next(NAMES))
    driver = browser.driver
    set_button(driver, 2, {"label": "Done", "kind": "command", "command": "true"})
    tap(driver, key(driver, 0, 2))
    wait(driver, lambda d: "glow" in key(d, 0, 2).get_attribute("class"), what="the success glow")
    # Held at 0.2 s into the light (not read at whatever moment a loaded machine gets to it).
    face = driver.execute_script("""
        const face = document.querySelector('.key[data-page="0"][data-index="2"] .face');
        const light = face.getAnimations().find((a) => a.animationName === 'key-ok');
        light.pause();
        light.currentTime = 200;
        const s = getComputedStyle(face);
        return [s.boxShadow, s.backgroundColor, s.backgroundImage, light.effect.getComputedTiming().duration];""")
    driver.save_screenshot(str(output / "deck-success-glow.png"))
    assert face[3] >= 1000, f"the light lasts a second or more: {face[3]} ms"
    green = "rgb(34, 197, 94)"
    assert green in face[0] and "4px" in face[0], f"a solid ring and halo in the command colour: {face}"
    assert face[2] == "none" and face[1] not in ("rgba(0, 0, 0, 0)",), f"the face itself lights up: {face}"
    assert state(driver) == "ready"
