"""Decks that follow the focused app on X11, against the real daemon under Xvfb (PROTOCOL §6 "Profiles"): the test
plays the window manager (Tests/support/xfocus.py sets the root window's _NET_ACTIVE_WINDOW, as a window manager
does) and the host follows it by property events. A device that follows the shared profile is sent the profile
whose apps name the focused window's WM_CLASS, and the shared one again when the focus leaves for another app or
for no window; a class the active window gets later counts too; a device that keeps its own profile stays, and
config.json's current profile never changes. `touchdeck profile apps` sets and lists the apps."""

import json

from livehelpers import paired_device, run
from xfocus import FakeWindowManager


async def before_marker(client):
    """Every message the host sent this client until now: a press of an empty slot is answered after them all."""
    await client.send({"type": "press", "page": 0, "index": 11})
    seen = []
    while True:
        message = await client.recv()
        if message.get("type") == "pressResult" and message.get("index") == 11:
            return seen
        seen.append(message)


async def profiles_with(client, field):
    """The next `profiles` message that carries `field` (earlier ones, sent for other changes, are skipped)."""
    while True:
        message = await client.recv_type("profiles")
        if field in message:
            return message


def test_a_following_device_shows_the_profile_of_the_focused_window_and_the_shared_one_after(daemon):
    wm = FakeWindowManager()
    editor = wm.window("focuseditor", "FocusEditor")
    terminal = wm.window("xterm", "XTerm")
    late = wm.window("late", "Late")

    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        phone, _, _ = await paired_device(daemon, "Phone", protocol=3)
        await phone.send({"type": "followProfile", "follow": False})
        await tablet.send({"type": "addProfile", "name": "Editing"})
        while "Editing" not in (await tablet.recv_type("profiles"))["names"]:
            pass
        out = daemon.cli("profile", "apps", "Editing", "add", "FocusEditor", "org.example.Editor.desktop")
        assert "  Editing (4x3, 1 page) — for FocusEditor, org.example.Editor.desktop" in out, out
        assert (await profiles_with(tablet, "apps"))["apps"] == {
            "Editing": ["FocusEditor", "org.example.Editor.desktop"]}
        await before_marker(phone)

        wm.activate(editor)
        assert (await tablet.recv_type("layout"))["profile"] == "Editing"
        shown = await tablet.recv_type("profiles")
        assert shown["focusProfile"] == "Editing" and shown["current"] == "Default" and shown["shown"] == "Editing"
        assert "— shown for the focused app" in daemon.cli("profile", "list")
        assert [m for m in await before_marker(phone) if m["type"] == "layout"] == [], "the phone keeps its own"

        wm.activate(terminal)
        assert (await tablet.recv_type("layout"))["profile"] == "Default", "back to the profile it was on"
        assert "focusProfile" not in await tablet.recv_type("profiles")

        # The active window's class set after it got the focus (some apps do) is followed by its property event.
        wm.activate(late)
        assert [m for m in await before_marker(tablet) if m["type"] == "layout"] == []
        wm.set_class(late, "focuseditor", "FocusEditor")
        assert (await tablet.recv_type("layout"))["profile"] == "Editing"

        # The focused window closes and the window manager gives the focus to the editor: the host follows the
        # editor's class from then on (its class changed twice, each change seen), whatever the closed one left.
        wm.destroy(late)
        wm.activate(editor)
        wm.set_class(editor, "xterm", "XTerm")
        assert (await tablet.recv_type("layout"))["profile"] == "Default"
        wm.set_class(editor, "focuseditor", "FocusEditor")
        assert (await tablet.recv_type("layout"))["profile"] == "Editing"

        wm.activate(None)
        assert (await tablet.recv_type("layout"))["profile"] == "Default"
        for client in (tablet, phone):
            await client.close()

    try:
        run(scenario())
    finally:
        wm.close()
    config = json.loads((daemon.config_dir / "config.json").read_text())
    assert config["currentProfile"] == "Default", "the focus never changes the saved shared profile"
    assert next(p for p in config["profiles"] if p["name"] == "Editing")["apps"] == [
        "FocusEditor", "org.example.Editor.desktop"]


def test_bad_app_names_are_refused_and_change_nothing(daemon):
    async def scenario():
        tablet, _, _ = await paired_device(daemon, "Tablet", protocol=3)
        await tablet.send({"type": "addProfile", "name": "Web"})
        while "Web" not in (await tablet.recv_type("profiles"))["names"]:
            pass
        before = (daemon.config_dir / "config.json").read_bytes()
        await tablet.send({"type": "setProfileApps", "name": "Web", "apps": ["x" * 129]})
        refused = await tablet.recv_type("error")
        assert refused["code"] == "badMessage" and "longer than 128 characters" in refused["message"], refused
        many = [f"app{n}" for n in range(17)]
        assert daemon.cli_failure("profile", "apps", "Web", "add", *many) == \
            "touchdeck: a profile names at most 16 apps\n"
        assert daemon.cli_failure("profile", "apps", "Nope") == "touchdeck: no profile is called Nope\n"
        assert (daemon.config_dir / "config.json").read_bytes() == before
        await tablet.send({"type": "press", "page": 0, "index": 0})
        assert (await tablet.recv_type("pressResult"))["reason"] == "empty slot", "the host keeps serving"
        await tablet.close()

    run(scenario())
