"""The clipboard on wlroots (issue 25): the real daemon on a private headless sway (run under scripts/with-sway) reaches
the seat's selection through wlr-data-control, with wl-clipboard's `wl-copy` and `wl-paste` as the other app. What is
checked: text (Hangul and emoji intact) and a PNG travel both ways byte for byte, with the types the host offers; a
mebibyte of text is offered and 20 MiB offered as too large with its size; what the viewer pasted is not offered back
to it; only the viewer allowed to hears copies (checked on the wire); the paste chord follows the focused window's app
id from sway's IPC (Ctrl+Shift+V in a window whose app id is a terminal's); copies of invalid UTF-8 or a GIF called
image/png are logged as unreadable and a 10000×10000 PNG is offered as too large; an app that never hands its copy
over or stalls mid-transfer is given up after 3 s while another device is served, and the next copy is offered;
the web viewer in Chromium pastes and copies (the offer bar); `doctor` names the back-end.
Skipped outside scripts/with-sway (and under scripts/with-mutter, whose compositor has no data control)."""

import asyncio
import base64
import os
import pathlib
import signal
import struct
import subprocess
import sys
import zlib

import pytest

import test_mutter_live
from test_mutter_live import GTKClient
from deskhome import eventually
from livehelpers import Daemon, paired_device, press_key, reconnect, run
from clipboards import png

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
from chromium import Browser  # noqa: E402
from pages import wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from viewer import pair_as_viewer, start_viewing  # noqa: E402

pytestmark = pytest.mark.skipif("TOUCHDECK_SWAY_PID" not in os.environ or "TOUCHDECK_MUTTER_PID" in os.environ,
                                reason="needs scripts/with-sway")

TEXT = "안녕하세요 🙂 café ✓ 👩‍💻"
MARKER = "application/x-touchdeck-host"
TEXT_TYPES = {"text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT"}


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    daemon = Daemon(home=tmp_path_factory.mktemp("wlr-clipboard"), env={}).start()
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


@pytest.fixture(scope="module")
def client():
    # xdg-desktop-portal-wlr copies an output only once it is damaged: the client keeps a corner flipping.
    gtk = GTKClient(["--tick", "5"])
    yield gtk
    gtk.stop()


@pytest.fixture
def copier():
    """Copies on the computer with wl-copy in the foreground (it serves the copy until another replaces it)."""
    started = []

    def copy(data, mime=None):
        process = subprocess.Popen(["wl-copy", "--foreground"] + (["--type", mime] if mime else []),
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        process.stdin.write(data)
        process.stdin.close()
        started.append(process)
    yield copy
    for process in started:
        process.kill()
        process.wait(10)


def pasted(*args):
    """What another app gets when it pastes the seat's selection (`wl-paste --no-newline ARGS`)."""
    return subprocess.run(["wl-paste", "--no-newline", *args], capture_output=True, check=True, timeout=20).stdout


def offered_types():
    return set(pasted("--list-types").decode().split("\n")) - {""}


async def connect(host, name):
    device_id, secret = host.devices[name]
    client, _ = await reconnect(host, device_id, secret, name=name)
    return client


async def view(host, name="Viewer"):
    """A connection of `name` viewing the screen (the portal's approval wait passed through)."""
    client = await connect(host, name)
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=30)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    await client.recv_type("screenStarted", timeout=30)
    return client


async def stop_viewing(client):
    await client.send({"type": "stopScreen"})
    await client.recv_type("screenStopped", timeout=30)


async def offer(client):
    return await client.recv_type("clipboardOffer", timeout=20)


async def set_clipboard(client, kind, data, paste=False):
    await client.send({"type": "clipboardSet", "kind": kind, "data": base64.b64encode(data).decode(), "paste": paste})
    return await client.recv_type("clipboardResult", timeout=30)


