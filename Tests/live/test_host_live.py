"""Pairing, authentication, the shared layout, revocation and the pages, against the real daemon."""

import json
import os
import re
import subprocess
import time

import pytest

from livehelpers import closed_code, paired_device, reconnect, run
from touchdeck.client import DeckClient, Unauthorized

BLOG = {"label": "Blog", "kind": "command", "command": "blogrun"}


def test_edit_reaches_every_authorized_device_and_revoke_ends_a_device(daemon):
    async def scenario():
        first, _, _ = await paired_device(daemon, "Tablet")
        second, second_id, second_secret = await paired_device(daemon, "Phone")
        outsider = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        await outsider.hello("Outsider")

        await first.send({"type": "setButton", "page": 0, "index": 3, "button": BLOG})
        for client in (first, second):
            layout = await client.recv_type("layout")
            assert layout["pages"][0][3] == BLOG
            assert len(layout["pages"]) == 2 and all(slot is None for slot in layout["pages"][1])
        with pytest.raises(TimeoutError):
            await outsider.recv_type("layout", timeout=1)

        await second.send({"type": "moveButton", "fromPage": 0, "fromIndex": 3, "toPage": 0, "toIndex": 0})
        assert (await first.recv_type("layout"))["pages"][0][0] == BLOG

        listing = daemon.cli("devices")
        assert "Tablet" in listing and "Phone" in listing and "connected now" in listing
        daemon.cli("devices", "revoke", "Phone")
        assert await closed_code(second) is not None
        again = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        assert (await again.hello("Phone", device_id=second_id))["type"] == "needPairing"
        with pytest.raises(Unauthorized) as refused:
            await again.authenticate(second_id, second_secret)
        assert refused.value.message["reason"] == "unknownDevice"
        assert "Phone" not in daemon.cli("devices")

        await first.send({"type": "press", "page": 0, "index": 5})
        result = await first.recv_type("pressResult")
        assert result == {"type": "pressResult", "page": 0, "index": 5, "ok": False, "reason": "empty slot"}
        for client in (first, again, outsider):
            await client.close()

    run(scenario())


def test_layout_and_devices_survive_a_restart(daemon):
    async def before():
        client, device_id, secret = await paired_device(daemon, "Tablet")
        await client.send({"type": "setButton", "page": 0, "index": 7, "button": BLOG})
        await client.recv_type("layout")
        await client.close()
        return device_id, secret

    device_id, secret = run(before())
    daemon.stop()
    daemon.start()

    async def after():
        client, layout = await reconnect(daemon, device_id, secret, wss=True)
        assert layout["pages"][0][7] == BLOG
        await client.close()

    run(after())
    mode = os.stat(daemon.config_dir / "devices.json").st_mode & 0o777
    assert mode == 0o600
    assert "secret" not in (daemon.config_dir / "config.json").read_text()


