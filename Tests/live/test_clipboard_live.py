"""The clipboard on the real daemon under the test desktop's Xvfb (PROTOCOL §6 "Clipboard", DESIGN.md#clipboard),
with `xclip` as the other app: text (Hangul and emoji intact), a PNG and a mebibyte of text (INCR both ways)
travel both ways; PRIMARY too when the user asks for it; the paste chord lands in the focused window
(Ctrl+Shift+V in a terminal); only the viewer allowed to hears copies (checked on the wire); bad input (pasted or
copied, or an owner that never answers or stalls mid-INCR) gets a clear answer or log line and the host keeps
serving."""

import base64
import os
import pathlib
import struct
import subprocess
import sys
import zlib

import pytest

from deskhome import eventually
from livehelpers import Daemon, closed_code, paired_device, press_key, reconnect, run
from clipboards import copier, png  # noqa: F401 (copier is a fixture)

SUPPORT = pathlib.Path(__file__).resolve().parents[1] / "support"
TEXT = "안녕하세요 🙂 café ✓ 👩‍💻"


def huge_png_header():
    """A PNG whose header says 10000×10000 (its data is not what such an image would need: only the header counts)."""
    whole = png(4, 4)
    header = struct.pack(">IIBBBBB", 10000, 10000, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return whole[:8] + ihdr + whole[8 + 25:]


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop (make test-py)")
    daemon = Daemon(home=tmp_path_factory.mktemp("clipboard")).start()
    devices = {}

    async def pair():
        for name in ("Viewer", "Idle", "Plain"):
            client, device_id, secret = await paired_device(daemon, name)
            devices[name] = (device_id, secret)
            await client.close()

    run(pair())
    for name in ("Viewer", "Plain"):
        daemon.cli("devices", "allow-screen", name, "on")
    for name in ("Viewer", "Idle"):
        daemon.cli("devices", "allow-clipboard", name, "on")
    daemon.devices = devices
    yield daemon
    daemon.stop()


def pasted(target="UTF8_STRING", selection="clipboard"):
    """What another app gets when it pastes the computer's clipboard (or `selection`) as `target`."""
    return subprocess.run(["xclip", "-selection", selection, "-t", target, "-o"], capture_output=True, check=True,
                          timeout=20).stdout


async def connect(host, name):
    device_id, secret = host.devices[name]
    client, _ = await reconnect(host, device_id, secret, name=name)
    return client


async def view(host, name="Viewer"):
    client = await connect(host, name)
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    await client.recv_type("screenStarted", timeout=20)
    return client


async def offer(client):
    return await client.recv_type("clipboardOffer", timeout=20)


async def set_clipboard(client, kind, data, paste=False):
    await client.send({"type": "clipboardSet", "kind": kind, "data": base64.b64encode(data).decode(), "paste": paste})
    return await client.recv_type("clipboardResult", timeout=30)


async def heard_until_answered(client):
    """Every message the host sent this connection up to the answer of a request made now: a copy offered to
    it would have gone out before that answer (one actor seals both, in order)."""
    await client.send({"type": "listDisplays"})
    seen = []
    while True:
        message = await client.recv(timeout=20)
        if isinstance(message, dict):
            seen.append(message["type"])
            if message["type"] == "displays":
                return seen


def test_text_travels_both_ways_with_hangul_and_emoji_intact(host, copier):
    async def scenario():
        viewer = await view(host)
        copier(TEXT.encode())
        offered = await offer(viewer)
        assert offered["kind"] == "text" and offered["size"] == len(TEXT.encode()) and not offered["tooLarge"]
        assert base64.b64decode(offered["data"]).decode() == TEXT
        assert await set_clipboard(viewer, "text", "세계 👋 naïve".encode()) == {"type": "clipboardResult", "ok": True}
        await viewer.close()

    run(scenario())
    assert pasted().decode() == "세계 👋 naïve"
    assert pasted("text/plain;charset=utf-8").decode() == "세계 👋 naïve"
    assert set(pasted("TARGETS").decode().split()) == {"TARGETS", "UTF8_STRING", "text/plain;charset=utf-8"}


def test_a_png_travels_both_ways(host, copier):
    picture, other = png(64, 48), png(30, 20)

    async def scenario():
        viewer = await view(host)
        copier(picture, target="image/png")
        offered = await offer(viewer)
        assert (offered["kind"], offered["width"], offered["height"]) == ("image", 64, 48)
        assert base64.b64decode(offered["data"]) == picture
        assert (await set_clipboard(viewer, "image", other))["ok"] is True
        await viewer.close()

    run(scenario())
    assert pasted("image/png") == other
    assert set(pasted("TARGETS").decode().split()) == {"TARGETS", "image/png"}


def test_a_mebibyte_of_text_travels_both_ways_and_more_is_offered_as_too_large(host, copier):
    # Exactly 1 MiB of UTF-8 with Hangul and emoji in it: far over one X request, so INCR both ways.
    unit = "가나다 🙂 abc\n"  # 9 + 1 + 4 + 5 bytes
    text = (unit * ((1 << 20) // len(unit.encode()) + 1)).encode()[: 1 << 20]
    text = text[: len(text.decode("utf-8", "ignore").encode())]
    text += b"x" * ((1 << 20) - len(text))

    async def scenario():
        viewer = await view(host)
        copier(text)
        offered = await offer(viewer)
        assert offered["size"] == 1 << 20 and base64.b64decode(offered["data"]) == text
        copier(b"y" * (20 << 20))
        assert await offer(viewer) == {"type": "clipboardOffer", "kind": "text", "size": 20 << 20, "tooLarge": True}
        assert (await set_clipboard(viewer, "text", text[::-1].decode("utf-8", "ignore").encode()))["ok"] is True
        await viewer.close()
        return text[::-1].decode("utf-8", "ignore").encode()

    sent = run(scenario())
    assert pasted() == sent


def test_only_the_viewer_allowed_hears_what_is_copied(host, copier):
    async def scenario():
        # A viewer without the clipboard permission hears nothing.
        plain = await view(host, "Plain")
        copier(b"for nobody")
        assert "clipboardOffer" not in await heard_until_answered(plain)
        await plain.send({"type": "stopScreen"})
        await plain.recv_type("screenStopped")
        # Allowed but not viewing: nothing either, while the viewer hears the copy.
        idle = await connect(host, "Idle")
        viewer = await view(host)
        copier(b"for the viewer")
        assert base64.b64decode((await offer(viewer))["data"]) == b"for the viewer"
        assert "clipboardOffer" not in await heard_until_answered(idle)
        assert "clipboardOffer" not in await heard_until_answered(plain)
        # Turned off while viewing: the next copy reaches nobody.
        host.cli("devices", "allow-clipboard", "Viewer", "off")
        copier(b"after off")
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        host.cli("devices", "allow-clipboard", "Viewer", "on")
        for client in (plain, idle, viewer):
            await client.close()

    run(scenario())


def test_the_primary_selection_is_followed_and_set_only_when_the_user_asks(host, copier):
    async def scenario():
        # Off (the default): selecting text offers nothing, and a paste leaves PRIMARY to its owner.
        viewer = await view(host)
        copier(b"selected before", selection="primary")
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        assert (await set_clipboard(viewer, "text", b"clipboard only"))["ok"] is True
        assert pasted(selection="primary") == b"selected before"
        # Turned on while viewing: the next selection is offered, and a paste sets both.
        assert "now also follow and set" in host.cli("devices", "primary-selection", "Viewer", "on")
        copier("선택 🙂".encode(), selection="primary")
        offered = await offer(viewer)
        assert base64.b64decode(offered["data"]).decode() == "선택 🙂"
        assert (await set_clipboard(viewer, "text", "둘 다 ✓".encode()))["ok"] is True
        assert pasted(selection="primary").decode() == pasted().decode() == "둘 다 ✓"
        assert (await set_clipboard(viewer, "image", png(8, 8)))["ok"] is True
        assert pasted("image/png", selection="primary") == png(8, 8)
        await viewer.close()
        # A later viewing of the same device follows PRIMARY from its start.
        viewer = await view(host)
        copier(b"selected again", selection="primary")
        assert base64.b64decode((await offer(viewer))["data"]) == b"selected again"
        host.cli("devices", "primary-selection", "Viewer", "off")
        copier(b"after off", selection="primary")
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        await viewer.close()

    try:
        run(scenario())
    finally:
        host.cli("devices", "primary-selection", "Viewer", "off")


@pytest.mark.parametrize("window_class, chord", [(None, "<Ctrl+v>"), ("XTerm", "<Ctrl+Shift+V>")])
def test_the_paste_chord_lands_in_the_focused_window(host, tmp_path, window_class, chord):
    out = tmp_path / "field.txt"
    field = subprocess.Popen([sys.executable, str(SUPPORT / "xtext.py"), str(out)] + ([window_class] * bool(window_class)))
    try:
        assert eventually(out.exists), "the X text field did not open"

        async def scenario():
            viewer = await view(host)
            assert (await set_clipboard(viewer, "text", b"pasted", paste=True))["ok"] is True
            await viewer.close()

        run(scenario())
        assert eventually(lambda: out.read_text() == chord), out.read_text()
        assert pasted() == b"pasted"
    finally:
        field.terminate()
        field.wait(10)


def test_with_the_paste_chord_off_a_paste_only_sets_the_clipboard(host, tmp_path):
    out = tmp_path / "field.txt"
    field = subprocess.Popen([sys.executable, str(SUPPORT / "xtext.py"), str(out)])
    try:
        assert eventually(out.exists), "the X text field did not open"
        host.cli("devices", "paste-chord", "Viewer", "off")

        async def scenario():
            viewer = await view(host)
            assert (await set_clipboard(viewer, "text", b"only set", paste=True))["ok"] is True
            assert pasted() == b"only set"
            host.cli("devices", "paste-chord", "Viewer", "on")
            assert (await set_clipboard(viewer, "text", b"and pasted", paste=True))["ok"] is True
            await viewer.close()

        run(scenario())
        # One chord: the first paste pressed none (keys reach the field in the order they were sent).
        assert eventually(lambda: out.read_text() == "<Ctrl+v>"), out.read_text()
    finally:
        host.cli("devices", "paste-chord", "Viewer", "on")
        field.terminate()
        field.wait(10)


def test_bad_input_gets_a_clear_answer_and_the_host_keeps_serving(host):
    async def scenario():
        viewer = await view(host)
        refusals = [
            ("text", b"caf\xc3(", "the text is not valid UTF-8"),
            ("image", b"GIF89a" + b"\0" * 64, "the image is not a PNG file"),
            ("image", huge_png_header(), "the image is 10000×10000 pixels; at most 8192×8192"),
            ("text", b"a" * ((1 << 20) + 1), "the text is too large to paste: 1048577 bytes, at most 1048576 (1 MiB)"),
        ]
        for kind, data, reason in refusals:
            assert await set_clipboard(viewer, kind, data) == {"type": "clipboardResult", "ok": False, "reason": reason}
        idle = await connect(host, "Idle")
        answer = await set_clipboard(idle, "text", b"not viewing")
        assert answer["reason"] == "only the device viewing the screen may paste"
        plain = await connect(host, "Plain")
        answer = await set_clipboard(plain, "text", b"no permission")
        assert answer["reason"] == ('This device may not use the clipboard. On the computer, run: '
                                    'touchdeck devices allow-clipboard "Plain" on')
        # 20 MiB is over a message's 16 MiB: the connection is closed as too big, and only that one.
        await idle.send({"type": "clipboardSet", "kind": "text", "data": base64.b64encode(b"z" * (20 << 20)).decode()})
        assert await closed_code(idle) == 1009
        assert (await set_clipboard(viewer, "text", b"still here"))["ok"] is True
        for client in (viewer, plain):
            await client.close()

    run(scenario())
    assert pasted() == b"still here"


def test_copies_that_break_the_rules_are_not_offered_as_content(host, copier):
    unreadable = "a copy on the computer could not be read"

    async def scenario():
        bad = ((b"caf\xc3(", "UTF8_STRING", "the copied text is not UTF-8"),
               (b"GIF89a" + b"\0" * 64, "image/png", "the copied image is not a PNG file"))
        for data, target, reason in bad:
            viewer = await view(host)  # one viewing each: the log folds a repeated line
            said = host.log().count(unreadable)
            copier(data, target=target)
            assert eventually(lambda: host.log().count(unreadable) > said, 30), host.log()
            assert f"could not be read clipboard.reason={reason}" in host.log(), host.log()
            assert "clipboardOffer" not in await heard_until_answered(viewer)
            await viewer.close()
        viewer = await view(host)
        copier(huge_png_header(), target="image/png")
        assert await offer(viewer) == {"type": "clipboardOffer", "kind": "image", "size": len(huge_png_header()),
                                       "tooLarge": True, "width": 10000, "height": 10000}
        copier(b"fine again")
        assert base64.b64decode((await offer(viewer))["data"]) == b"fine again"
        await viewer.close()

    run(scenario())


@pytest.mark.parametrize("mode", ["never", "stall"])
def test_an_owner_that_never_answers_or_stalls_mid_incr_does_not_stop_the_next_copy(host, copier, tmp_path, mode):
    ready = tmp_path / "owner-ready"
    owner = None
    ran = tmp_path / "pressed"
    key = {"label": "Mark", "kind": "command", "command": f"echo pressed >> '{ran}'"}

    async def scenario():
        nonlocal owner
        viewer = await view(host)
        idle = await connect(host, "Idle")
        said = host.log().count("a copy on the computer could not be read")
        owner = subprocess.Popen([sys.executable, str(SUPPORT / "xowner.py"), mode, str(ready)])
        assert eventually(ready.exists), "the misbehaving owner did not start"
        # While the host waits on the owner, another device's sealed press is answered.
        assert (await press_key(idle, 0, key))["ok"] is True
        assert eventually(lambda: ran.exists() and ran.read_text() == "pressed\n", 30), "the key did not run"
        # The owner's 3 s per step run out: the log says why (the viewer is offered nothing).
        assert eventually(lambda: host.log().count("a copy on the computer could not be read") > said, 30), host.log()
        assert "the app that copied did not hand the data over" in host.log()
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        await idle.close()
        copier(b"next copy")
        assert base64.b64decode((await offer(viewer))["data"]) == b"next copy"
        await viewer.close()

    try:
        run(scenario())
    finally:
        if owner:
            owner.kill()
            owner.wait(10)