async def heard_until_answered(client):
    """Every message the host sent this connection up to the answer of a request made now: a copy offered to it
    would have gone out before that answer (one actor seals both, in order)."""
    await client.send({"type": "listDisplays"})
    seen = []
    while True:
        message = await client.recv(timeout=30)
        if isinstance(message, dict):
            seen.append(message["type"])
            if message["type"] == "displays":
                return seen


def test_text_travels_both_ways_with_hangul_and_emoji_intact(host, client, copier):
    async def scenario():
        viewer = await view(host)
        await asyncio.to_thread(copier, TEXT.encode())
        offered = await offer(viewer)
        assert offered["kind"] == "text" and offered["size"] == len(TEXT.encode()) and not offered["tooLarge"]
        assert base64.b64decode(offered["data"]).decode() == TEXT
        assert await set_clipboard(viewer, "text", "세계 👋 naïve\n".encode()) == {"type": "clipboardResult", "ok": True}
        # What the viewer pasted is the computer's clipboard now; it is not offered back to the viewer.
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        await stop_viewing(viewer)
        await viewer.close()

    run(scenario())
    assert pasted().decode() == "세계 👋 naïve\n"
    assert pasted("--type", "text/plain;charset=utf-8").decode() == "세계 👋 naïve\n"
    assert pasted("--type", "UTF8_STRING").decode() == "세계 👋 naïve\n"
    assert offered_types() == TEXT_TYPES | {MARKER}


def test_a_png_travels_both_ways_byte_for_byte(host, client, copier):
    picture, other = png(64, 48), png(30, 20)

    async def scenario():
        viewer = await view(host)
        await asyncio.to_thread(copier, picture, "image/png")
        offered = await offer(viewer)
        assert (offered["kind"], offered["width"], offered["height"]) == ("image", 64, 48)
        assert base64.b64decode(offered["data"]) == picture
        assert (await set_clipboard(viewer, "image", other))["ok"] is True
        await stop_viewing(viewer)
        await viewer.close()

    run(scenario())
    assert pasted("--type", "image/png") == other
    assert offered_types() == {"image/png", MARKER}


