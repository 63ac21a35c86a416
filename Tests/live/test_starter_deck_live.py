"""The first run's starter deck (issue 22), on the real daemon with a throwaway desktop: a host with no config.json
shows a terminal, the desktop's default file manager and web browser (as mimeapps.list names them) and the record
key; a default app that is not installed is left out; a config that exists, even with an empty deck, is never
changed."""

import json

from deskhome import DeskHome, eventually
from livehelpers import Daemon, paired_device, reconnect, run


def fake_desktop(tmp_path, browser_installed=True):
    """DeskHome's desktop plus a file manager and a browser that record their start, and the user's defaults."""
    home = DeskHome(tmp_path)
    apps = home.system / "applications"
    (apps / "td-files.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Fake Files\nExec=td-recorder files %U\n"
        "MimeType=inode/directory;\nCategories=System;FileManager;\n")
    # Handles folders too but is no file manager: never taken for one.
    (apps / "td-editor.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Editor\nExec=td-recorder editor\nMimeType=inode/directory;\n")
    if browser_installed:
        (apps / "td-web.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Fake Web\nExec=td-recorder web %u\n"
            "MimeType=x-scheme-handler/https;x-scheme-handler/http;\nCategories=Network;WebBrowser;\n")
    config = tmp_path / ".config"
    config.mkdir(exist_ok=True)
    (config / "mimeapps.list").write_text(
        "[Default Applications]\ninode/directory=td-files.desktop;\nx-scheme-handler/https=td-web.desktop;\n")
    return home


def labels_and_kinds(layout):
    return [(b["label"], b["kind"], b.get("appId")) if b else None for b in layout["pages"][0]]


def test_a_first_run_shows_the_starter_deck_and_its_keys_work(tmp_path):
    home = fake_desktop(tmp_path)
    host = Daemon(home=tmp_path, env={**home.env, "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg")},
                  first_run=True).start()
    try:
        async def scenario():
            client, device_id, secret = await paired_device(host, "Tablet", protocol=3)
            await client.close()
            client, layout = await reconnect(host, device_id, secret)
            assert labels_and_kinds(layout) == [
                ("Terminal", "terminal", None), ("Fake Files", "app", "td-files.desktop"),
                ("Fake Web", "app", "td-web.desktop"), ("Record", "record", None)] + [None] * 8
            assert layout["pages"][1] == [None] * 12
            await client.send({"type": "press", "page": 0, "index": 1})
            assert (await client.recv_type("pressResult", timeout=15))["ok"] is True
            await client.close()

        run(scenario())
        assert eventually(lambda: home.record("app")) == f"args=files|cwd={home.home}"
        saved = json.loads((host.config_dir / "config.json").read_text())
        assert [p["name"] for p in saved["profiles"]] == ["Default"]
        assert labels_and_kinds(host.saved_layout())[:4] == [
            ("Terminal", "terminal", None), ("Fake Files", "app", "td-files.desktop"),
            ("Fake Web", "app", "td-web.desktop"), ("Record", "record", None)]
    finally:
        host.stop()


def test_a_default_browser_that_is_not_installed_is_left_out(tmp_path):
    home = fake_desktop(tmp_path, browser_installed=False)
    host = Daemon(home=tmp_path, env={**home.env, "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg")},
                  first_run=True).start()
    try:
        assert labels_and_kinds(host.saved_layout()) == [
            ("Terminal", "terminal", None), ("Fake Files", "app", "td-files.desktop"),
            ("Record", "record", None)] + [None] * 9
    finally:
        host.stop()


def test_an_existing_config_with_an_empty_deck_is_never_changed(tmp_path):
    home = fake_desktop(tmp_path)
    host = Daemon(home=tmp_path, env={**home.env, "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg")}, first_run=True)
    host.config_dir.mkdir(mode=0o700)
    empty = json.dumps({"profiles": [{"name": "Default", "layout": {"grid": "4x3", "pages": [[None] * 12]}}],
                        "currentProfile": "Default"})
    (host.config_dir / "config.json").write_text(empty)
    try:
        for _ in range(2):  # and again after a restart
            host.start()

            async def scenario():
                client, device_id, secret = await paired_device(host, "Tablet", protocol=3)
                await client.close()
                client, layout = await reconnect(host, device_id, secret)
                await client.close()
                return layout

            assert run(scenario())["pages"] == [[None] * 12]
            host.stop()
            assert (host.config_dir / "config.json").read_text() == empty
    finally:
        host.stop()
