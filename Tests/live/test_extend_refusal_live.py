"""Extend where the desktop cannot add a monitor (PROTOCOL §6 "Extend"): on the private Xvfb the real daemon lists
the monitors with `extend` not offered and the reason, refuses `startScreen{extend}` with `cannotExtend` and that
reason (after access: a device not allowed still hears `notAllowed` only), keeps serving the device, and `touchdeck
doctor` says why Extend is not offered."""

import pytest

from livehelpers import Daemon, paired_device, run

REASON = ("this X server has no free output to add a monitor to (Xvfb cannot; Xorg with modesetting, amdgpu, intel or "
          "the dummy driver can)")
IPAD = {"width": 2388, "height": 1668, "scale": 2, "placement": "right"}


@pytest.fixture
def host(tmp_path):
    host = Daemon(home=tmp_path).start()
    yield host
    host.stop()


def test_xvfb_does_not_offer_extend_and_says_why(host):
    async def scenario():
        device, _, _ = await paired_device(host, "Tablet")
        await device.send({"type": "startScreen", "displayId": 0, "maxSide": 2388, "extend": IPAD})
        not_allowed = await device.recv_type("screenDenied", timeout=20)
        host.cli("devices", "allow-screen", "Tablet", "on")
        await device.send({"type": "listDisplays"})
        displays = await device.recv_type("displays", timeout=20)
        await device.send({"type": "startScreen", "displayId": 0, "maxSide": 2388, "extend": IPAD})
        refused = await device.recv_type("screenDenied", timeout=20)
        # The host still serves the device: a real monitor starts.
        await device.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 640})
        started = await device.recv_type("screenStarted", timeout=20)
        await device.send({"type": "stopScreen"})
        await device.recv_type("screenStopped", timeout=20)
        await device.close()
        return not_allowed, displays, refused, started

    not_allowed, displays, refused, started = run(scenario())
    assert not_allowed == {"type": "screenDenied", "reason": "notAllowed"}
    assert displays["status"] == "ok" and displays["displays"]
    assert displays["extend"] == {"offered": False, "reason": REASON}
    assert refused == {"type": "screenDenied", "reason": "cannotExtend", "detail": REASON}
    assert started["width"] > 0
    doctor = host.cli("doctor", check=False)
    assert f"extend: not offered: {REASON}" in doctor, doctor