def test_a_mebibyte_of_text_is_offered_and_more_is_offered_as_too_large(host, client, copier):
    unit = "가나다 🙂 abc\n"
    text = (unit * ((1 << 20) // len(unit.encode()) + 1)).encode()[: 1 << 20]
    text = text[: len(text.decode("utf-8", "ignore").encode())]
    text += b"x" * ((1 << 20) - len(text))

    async def scenario():
        viewer = await view(host)
        await asyncio.to_thread(copier, text)
        offered = await offer(viewer)
        assert offered["size"] == 1 << 20 and base64.b64decode(offered["data"]) == text
        await asyncio.to_thread(copier, b"y" * (20 << 20))
        assert await offer(viewer) == {"type": "clipboardOffer", "kind": "text", "size": 20 << 20, "tooLarge": True}
        # A mebibyte the other way: wl-paste reads all of it from the host's pipe.
        assert (await set_clipboard(viewer, "text", text[::-1].decode("utf-8", "ignore").encode()))["ok"] is True
        await stop_viewing(viewer)
        await viewer.close()

    run(scenario())
    assert pasted() == text[::-1].decode("utf-8", "ignore").encode()


def test_only_the_viewer_allowed_hears_what_is_copied(host, client, copier):
    async def scenario():
        # A viewer without the clipboard permission hears nothing.
        plain = await view(host, "Plain")
        await asyncio.to_thread(copier, b"for nobody")
        assert "clipboardOffer" not in await heard_until_answered(plain)
        await stop_viewing(plain)
        # Allowed but not viewing: nothing either, while the viewer hears the copy.
        idle = await connect(host, "Idle")
        viewer = await view(host)
        await asyncio.to_thread(copier, b"for the viewer")
        assert base64.b64decode((await offer(viewer))["data"]) == b"for the viewer"
        assert "clipboardOffer" not in await heard_until_answered(idle)
        assert "clipboardOffer" not in await heard_until_answered(plain)
        await stop_viewing(viewer)
        for device in (plain, idle, viewer):
            await device.close()

    run(scenario())


# The chord as the window gets it: the key's name and the Control (4) and Shift (1) bits of its state.
@pytest.mark.parametrize("app_id, chord", [("gtk_pattern.py", ("v", 4)), ("foot", ("v", 5))])
def test_the_paste_chord_follows_the_focused_app_id(host, client, tmp_path, monkeypatch, app_id, chord):
    # GTK names a window's app id after the program: a link called `foot` makes the pattern window a terminal's.
    if app_id != "gtk_pattern.py":
        link = tmp_path / app_id
        link.symlink_to(test_mutter_live.CLIENT)
        monkeypatch.setattr(test_mutter_live, "CLIENT", link)
    window = GTKClient(["--tick", "5"]) if app_id != "gtk_pattern.py" else client
    try:
        tree = subprocess.run(["swaymsg", "-s", sway_socket(), "-t", "get_tree"], capture_output=True, text=True,
                              timeout=20).stdout
        assert f'"app_id": "{app_id}"' in tree, "the window's app id is not what the test expects"
        mark = len(window.since(0))

        async def scenario():
            viewer = await view(host)
            # The first key of the viewing goes to the window the test started last, which sway focused.
            assert (await set_clipboard(viewer, "text", b"pasted", paste=True))["ok"] is True
            await stop_viewing(viewer)
            await viewer.close()

        run(scenario())
        assert window.wait(lambda e: e["event"] == "key-press" and e["name"] in ("v", "V"), 20, mark) is not None
        presses = [(e["name"], e["state"] & 5) for e in window.since(mark) if e["event"] == "key-press"
                   and e["name"] in ("v", "V")]
        assert presses == [chord], presses
        assert pasted() == b"pasted"
    finally:
        if window is not client:
            window.stop()


def huge_png_header():
    """A PNG whose header says 10000×10000 (only the header counts)."""
    whole = png(4, 4)
    header = struct.pack(">IIBBBBB", 10000, 10000, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return whole[:8] + ihdr + whole[8 + 25:]


def test_copies_that_break_the_rules_are_not_offered_as_content(host, client, copier):
    unreadable = "a copy on the computer could not be read"

    async def scenario():
        bad = ((b"caf\xc3(", "text/plain;charset=utf-8", "the copied text is not UTF-8"),
               (b"GIF89a" + b"\0" * 64, "image/png", "the copied image is not a PNG file"))
        for data, mime, reason in bad:
            # One viewing each: the log folds a repeated line until a different one comes.
            viewer = await view(host)
            said = host.log().count(unreadable)
            await asyncio.to_thread(copier, data, mime)
            assert eventually(lambda: host.log().count(unreadable) > said, 30), host.log()
            assert f"could not be read clipboard.reason={reason}" in host.log(), host.log()
            assert "clipboardOffer" not in await heard_until_answered(viewer)
            await stop_viewing(viewer)
            await viewer.close()
        viewer = await view(host)
        await asyncio.to_thread(copier, huge_png_header(), "image/png")
        assert await offer(viewer) == {"type": "clipboardOffer", "kind": "image", "size": len(huge_png_header()),
                                       "tooLarge": True, "width": 10000, "height": 10000}
        await stop_viewing(viewer)
        await viewer.close()

    run(scenario())


@pytest.mark.parametrize("mode", ["never", "stall"])
def test_an_app_that_never_hands_its_copy_over_or_stalls_mid_transfer_does_not_stop_the_next(host, client, copier,
                                                                                           tmp_path, mode):
    # wl-copy serves each paste by running `cat FILE` into the pipe; a `cat` earlier on its PATH that writes
    # nothing (never) or the first 64 KiB of 1 MiB (stall) and then sleeps makes it an app that stops mid-way.
    fake = tmp_path / "bin" / "cat"
    fake.parent.mkdir()
    handed = "" if mode == "never" else 'head -c 65536 "$1"; '
    fake.write_text(f'#!/bin/sh\n[ $# -eq 0 ] && exec /bin/cat\n{handed}exec sleep 120\n')
    fake.chmod(0o755)
    ran = tmp_path / "pressed"
    key = {"label": "Mark", "kind": "command", "command": f"echo pressed >> '{ran}'"}
    unreadable = "a copy on the computer could not be read"
    owner = None

    async def scenario():
        nonlocal owner
        viewer = await view(host)
        idle = await connect(host, "Idle")
        said = host.log().count(unreadable)
        owner = subprocess.Popen(["wl-copy", "--foreground", "--type", "text/plain;charset=utf-8"],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"},
                                 start_new_session=True)
        owner.stdin.write(b"s" * (1 << 20))
        owner.stdin.close()
        # While the host waits on the app, another device's sealed press is answered.
        assert (await press_key(idle, 0, key))["ok"] is True
        assert eventually(lambda: ran.exists() and ran.read_text() == "pressed\n", 30), "the key did not run"
        # 3 s without a byte end the read: the log says why, and the viewer is offered nothing.
        assert eventually(lambda: host.log().count(unreadable) > said, 30), host.log()
        assert "the app that copied did not hand the data over" in host.log()
        assert "clipboardOffer" not in await heard_until_answered(viewer)
        await idle.close()
        await asyncio.to_thread(copier, b"next copy")
        assert base64.b64decode((await offer(viewer))["data"]) == b"next copy"
        await stop_viewing(viewer)
        await viewer.close()

    try:
        run(scenario())
    finally:
        if owner:
            os.killpg(owner.pid, signal.SIGKILL)
            owner.wait(10)


def test_the_web_viewer_pastes_and_copies_through_sway(host, client, copier):
    """Chromium with the clipboard permission granted through CDP: Paste sets the seat's selection; a copy made with
    wl-copy shows the offer bar, whose Copy writes the browser's clipboard."""
    browser = Browser()
    driver = browser.driver
    try:
        pair_as_viewer(browser, host, "Web viewer")
        host.cli("devices", "allow-clipboard", "Web viewer", "on")
        driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": host.https.rstrip("/"), "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        start_viewing(driver)
        driver.execute_async_script(
            "navigator.clipboard.writeText(arguments[0]).then(() => arguments[1](true))", "세계 👋 from Chromium")
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="paste"]').click()
        # wl-paste fails while the seat has no selection yet: read without check until the paste arrives.
        selection = lambda: subprocess.run(["wl-paste", "--no-newline"], capture_output=True, timeout=20).stdout  # noqa: E731
        wait(driver, lambda d: selection() == "세계 👋 from Chromium".encode(), 20, "the paste in the seat's selection")
        copier("Copied on sway: 안녕 🙂".encode())
        bar = driver.find_element(By.CSS_SELECTOR, ".clipboard-offer")
        wait(driver, lambda d: bar.is_displayed() and "Copied on sway" in bar.text, 20, "the offer bar")
        bar.find_element(By.CSS_SELECTOR, ".clipboard-copy").click()
        wait(driver, lambda d: not bar.is_displayed(), 20, "the bar to go once copied")
        copied = driver.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('error: ' + e))")
        assert copied == "Copied on sway: 안녕 🙂"
        driver.execute_script("window.touchdeckViewer.shown(false)")
    finally:
        browser.quit()


def test_doctor_names_the_clipboard_back_end(host):
    doctor = host.cli("doctor", check=False)
    assert "ok   clipboard: wlroots' data control, for a viewer allowed to" in doctor, doctor


def sway_socket():
    folder = os.path.dirname(os.environ["WAYLAND_DISPLAY"])
    return next(os.path.join(folder, name) for name in os.listdir(folder) if name.startswith("sway-ipc."))
