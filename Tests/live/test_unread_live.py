"""A paired device that asks and does not read (issue 20.1, PROTOCOL §0): the host's memory stays bounded,
the stalled connection is closed, and other devices are served meanwhile.

A stalled reader is a reference client whose socket reads are paused (`pause_reading`): its kernel buffers
fill, then whatever the host answers waits in the host. It keeps asking, and it sends an unsolicited pong
every second, as a device's TCP stack and WebSocket library would go on doing while its app reads nothing.
RSS is the daemon's VmRSS from /proc, sampled every 50 ms."""

import asyncio
import base64
import os
import threading
import time

from livehelpers import Daemon, paired_device, reconnect, rss, run
from touchdeck.transports import Closed

MIB = 1024 * 1024
ALLOWED_GROWTH = 64 * MIB
CHUNK = 262144  # PROTOCOL §6: the data of one recordingChunk
KEEP_ALIVE = 15  # PROTOCOL §0


class PeakRSS:
    """The highest VmRSS of `pid` while it runs."""

    def __init__(self, pid):
        self.pid, self.peak, self._stop = pid, rss(pid), threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *_):
        self._stop.set()
        self._thread.join()

    def _sample(self):
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, rss(self.pid))


def make_host(tmp_path, apps=0):
    """A daemon whose videos folder holds a 48 MiB `big.mp4` of random bytes (the library serves any regular
    .mp4), and with `apps` desktop entries whose 128 KiB icons make `apps` megabytes (14: 2.5 MB, the size
    issue 20 measured)."""
    home = tmp_path / "home"
    videos = home / "Movies"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "user-dirs.dirs").write_text(f'XDG_VIDEOS_DIR="{videos}"\n')
    folder = videos / "TouchDeck"
    folder.mkdir(parents=True, mode=0o700)
    (folder / "big.mp4").write_bytes(os.urandom(48 * MIB))
    entries = home / ".local/share/applications"
    entries.mkdir(parents=True)
    icons = home / "icons"
    icons.mkdir()
    for index in range(apps):
        icon = icons / f"big-{index}.png"
        icon.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(128 * 1024))
        (entries / f"td-big-{index}.desktop").write_text(
            f"[Desktop Entry]\nType=Application\nName=Big {index}\nExec=true\nIcon={icon}\n")
    # Only these entries: the computer's own apps would make the answer's size depend on the machine.
    system = tmp_path / "system-share"
    (system / "applications").mkdir(parents=True)
    return Daemon(home=home, env={"XDG_DATA_DIRS": str(system)}).start()


async def pong(client):
    await client.transport.socket.pong(b"")


async def served_meanwhile(client, stop, delays):
    """Presses an empty slot every 0.3 s until `stop`; each answer's delay goes into `delays`."""
    while not stop.is_set():
        started = time.monotonic()
        await client.send({"type": "press", "page": 0, "index": 11})
        result = await client.recv_type("pressResult", timeout=5)
        assert result["ok"] is False and result["index"] == 11
        delays.append(time.monotonic() - started)
        await asyncio.sleep(0.3)


async def ask_without_reading(client, request, every, until):
    """Sends `request(n)` every `every` s and a pong every second until `until` (monotonic) or until the host
    has dropped the connection; returns when that was (None: still open), measured from the first send."""
    client.pause_reading()
    started = last_pong = time.monotonic()
    sent = 0
    while time.monotonic() < until:
        try:
            await client.send(request(sent))
            if time.monotonic() - last_pong >= 1:
                await pong(client)
                last_pong = time.monotonic()
        except (Closed, ConnectionError):
            return time.monotonic() - started
        sent += 1
        await asyncio.sleep(every)
    return None


def test_four_stalled_fetchers_keep_memory_flat_and_are_dropped_after_the_keep_alive(tmp_path):
    host = make_host(tmp_path)
    try:
        async def scenario():
            good, _, _ = await paired_device(host, "Good")
            fetcher, device_id, secret = await paired_device(host, "Fetcher")
            host.cli("devices", "allow-screen", "Fetcher", "on")
            # One fetch read to the end first: the file's digest is made once, before the baseline.
            await fetcher.send({"type": "fetchRecording", "name": "big.mp4", "offset": 0})
            chunk = await fetcher.recv_type("recordingChunk", timeout=20)
            assert chunk["size"] == 48 * MIB and len(base64.b64decode(chunk["data"])) == CHUNK
            fetchers = [fetcher] + [(await reconnect(host, device_id, secret))[0] for _ in range(3)]

            def fetch(n):
                return {"type": "fetchRecording", "name": "big.mp4", "offset": (n * CHUNK) % (48 * MIB)}

            stop, delays = asyncio.Event(), []
            baseline = rss(host.process.pid)
            with PeakRSS(host.process.pid) as memory:
                presses = asyncio.create_task(served_meanwhile(good, stop, delays))
                until = time.monotonic() + KEEP_ALIVE + 10
                dropped = await asyncio.gather(*(ask_without_reading(f, fetch, 0.02, until) for f in fetchers))
                stop.set()
                await presses
            growth = memory.peak - baseline
            print(f"RSS growth with 4 stalled fetchers: {growth / MIB:.1f} MiB; dropped after {dropped}")
            assert growth <= ALLOWED_GROWTH, f"RSS grew {growth / MIB:.0f} MiB with 4 stalled fetchers"
            assert all(d is not None for d in dropped), f"stalled fetchers still open after {KEEP_ALIVE + 10} s: {dropped}"
            # Dropped once their queue made no progress for the keep-alive timeout, pongs notwithstanding.
            assert all(KEEP_ALIVE - 3 <= d <= KEEP_ALIVE + 8 for d in dropped), dropped
            assert delays and max(delays) < 2, f"another device waited {max(delays):.1f} s for a press"
            await good.send({"type": "press", "page": 0, "index": 10})
            assert (await good.recv_type("pressResult"))["index"] == 10
            await good.close()

        run(scenario())
        assert host.process.poll() is None
    finally:
        host.stop()


def test_a_stalled_list_apps_loop_is_closed_with_1008_before_memory_grows(tmp_path):
    host = make_host(tmp_path, apps=14)
    try:
        async def scenario():
            good, _, _ = await paired_device(host, "Good")
            asker, _, _ = await paired_device(host, "No screen")  # paired at the computer: no screen permission
            await asker.send({"type": "listApps"})
            apps = await asker.recv_type("apps", timeout=20)
            assert len(apps["apps"]) == 14 and sum(len(app["icon"]) for app in apps["apps"]) > 2_400_000

            stop, delays = asyncio.Event(), []
            baseline = rss(host.process.pid)
            with PeakRSS(host.process.pid) as memory:
                presses = asyncio.create_task(served_meanwhile(good, stop, delays))
                await ask_without_reading(asker, lambda _: {"type": "listApps"}, 0.05, time.monotonic() + 8)
                growth = memory.peak - baseline
                print(f"RSS growth with a stalled listApps loop: {growth / MIB:.1f} MiB")
                assert growth <= ALLOWED_GROWTH, f"RSS grew {growth / MIB:.0f} MiB with a stalled listApps loop"
                # It reads again: what was written before the close arrives, then the close frame.
                asker.resume_reading()
                try:
                    while True:
                        await asker.recv(timeout=10)
                except Closed as closed:
                    assert (closed.code, closed.reason) == (1008, "too much unread")
                stop.set()
                await presses
            assert delays and max(delays) < 2, f"another device waited {max(delays):.1f} s for a press"
            await good.close()

        run(scenario())
        assert host.process.poll() is None
    finally:
        host.stop()
