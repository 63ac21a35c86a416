"""The tray: the real host's StatusNotifierItem and dbusmenu menu, read by a test tray host (a
StatusNotifierWatcher on a private session bus, Tests/support/fake_tray_host.py) as a panel reads them, with a test
notification server beside it. "Pair a device…" shows a PIN that pairs the reference client and the setup link's
QR code, "Allow screen" flips `touchdeck devices`, "Stop viewing" ends a live viewer, and the icon says while someone
views; "Revoke…" asks first, recording starts and stops from the menu, "Open the deck" runs xdg-open with the
address, and "Quit" ends the daemon cleanly."""

import io
import json
import os
import pathlib
import re
import select
import stat
import subprocess
import time

import pytest

from askdesk import AskingDesktop
from livehelpers import ROOT, DeckClient, closed_code, paired_device, run
from touchdeck.client import Unauthorized

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
    # A test xdg-open first on the daemon's PATH: it writes its arguments, one JSON list a line, to desk.opened.
    tools = tmp_path / "bin"
    tools.mkdir()
    opened = tmp_path / "xdg-open.jsonl"
    (tools / "xdg-open").write_text("#!/usr/bin/python3\nimport json, sys\n"
                                    f"open({str(opened)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    (tools / "xdg-open").chmod(0o755)
    with private_bus() as address:
        tray = TrayHost(address)
        desk = AskingDesktop(tmp_path, bus=address, env={"PATH": f"{tools}:{os.environ['PATH']}"})
        desk.tray = tray
        desk.opened = opened
        yield desk
        desk.stop()
        tray.stop()


def check_pairing_qr(shown, host):
    """The pairing notification: the setup page's link and the app's address in the body, and its QR code as a
    PNG (mode 0600, in the runtime dir) named by the "image-path" hint: a square image of sensible size, black on
    white, pixel for pixel the code qrencode makes of that link (the encoding is deterministic)."""
    from PIL import Image, ImageChops

    said = host.cli("status")  # not `pair`: a new PIN would replace the one shown
    url = re.search(r"^TouchDeck on .* — (\S+)$", said, re.M).group(1)
    setup = re.search(r"^Setup page for a new device: (\S+)$", said, re.M).group(1)
    assert setup.startswith("http://") and setup.endswith("/setup"), setup
    assert setup in shown["body"] and url in shown["body"], shown["body"]
    assert shown["image"] and shown["image"].startswith("file:///"), shown
    path = pathlib.Path(shown["image"][len("file://"):])
    assert path.parent == host.home / "run", path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    image = Image.open(path)
    assert image.format == "PNG"
    assert image.width == image.height and 150 <= image.width <= 1200, image.size
    rgba = image.convert("RGBA")
    assert rgba.getchannel("A").getextrema() == (255, 255), "opaque: readable on a dark notification too"
    grey = rgba.convert("L")
    assert grey.getextrema() == (0, 255) and sum(grey.histogram()[1:255]) == 0, "black modules on white"
    assert grey.getpixel((0, 0)) == 255 and grey.getpixel((16, 16)) == 0, "a quiet zone, then the finder pattern"
    made = subprocess.run(["qrencode", "-t", "PNG", "-m", "2", "-s", "8", "-o", "-", setup], capture_output=True,
                          check=True, timeout=20).stdout
    expected = Image.open(io.BytesIO(made)).convert("RGBA").convert("L")
    assert expected.size == grey.size and ImageChops.difference(expected, grey).getbbox() is None, \
        "the code is the setup link's"


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
    shown = next(n for n in desk.notifications() if "PIN" in n["summary"])
    pin = shown["summary"].split()[-1]
    check_pairing_qr(shown, host)

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


def revoke_item(tray, name):
    device = tray.item(name)
    return next(child for child in device["children"] if child["label"] == "Revoke…")


def test_revoke_asks_first_keep_keeps_the_device_and_revoke_refuses_it(desk):
    tray, host = desk.tray, desk.host

    async def scenario():
        client, device_id, secret = await paired_device(host, "Revoked tablet")
        desk.answer("keep")
        tray.ask(f"click {revoke_item(tray, 'Revoked tablet')['id']}")
        eventually(lambda: "answered Keep: the device stays" in host.log(), "the Keep answer handled")
        await client.send({"type": "listDisplays"})
        kept = await client.recv_type("displays")  # still connected and answered
        listed = host.cli("devices")

        desk.answer("revoke")
        tray.ask(f"click {revoke_item(tray, 'Revoked tablet')['id']}")
        code = await closed_code(client)
        again = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
        assert (await again.hello("Revoked tablet", device_id=device_id))["type"] == "needPairing"
        with pytest.raises(Unauthorized) as refused:
            await again.authenticate(device_id, secret)
        await again.close()
        return kept, listed, code, refused.value.message

    kept, listed, code, refusal = run(scenario())
    assert kept["type"] == "displays"
    assert "Revoked tablet" in listed, "Keep keeps the device"
    assert code is not None, "the revoked device's connection is closed"
    assert refusal["reason"] == "unknownDevice"
    assert "Revoked tablet" not in host.cli("devices")
    assert "Revoked tablet" not in [entry["label"] for entry in tray.menu()]
    keep, revoke = desk.questions()
    for question in (keep, revoke):
        assert question["summary"] == "TouchDeck: revoke Revoked tablet?", question
        assert question["actions"] == ["revoke", "Revoke", "keep", "Keep"], question


def test_recording_starts_and_stops_from_the_tray_with_its_icon(desk):
    tray, host = desk.tray, desk.host
    folder = host.home / "Videos" / "TouchDeck"
    tray.click("Start recording")
    eventually(lambda: tray.ask("icon")["icon"] == "touchdeck-recording-symbolic", "the recording icon", timeout=30)
    menu = tray.menu()
    assert menu[0]["label"] == "No device connected · recording"
    assert "Start recording" not in [entry["label"] for entry in menu]
    # Stop while it starts would abort the start; the file appears once it records.
    eventually(lambda: list(folder.glob("*.mp4")), "the recording's file", timeout=30)
    tray.click("Stop recording", menu)
    eventually(lambda: tray.ask("icon")["icon"] == "touchdeck-symbolic", "the icon back", timeout=30)
    assert "Start recording" in [entry["label"] for entry in tray.menu()]
    # The icon turns back at the stop; the file closes after it, off the host's actor ("recording saved").
    eventually(lambda: "recording saved" in host.log(), "the file closed", timeout=30)
    [recording] = folder.glob("*.mp4")
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(recording)],
                           capture_output=True, text=True, timeout=30)
    assert probe.returncode == 0, probe.stderr
    assert [s["codec_type"] for s in json.loads(probe.stdout)["streams"]][:1] == ["video"], probe.stdout
    assert "not recording" not in [n["summary"] for n in desk.notifications()]


