"""Moving keys and undo against the real daemon (PROTOCOL §6 "Moving keys, copy and undo"): a move onto a taken
slot swaps the two keys; `undo` takes back the last edits one by one (at most 20, on the profile the device shows),
each saved and sent to every device like an edit, `layout.undoSteps` counting what is left; nothing left, or a
device that may not edit, is refused with the config untouched."""

from livehelpers import paired_device, run


def key(label):
    return {"label": label, "kind": "command", "command": "true"}


def labels(layout):
    return [b["label"] if b else None for b in layout["pages"][0]]


def test_a_move_swaps_and_undo_takes_edits_back_one_by_one_on_every_device(daemon):
    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        phone, _, _ = await paired_device(daemon, "Phone", protocol=3)
        for n, label in enumerate(["A", "B"]):
            await tablet.send({"type": "setButton", "page": 0, "index": n, "button": key(label)})
            await tablet.recv_type("layout")
        await tablet.send({"type": "moveButton", "fromPage": 0, "fromIndex": 0, "toPage": 0, "toIndex": 1})
        moved = await tablet.recv_type("layout")
        assert labels(moved)[:2] == ["B", "A"] and moved["undoSteps"] == 3, moved
        await tablet.send({"type": "moveButton", "fromPage": 0, "fromIndex": 1, "toPage": 1, "toIndex": 4})
        assert (await tablet.recv_type("layout"))["pages"][1][4] == key("A"), "to another page"

        await phone.send({"type": "undo"})  # any device that may edit; the deck is shared
        for client in (tablet, phone):
            back = await client.recv_type("layout")
            while back.get("undoSteps") != 3:  # the phone also holds the four edits' layouts before it
                back = await client.recv_type("layout")
            assert labels(back)[:2] == ["B", "A"] and len(back["pages"]) == 2, back
        assert daemon.saved_layout()["pages"][0][1] == key("A"), "saved like an edit"
        for steps in (2, 1, 0):
            await tablet.send({"type": "undo"})
            layout = await tablet.recv_type("layout")
            assert layout.get("undoSteps", 0) == steps, layout
        assert labels(layout) == [None] * 12
        before = (daemon.config_dir / "config.json").read_bytes()
        await tablet.send({"type": "undo"})
        refused = await tablet.recv_type("error")
        assert refused == {"type": "error", "code": "badMessage", "message": "nothing to undo", "request": "undo"}
        assert (daemon.config_dir / "config.json").read_bytes() == before

        for n in range(22):
            await tablet.send({"type": "setButton", "page": 0, "index": 0, "button": key(f"K{n}")})
            layout = await tablet.recv_type("layout")
        assert layout["undoSteps"] == 20
        for _ in range(20):
            await tablet.send({"type": "undo"})
            layout = await tablet.recv_type("layout")
        assert labels(layout)[0] == "K1" and "undoSteps" not in layout, "twenty steps, no more"
        daemon.cli("devices", "allow-edit", "Phone", "off")
        await phone.send({"type": "undo"})
        assert (await phone.recv_type("error"))["code"] == "notAllowed"
        for client in (tablet, phone):
            await client.close()

    run(scenario())
