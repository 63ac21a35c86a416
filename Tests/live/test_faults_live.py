"""Bad input and crashes against the real daemon: each hurts only the connection that sent it, the host
keeps serving everyone else, and a config is never left unreadable."""

import asyncio
import json
import os
import random
import signal
import socket
import time

from livehelpers import closed_code, paired_device, reconnect, run, until_closed
from touchdeck.client import DeckClient

BLOG = {"label": "Blog", "kind": "command", "command": "blogrun"}
MAX = 16 * 1024 * 1024


async def still_served(client, index):
    await client.send({"type": "press", "page": 0, "index": index})
    result = await client.recv_type("pressResult")
    assert result["index"] == index and result["ok"] is False


def raw_socket(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert b" 101 " in sock.recv(4096)
    return sock


def test_bad_input_hurts_only_its_own_connection(daemon):
    async def scenario():
        good, _, _ = await paired_device(daemon, "Good")

        bad = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        await bad.send_raw_text("{garbage")
        assert (await bad.recv())["code"] == "badMessage"
        await bad.send_raw_text('{"type":"launchMissiles"}')
        assert (await bad.recv()) == {"type": "error", "code": "unknownType", "message": "unknown type launchMissiles"}
        await bad.send_plain({"type": "press", "page": 0, "index": 0})
        assert (await bad.recv()) == {"type": "unauthorized", "reason": "notAuthorized"}
        await bad.send_raw_text('{"type":"pairConfirm","cA":"AAAA"}')
        assert (await bad.recv())["reason"] == "badMessage"
        await still_served(good, 1)

        await bad.send_raw_binary(b"\x00\x01binary")
        seen, code = await until_closed(bad)
        assert seen == [{"type": "error", "code": "badMessage", "message": "binary messages from a device are not allowed"}]
        assert code == 1003, "binary from a device closes with 1003 (unsupported data)"
        await still_served(good, 2)

        flood = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        # 45 at once: past the burst of 40, few enough that the host has read them all when it closes (more
        # unread bytes would make its kernel reset the connection and drop the error on the way).
        for _ in range(45):
            await flood.send_plain({"type": "hello", "name": "flood"})
        seen, code = await until_closed(flood)
        assert code == 1008, "a pre-authorization flood closes with 1008 (policy violation)"
        assert seen[-1] == {"type": "error", "code": "badMessage", "message": "too many messages before authorization"}
        assert len(seen) == 41
        await still_served(good, 3)

        huge = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        await huge.send_raw_text("x" * (MAX + 1))
        assert await closed_code(huge, timeout=30) == 1009
        await still_served(good, 4)

        await good.send_plain({"type": "press", "page": 0, "index": 0})
        assert (await good.recv())["code"] == "mustBeSealed"
        await good.send_raw_text('{"type":"secure","seq":99,"box":"AAAA"}')
        assert (await good.recv())["code"] == "badSeal"
        await good.send({"type": "hello", "name": "again"})
        assert (await good.recv())["code"] == "badMessage", "a sealed handshake message is out of place, not unsealed"
        await good.send({"type": "noSuchThing"})
        assert (await good.recv())["code"] == "unknownType"
        await still_served(good, 5)
        await good.close()

    run(scenario())


def test_truncated_and_malformed_frames_do_not_crash(daemon):
    async def scenario():
        good, _, _ = await paired_device(daemon, "Good")
        cases = [
            b"\x81",                                        # a header cut after one byte
            b"\x81\xfe\x10",                                # a 16-bit length cut short
            b"\x81\x85\x00\x00\x00\x00ab",                  # masked text, 5 bytes announced, 2 sent
            b"\x01\x83\x00\x00\x00\x00abc",                 # a first fragment and then nothing
            b"\x81\x7f\xff\xff\xff\xff\xff\xff\xff\xff",    # a 2^64-1 length
            b"\x81\x03abc",                                 # unmasked client frame
            b"\x8f\x80\x00\x00\x00\x00",                    # reserved opcode
        ]
        for frame in cases:
            sock = raw_socket(daemon.port)
            sock.sendall(frame)
            sock.close()
            await still_served(good, 6)
        assert daemon.process.poll() is None
        await good.close()

    run(scenario())


def test_a_corrupt_config_is_kept_aside_and_reported(tmp_path):
    from livehelpers import Daemon

    host = Daemon(home=tmp_path)
    host.config_dir.mkdir(parents=True)
    (host.config_dir / "config.json").write_text('{"layout": {"pages": [[')
    host.start()
    try:
        aside = list(host.config_dir.glob("config.json.corrupt-*"))
        assert len(aside) == 1 and aside[0].read_text() == '{"layout": {"pages": [['
        assert "config.json could not be read" in host.log()
        assert "kept it as config.json.corrupt-" in host.cli("status")

        async def scenario():
            client, _, _ = await paired_device(host, "Tablet")
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": BLOG})
            await client.recv_type("layout")
            await client.close()

        run(scenario())
        assert aside[0].read_text() == '{"layout": {"pages": [['
        assert host.saved_layout()["pages"][0][0] == BLOG
    finally:
        host.stop()


def test_kill_9_while_saving_never_leaves_an_unreadable_config(daemon):
    async def pair():
        client, device_id, secret = await paired_device(daemon, "Editor")
        await client.close()
        return device_id, secret

    device_id, secret = run(pair())

    async def edit_until_killed(round_number):
        client, _ = await reconnect(daemon, device_id, secret)
        killer = asyncio.get_running_loop().call_later(random.uniform(0.05, 0.4), os.kill, daemon.process.pid, signal.SIGKILL)
        try:
            for i in range(10_000):
                button = {"label": f"r{round_number}-{i}", "kind": "command", "command": "x" * (i % 500)}
                await client.send({"type": "setButton", "page": i % 3, "index": i % 12, "button": button})
                await client.recv_type("layout", timeout=5)
        except Exception:
            pass
        finally:
            killer.cancel()

    for round_number in range(12):
        run(edit_until_killed(round_number))
        daemon.process.wait(10)
        assert len(daemon.saved_layout()["pages"]) >= 1
        json.loads((daemon.config_dir / "devices.json").read_text())
        assert not list(daemon.config_dir.glob("*.corrupt-*"))
        daemon.start()
    assert "could not be read" not in daemon.log()
