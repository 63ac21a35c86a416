"""Folders and page keys against the real daemon (PROTOCOL §6 "Folders and pages"): keys set and pressed inside a
folder by its path, folders nested four deep kept and a fifth refused with the config untouched, a folder key
pressed by an app that does not open folders answered with why, and a protocol-2 device sent the folder as it
is stored."""


from livehelpers import paired_device, run

PLAY = {"label": "Play", "kind": "command", "command": "true"}


def folder(label):
    return {"label": label, "kind": "folder"}


def config_bytes(daemon):
    return (daemon.config_dir / "config.json").read_bytes()


def test_a_key_inside_a_folder_is_set_and_pressed_by_its_path(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send({"type": "setButton", "page": 0, "index": 2, "button": folder("Media")})
        layout = await client.recv_type("layout")
        assert layout["pages"][0][2] == {"label": "Media", "kind": "folder", "pages": [[None] * 12]}
        path = [{"page": 0, "index": 2}]
        await client.send({"type": "setButton", "page": 0, "index": 1, "button": PLAY, "path": path})
        inside = (await client.recv_type("layout"))["pages"][0][2]["pages"]
        assert inside[0][1] == PLAY and len(inside) == 2, inside
        await client.send({"type": "press", "page": 0, "index": 1, "path": path})
        result = await client.recv_type("pressResult", timeout=20)
        assert result["ok"] is True and result["running"] is True and result["path"] == path, result
        outcome = await client.recv_type("pressResult", timeout=20)  # a command key's second answer: it ended
        assert outcome["ok"] is True and "running" not in outcome and outcome["path"] == path, outcome
        # The deck's own slot 1 is empty: the same slot number outside the folder is another key.
        await client.send({"type": "press", "page": 0, "index": 1})
        assert (await client.recv_type("pressResult"))["reason"] == "empty slot"
        await client.send({"type": "press", "page": 0, "index": 2})
        result = await client.recv_type("pressResult")
        assert result == {"type": "pressResult", "page": 0, "index": 2, "ok": False,
                          "reason": "this key opens a folder on the device (update the app)"}, result
        saved = daemon.saved_layout()["pages"][0][2]["pages"][0][1]
        assert saved == PLAY
        await client.close()

    run(scenario())


def test_folders_nest_four_deep_and_a_fifth_is_refused_with_the_config_untouched(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        old, _, _ = await paired_device(daemon, "Old phone", protocol=2)
        path = []
        for depth in range(1, 5):
            await client.send({"type": "setButton", "page": 0, "index": 1, "button": folder(f"F{depth}"),
                               **({"path": path} if path else {})})
            await client.recv_type("layout")
            path = path + [{"page": 0, "index": 1}]
        before = config_bytes(daemon)
        await client.send({"type": "setButton", "page": 0, "index": 1, "button": folder("F5"), "path": path})
        refused = await client.recv_type("error", timeout=10)
        assert refused == {"type": "error", "code": "badMessage", "message": "folders nest at most 4 deep",
                           "request": "setButton"}, refused
        # Nor can a folder that brings its own levels go in deeper than it fits.
        deep = {"label": "Two", "kind": "folder", "pages": [[None, folder("Inner")] + [None] * 10]}
        await client.send({"type": "setButton", "page": 0, "index": 3, "button": deep, "path": path[:3]})
        assert (await client.recv_type("error", timeout=10))["message"] == "folders nest at most 4 deep"
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": PLAY, "path": path[:1]})
        assert (await client.recv_type("error", timeout=10))["message"] == "slot 0 of a folder's first page is its back key"
        assert config_bytes(daemon) == before
        # The protocol-2 device has the four folders as the host stores them (a kind it shows as a plain key).
        layout = None
        for _ in range(4):
            layout = await old.recv_type("layout")
        deepest = layout["pages"][0][1]
        for _ in range(3):
            deepest = deepest["pages"][0][1]
        assert deepest["label"] == "F4" and deepest["kind"] == "folder"
        await client.close()
        await old.close()

    run(scenario())
