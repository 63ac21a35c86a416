"""Recording from the web client (issue 13, DESIGN.md#recording) in headless Chromium against the real daemon recording
the Xvfb of `scripts/with-desktop`: a record key made in the edit sheet shows the recording's state on two devices at
once, the Recordings view pauses and resumes it, lists the saved file, fetches it in chunks and hands it to the
share sheet as a video/mp4 File whose bytes have the SHA-256 of the file on disk. Only the share sheet itself
(navigator.share/canShare) is replaced in the page."""

import hashlib
import os
import pathlib
import random
import sys
import threading
import time

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import choose_kind, fill, key, key_label, pair, save, tap, wait
from viewer import pair_as_viewer, start_viewing

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from xscreen import XImageAccess  # noqa: E402

SLOT = (0, 7)
CHUNK = 262144


def paint_noise(stop):
    """Random pixels on the desktop until `stop` is set: a recording no encoder can squeeze into one chunk."""
    access = XImageAccess(os.environ["DISPLAY"])
    rng = random.Random(13)
    while not stop.is_set():
        access.put(rng.randbytes(320 * 240 * 4), rng.randrange(0, 600), rng.randrange(0, 400), 320, 240)
        time.sleep(0.03)


def allow_screen(host, browser):
    device_id = browser.driver.execute_script("return localStorage.getItem('touchdeck.deviceId')")
    host.cli("devices", "allow-screen", device_id, "on")


def record_state(driver):
    return key(driver, *SLOT).get_attribute("data-record-state")


def key_caption(driver):
    return driver.execute_script("return arguments[0].querySelector('.record-status')?.textContent ?? ''",
                                 key(driver, *SLOT))