def test_open_the_deck_runs_xdg_open_with_the_address(desk):
    tray, host = desk.tray, desk.host
    tray.click("Open the deck in a browser")
    eventually(lambda: desk.opened.exists() and desk.opened.read_text().endswith("\n"), "xdg-open to run")
    [arguments] = [json.loads(line) for line in desk.opened.read_text().splitlines()]
    url = re.search(r"open (\S+) and enter the PIN", host.cli("pair")).group(1)
    assert arguments == [url], arguments
    assert url.startswith("https://") and url.endswith(f":{host.port}/"), url


def control_socket(host):
    """The daemon's control socket: in its config dir, or (a long path) in a private folder of the runtime dir."""
    sockets = [host.config_dir / "control.sock", *(host.home / "run").glob("touchdeck-*/*.sock")]
    return [path for path in sockets if path.is_socket()]


def test_quit_ends_the_daemon_cleanly_and_takes_its_control_socket(desk):
    tray, host = desk.tray, desk.host
    [socket_path] = control_socket(host)
    process = host.process
    tray.click("Quit")
    assert process.wait(20) == 0, host.log()
    assert not socket_path.exists() and control_socket(host) == []
    assert "quit from the tray" in host.log()


def test_without_a_tray_host_nothing_breaks_and_doctor_says_so(tmp_path):
    desk = AskingDesktop(tmp_path)  # a session bus with a notification server, and no panel
    try:
        doctor = desk.host.cli("doctor", check=False)
        assert "ok   tray: no tray host (StatusNotifierWatcher) on the session bus" in doctor, doctor
        assert desk.host.pin()
    finally:
        desk.stop()
