"""The front door (DESIGN.md#transport) against the real daemon: what a stranger who has not authorized may take.

Before authorization a message is at most 64 KiB (1009 beyond, never buffered), a connection has a deadline
to authorize (1008), at most 8 connections per address (a ninth pushes out that address's oldest, 1013) and 64
strangers in all may wait (the oldest of the busiest address makes room, 1013), and a browser page of another origin cannot open a WebSocket at all (403). Text that is
not UTF-8 closes with 1007, and a flood however it arrives ends in `error{badMessage}` and 1008.
Strangers come from 127.0.0.N (see strangers.py); tests that need the deadline shorten it through
TOUCHDECK_TEST_FRONT_DOOR so they need not wait 30 s.
"""

import asyncio
import json

import pytest

from livehelpers import Daemon, paired_device, reconnect, rss, run
from strangers import (FRONT_DOOR_ENV, PRE_AUTH_MAX, RawSocket, close_all, frame, hello_answered, loopback,
                       open_strangers, spread, stranger)
from touchdeck.client import DeckClient
from touchdeck.transports import Closed

HELLO = json.dumps({"type": "hello", "name": "flood"}).encode()


async def close_of(client, timeout=20):
    """Reads until the host closes `client`; returns (messages, code, reason)."""
    seen = []
    while True:
        try:
            seen.append(await client.recv(timeout=timeout))
        except Closed as closed:
            return seen, closed.code, closed.reason


async def still_served(client, index=0):
    await client.send({"type": "press", "page": 0, "index": index})
    assert (await client.recv_type("pressResult"))["index"] == index


def daemon_with(home, limits):
    host = Daemon(home=home, env={FRONT_DOOR_ENV: limits})
    host.start()
    return host


@pytest.fixture
def short_deadline(tmp_path):
    """A deadline long enough to pair and authorize on a busy machine, short enough to wait for."""
    host = daemon_with(tmp_path, "grace=6")
    yield host
    host.stop()


@pytest.fixture
def patient(tmp_path):
    """The front door's limits (DESIGN.md#transport) but a deadline no test run reaches, so strangers wait for
    as long as a test needs."""
    host = daemon_with(tmp_path, "grace=600")
    yield host
    host.stop()


def test_a_message_over_64_KiB_before_authorization_closes_with_1009(daemon):
    async def scenario():
        device, device_id, secret = await paired_device(daemon, "Tablet")
        # Exactly 64 KiB is still a message: a hello padded to the limit is answered.
        at_limit = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        padding = PRE_AUTH_MAX - len(json.dumps({"type": "hello", "name": ""}))
        await at_limit.send_raw_text(json.dumps({"type": "hello", "name": "x" * padding}))
        assert (await at_limit.recv())["type"] == "needPairing"
        # One byte more closes the connection with 1009 (message too big).
        over = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        await over.send_raw_text(json.dumps({"type": "hello", "name": "x" * (padding + 1)}))
        assert (await close_of(over))[1] == 1009
        # A paired device past authorization may send far more: 1 MiB inside a sealed press.
        await device.send({"type": "press", "page": 0, "index": 2, "pad": "x" * (1 << 20)})
        assert (await device.recv_type("pressResult"))["index"] == 2
        await at_limit.close()
        await device.close()

    run(scenario())


def test_strangers_holding_unfinished_large_messages_cost_little_memory(daemon):
    async def scenario():
        device, _, _ = await paired_device(daemon, "Tablet")
        before = rss(daemon.process.pid) // 1024
        strangers = [RawSocket(daemon.port, address) for address in spread(64, 8)]
        # Each announces a 16 MiB message and sends 2 MiB of it: 128 MiB if the host buffered them all.
        unfinished = frame(b"x" * (2 << 20), announce=16 * 1024 * 1024 - 1)
        for raw in strangers:
            raw.send(unfinished)
        grown = rss(daemon.process.pid) // 1024 - before
        assert grown < 48 * 1024, f"the host grew by {grown} KiB for 64 strangers"
        codes = [raw.read_until_close()[1] for raw in strangers]
        assert codes == [1009] * 64, "each unfinished 16 MiB message is refused at its first piece"
        await still_served(device)
        for raw in strangers:
            raw.close()
        await device.close()

    run(scenario())


def test_a_connection_that_does_not_authorize_in_time_is_closed_with_1008(short_deadline):
    host = short_deadline

    async def scenario():
        device, device_id, secret = await paired_device(host, "Tablet")
        late = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
        assert (await hello_answered(late))["type"] == "needPairing"
        seen, code, reason = await close_of(late)
        assert (seen, code, reason) == ([], 1008, "did not authorize in time")
        # The device opened before the stranger and authorized: the deadline is not its.
        await still_served(device)
        again, _ = await reconnect(host, device_id, secret)
        await still_served(again, 1)
        await again.close()
        await device.close()

    run(scenario())


