"""Browser tests: headless Chromium (selenium) against the real daemon, under the Xvfb and PulseAudio that
`scripts/with-desktop` starts for `make test-py`."""

import os
import pathlib
import sys

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from daemon import Daemon, ROOT  # noqa: E402

OUTPUT = ROOT / "test-output" / "browser"
KOREAN_APP = "touchdeck-test-calc.desktop"
MANY_APPS = 180


def write_apps(home):
    """A Korean-named app whose launch is recorded, so the picker and the press path can be checked."""
    apps = home / ".local/share/applications"
    apps.mkdir(parents=True, exist_ok=True)
    recorder = home / "record-launch.sh"
    recorder.write_text(f"#!/bin/sh\necho launched >> {home}/launched.txt\n")
    recorder.chmod(0o755)
    (apps / KOREAN_APP).write_text(
        "[Desktop Entry]\nType=Application\nName=Test Calculator\nName[ko]=테스트 계산기\n"
        f"Exec={recorder}\nIcon=accessories-calculator\n")
    # Enough apps that the picker must render only the rows in view (SPEC §6: 150+ apps).
    for n in range(MANY_APPS):
        (apps / f"touchdeck-filler-{n:03}.desktop").write_text(
            f"[Desktop Entry]\nType=Application\nName=Filler {n:03}\nExec=/bin/true\n")


@pytest.fixture(scope="module")
def host():
    for name in ("DISPLAY", "PULSE_SERVER"):
        assert os.environ.get(name), f"{name} is not set: run the browser tests under scripts/with-desktop"
    daemon = Daemon(env={"LANG": "ko_KR.UTF-8", "LC_ALL": ""})
    write_apps(daemon.home)
    daemon.start()
    yield daemon
    daemon.stop()


class Browser:
    """One Chromium with its own profile (its own localStorage: its own paired device)."""

    def __init__(self, width=1194, height=834):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--ignore-certificate-errors", "--disable-gpu",
                    f"--window-size={width},{height}", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.console = []

    def drain_console(self):
        self.console += self.driver.get_log("browser")
        return [entry for entry in self.console if entry["level"] == "SEVERE"]

    def quit(self):
        self.driver.quit()


@pytest.fixture
def browsers():
    """Makes browsers; at the end checks that none logged a console error."""
    made = []

    def make(**kw):
        browser = Browser(**kw)
        made.append(browser)
        return browser

    yield make
    errors = []
    for browser in made:
        errors += browser.drain_console()
        browser.quit()
    assert not errors, f"console errors: {errors}"


@pytest.fixture(scope="session")
def output():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
