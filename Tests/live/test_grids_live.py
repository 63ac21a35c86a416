"""Grid sizes against the real daemon (PROTOCOL §6 "Grid sizes"): resizing a full 4x3 deck to 3x2 and then to 8x4
keeps every key, in order (what does not fit follows on new pages), folders included; the size reaches every
device and the config and survives a restart; an unknown size is refused with the config untouched."""


from livehelpers import paired_device, reconnect, run


def key(n):
    return {"label": f"K{n}", "kind": "command", "command": f"k{n}"}


def labels(pages):
    return [button["label"] if button else None for page in pages for button in page]


def saved(daemon):
    return daemon.saved_layout()


def test_resizing_keeps_every_key_in_order_and_the_size_survives_a_restart(daemon):
    async def before():
        tablet, device_id, secret = await paired_device(daemon, "Tablet")
        phone, _, _ = await paired_device(daemon, "Phone")
        for n in range(11):
            await tablet.send({"type": "setButton", "page": 0, "index": n, "button": key(n)})
            await tablet.recv_type("layout")
        await tablet.send({"type": "setButton", "page": 0, "index": 11, "button": {"label": "Box", "kind": "folder"}})
        await tablet.recv_type("layout")
        await tablet.send({"type": "setButton", "page": 0, "index": 3, "button": key(99), "path": [{"page": 0, "index": 11}]})
        await tablet.recv_type("layout")

        for _ in range(13):  # the phone was sent every edit's layout; the next one is the resize's
            await phone.recv_type("layout")
        await tablet.send({"type": "setGrid", "grid": "3x2"})
        for client in (tablet, phone):
            layout = await client.recv_type("layout")
            assert layout["grid"] == "3x2" and {len(page) for page in layout["pages"]} == {6}
        # Rows 1-2, columns 1-3 stay; column 4 and row 3 follow on a new page in slot order.
        assert labels(layout["pages"]) == ["K0", "K1", "K2", "K4", "K5", "K6",
                                           "K3", "K7", "K8", "K9", "K10", "Box",
                                           None, None, None, None, None, None]
        box = layout["pages"][1][5]["pages"]
        assert labels(box) == [None] * 6 + ["K99"] + [None] * 5 + [None] * 6, "the folder's key followed too"
        assert saved(daemon)["grid"] == "3x2"

        await phone.send({"type": "setGrid", "grid": "8x4"})
        layout = await tablet.recv_type("layout")
        assert layout["grid"] == "8x4"
        kept = [name for name in labels(layout["pages"]) if name]
        assert kept == ["K0", "K1", "K2", "K4", "K5", "K6", "K3", "K7", "K8", "K9", "K10", "Box"], "growing moves nothing"
        await tablet.close()
        await phone.close()
        return device_id, secret

    device_id, secret = run(before())
    daemon.stop()
    daemon.start()

    async def after():
        client, layout = await reconnect(daemon, device_id, secret)
        assert layout["grid"] == "8x4" and len(layout["pages"][0]) == 32
        await client.close()

    run(after())


def test_an_unknown_size_is_refused_and_the_config_is_untouched(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": key(1)})
        await client.recv_type("layout")
        before = (daemon.config_dir / "config.json").read_bytes()
        await client.send({"type": "setGrid", "grid": "9x9"})
        refused = await client.recv_type("error", timeout=10)
        assert refused["code"] == "badMessage" and refused["request"] == "setGrid", refused
        assert (daemon.config_dir / "config.json").read_bytes() == before
        assert "grid" not in daemon.saved_layout(before), "a deck never resized keeps its old form"
        await client.close()

    run(scenario())