def test_a_ninth_connection_from_one_address_pushes_out_that_addresses_oldest_with_1013(patient):
    daemon = patient

    async def scenario():
        eight = await open_strangers(daemon.port, [loopback(2)] * 8)
        other = await open_strangers(daemon.port, [loopback(3)])
        ninth = await stranger(daemon.port, loopback(2))
        assert (await hello_answered(ninth))["type"] == "needPairing", "the newcomer gets in"
        seen, code, reason = await close_of(eight[0])
        assert (code, reason) == (1013, "too many connections waiting from this address; the oldest made room")
        # The other seven of that address and the other address still wait.
        for client in eight[1:] + other:
            assert (await hello_answered(client))["type"] == "needPairing"
        await close_all(eight + other + [ninth])

    run(scenario())


def test_a_full_waiting_room_makes_room_for_a_paired_device_every_time(patient):
    daemon = patient

    async def scenario():
        device, device_id, secret = await paired_device(daemon, "Tablet")
        await device.close()
        strangers = await open_strangers(daemon.port, spread(64, 8))
        evicted = []
        for round_number in range(3):
            again, _ = await reconnect(daemon, device_id, secret)
            await still_served(again, round_number)
            await again.close()
            # The busiest address's oldest stranger made room: 127.0.0.10's first, then 127.0.0.11's (the
            # first address then has 7 waiting, the others 8), then 127.0.0.12's.
            evicted.append(strangers[8 * round_number])
            seen, code, reason = await close_of(evicted[-1])
            assert (code, reason) == (1013, "too many connections waiting; the busiest address made room")
            # The device authorized and left the room; one more stranger fills it again.
            strangers += await open_strangers(daemon.port, [loopback(30 + round_number)])
        for client in strangers:
            if client not in evicted:
                assert (await hello_answered(client))["type"] == "needPairing", "the others still wait"
        await close_all(strangers)

    run(scenario())


@pytest.mark.parametrize("origin, upgraded", [
    (None, True),                                   # a board or a tool
    ("https://127.0.0.1:{port}", True),             # the app over HTTPS
    ("https://localhost:{port}", True),
    ("http://127.0.0.1:{port}", True),              # the app over plain HTTP on loopback
    ("http://localhost:{port}", True),
    ("https://evil.example", False),                # another site
    ("https://evil.example:{port}", False),
    ("https://127.0.0.1:{other}", False),           # another service on this computer
    ("http://127.0.0.1:{other}", False),
    ("null", False),                                # a sandboxed frame or a file: page
])
def test_a_browser_page_of_another_origin_cannot_open_a_websocket(daemon, origin, upgraded):
    header = origin.format(port=daemon.port, other=daemon.port + 1) if origin else None
    raw = RawSocket(daemon.port, origin=header)
    assert raw.status == (101 if upgraded else 403)
    raw.close()


def test_text_that_is_not_utf8_closes_with_1007(daemon):
    async def scenario():
        device, _, _ = await paired_device(daemon, "Tablet")
        for payload in [b"\xff\xfe", b'{"type":"hello","name":"\xc3"}', b"\xed\xa0\x80"]:  # bad, cut, surrogate
            raw = RawSocket(daemon.port)
            raw.send(frame(payload))
            assert raw.read_until_close()[1] == 1007
            raw.close()
        await still_served(device)
        await device.close()

    run(scenario())


def test_a_flood_always_ends_in_an_error_and_1008_however_it_is_written(daemon):
    async def one_write():
        raw = RawSocket(daemon.port)
        raw.send(b"".join(frame(HELLO) for _ in range(200)))
        texts, code, _ = await asyncio.to_thread(raw.read_until_close)
        raw.close()
        return json.loads(texts[-1]) if texts else None, code

    async def message_by_message():
        flood = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        try:
            for _ in range(200):
                await flood.send_plain({"type": "hello", "name": "flood"})
        except Closed:
            pass  # the host may close while the flood is still going out; what it said first must be there
        seen, code, _ = await close_of(flood)
        return (seen[-1] if seen else None), code

    async def scenario():
        expected = ({"type": "error", "code": "badMessage", "message": "too many messages before authorization"},
                    1008)
        for _ in range(20):
            assert await one_write() == expected
            assert await message_by_message() == expected

    run(scenario())