def open_recordings(driver):
    driver.find_element(By.CSS_SELECTOR, '.tabs [data-tab="recordings"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "recordings-view").is_displayed(), what="the Recordings view")


def videos(host):
    return sorted((host.home / "Videos" / "TouchDeck").glob("*.mp4"))


def seconds(caption):
    """'Recording 1:05' → 65."""
    minutes, secs = caption.split(" ")[-1].split(":")
    return int(minutes) * 60 + int(secs)


def test_a_record_key_shows_the_recording_on_two_devices(host, browsers, output):
    first, second = browsers(), browsers()
    for browser in (first, second):
        pair(browser, host)
        allow_screen(host, browser)
    driver = first.driver
    tap(driver, key(driver, *SLOT))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the add sheet")
    choose_kind(driver, "record")
    fill(driver, "edit-label", "Rec")
    Select(driver.find_element(By.ID, "edit-fps")).select_by_value("60")
    driver.save_screenshot(str(output / "record-edit-sheet.png"))
    save(driver)
    for browser in (first, second):
        wait(browser.driver, lambda d: key_label(d, *SLOT) == "Rec", what="the record key from the host")
        wait(browser.driver, lambda d: record_state(d) == "idle", what="an idle record key")
    assert key_caption(second.driver) == "Idle"

    tap(driver, key(driver, *SLOT))
    for browser in (first, second):
        wait(browser.driver, lambda d: record_state(d) == "recording", what="the recording state on both devices")
    # The elapsed time counts on the device between the host's messages.
    wait(second.driver, lambda d: seconds(key_caption(d)) >= 2, what="the elapsed time to count")
    assert key_caption(second.driver).startswith("Recording ")
    second.driver.save_screenshot(str(output / "record-key-recording.png"))

    other = second.driver
    open_recordings(other)
    other.find_element(By.ID, "record-pause").click()
    for browser in (first, second):
        wait(browser.driver, lambda d: record_state(d) == "paused", what="the paused state on both devices")
    paused_at = key_caption(driver)
    assert paused_at.startswith("Paused "), paused_at
    assert other.find_element(By.ID, "record-pause").text == "Resume"
    other.find_element(By.ID, "record-pause").click()
    wait(driver, lambda d: record_state(d) == "recording", what="recording again")

    tap(driver, key(driver, *SLOT))
    for browser in (first, second):
        wait(browser.driver, lambda d: record_state(d) == "idle", what="idle on both devices after the stop")
    assert len(videos(host)) == 1


@pytest.fixture(scope="module")
def noisy_recording(host):
    """A 3 s recording of a noisy screen (several chunks), made through `touchdeck record`: (path, SHA-256)."""
    stop = threading.Event()
    painter = threading.Thread(target=paint_noise, args=(stop,), daemon=True)
    painter.start()
    try:
        assert "Recording" in host.cli("record", "start")
        time.sleep(3)
        host.cli("record", "stop")
    finally:
        stop.set()
        painter.join(5)
    newest = max(videos(host), key=lambda p: p.stat().st_mtime)
    assert newest.stat().st_size > 3 * CHUNK, "the file should take several chunks"
    return newest, hashlib.sha256(newest.read_bytes()).hexdigest()


def listed(host, browsers, path):
    """A paired device allowed to view, on the Recordings view, with `path` in its list: (driver, row selector)."""
    browser = browsers()
    pair(browser, host)
    allow_screen(host, browser)
    driver = browser.driver
    open_recordings(driver)
    row = f'.recording[data-name="{path.name}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, row), what="the file in the list")
    return driver, row


# Only the share sheet is replaced: it records what it was given (or says it cannot share files).
FAKE_SHARE_SHEET = """
    window.sharedFile = null;
    Object.defineProperty(navigator, 'canShare', { configurable: true,
      value: (data) => arguments[0] && Array.isArray(data?.files) && data.files.every((f) => f instanceof File) });
    Object.defineProperty(navigator, 'share', { configurable: true, value: async (data) => {
      const file = data.files[0];
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
      window.sharedFile = { name: file.name, type: file.type, size: file.size,
        sha256: [...digest].map((b) => b.toString(16).padStart(2, '0')).join('') };
    } });
"""


def action_text(driver, row):
    return driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").text


def test_the_list_shows_the_file_and_the_share_sheet_gets_its_bytes(host, browsers, output, noisy_recording):
    path, digest = noisy_recording
    driver, row = listed(host, browsers, path)
    details = driver.find_element(By.CSS_SELECTOR, f"{row} .recording-details").text
    assert details.startswith("0:0") and " · " in details and "MB" in details, details
    assert driver.find_element(By.CSS_SELECTOR, f"{row} img.recording-thumb").get_attribute("src").startswith(
        "data:image/jpeg;base64,")
    driver.save_screenshot(str(output / "recordings-list.png"))
    driver.execute_script(FAKE_SHARE_SHEET, True)
    assert action_text(driver, row) == "Get"
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    wait(driver, lambda d: action_text(d, row) == "Share", timeout=60, what="the fetched file")
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    shared = wait(driver, lambda d: d.execute_script("return window.sharedFile"), what="navigator.share")
    assert shared == {"name": path.name, "type": "video/mp4", "size": path.stat().st_size, "sha256": digest}


def test_a_fetch_cut_by_a_reconnect_resumes_where_it_was(host, browsers, noisy_recording):
    path, digest = noisy_recording
    driver, row = listed(host, browsers, path)
    driver.execute_script(FAKE_SHARE_SHEET, True)
    # Watch what the device asks for, and drop the connection right after the first chunk arrives.
    driver.execute_script("""
        const client = window.touchdeck;
        window.asked = [];
        const send = client.send.bind(client);
        client.send = (message) => {
          if (message.type === 'fetchRecording') window.asked.push(message.offset);
          return send(message);
        };
        let dropped = false;
        client.addEventListener('recordingChunk', () => {
          if (!dropped) { dropped = true; client.socket.close(); }
        });
    """)
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    try:
        wait(driver, lambda d: action_text(d, row) == "Share", timeout=60, what="the fetched file after a reconnect")
    except Exception:
        print("DEBUG", driver.execute_script("return [window.asked, window.touchdeck.state, document.querySelector(arguments[0] + ' .recording-action').textContent]", row))
        raise
    asked = driver.execute_script("return window.asked")
    assert asked[:3] == [0, CHUNK, CHUNK], f"asked again from the bytes held, not from 0: {asked[:6]}"
    assert asked == sorted(asked) and asked.count(0) == 1, asked
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    shared = wait(driver, lambda d: d.execute_script("return window.sharedFile"), what="navigator.share")
    assert shared["sha256"] == digest and shared["size"] == path.stat().st_size


def test_without_a_share_sheet_for_files_it_downloads(host, browsers, noisy_recording, tmp_path):
    path, digest = noisy_recording
    driver, row = listed(host, browsers, path)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    driver.execute_script(FAKE_SHARE_SHEET, False)
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    wait(driver, lambda d: action_text(d, row) == "Download", timeout=60, what="the fetched file")
    driver.find_element(By.CSS_SELECTOR, f"{row} .recording-action").click()
    saved = tmp_path / path.name
    wait(driver, lambda d: saved.exists() and saved.stat().st_size == path.stat().st_size, what="the download")
    assert hashlib.sha256(saved.read_bytes()).hexdigest() == digest
    assert driver.execute_script("return window.sharedFile") is None


def test_the_viewer_toolbar_records_the_monitor_being_viewed(host, browsers):
    browser = browsers()
    pair_as_viewer(browser, host, "Toolbar viewer")
    driver = browser.driver
    driver.execute_script("""
        window.recordStates = [];
        window.touchdeck.addEventListener('recordState', ({ detail }) => window.recordStates.push(detail));
    """)
    record = driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="record"]')
    assert not record.is_displayed(), "the record tool shows only while viewing"
    start_viewing(driver)
    before = set(videos(host))
    wait(driver, lambda d: record.is_displayed(), what="the record tool while viewing")
    record.click()
    wait(driver, lambda d: record.get_attribute("data-record-state") == "recording", what="recording from the toolbar")
    wait(driver, lambda d: record.text.startswith("Recording "), what="the elapsed time on the tool")
    assert record.get_attribute("aria-pressed") == "true"
    viewed = driver.execute_script("return window.touchdeckViewer.core.session.displayId")
    started = driver.execute_script("return window.recordStates.find((s) => s.state === 'recording')")
    assert started["displayId"] == viewed, (started, viewed)
    record.click()
    wait(driver, lambda d: record.get_attribute("data-record-state") == "idle", what="stopped from the toolbar")
    assert record.text == "Record"
    assert len(set(videos(host)) - before) == 1
