"""Browser tests: headless Chromium (selenium) against the real daemon, under the Xvfb and PulseAudio that
`scripts/with-desktop` starts for `make test-py`."""

import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from chromium import ChromiumPool  # noqa: E402
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
    # Enough apps that the picker must render only the rows in view (DESIGN.md#client: 150+ apps).
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


@pytest.fixture(scope="session")
def chromium_pool():
    """Chromium processes the tests' browsers share (chromium.ChromiumPool): each browser is a fresh browser context
    in one of them, as a fresh profile was, without starting Chromium for every test."""
    pool = ChromiumPool()
    yield pool
    pool.close()


@pytest.fixture
def browsers(chromium_pool):
    """Makes browsers (each its own profile: its own device); at the end checks that none logged a console error."""
    made = []

    def make(width=1194, height=834):
        browser = chromium_pool.browser(width, height)
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
