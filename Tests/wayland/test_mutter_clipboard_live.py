"""The clipboard on GNOME under Wayland (issue 25; PROTOCOL §6 "Clipboard", DESIGN.md#clipboard): the real daemon on
a private headless Mutter (scripts/with-mutter) trades it through Mutter's RemoteDesktop clipboard, with a GTK
client (gtk_clipboard.py, the focused window) as the other app. Device → computer: what the viewer pastes is what
GTK pastes, text (Hangul and emoji intact) and a PNG byte for byte, and the paste chord lands in GTK's text field.
Computer → device: what GTK copies is offered to the viewer allowed to (text, an image, too large text as too
large) and to nobody else (checked on the wire). Bad input: GTK copying invalid UTF-8 or a GIF as image/png is
logged as unreadable, a 10000×10000 PNG and 20 MiB of text are offered as too large; invalid pastes get their
reasons, 20 MiB closes that connection alone, and a paste and a copy still work. The web viewer in Chromium pastes
into GTK and copies what GTK copied (the offer bar). Skipped outside scripts/with-mutter."""

import base64
import io
import json
import os
import pathlib
import struct
import subprocess
import sys
import threading
import time
import zlib

import pytest
from PIL import Image

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "live"))
sys.path.insert(0, str(HERE.parent / "support"))
from clipboards import png  # noqa: E402
from deskhome import eventually  # noqa: E402
from livehelpers import Daemon, closed_code, paired_device, reconnect, run  # noqa: E402

sys.path.insert(0, str(HERE.parent / "browser"))
from chromium import Browser  # noqa: E402
from pages import wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from viewer import pair_as_viewer, start_viewing  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("TOUCHDECK_MUTTER_SIZE") != "1280x720",
                                reason="needs scripts/with-mutter with its one 1280x720 monitor")

CLIENT = HERE / "gtk_clipboard.py"
TEXT = "안녕하세요 🙂 café ✓ 👩‍💻"


class GTKClipboard:
    """gtk_clipboard.py under the system Python (python3-gi): commands in, answers read on a thread. Stopped by
    PID."""

    def __init__(self):
        env = {**os.environ, "GDK_BACKEND": "wayland"}
        self.process = subprocess.Popen(["/usr/bin/python3", str(CLIENT)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, text=True)
        self.events = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.wait("ready", 30) is not None, "the GTK client never drew"

    def _read(self):
        for line in self.process.stdout:
            with self.lock:
                self.events.append(json.loads(line))
                self.lock.notify_all()

    def wait(self, event, seconds, start=0, match=lambda e: True):
        """The first `event` from index `start` on that `match`es, waiting up to `seconds`; None if none came."""
        ends = time.monotonic() + seconds
        with self.lock:
            while True:
                for record in self.events[start:]:
                    if record["event"] == event and match(record):
                        return record
                left = ends - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    return None
                self.lock.wait(left)

    def wait_focused(self, seconds=20):
        """Waits until the window has the keyboard focus (Wayland's condition for copying and pasting)."""
        ends = time.monotonic() + seconds
        with self.lock:
            while True:
                focus = [record["in"] for record in self.events if record["event"] == "focus"]
                if focus and focus[-1]:
                    return
                left = ends - time.monotonic()
                assert left > 0 and self.process.poll() is None, "the GTK window never got the keyboard focus"
                self.lock.wait(left)

    def ask(self, command, answer, seconds=20):
        """Sends one command and returns its answer."""
        with self.lock:
            mark = len(self.events)
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        record = self.wait(answer, seconds, start=mark)
        assert record is not None, f"the GTK client did not answer {command}"
        return record

    def copy_text(self, text):
        self.ask({"copy": "text", "text": text}, "copied")

    def copy_png(self, data):
        self.ask({"copy": "png", "data": base64.b64encode(data).decode()}, "copied")

    def copy_raw(self, target, data):
        self.ask({"copy": "raw", "target": target, "data": base64.b64encode(data).decode()}, "copied")

    def paste_text(self):
        return self.ask({"paste": "text"}, "pasted")["text"]

    def paste(self, target):
        data = self.ask({"paste": "target", "target": target}, "pasted")["data"]
        return None if data is None else base64.b64decode(data)

    def targets(self):
        return self.ask({"targets": True}, "targets")["targets"]

    def stop(self):
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def gtk():
    client = GTKClipboard()
    yield client
    client.stop()


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    # The daemon gets its own XDG_RUNTIME_DIR: the compositor's socket is passed by its full path.
    wayland = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    daemon = Daemon(home=tmp_path_factory.mktemp("mutter-clipboard"), env={"WAYLAND_DISPLAY": wayland}).start()
    devices = {}

    async def pair():
        for name in ("Viewer", "Plain", "Idle"):
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


async def connect(host, name):
    device_id, secret = host.devices[name]
    client, _ = await reconnect(host, device_id, secret, name=name)
    return client


async def view(host, gtk, name="Viewer"):
    """A viewing by `name`; returns once the GTK window has the keyboard focus the viewing's session brings."""
    client = await connect(host, name)
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=30)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320, "fps": 30})
    await client.recv_type("screenStarted", timeout=30)
    gtk.wait_focused()
    return client


