"""Decks that follow the focused app on sway (PROTOCOL §6 "Profiles"): the real daemon on a private headless sway
(scripts/with-sway) hears sway's IPC window events. A device that follows the shared profile is sent the profile
whose apps name the focused window's app id, and the shared one again when another window gets the focus, when the
focus comes back, and when the focused window closes; `doctor` says how the focus is followed. Skipped outside
scripts/with-sway."""

import json
import os
import subprocess

import pytest

import test_mutter_live
from livehelpers import Daemon, paired_device, run

pytestmark = pytest.mark.skipif("TOUCHDECK_SWAY_PID" not in os.environ or "TOUCHDECK_MUTTER_PID" in os.environ,
                                reason="needs scripts/with-sway")


def sway_socket():
    folder = os.path.dirname(os.environ["WAYLAND_DISPLAY"])
    return next(os.path.join(folder, name) for name in os.listdir(folder) if name.startswith("sway-ipc."))


def window(tmp_path, app_id):
    """A GTK window whose app id is `app_id` (GTK names it after the program: a link of that name to the pattern
    client); sway focuses a new window when it maps."""
    link = tmp_path / app_id
    link.symlink_to(test_mutter_live.CLIENT)
    program = test_mutter_live.CLIENT
    test_mutter_live.CLIENT = link
    try:
        return test_mutter_live.GTKClient()
    finally:
        test_mutter_live.CLIENT = program


def test_a_following_device_shows_the_profile_of_the_focused_app_id(tmp_path):
    daemon = Daemon(home=tmp_path / "home", env={}).start()
    windows = []

    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        await tablet.send({"type": "addProfile", "name": "Editing"})
        while "Editing" not in (await tablet.recv_type("profiles"))["names"]:
            pass
        daemon.cli("profile", "apps", "Editing", "add", "focusapp")

        windows.append(window(tmp_path, "focusapp"))
        assert (await tablet.recv_type("layout", timeout=30))["profile"] == "Editing"
        windows.append(window(tmp_path, "otherapp"))
        assert (await tablet.recv_type("layout", timeout=30))["profile"] == "Default", "back to the one it was on"

        doctor = daemon.cli("doctor", check=False)
        assert "ok   focused app: sway's IPC window events" in doctor, doctor
        done = subprocess.run(["swaymsg", "-s", sway_socket(), '[app_id="focusapp"] focus'], capture_output=True,
                              text=True, timeout=10)
        assert done.returncode == 0, done
        assert (await tablet.recv_type("layout"))["profile"] == "Editing"
        windows.pop(0).stop()  # the focused window closes; sway focuses the other one
        assert (await tablet.recv_type("layout"))["profile"] == "Default"
        await tablet.close()

    try:
        run(scenario())
    finally:
        for gtk in windows:
            gtk.stop()
        daemon.stop()
    config = json.loads((daemon.config_dir / "config.json").read_text())
    assert config["currentProfile"] == "Default"
    assert "decks do not follow the focused app" not in daemon.log()
