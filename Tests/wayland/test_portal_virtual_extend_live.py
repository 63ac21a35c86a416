"""Extend through the ScreenCast portal's virtual source type (PROTOCOL §6 "Extend"), as on KDE Plasma 6.5 and
later: the real daemon and the real xdg-desktop-portal, whose ScreenCast back-end is Tests/wayland/fake_virtual_portal.py
(`SWAY_FAKE_VIRTUAL=1 scripts/with-sway`): it advertises the virtual type and, as KDE does, makes a monitor of the size
the computer's user picks in its dialog (the file $TOUCHDECK_FAKE_VIRTUAL_CHOICE here) and keeps that size in the
session's restore data. No KWin runs here: sway stands in for it (a headless output, cast by xdg-desktop-portal-wlr).
The host does not see sway (WAYLAND_DISPLAY is a link in a folder without sway's IPC socket), so it Extends as on
KDE. What is checked: `displays` and `doctor` offer Extend; a monitor of another size than the device's is refused
with the size to pick, and its approval is not kept; a monitor of the device's size is streamed at that size; the
next Extend of that size asks nothing (the size's restore token), a turned device is asked once for its new size and
not again after, and the device hears `screenPending{approval}` exactly when the computer asks; the monitor goes when
viewing stops and when the host is killed. Skipped outside that harness."""

import asyncio
import json
import os
import pathlib
import signal
import time

import av
import pytest

from test_mutter_live import next_video
from livehelpers import Daemon, paired_device, run

pytestmark = pytest.mark.skipif("TOUCHDECK_FAKE_VIRTUAL" not in os.environ,
                                reason="needs SWAY_FAKE_VIRTUAL=1 scripts/with-sway")

LANDSCAPE = {"width": 1280, "height": 800, "scale": 2, "placement": "right"}
PORTRAIT = {**LANDSCAPE, "width": 800, "height": 1280}


def decisions():
    """What the portal back-end did: one record per virtual monitor made ("asked": whether its dialog showed) and
    per session closed."""
    lines = pathlib.Path(os.environ["TOUCHDECK_FAKE_VIRTUAL"]).read_text().splitlines()
    return [record for record in map(json.loads, lines) if record["event"] in ("virtual", "closed", "error")]


def pick(size):
    """The size the computer's user picks in the portal's dialog."""
    pathlib.Path(os.environ["TOUCHDECK_FAKE_VIRTUAL_CHOICE"]).write_text(size + "\n")


def closed_within(output, seconds, since):
    """Whether the back-end closed the session of `output` (after record `since`) within `seconds`."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if {"event": "closed", "output": output} in decisions()[since:]:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def host(tmp_path):
    pick("1920x1080")
    host = Daemon(home=tmp_path).start()
    yield host
    host.stop()


async def viewer(host, name="Tablet"):
    device, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    return device


async def extend(device, request):
    """The answer to an Extend, with "pending": whether `screenPending{approval}` came first (the computer asks)."""
    await device.send({"type": "startScreen", "displayId": 0, "maxSide": 3840, "fps": 30, "extend": request})
    pending = False
    while True:
        message = await device.recv(60)
        if isinstance(message, dict) and message["type"] == "screenPending":
            pending = pending or message["reason"] == "approval"
        if isinstance(message, dict) and message["type"] in ("screenStarted", "screenDenied"):
            return {**message, "pending": pending}


async def first_frame(device):
    decoder = av.CodecContext.create("h264", "r")
    keyed = False
    while True:
        packet = await next_video(device, timeout=30)
        keyed = keyed or packet.keyframe
        frames = decoder.decode(av.Packet(packet.frame)) if keyed else []
        if frames:
            return frames[0]


async def stop(device):
    await device.send({"type": "stopScreen"})
    await device.recv_type("screenStopped", timeout=60)


def test_the_portals_virtual_monitor_of_the_devices_size_is_streamed_and_each_size_is_approved_once(host):
    async def scenario():
        device = await viewer(host)
        await device.send({"type": "listDisplays"})
        displays = await device.recv_type("displays", timeout=30)
        # The user leaves the dialog at its default: a 1920x1080 monitor for a 1280x800 device.
        refused = await extend(device, LANDSCAPE)
        after_refusal = len(decisions())
        pick("1280x800")
        started = await extend(device, LANDSCAPE)
        landscape = await first_frame(device)
        await stop(device)
        made = decisions()[after_refusal]
        closed = await asyncio.to_thread(closed_within, made["output"], 5, after_refusal)
        # Asked again for the same size: the restore token answers; what the dialog would pick now does not matter.
        pick("1920x1080")
        again = await extend(device, LANDSCAPE)
        # The device turned: its new size is asked for once...
        pick("800x1280")
        turned = await extend(device, PORTRAIT)
        portrait = await first_frame(device)
        # ...and back and forth again, nothing is asked.
        back = await extend(device, LANDSCAPE)
        turned_again = await extend(device, PORTRAIT)
        await stop(device)
        await device.close()
        return displays, refused, started, landscape, closed, again, turned, portrait, back, turned_again

    displays, refused, started, landscape, closed, again, turned, portrait, back, turned_again = run(scenario())
    assert displays["extend"] == {"offered": True}, displays
    assert refused["type"] == "screenDenied" and refused["reason"] == "cannotExtend", refused
    assert refused["detail"] == ("the desktop made a 1920×1080 monitor for this 1280×800 device: choose a virtual "
                                 "screen of 1280×800 when the computer asks"), refused
    for message in (started, again, back):
        assert (message["type"], message["width"], message["height"]) == ("screenStarted", 1280, 800), message
    for message in (turned, turned_again):
        assert (message["type"], message["width"], message["height"]) == ("screenStarted", 800, 1280), message
    assert (landscape.width, landscape.height) == (1280, 800)
    assert (portrait.width, portrait.height) == (800, 1280)
    assert closed, decisions()
    made = [(record["width"], record["height"], record["asked"]) for record in decisions() if record["event"] == "virtual"]
    # The refused 1920x1080 one, then 1280x800 asked; again, restored; 800x1280 asked; then both restored.
    assert made == [(1920, 1080, True), (1280, 800, True), (1280, 800, False), (800, 1280, True), (1280, 800, False),
                    (800, 1280, False)], made
    assert not [record for record in decisions() if record["event"] == "error"], decisions()
    # The device is told the computer asks exactly when it does.
    answers = [refused, started, again, turned, back, turned_again]
    assert [answer["pending"] for answer in answers] == [True, True, False, True, False, False], answers
    doctor = host.cli("doctor", check=False)
    assert "offered: a virtual monitor made by the ScreenCast portal" in doctor, doctor


def test_a_killed_hosts_virtual_monitor_goes_with_its_portal_session(host):
    async def scenario():
        device = await viewer(host)
        pick("1280x800")
        return await extend(device, LANDSCAPE), len(decisions())

    started, count = run(scenario())
    assert started["type"] == "screenStarted", started
    made = decisions()[count - 1]
    assert made["event"] == "virtual", decisions()
    host.process.send_signal(signal.SIGKILL)
    host.process.wait()
    # The portal closes the sessions of a D-Bus peer that vanished, and with it the monitor.
    assert closed_within(made["output"], 5, count), decisions()