async def set_clipboard(client, kind, data, paste=False):
    await client.send({"type": "clipboardSet", "kind": kind, "data": base64.b64encode(data).decode(), "paste": paste})
    return await client.recv_type("clipboardResult", timeout=30)


async def heard_until_answered(client):
    """Every message the host sent this connection up to the answer of a request made now: a copy offered to
    it would have gone out before that answer (one actor seals both, in order)."""
    await client.send({"type": "listDisplays"})
    seen = []
    while True:
        message = await client.recv(timeout=30)
        if isinstance(message, dict):
            seen.append(message["type"])
            if message["type"] == "displays":
                return seen


def test_what_the_viewer_pastes_is_what_a_gtk_app_pastes(host, gtk):
    picture = png(30, 20)

    async def scenario():
        viewer = await view(host, gtk)
        assert await set_clipboard(viewer, "text", TEXT.encode()) == {"type": "clipboardResult", "ok": True}
        text, targets = gtk.paste_text(), gtk.targets()
        utf8 = gtk.paste("text/plain;charset=utf-8")
        assert (await set_clipboard(viewer, "image", picture))["ok"] is True
        image, image_targets = gtk.paste("image/png"), gtk.targets()
        await viewer.close()
        return text, targets, utf8, image, image_targets

    text, targets, utf8, image, image_targets = run(scenario())
    assert text == TEXT and utf8 == TEXT.encode()
    assert {"text/plain;charset=utf-8", "UTF8_STRING"} <= set(targets), targets
    assert image == picture
    assert "image/png" in image_targets and "UTF8_STRING" not in image_targets, image_targets


def test_the_paste_chord_lands_in_the_focused_gtk_field(host, gtk):
    async def scenario():
        viewer = await view(host, gtk)
        mark = len(gtk.events)
        assert (await set_clipboard(viewer, "text", "붙여넣기 ✓".encode(), paste=True))["ok"] is True
        field = gtk.wait("field", 20, start=mark, match=lambda e: e["text"] == "붙여넣기 ✓")
        await viewer.close()
        return field

    assert run(scenario()) is not None, "the pasted text never reached the GTK field (no Ctrl+V?)"


