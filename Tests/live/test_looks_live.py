"""Key looks against the real daemon (PROTOCOL §6 "Looks"): colours and icons set by one device reach every
device and the config file and survive a restart; an unknown colour or a 200-character emoji is refused with
words that say why, and the config file is not touched."""


from livehelpers import paired_device, reconnect, run

LOOKED = {"label": "Build", "kind": "command", "command": "make", "color": "teal", "icon": {"emoji": "🔨"},
          "hideLabel": True}
APP_ICON = {"label": "Files", "kind": "hotkey", "key": "e", "modifiers": ["super"], "color": "indigo",
            "icon": {"app": "org.gnome.Nautilus.desktop"}}


def saved_pages(daemon):
    return daemon.saved_layout()["pages"]


def test_looks_reach_every_device_and_the_config_and_survive_a_restart(daemon):
    async def before():
        tablet, device_id, secret = await paired_device(daemon, "Tablet")
        phone, _, _ = await paired_device(daemon, "Phone")
        await tablet.send({"type": "setButton", "page": 0, "index": 0, "button": LOOKED})
        for client in (tablet, phone):
            assert (await client.recv_type("layout"))["pages"][0][0] == LOOKED
        await phone.send({"type": "setButton", "page": 0, "index": 1, "button": APP_ICON})
        for client in (tablet, phone):
            assert (await client.recv_type("layout"))["pages"][0][1] == APP_ICON
        await tablet.close()
        await phone.close()
        return device_id, secret

    device_id, secret = run(before())
    assert saved_pages(daemon)[0][:2] == [LOOKED, APP_ICON]
    daemon.stop()
    daemon.start()

    async def after():
        client, layout = await reconnect(daemon, device_id, secret)
        assert layout["pages"][0][:2] == [LOOKED, APP_ICON]
        await client.close()

    run(after())


def test_a_bad_colour_or_emoji_is_refused_in_words_and_the_config_is_untouched(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": LOOKED})
        await client.recv_type("layout")
        before = (daemon.config_dir / "config.json").read_bytes()
        wrongs = [
            ({**LOOKED, "color": "chartreuse"}, "unknown colour “chartreuse”: a key's colour is one of red, orange"),
            ({**LOOKED, "icon": {"emoji": "😀" * 200}}, "an emoji icon is one character, not 200"),
            ({**LOOKED, "icon": {"app": ""}}, "an app icon needs an app id"),
        ]
        for button, words in wrongs:
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": button})
            refused = await client.recv_type("error", timeout=10)
            assert refused["code"] == "badMessage" and refused["request"] == "setButton", refused
            assert refused["message"].startswith(words), refused
        # An icon of neither shape is not a button at all.
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": {**LOOKED, "icon": {"svg": "<svg/>"}}})
        refused = await client.recv_type("error", timeout=10)
        assert refused["code"] == "badMessage" and refused["request"] == "setButton", refused
        assert (daemon.config_dir / "config.json").read_bytes() == before
        # Nothing was broadcast: the next layout is the answer to the next good edit.
        await client.send({"type": "clearButton", "page": 0, "index": 0})
        assert (await client.recv_type("layout"))["pages"][0][0] is None
        await client.close()

    run(scenario())
