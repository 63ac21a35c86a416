"""Device names, labels, the control socket's private directory, the config dir's mode and repeated log
lines, against the real daemon and CLI (issue 9 §4, §5)."""

import json
import os
import re
import stat
import subprocess

import pytest

from livehelpers import BINARY, Daemon, paired_device, run
from touchdeck.client import DeckClient, PairingFailed

RLO = "\u202e"


def names(listing):
    """The NAME column of `touchdeck devices`."""
    rows = listing.strip().splitlines()
    header = next(i for i, row in enumerate(rows) if row.startswith("NAME  "))
    table = rows[header + 1:]
    table = table[:table.index("")] if "" in table else table
    return sorted(re.split(r"\s{2,}", row)[0] for row in table)


def test_two_ipads_get_their_own_names_and_one_can_be_revoked_by_name(daemon):
    async def scenario():
        first, _, _ = await paired_device(daemon, "iPad")
        second, _, _ = await paired_device(daemon, "iPad")
        third, _, _ = await paired_device(daemon, "ipad")
        assert names(daemon.cli("devices")) == ["iPad", "iPad 2", "ipad 3"]
        out = daemon.cli("devices", "revoke", "iPad 2")
        assert out.startswith("Revoked iPad 2;")
        assert names(daemon.cli("devices")) == ["iPad", "ipad 3"]
        for client in (first, second, third):
            await client.close()

    run(scenario())


def test_rename_cleans_refuses_a_taken_name_and_survives_a_restart(daemon):
    async def scenario():
        for name in ("iPad", "Phone"):
            client, _, _ = await paired_device(daemon, name)
            await client.close()

    run(scenario())
    daemon.cli("devices", "allow-screen", "iPad", "on")
    out = daemon.cli("devices", "rename", "iPad", f"  Living{RLO} room ")
    assert out.splitlines()[0] == "Renamed iPad to Living room."
    assert names(out) == ["Living room", "Phone"]

    taken = subprocess.run([str(BINARY), "devices", "rename", "Living room", "PHONE", "--config-dir",
                            str(daemon.config_dir)], env=daemon.env, capture_output=True, text=True, timeout=20)
    assert taken.returncode == 1
    assert "another device is already called Phone" in taken.stderr

    usage = subprocess.run([str(BINARY), "devices", "rename", "Phone"], capture_output=True, text=True, timeout=20)
    assert usage.returncode == 64 and "rename NAME NEW-NAME" in usage.stderr

    daemon.stop()
    saved = json.loads((daemon.config_dir / "devices.json").read_text())
    assert sorted(device["name"] for device in saved["devices"]) == ["Living room", "Phone"]
    assert {d["name"]: d["screenAllowed"] for d in saved["devices"]} == {"Living room": True, "Phone": False}, \
        "renaming keeps the screen permission"
    daemon.start()
    assert names(daemon.cli("devices")) == ["Living room", "Phone"]


def test_bidi_and_control_characters_never_reach_the_notification_the_cli_or_other_devices(tmp_path):
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
            stranger = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
            await stranger.hello(f"evil{RLO}gpj.exe\x1b[2J")
            editor, _, _ = await paired_device(host, f"\u2066Tablet\u2069{RLO}\x07")
            viewer, _, _ = await paired_device(host, "Phone")
            await editor.send({"type": "setButton", "page": 0, "index": 0,
                               "button": {"label": f"{RLO}Blog\x08", "kind": "command", "command": "blogrun"}})
            layout = await viewer.recv_type("layout")
            assert layout["pages"][0][0]["label"] == "Blog"
            for client in (stranger, editor, viewer):
                await client.close()

        run(scenario())
        listing = host.cli("devices")
        assert names(listing) == ["Phone", "Tablet"]
        assert RLO not in listing and "\x07" not in listing
        notes = record.read_text()
        assert "evilgpj.exe[2J wants to pair" in notes
        assert RLO not in notes and "\x1b" not in notes
        assert RLO not in host.log()
    finally:
        host.stop()