def test_what_a_gtk_app_copies_is_offered_to_the_viewer(host, gtk):
    picture = png(64, 48)
    large = "가" * ((1 << 20) // 3 + 1)  # 3 bytes each: just over 1 MiB

    async def scenario():
        viewer = await view(host, gtk)
        gtk.copy_text(TEXT)
        text = await viewer.recv_type("clipboardOffer", timeout=20)
        gtk.copy_png(picture)
        image = await viewer.recv_type("clipboardOffer", timeout=20)
        gtk.copy_text(large)
        too_large = await viewer.recv_type("clipboardOffer", timeout=20)
        await viewer.close()
        return text, image, too_large

    text, image, too_large = run(scenario())
    assert text["kind"] == "text" and not text["tooLarge"] and text["size"] == len(TEXT.encode())
    assert base64.b64decode(text["data"]).decode() == TEXT
    # GTK copies an image as a pixbuf and encodes the PNG itself: the pixels are the same, the bytes may not be.
    assert (image["kind"], image["width"], image["height"], image["tooLarge"]) == ("image", 64, 48, False)
    offered = Image.open(io.BytesIO(base64.b64decode(image["data"]))).convert("RGB")
    assert offered.tobytes() == Image.open(io.BytesIO(picture)).convert("RGB").tobytes()
    assert too_large == {"type": "clipboardOffer", "kind": "text", "size": len(large.encode()), "tooLarge": True}


def test_only_the_viewer_allowed_hears_what_is_copied(host, gtk):
    async def scenario():
        # A viewer without the clipboard permission hears nothing.
        plain = await view(host, gtk, "Plain")
        gtk.copy_text("for nobody")
        assert "clipboardOffer" not in await heard_until_answered(plain)
        await plain.send({"type": "stopScreen"})
        await plain.recv_type("screenStopped", timeout=30)
        # Allowed but not viewing: nothing either, while the viewer hears the copy.
        idle = await connect(host, "Idle")
        viewer = await view(host, gtk)
        gtk.copy_text("for the viewer")
        assert base64.b64decode((await viewer.recv_type("clipboardOffer", timeout=20))["data"]) == b"for the viewer"
        assert "clipboardOffer" not in await heard_until_answered(idle)
        assert "clipboardOffer" not in await heard_until_answered(plain)
        for client in (plain, idle, viewer):
            await client.close()

    run(scenario())


def huge_png_header():
    """A PNG whose header says 10000×10000 (only the header counts)."""
    whole = png(4, 4)
    header = struct.pack(">IIBBBBB", 10000, 10000, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return whole[:8] + ihdr + whole[8 + 25:]


def test_bad_copies_and_pastes_get_clear_answers_and_the_host_keeps_serving(host, gtk):
    unreadable = "a copy on the computer could not be read"

    async def scenario():
        # Copies that break the rules: not offered as content; the log says why (never what).
        for data, target, reason in ((b"caf\xc3(", "text/plain;charset=utf-8", "the copied text is not UTF-8"),
                                     (b"GIF89a" + b"\0" * 64, "image/png", "the copied image is not a PNG file")):
            viewer = await view(host, gtk)  # one viewing each: the log folds a repeated line
            said = host.log().count(unreadable)
            gtk.copy_raw(target, data)
            assert eventually(lambda: host.log().count(unreadable) > said, 30), host.log()
            assert f"could not be read clipboard.reason={reason}" in host.log(), host.log()
            assert "clipboardOffer" not in await heard_until_answered(viewer)
            await viewer.close()
        viewer = await view(host, gtk)
        gtk.copy_raw("image/png", huge_png_header())
        assert await viewer.recv_type("clipboardOffer", timeout=20) == {
            "type": "clipboardOffer", "kind": "image", "size": len(huge_png_header()), "tooLarge": True,
            "width": 10000, "height": 10000}
        gtk.copy_raw("text/plain;charset=utf-8", b"z" * (20 << 20))
        assert await viewer.recv_type("clipboardOffer", timeout=30) == {
            "type": "clipboardOffer", "kind": "text", "size": 20 << 20, "tooLarge": True}
        # Pastes that break the rules are refused with their reasons; 20 MiB closes that connection only.
        refusals = [
            ("text", b"caf\xc3(", "the text is not valid UTF-8"),
            ("image", b"GIF89a" + b"\0" * 64, "the image is not a PNG file"),
            ("image", huge_png_header(), "the image is 10000×10000 pixels; at most 8192×8192"),
        ]
        for kind, data, reason in refusals:
            assert await set_clipboard(viewer, kind, data) == {"type": "clipboardResult", "ok": False, "reason": reason}
        idle = await connect(host, "Idle")
        await idle.send({"type": "clipboardSet", "kind": "text", "data": base64.b64encode(b"z" * (20 << 20)).decode()})
        assert await closed_code(idle) == 1009
        assert (await set_clipboard(viewer, "text", "여전히 ✓".encode()))["ok"] is True
        pasted = gtk.paste_text()
        gtk.copy_text("after all that")
        offered = await viewer.recv_type("clipboardOffer", timeout=20)
        await viewer.close()
        return pasted, offered

    pasted, offered = run(scenario())
    assert pasted == "여전히 ✓"
    assert base64.b64decode(offered["data"]) == b"after all that"


def test_the_web_viewer_pastes_into_gtk_and_copies_what_gtk_copied(host, gtk):
    """Chromium with the clipboard permission granted through CDP: Paste reaches GTK's field (Ctrl+V) and its
    clipboard; GTK's copy shows the offer bar, whose Copy writes the browser's clipboard."""
    browser = Browser()
    driver = browser.driver
    try:
        pair_as_viewer(browser, host, "Web viewer")
        host.cli("devices", "allow-clipboard", "Web viewer", "on")
        driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": host.https.rstrip("/"), "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        start_viewing(driver)
        gtk.wait_focused()
        mark = len(gtk.events)
        driver.execute_async_script(
            "navigator.clipboard.writeText(arguments[0]).then(() => arguments[1](true))", "세계 👋 from Chromium")
        driver.find_element(By.CSS_SELECTOR, '.tool[data-tool="paste"]').click()
        arrived = gtk.wait("field", 20, start=mark, match=lambda e: e["text"] == "세계 👋 from Chromium")
        # What the page and the host said, should it not arrive (once in a full run, never alone; kept to tell why).
        toast = driver.execute_script("const t = document.querySelector('#toast'); return t.hidden ? '' : t.textContent")
        assert arrived is not None, (f"the paste did not reach GTK's field; GTK saw {gtk.events[mark:]}; the page "
                                     f"shows {toast!r}; the host logged:\n{host.log()[-3000:]}")
        assert gtk.paste_text() == "세계 👋 from Chromium"
        gtk.copy_text("Copied in GTK: 안녕 🙂")
        bar = driver.find_element(By.CSS_SELECTOR, ".clipboard-offer")
        wait(driver, lambda d: bar.is_displayed() and "Copied in GTK" in bar.text, 20, "the offer bar")
        bar.find_element(By.CSS_SELECTOR, ".clipboard-copy").click()
        wait(driver, lambda d: not bar.is_displayed(), 20, "the bar to go once copied")
        copied = driver.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('error: ' + e))")
        assert copied == "Copied in GTK: 안녕 🙂"
        driver.execute_script("window.touchdeckViewer.shown(false)")
    finally:
        browser.quit()
