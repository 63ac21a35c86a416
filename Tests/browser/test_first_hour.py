"""Issue 19, the web client as a new user meets it in the first hour, in headless Chromium against the real daemon
(the Xvfb of `scripts/with-desktop`, one monitor): errors after pairing reach the place waiting for them
(the Screen tab's start, a Get), Close and the Screen tab, what is remembered across a reload, full screen,
the screen permission followed at once, the Screen toolbar's order."""

import io
import itertools
import time

from PIL import Image
from selenium.webdriver.common.by import By

from pages import key, open_app, tap, wait, wait_layout, wait_state
from viewer import CdpTouch, emulate_size, pair_as_viewer, start_viewing, viewer_state, wait_viewer

NAMES = (f"First hour {n}" for n in itertools.count())

IPAD = [(1194, 834), (834, 1194)]
PHONE = [(390, 844), (844, 390)]


def sized(browsers, size):
    browser = browsers(width=max(size[0], 500), height=size[1])
    emulate_size(browser.driver, *size)
    return browser


def message(driver):
    return driver.find_element(By.CSS_SELECTOR, ".screen-message").text


def selected_tab(driver):
    return driver.execute_script("return document.querySelector('.tabs [aria-selected=true]').dataset.tab")


def visible_tools(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('.screen-toolbar .tool')].filter((t) => !t.hidden)
          .map((t) => { const r = t.getBoundingClientRect();
                        return [t.dataset.tool, Math.round(r.x), Math.round(r.y), getComputedStyle(t).visibility]; });""")


def test_a_refused_start_ends_starting_with_the_reason_and_monitors_and_try_again_work(host, browsers, output):
    for size in (IPAD[0], PHONE[0]):
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        start_viewing(driver)
        # A monitor id from before the computer's session restarted: the host answers with a sealed error.
        driver.execute_script("window.touchdeckViewer.core.event('choose', {displayId: 987654})")
        wait_viewer(driver, "failed")
        text = message(driver)
        assert "No display has id 987654" in text, text
        buttons = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".message-actions button")]
        assert buttons == ["Try again", "Monitors"], buttons
        driver.save_screenshot(str(output / f"first-hour-start-refused-{size[0]}x{size[1]}.png"))
        assert driver.find_element(By.ID, "toast").is_displayed() is False, "shown in the tab, not as a toast too"
        driver.find_element(By.XPATH, "//div[@class='message-actions']/button[text()='Monitors']").click()
        wait_viewer(driver, "choosing")
        driver.find_element(By.CSS_SELECTOR, ".display-card").click()
        wait_viewer(driver, "viewing")
        driver.execute_script("window.touchdeckViewer.shown(false)")


def test_close_goes_back_to_the_deck_and_the_screen_tab_opens_again(host, browsers, output):
    browser = browsers()
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    start_viewing(driver)
    tools = visible_tools(driver)
    assert tools[-1][0] == "close", f"Close is the last tool: {tools}"
    driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="close"]').click()
    wait(driver, lambda d: viewer_state(d) == "off", what="the view closed")
    assert selected_tab(driver) == "deck"
    assert driver.find_element(By.ID, "deck-view").is_displayed()
    assert not driver.find_element(By.ID, "screen-view").is_displayed()
    driver.save_screenshot(str(output / "first-hour-after-close.png"))
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="screen"]').click()
    wait_viewer(driver, "viewing")


def test_the_toolbar_keeps_its_places_when_1x_appears(host, browsers, output):
    for size in (IPAD[0], PHONE[0]):
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        start_viewing(driver)
        before = visible_tools(driver)
        names = [t[0] for t in before]
        assert names[-1] == "close" and names[-2] == "resetZoom", names
        assert before[-2][3] == "hidden", "1× holds its place, unseen, while not zoomed"
        stage = driver.execute_script("return document.querySelector('.screen-stage').getBoundingClientRect().toJSON()")
        cx, cy = stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2
        touch = CdpTouch(driver)
        touch.start((cx - 60, cy), (cx + 60, cy))
        for step in range(1, 11):
            touch.move((cx - 60 - 8 * step, cy), (cx + 60 + 8 * step, cy))
        touch.end()
        wait(driver, lambda d: d.execute_script("return window.touchdeckViewer.debug.zoom") > 1.2, what="the zoom")
        after = visible_tools(driver)
        driver.save_screenshot(str(output / f"first-hour-toolbar-zoomed-{size[0]}x{size[1]}.png"))
        assert after[-2][3] == "visible"
        assert [t[:3] for t in after] == [t[:3] for t in before], f"the buttons moved: {before} → {after}"
        driver.execute_script("window.touchdeckViewer.shown(false)")


def test_the_tab_the_monitor_and_sound_are_remembered_across_a_reload(host, browsers):
    browser = browsers()
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    start_viewing(driver)  # the only monitor: no picker
    viewed = driver.execute_script("return window.touchdeckViewer.core.session.displayId")
    driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="sound"]').click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '.tool[data-tool="sound"]').get_attribute("aria-pressed")
         == "true", what="sound on")
    driver.refresh()
    wait_state(driver, "ready")
    assert selected_tab(driver) == "screen"
    wait_viewer(driver, "viewing")  # no tap: the tab, the monitor and the start come back by themselves
    session = driver.execute_script("return window.touchdeckViewer.core.session")
    assert session["displayId"] == viewed and session["audio"] is True, session
    assert driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="sound"]').get_attribute("aria-pressed") == "true"
    driver.execute_script("window.touchdeckViewer.shown(false)")


def test_full_screen_hides_the_toolbar_and_tabs_and_the_corner_handle_brings_them_back(host, browsers, output):
    for size in IPAD + PHONE:
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        start_viewing(driver)
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="fullscreen"]').click()
        handle = driver.find_element(By.CSS_SELECTOR, ".fullscreen-handle")
        wait(driver, lambda d: handle.is_displayed(), what="the corner handle")
        for hidden in (".tabs", ".screen-toolbar", ".status"):
            assert not driver.find_element(By.CSS_SELECTOR, hidden).is_displayed(), hidden
        stage = driver.execute_script("return document.querySelector('.screen-stage').getBoundingClientRect().toJSON()")
        assert stage["height"] >= size[1] - 2 and stage["width"] >= size[0] - 2, (stage, size)
        driver.save_screenshot(str(output / f"first-hour-fullscreen-{size[0]}x{size[1]}.png"))
        handle.click()
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".tabs").is_displayed(), what="the tabs back")
        assert driver.find_element(By.CSS_SELECTOR, ".screen-toolbar").is_displayed()
        assert not handle.is_displayed()
        driver.execute_script("window.touchdeckViewer.shown(false)")


def test_the_screen_tab_follows_allow_screen_at_once_both_ways(host, browsers, output):
    browser = browsers()
    driver = browser.driver
    name = next(NAMES)
    open_app(browser, host)
    wait_state(driver, "needPin")
    field = driver.find_element(By.ID, "device-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "pin").send_keys(host.pin())
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait_state(driver, "ready")
    wait_layout(driver)
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="screen"]').click()
    wait_viewer(driver, "denied")
    host.cli("devices", "allow-screen", name, "on")
    wait_viewer(driver, "viewing", timeout=10)  # no tap on Monitors
    host.cli("devices", "allow-screen", name, "off")
    wait(driver, lambda d: viewer_state(d) in ("denied", "stopped"), 10, "the view to stop")
    wait(driver, lambda d: "allow-screen" in message(d), what="the command that allows it")
    driver.save_screenshot(str(output / "first-hour-permission-off.png"))
    host.cli("devices", "allow-screen", name, "on")
    if viewer_state(driver) == "stopped":  # stopped while viewing: the user starts again
        driver.find_element(By.CSS_SELECTOR, ".message-actions button").click()
    wait_viewer(driver, "viewing", timeout=10)
    driver.execute_script("window.touchdeckViewer.shown(false)")


def test_a_host_error_nobody_waits_for_is_a_sentence_at_the_top_not_over_the_keys(host, browsers, output):
    for size in IPAD + PHONE:
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        # A sealed error answering a keypad key the host does not know.
        driver.execute_script("window.touchdeck.send({type: 'keypad', key: 'nope'})")
        toast = driver.find_element(By.ID, "toast")
        wait(driver, lambda d: toast.is_displayed(), what="the toast")
        text = toast.text
        assert text[0].isupper() and text.endswith("."), f"a sentence: {text!r}"
        overlaps = driver.execute_script("""
            const t = document.querySelector('#toast').getBoundingClientRect();
            return [...document.querySelectorAll('.key')].map((k) => k.getBoundingClientRect())
              .filter((k) => k.left < t.right && t.left < k.right && k.top < t.bottom && t.top < k.bottom).length;""")
        driver.save_screenshot(str(output / f"first-hour-toast-{size[0]}x{size[1]}.png"))
        assert overlaps == 0, f"the toast covers {overlaps} keys at {size}"


def test_the_pin_sheet_says_what_is_wrong_in_its_own_words(host, browsers, output):
    browser = sized(browsers, PHONE[0])
    driver = browser.driver
    open_app(browser, host)
    wait_state(driver, "needPin")
    pin = driver.find_element(By.ID, "pin")
    wait(driver, lambda d: pin.is_displayed(), what="the PIN sheet")
    pin.send_keys("12")
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.ID, "pair-error").text, what="the PIN message")
    assert driver.find_element(By.ID, "pair-error").text == "The PIN has 6 digits."
    assert driver.execute_script("return document.querySelector('#pin').validationMessage") == ""
    driver.save_screenshot(str(output / "first-hour-pin-message-390x844.png"))
    assert driver.execute_script("return window.touchdeck.state") == "needPin"


def key_box(driver, index=0):
    return driver.execute_script(
        f"return document.querySelector('.key[data-page=\"0\"][data-index=\"{index}\"]').getBoundingClientRect().toJSON()")


def test_a_rotation_while_another_tab_shows_leaves_full_size_keys_on_the_deck(host, browsers, output):
    browser = sized(browsers, IPAD[0])
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    for tab, (start, turned) in itertools.product(("keypad", "screen", "recordings"), [IPAD, PHONE]):
        emulate_size(driver, *start)
        driver.find_element(By.CSS_SELECTOR, f'.tabs [data-tab="{tab}"]').click()
        emulate_size(driver, *turned)
        driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="deck"]').click()
        wait(driver, lambda d: key_box(d)["width"] > 60, 5, f"keys fitted after rotating on {tab} to {turned}")
        box, area = key_box(driver), driver.execute_script(
            "return document.querySelector('.pages').getBoundingClientRect().toJSON()")
        driver.save_screenshot(str(output / f"first-hour-rotated-on-{tab}-{turned[0]}x{turned[1]}.png"))
        columns = 4 if turned[0] > turned[1] else 3
        # The keys fill the area's width or its height, as a deck fitted from the start does.
        assert box["width"] * columns >= 0.7 * area["width"] or box["height"] * (7 - columns) >= 0.7 * area["height"], \
            (tab, turned, box, area)


def layouts(driver):
    """How many layouts the deck has drawn."""
    return int(driver.execute_script("return document.querySelector('#pages').dataset.layouts"))


def test_the_top_rows_success_glow_is_not_cut_off(host, browsers, output):
    for size in (IPAD[0], PHONE[0]):
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        # The second device's deck has the key already: the layout its own setButton brings is awaited (drawn after
        # the glow, it would replace the key that shows it).
        drawn = layouts(driver)
        driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 0, "
                              "button: {kind: 'command', label: 'Glow', command: 'true'}})")
        wait(driver, lambda d: layouts(d) > drawn and d.find_element(By.CSS_SELECTOR, '.key[data-index="0"]')
             .get_attribute("aria-label") == "Glow", what="the key")
        driver.execute_script("""
            const key = document.querySelector('.key[data-page="0"][data-index="0"]');
            key.classList.add('glow');
            const light = key.querySelector('.face').getAnimations().find((a) => a.animationName === 'key-ok');
            light.pause();
            light.currentTime = 200;""")
        box = key_box(driver)
        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        shot.save(output / f"first-hour-top-glow-{size[0]}x{size[1]}.png")
        # Just outside the key, above it and beside it: the command colour's halo (green over the dark page).
        for x, y in ((box["x"] + box["width"] / 2, box["y"] - 6), (box["x"] - 6, box["y"] + box["height"] / 2)):
            r, g, b = shot.getpixel((int(x), int(y)))
            assert g > r + 25 and g > b + 15, f"no glow at {(x, y)} ({size}): {(r, g, b)}"


def test_the_kind_picker_fits_a_phone_and_the_sheet_never_scrolls_sideways(host, browsers, output):
    for size in PHONE + IPAD[1:]:
        browser = sized(browsers, size)
        driver = browser.driver
        pair_as_viewer(browser, host, next(NAMES))
        tap(driver, key(driver, 0, 5))
        wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
        sheet = driver.execute_script("""
            const form = document.querySelector('#edit-form'), dialog = document.querySelector('#edit-sheet');
            const labels = [...document.querySelectorAll('.kind-picker label')].map((l) => {
              const r = l.getBoundingClientRect(), d = dialog.getBoundingClientRect();
              return [l.textContent.trim(), l.scrollWidth <= l.clientWidth + 1, r.left >= d.left, r.right <= d.right]; });
            return [dialog.scrollWidth <= dialog.clientWidth, form.scrollWidth <= form.clientWidth, labels];""")
        driver.save_screenshot(str(output / f"first-hour-add-sheet-{size[0]}x{size[1]}.png"))
        assert sheet[0] and sheet[1], f"the sheet scrolls sideways at {size}"
        for label in sheet[2]:
            assert all(label[1:]), f"{label[0]!r} is cut at {size}: {sheet[2]}"


def test_the_app_search_hint_is_in_english_with_the_hangul_hint_for_korean_app_names(host, browsers):
    browser = browsers()
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    driver.execute_script("window.touchdeck.send({type: 'listApps'})")
    field = driver.find_element(By.ID, "app-search")
    wait(driver, lambda d: "initials" in (field.get_attribute("placeholder") or ""), what="the hint for this catalog")
    assert field.get_attribute("placeholder") == "Search apps (initials: ㅁㅁ finds 메모)"


def videos(host):
    return sorted((host.home / "Videos" / "TouchDeck").glob("*.mp4"))


def open_recordings(driver):
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="recordings"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "recordings-view").is_displayed(), what="the Recordings view")


def row(name):
    return f'.recording[data-name="{name}"]'


def action_text(driver, name):
    found = driver.find_elements(By.CSS_SELECTOR, f"{row(name)} .recording-action")
    return found[0].text if found else None


def test_the_recordings_tab_records_shows_the_file_being_recorded_and_deletes(host, browsers, output):
    for path in videos(host):
        path.unlink()
    browser = sized(browsers, PHONE[0])
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    open_recordings(driver)
    driver.find_element(By.ID, "record-start").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".recording[data-live]"), what="the file being recorded")
    live = driver.find_element(By.CSS_SELECTOR, ".recording[data-live]")
    name = live.get_attribute("data-name")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".recording[data-live] .recording-details").text
         .startswith("Recording 0:0"), what="the live caption")
    action = live.find_element(By.CSS_SELECTOR, ".recording-action")
    assert action.text == "Recording" and not action.is_enabled(), "not fetchable while it records"
    assert not live.find_elements(By.CSS_SELECTOR, ".recording-delete")
    driver.save_screenshot(str(output / "first-hour-recording-live-390x844.png"))
    driver.find_element(By.ID, "record-stop").click()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".recording[data-live]")
         and action_text(d, name) == "Get", what="the saved file")
    details = driver.find_element(By.CSS_SELECTOR, f"{row(name)} .recording-details").text
    assert " · " in details and "KB" in details or "MB" in details, details
    shown = driver.execute_script("""
        const el = document.querySelector(arguments[0] + ' .recording-name');
        return [el.textContent, el.scrollWidth <= el.clientWidth, getComputedStyle(el).textOverflow];""", row(name))
    driver.save_screenshot(str(output / "first-hour-recordings-390x844.png"))
    assert shown[0] == name and shown[1] and shown[2] != "ellipsis", f"the whole name shows: {shown}"
    delete = driver.find_element(By.CSS_SELECTOR, f"{row(name)} .recording-delete")
    delete.click()
    assert delete.text == "Delete?", "a second tap confirms"
    delete.click()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, row(name)), what="the row gone")
    assert not (host.home / "Videos" / "TouchDeck" / name).exists()


def test_a_get_of_a_file_deleted_on_the_computer_ends_and_a_changed_file_is_fetched_again(host, browsers, output):
    for path in videos(host):
        path.unlink()
    for _ in range(2):
        host.cli("record", "start")
        time.sleep(1.2)  # a second apart: each file its own name
        host.cli("record", "stop")
    first, second = videos(host)
    browser = browsers()
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    open_recordings(driver)
    wait(driver, lambda d: action_text(d, second.name) == "Get", what="both files listed")
    first.unlink()
    driver.find_element(By.CSS_SELECTOR, f"{row(first.name)} .recording-action").click()
    toast = driver.find_element(By.ID, "toast")
    wait(driver, lambda d: toast.is_displayed() and "Could not get" in toast.text, what="the reason")
    wait(driver, lambda d: action_text(d, first.name) in (None, "Get"), what="the Get to end")
    driver.save_screenshot(str(output / "first-hour-get-deleted.png"))
    driver.find_element(By.CSS_SELECTOR, f"{row(second.name)} .recording-action").click()
    wait(driver, lambda d: action_text(d, second.name) == "Download", 30, "the other file fetched")
    # The file changes on the computer (same size, other bytes): the kept copy is let go.
    data = bytearray(second.read_bytes())
    data[-1] ^= 0xFF
    second.write_bytes(bytes(data))
    open_recordings(driver)
    wait(driver, lambda d: action_text(d, second.name) == "Get", what="Get again for the changed file")