def long_config_dir(home):
    """A config dir whose socket path is too long for a Unix socket, so the private directory is used."""
    return home / ("c" * 110)


def test_the_socket_outside_the_config_dir_is_in_a_private_directory_the_daemon_creates(tmp_path):
    host = Daemon(home=tmp_path)
    host.config_dir = long_config_dir(tmp_path)
    host.start()
    try:
        private = tmp_path / "run" / f"touchdeck-{os.getuid()}"
        info = os.lstat(private)
        assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid()
        assert [p.suffix for p in private.iterdir()] == [".sock"]
        assert re.search(r"\b\d{6}\b", host.cli("pair"))

        # Opened to others while the daemon runs: the CLI no longer believes what answers there.
        private.chmod(0o755)
        done = subprocess.run([str(BINARY), "pair", "--config-dir", str(host.config_dir)], env=host.env,
                              capture_output=True, text=True, timeout=20)
        assert done.returncode == 1 and done.stdout == ""
        assert f"refusing the control socket directory {private}: its mode is 755, not 700" in done.stderr
    finally:
        host.stop()


@pytest.mark.parametrize("owner, mode, reason", [
    (None, 0o777, "its mode is 777, not 700"),
    (65534, 0o700, "it belongs to uid 65534, not to you"),
])
def test_a_squatted_private_directory_is_refused_by_daemon_and_cli(tmp_path, owner, mode, reason):
    if owner is not None and os.getuid() != 0:
        pytest.skip("only root can give a directory to another user")
    private = tmp_path / "run" / f"touchdeck-{os.getuid()}"
    private.mkdir(parents=True)
    private.chmod(mode)
    if owner is not None:
        os.chown(private, owner, owner)
    host = Daemon(home=tmp_path)
    host.config_dir = long_config_dir(tmp_path)
    served = subprocess.run([str(BINARY), "serve", "--port", str(host.port), "--config-dir", str(host.config_dir)],
                            env=host.env, capture_output=True, text=True, timeout=30)
    assert served.returncode == 1
    assert f"refusing the control socket directory {private}: {reason}" in served.stderr
    assert list(private.iterdir()) == []

    done = subprocess.run([str(BINARY), "status", "--config-dir", str(host.config_dir)], env=host.env,
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 1 and done.stdout == ""
    assert f"refusing the control socket directory {private}: {reason}" in done.stderr


def test_a_config_dir_made_0755_earlier_is_tightened_to_0700(tmp_path):
    host = Daemon(home=tmp_path)
    host.config_dir.mkdir(mode=0o755)
    host.config_dir.chmod(0o755)
    host.start()
    try:
        assert stat.S_IMODE(os.stat(host.config_dir).st_mode) == 0o700
    finally:
        host.stop()


def test_hellos_during_the_pin_back_off_write_a_bounded_number_of_lines(daemon):
    connections, hellos_each = 6, 30

    async def scenario():
        real = daemon.pin()
        wrong = "000000" if real != "000000" else "111111"
        guesser = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        await guesser.hello("guesser")
        for _ in range(5):
            with pytest.raises(PairingFailed):
                await guesser.pair(wrong)
        await guesser.close()
        before = len(daemon.log().splitlines())
        for _ in range(connections):
            client = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
            for _ in range(hellos_each):
                assert (await client.hello("flood"))["type"] == "needPairing"
            await client.close()
        return before

    before = run(scenario())
    burst = daemon.log().splitlines()[before:]
    # 180 hellos, each of which wrote a line before: now a handful of lines, with the rest counted.
    assert 0 < len([line for line in burst if "back-off" in line]) <= 6, "\n".join(burst)
    assert len(burst) <= 20, "\n".join(burst)
    daemon.stop()
    counts = [int(n) for n in re.findall(r"… repeated (\d+) more times?: .*back-off", daemon.log())]
    shown = [line for line in daemon.log().splitlines()[before:] if "back-off" in line and "repeated" not in line]
    assert sum(counts) + len(shown) == connections * hellos_each
