"""The tray: the real host's StatusNotifierItem and dbusmenu menu, read by a test tray host (a
StatusNotifierWatcher on a private session bus, Tests/support/fake_tray_host.py) as a panel reads them, with a test
notification server beside it. "Pair a device…" shows a PIN that pairs the reference client, "Allow screen" flips
`touchdeck devices`, "Stop viewing" ends a live viewer, and the icon says while someone views."""

import json
import os
import select
import subprocess
import time

import pytest

from askdesk import AskingDesktop
from livehelpers import ROOT, DeckClient, run

TRAY_HOST = ROOT / "Tests/support/fake_tray_host.py"


class TrayHost:
    def __init__(self, bus_address):
        self.process = subprocess.Popen(["/usr/bin/python3", str(TRAY_HOST)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True,
                                        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": bus_address})
        assert self.read() == "ready", "the test tray host did not take its name"

    def read(self, timeout=10):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "the test tray host did not answer"
        return self.process.stdout.readline().strip()

    def ask(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.read())
        assert "error" not in answer, answer
        return answer

    def menu(self):
        return self.ask("layout")["menu"]

    def item(self, label, menu=None):
        for entry in menu if menu is not None else self.menu():
            if entry["label"] == label:
                return entry
        raise AssertionError(f"no {label!r} in the menu: {[e['label'] for e in (menu or self.menu())]}")

    def click(self, label, menu=None):
        self.ask(f"click {self.item(label, menu)['id']}")

    def stop(self):
        self.process.stdin.close()
        self.process.wait(10)


def eventually(check, what, timeout=10):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def desk(tmp_path):
    # The tray host first, as a panel runs before the session's apps: the host registers as it starts.
    from mprisbus import private_bus
    with private_bus() as address:
        tray = TrayHost(address)
        desk = AskingDesktop(tmp_path, bus=address)
        desk.tray = tray
        yield desk
        desk.stop()
        tray.stop()


def test_the_tray_pairs_allows_the_screen_stops_a_viewer_and_shows_who_views(desk):
    tray, host = desk.tray, desk.host
    assert tray.ask("registered")["items"] == [f"org.kde.StatusNotifierItem-{host.process.pid}-1"]
    menu = tray.menu()
    labels = [entry["label"] for entry in menu if entry["type"] != "separator"]
    assert labels == ["No device connected", "Pair a device…", "Start recording", "Open the deck in a browser",
                      "Quit"], labels
    assert tray.item("No device connected", menu)["enabled"] is False
    assert tray.ask("icon")["icon"] == "touchdeck-symbolic"

    tray.click("Pair a device…", menu)
    eventually(lambda: any("PIN" in n["summary"] for n in desk.notifications()), "the PIN notification")
    pin = next(n for n in desk.notifications() if "PIN" in n["summary"])["summary"].split()[-1]

    async def scenario():
        client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
        assert (await client.hello("Tray tablet"))["type"] == "needPairing"
        device_id, secret = await client.pair(pin)
        await client.authenticate(device_id, secret)
        await client.recv_type("layout")

        device = tray.item("Tray tablet")
        allow = next(child for child in device["children"] if child["label"] == "Allow screen")
        assert allow["toggle"] == 0 and [c["label"] for c in device["children"]] == ["Allow screen", "Revoke…"]
        tray.ask(f"click {allow['id']}")
        permission = await client.recv_type("screenPermission")
        screen = desk.screen("Tray tablet")

        await client.send({"type": "listDisplays"})
        displays = await client.recv_type("displays")
        await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 640})
        await client.recv_type("screenStarted", timeout=30)
        eventually(lambda: tray.ask("icon")["icon"] == "touchdeck-viewing-symbolic", "the viewing icon")
        status = tray.menu()[0]["label"]
        tray.click("Stop viewing")
        stopped = await client.recv_type("screenStopped")
        await client.close()
        return permission, screen, status, stopped

    permission, screen, status, stopped = run(scenario())
    assert permission == {"type": "screenPermission", "allowed": True}
    assert screen == "on"
    assert status == "1 device connected · Tray tablet views the screen"
    assert stopped["reason"] == "ended"
    eventually(lambda: tray.ask("icon")["icon"] == "touchdeck-symbolic", "the icon back")
    assert "Stop viewing" not in [entry["label"] for entry in tray.menu()]
    doctor = host.cli("doctor", check=False)
    assert "ok   tray: a tray host (StatusNotifierWatcher) shows TouchDeck's menu (in the running daemon)" in doctor, \
        doctor


def test_without_a_tray_host_nothing_breaks_and_doctor_says_so(tmp_path):
    desk = AskingDesktop(tmp_path)  # a session bus with a notification server, and no panel
    try:
        doctor = desk.host.cli("doctor", check=False)
        assert "ok   tray: no tray host (StatusNotifierWatcher) on the session bus" in doctor, doctor
        assert desk.host.pin()
    finally:
        desk.stop()