def test_older_device_is_listed_as_needing_an_update(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Old iPad", protocol=1)
        status = daemon.cli("status")
        assert re.search(r"Old iPad \(app update needed\)", status), status
        await client.close()

    run(scenario())


def test_a_device_asking_to_pair_notifies_once_with_a_working_pin(tmp_path):
    from livehelpers import Daemon

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "notifications.txt"
    fake = bin_dir / "notify-send"
    fake.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> {record}\n")
    fake.chmod(0o755)
    host = Daemon(home=tmp_path / "home", env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    host.start()
    try:
        async def scenario():
            client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
            await client.hello("Kitchen tablet")
            other = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
            await other.hello("Kitchen tablet")
            pin = None
            for _ in range(100):
                if record.exists() and (pin := re.search(r"PIN (\d{6})", record.read_text())):
                    break
                time.sleep(0.05)
            assert pin, "no notification"
            device_id, secret = await client.pair(pin.group(1))
            await client.authenticate(device_id, secret)
            await client.close()
            await other.close()
            return pin.group(1)

        pin = run(scenario())
        lines = record.read_text().splitlines()
        assert len(lines) == 1 and "Kitchen tablet" in lines[0]
        assert pin not in host.log()
    finally:
        host.stop()


def test_setup_page_and_https_app_load(daemon):
    def curl(*args):
        return subprocess.run(["curl", "-sS", "--max-time", "10", *args], capture_output=True, text=True, check=True).stdout

    setup = curl(f"http://127.0.0.1:{daemon.port}/setup")
    assert "Set up TouchDeck" in setup and "touchdeck.mobileconfig" in setup and "<svg" in setup
    assert curl(f"http://127.0.0.1:{daemon.port}/ca.crt").startswith("-----BEGIN CERTIFICATE-----")
    profile = curl(f"http://127.0.0.1:{daemon.port}/touchdeck.mobileconfig")
    assert "com.apple.security.root" in profile
    app = curl("-k", f"https://127.0.0.1:{daemon.port}/")
    assert "<html" in app.lower()
    ca = daemon.config_dir / "tls" / "ca.pem"
    verified = curl("--cacert", str(ca), "--resolve", f"localhost:{daemon.port}:127.0.0.1",
                    f"https://localhost:{daemon.port}/")
    assert verified == app


def test_cli_refuses_clearly_without_a_daemon(tmp_path):
    from livehelpers import BINARY

    done = subprocess.run([str(BINARY), "pair", "--config-dir", str(tmp_path / "none")], capture_output=True, text=True)
    assert done.returncode == 1
    assert "not running" in done.stderr
    done = subprocess.run([str(BINARY), "devices", "allow-screen", "x"], capture_output=True, text=True)
    assert done.returncode == 64 and "allow-screen NAME on|off" in done.stderr


def test_allow_screen_is_saved_per_device(daemon):
    async def scenario():
        client, device_id, _ = await paired_device(daemon, "Tablet")
        daemon.cli("devices", "allow-screen", "Tablet", "on")
        saved = json.loads((daemon.config_dir / "devices.json").read_text())
        assert [d["screenAllowed"] for d in saved["devices"] if d["id"] == device_id] == [True]
        daemon.cli("devices", "allow-screen", "Tablet", "off")
        saved = json.loads((daemon.config_dir / "devices.json").read_text())
        assert [d["screenAllowed"] for d in saved["devices"] if d["id"] == device_id] == [False]
        await client.close()

    run(scenario())


def test_a_device_that_may_not_edit_is_refused_every_edit_and_can_still_press(daemon):
    # Screen permission meant nothing while any device could write a command key and read its output back.
    async def scenario():
        owner, _, _ = await paired_device(daemon, "Owner tablet")
        guest, _, _ = await paired_device(daemon, "Guest phone")
        await owner.send({"type": "setButton", "page": 0, "index": 0, "button": BLOG})
        await owner.recv_type("layout")
        await guest.recv_type("layout")
        listing = daemon.cli("devices", "allow-edit", "Guest phone", "off")
        assert "Deck editing denied for Guest phone" in listing
        assert await guest.recv_type("editPermission", timeout=10) == {"type": "editPermission", "allowed": False}
        snoop = {"label": "ls", "kind": "command", "command": "ls ~/Videos/TouchDeck"}
        edits = [{"type": "setButton", "page": 0, "index": 1, "button": snoop},
                 {"type": "setButton", "page": 0, "index": 0, "button": snoop},
                 {"type": "clearButton", "page": 0, "index": 0},
                 {"type": "moveButton", "fromPage": 0, "fromIndex": 0, "toPage": 0, "toIndex": 5}]
        for edit in edits:
            await guest.send(edit)
            refused = await guest.recv_type("error", timeout=10)
            assert refused["code"] == "notAllowed" and refused["request"] == edit["type"], refused
            assert 'touchdeck devices allow-edit "Guest phone" on' in refused["message"], refused
        layout = daemon.saved_layout()["pages"][0]
        assert layout[0] == BLOG and layout[1] is None and layout[5] is None
        # Pressing the owner's keys still works.
        await guest.send({"type": "press", "page": 0, "index": 0})
        assert (await guest.recv_type("pressResult", timeout=15))["index"] == 0
        daemon.cli("devices", "allow-edit", "Guest phone", "on")
        assert (await guest.recv_type("editPermission", timeout=10))["allowed"] is True
        await guest.send({"type": "clearButton", "page": 0, "index": 0})
        assert (await guest.recv_type("layout", timeout=10))["pages"][0][0] is None
        await owner.close()
        await guest.close()

    run(scenario())
