"""Other Wayland desktops end to end: the real daemon on a private headless sway (run under scripts/with-sway) serves
the screen through the ScreenCast portal (xdg-desktop-portal-wlr, no dialog: chooser_type=none) and PipeWire. What
is checked: the display list from the compositor's outputs, the decoded keyframe against the GTK client's pattern
(PSNR-Y), the approval wait told to the device (`screenPending`) and no thumbnail before it, the monitor's restore
token kept 0600 in the config dir, a second viewing restoring the session, and `doctor`.
Skipped outside scripts/with-sway."""

import asyncio
import os

import av
import pytest

from test_mutter_live import HEIGHT, WIDTH, GTKClient, next_video, pattern_bgra
from h264check import luma, psnr, reference_luma
from livehelpers import Daemon, paired_device, run

pytestmark = pytest.mark.skipif("TOUCHDECK_SWAY_PID" not in os.environ, reason="needs scripts/with-sway")


@pytest.fixture
def host(tmp_path):
    host = Daemon(home=tmp_path, env={}).start()
    yield host
    host.stop()


@pytest.fixture
def client():
    # xdg-desktop-portal-wlr copies an output only once it is damaged: the client keeps a corner flipping.
    gtk = GTKClient(["--tick", "5"])
    yield gtk
    gtk.stop()


async def view_once(host, device):
    """Lists the displays, starts viewing and returns (display, the screen answers' types, screenStarted, the first
    video packet)."""
    await device.send({"type": "listDisplays"})
    displays = await device.recv_type("displays", timeout=30)
    assert displays["status"] == "ok", displays
    display = displays["displays"][0]
    await device.send({"type": "startScreen", "displayId": display["id"], "maxSide": WIDTH, "fps": 30})
    answers = []
    while not answers or answers[-1]["type"] == "screenPending":
        message = await device.recv(30)
        if isinstance(message, dict) and message["type"] in ("screenPending", "screenStarted", "screenDenied"):
            answers.append(message)
    assert answers[-1]["type"] == "screenStarted", answers
    first = await next_video(device, timeout=30)
    await device.send({"type": "stopScreen"})
    await device.recv_type("screenStopped", timeout=30)
    return display, answers[:-1], answers[-1], first


def test_the_portal_stream_shows_the_pattern_and_the_next_viewing_restores_the_session(host, client):
    async def scenario():
        device, _, _ = await paired_device(host, "Tablet")
        host.cli("devices", "allow-screen", "Tablet", "on")
        first = await view_once(host, device)
        second = await view_once(host, device)
        await device.close()
        return first, second

    (display, pending, started, packet), (approved, pending_again, _, again) = run(scenario())
    assert (display["name"], display["width"], display["height"]) == ("HEADLESS-1", WIDTH, HEIGHT)
    # Before the first approval the device is told it waits for the computer's user, and listing took no
    # picture (it would have asked the user); afterwards neither.
    assert pending == [{"type": "screenPending", "reason": "approval"}]
    assert "thumbnail" not in display, "a thumbnail before the user approved sharing"
    assert pending_again == []
    assert approved.get("thumbnail", "").startswith("data:image/jpeg;base64,")
    assert (started["width"], started["height"]) == (WIDTH, HEIGHT)
    assert packet.keyframe and again.keyframe
    frames = av.CodecContext.create("h264", "r").decode(av.Packet(packet.frame))
    quality = psnr(luma(frames[0].reformat(format="yuv420p")), reference_luma(pattern_bgra(), WIDTH, HEIGHT))
    print(f"PSNR-Y {quality:.1f} dB against the pattern through the portal")
    assert quality >= 35
    token = host.config_dir / "portal-restore-token-HEADLESS-1"  # one per monitor
    assert token.read_text().strip(), "no restore token kept"
    assert token.stat().st_mode & 0o777 == 0o600
    log = open(os.environ["TOUCHDECK_XDPW_LOG"]).read()
    assert log.count("restore data available") >= 1, "the second viewing did not restore the session"


def test_the_viewer_clicks_and_types_through_wlroots_virtual_devices(host, client):
    async def scenario():
        device, _, _ = await paired_device(host, "Tablet")
        host.cli("devices", "allow-screen", "Tablet", "on")
        await device.send({"type": "listDisplays"})
        display = (await device.recv_type("displays", timeout=30))["displays"][0]
        await device.send({"type": "startScreen", "displayId": display["id"], "maxSide": WIDTH, "fps": 30})
        await device.recv_type("screenStarted", timeout=30)
        await next_video(device, timeout=30)
        # The very first tap of the viewing, as a user makes it: it must arrive whole. The host creates its virtual
        # pointer when the viewing starts; one created by the tap itself reached the client after the press.
        mark = len(client.since(0))
        await device.send({"type": "pointer", "kind": "click", "x": 0.25, "y": 0.75})
        await device.send({"type": "typeText", "text": "é€한 ok", "enter": True})
        typed = await device.recv_type("typed", timeout=20)
        await asyncio.to_thread(client.wait, lambda e: e["event"] == "key-release" and e["keyval"] == 0xff0d, 20,
                                mark)
        await device.close()
        return mark, typed

    mark, typed = run(scenario())
    events = client.since(mark)
    assert typed == {"type": "typed", "ok": True}
    assert [(e["button"], e["x"], e["y"]) for e in events if e["event"] == "press"] == [(1, 320, 540)], events
    text = "".join(e["text"] for e in events if e["event"] == "key-press")
    assert text == "é€한 ok\r", events


def test_doctor_names_the_portal_back_end(host):
    doctor = host.cli("doctor", check=False)
    assert "ok   desktop: Wayland (desktop portal)" in doctor, doctor
    assert "ok   pointer and keys: wlroots' virtual pointer and virtual keyboard" in doctor, doctor
