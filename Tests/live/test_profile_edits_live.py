"""Deleting and renaming profiles from the CLI against the real daemon (issue 22, PROTOCOL §6 "Profiles"):
`touchdeck profile rename OLD NEW` keeps a device that keeps the profile on it under its new name (across a
restart too) and renames the profile keys that show it; `touchdeck profile delete NAME` sends the devices that
showed it to the shared profile; a rename to a name another profile has, a profile that does not exist and the last
profile are refused with the reason and config.json byte-identical."""

import json
import subprocess

from livehelpers import BINARY, Daemon, DeckClient, paired_device, run

GO_PHONE = {"label": "Phone deck", "kind": "profile", "profile": "phone"}


async def reconnect(host, device_id, secret):
    """The paired device again, at protocol 3: its connection, first layout and profiles."""
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    assert (await client.hello("again", device_id=device_id, protocol=3))["type"] == "authRequired"
    await client.authenticate(device_id, secret)
    return client, await client.recv_type("layout"), await client.recv_type("profiles")


def config_with(tmp_path):
    host = Daemon(home=tmp_path)
    host.config_dir.mkdir(mode=0o700, parents=True)
    empty = {"grid": "4x3", "pages": [[None] * 12]}
    keys = {"grid": "4x3", "pages": [[GO_PHONE] + [None] * 11, [None] * 12]}
    (host.config_dir / "config.json").write_text(json.dumps({
        "profiles": [{"name": "Default", "layout": keys}, {"name": "Phone", "layout": empty},
                     {"name": "Big", "layout": empty}],
        "currentProfile": "Default"}))
    return host.start()


def test_rename_and_delete_from_the_cli(tmp_path):
    host = config_with(tmp_path)
    try:
        async def keep_phone():
            phone, phone_id, secret = await paired_device(host, "Phone", protocol=3)
            assert (await phone.recv_type("profiles"))["follows"] is True
            await phone.send({"type": "followProfile", "follow": False})
            assert (await phone.recv_type("profiles"))["follows"] is False
            await phone.send({"type": "switchProfile", "name": "Phone"})
            assert (await phone.recv_type("layout"))["profile"] == "Phone"
            await phone.recv_type("profiles")
            return phone, phone_id, secret

        async def scenario():
            phone, phone_id, secret = await keep_phone()
            tablet, _, _ = await paired_device(host, "Tablet", protocol=3)
            await tablet.recv_type("profiles")

            out = host.cli("profile", "rename", "phone", "Pocket")
            assert out.splitlines()[0] == "Renamed phone to Pocket."
            assert "  Pocket (4x3, 1 page) — kept by Phone" in out.splitlines()
            layout = await phone.recv_type("layout")
            assert layout["profile"] == "Pocket" and layout["pages"] == [[None] * 12]
            assert await phone.recv_type("profiles") == {
                "type": "profiles", "names": ["Default", "Pocket", "Big"], "current": "Default", "shown": "Pocket",
                "follows": False}
            # The tablet follows Default, whose profile key now shows the new name.
            assert (await tablet.recv_type("layout"))["pages"][0][0] == {**GO_PHONE, "profile": "Pocket"}
            assert (await tablet.recv_type("profiles"))["names"] == ["Default", "Pocket", "Big"]
            await phone.close()
            await tablet.close()
            return phone_id, secret

        phone_id, secret = run(scenario())
        saved = json.loads((host.config_dir / "config.json").read_text())
        assert [p["name"] for p in saved["profiles"]] == ["Default", "Pocket", "Big"]
        assert saved["profiles"][0]["layout"]["pages"][0][0]["profile"] == "Pocket"

        # Still kept after a restart.
        host.stop()
        host.start()

        async def after_restart():
            phone, layout, profiles = await reconnect(host, phone_id, secret)
            assert layout["profile"] == "Pocket" and profiles["shown"] == "Pocket" and profiles["follows"] is False
            await phone.close()

        run(after_restart())

        # Refusals change nothing.
        before = (host.config_dir / "config.json").read_bytes()
        assert "a profile is already called Big" in host.cli_failure("profile", "rename", "Pocket", "BIG")
        assert "no profile is called Gone" in host.cli_failure("profile", "rename", "Gone", "New")
        assert "a profile's name is 1 to 64 visible characters" in host.cli_failure("profile", "rename", "Big", " ")
        assert "no profile is called Gone" in host.cli_failure("profile", "delete", "Gone")
        assert (host.config_dir / "config.json").read_bytes() == before

        async def delete_kept():
            phone, _, _ = await reconnect(host, phone_id, secret)
            out = host.cli("profile", "delete", "pocket")
            assert out.splitlines()[0] == "Deleted Pocket."
            assert (await phone.recv_type("layout"))["profile"] == "Default"
            assert await phone.recv_type("profiles") == {
                "type": "profiles", "names": ["Default", "Big"], "current": "Default", "shown": "Default",
                "follows": True}
            await phone.close()

        run(delete_kept())
        host.cli("profile", "switch", "Big")
        assert host.cli("profile", "delete", "Big").splitlines()[1:] == ["* Default (4x3, 1 page)"]
        before = (host.config_dir / "config.json").read_bytes()
        assert "the last profile cannot be deleted" in host.cli_failure("profile", "delete", "Default")
        assert (host.config_dir / "config.json").read_bytes() == before
    finally:
        host.stop()


def test_the_usage_names_delete_and_rename(tmp_path):
    host = Daemon(home=tmp_path)
    for args, usage in ((["rename", "Big"], "rename OLD NEW"), (["delete"], "delete NAME")):
        done = subprocess.run([str(BINARY), "profile", *args, "--config-dir", str(host.config_dir)], env=host.env,
                              capture_output=True, text=True, timeout=20)
        assert done.returncode == 64 and done.stdout == ""
        assert done.stderr.startswith(f"touchdeck: usage: touchdeck profile {usage}\n"), done.stderr
    help_text = subprocess.run([str(BINARY), "profile", "--help"], env=host.env, capture_output=True, text=True,
                               timeout=20).stdout
    assert "delete NAME" in help_text and "rename OLD NEW" in help_text, help_text
