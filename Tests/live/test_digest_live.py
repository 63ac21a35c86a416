"""A recording's first fetch hashes the whole file (its SHA-256 goes with every chunk). Issue 20 measured two
2 GiB recordings stalling every device for up to 7 s while that ran on the actor's pool. The digest runs on the
file threads (FileWork), so another device is answered meanwhile: here its presses are all answered before the
big fetches are, and the fetched digest is the file's own.

The files are sparse (2 GiB of holes: no disk is written, the kernel hands over zeros), so hashing them takes
seconds of CPU, not of disk."""

import asyncio
import hashlib
import os

from livehelpers import Daemon, paired_device, run

GIB = 1 << 30


def make_host(tmp_path):
    home = tmp_path / "home"
    videos = home / "Movies"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "user-dirs.dirs").write_text(f'XDG_VIDEOS_DIR="{videos}"\n')
    folder = videos / "TouchDeck"
    folder.mkdir(parents=True, mode=0o700)
    for name in ("first.mp4", "second.mp4"):
        with open(folder / name, "wb") as sparse:
            sparse.truncate(2 * GIB)
    return Daemon(home=home).start()


def zeros_digest(size):
    digest = hashlib.sha256()
    block = bytes(1 << 20)
    for _ in range(size // len(block)):
        digest.update(block)
    return digest.hexdigest()


def test_hashing_two_2_gib_recordings_does_not_hold_up_another_device(tmp_path):
    host = make_host(tmp_path)
    try:
        async def scenario():
            other, _, _ = await paired_device(host, "Other")
            # One fetch in flight per connection: a fetcher per file.
            fetchers = []
            for name in ("Fetcher A", "Fetcher B"):
                fetchers.append((await paired_device(host, name))[0])
                host.cli("devices", "allow-screen", name, "on")
            events, fetched = [], []
            for fetcher, name in zip(fetchers, ("first.mp4", "second.mp4")):
                await fetcher.send({"type": "fetchRecording", "name": name, "offset": 0})

            async def read_chunk(fetcher):
                chunk = await fetcher.recv_type("recordingChunk", timeout=120)
                fetched.append(chunk)
                events.append(("chunk", chunk["name"]))

            async def press_meanwhile():
                for _ in range(5):
                    await other.send({"type": "press", "page": 0, "index": 11})
                    result = await other.recv_type("pressResult", timeout=60)
                    assert result["index"] == 11 and result["ok"] is False, result
                    events.append(("press", None))

            await asyncio.gather(*(read_chunk(fetcher) for fetcher in fetchers), press_meanwhile())
            for client in [other] + fetchers:
                await client.close()
            return events, fetched

        events, fetched = run(scenario())
    finally:
        host.stop()
    kinds = [kind for kind, _ in events]
    # Five presses answered while the two digests ran: none of them waited for a chunk.
    assert kinds == ["press"] * 5 + ["chunk"] * 2, events
    expected = zeros_digest(2 * GIB)
    assert {chunk["name"]: (chunk["size"], chunk["sha256"]) for chunk in fetched} == {
        "first.mp4": (2 * GIB, expected), "second.mp4": (2 * GIB, expected)}, fetched
