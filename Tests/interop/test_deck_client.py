"""DeckClient end to end over the line transport, against python_peer.py (no Swift needed)."""

import asyncio
import pathlib
import sys

from touchdeck.client import DeckClient

PEER = pathlib.Path(__file__).resolve().parent / "python_peer.py"


async def connected_client():
    client = await DeckClient.spawn([sys.executable, str(PEER), "123456"])
    assert (await client.hello("test"))["type"] == "needPairing"
    assert client.host_name == "python-peer" and client.host_protocol == 2
    device_id, secret = await client.pair("123456")
    authorized = await client.authenticate(device_id, secret)
    assert authorized == {"type": "authorized", "protocol": 2, "hostName": "python-peer"}
    return client


def test_client_pairs_authenticates_and_round_trips_sealed_messages():
    async def run():
        client = await connected_client()
        await client.send({"type": "echo", "text": "one"})
        await client.send_sealed_binary(b"\x02\x02frame")
        await client.send({"type": "echo", "text": "two"})
        assert await client.recv_type("echo") == {"type": "echo", "text": "one"}
        assert await client.recv() == b"\x02\x02frame" and client.last_sealed
        assert await client.recv() == {"type": "echo", "text": "two"} and client.last_sealed
        await client.close()
    asyncio.run(run())


def test_recv_type_skips_other_messages_and_binaries():
    async def run():
        client = await connected_client()
        await client.send_sealed_binary(b"skip me")
        await client.send({"type": "other"})
        await client.send({"type": "echo", "text": "wanted"})
        assert (await client.recv_type("echo"))["text"] == "wanted"
        await client.close()
    asyncio.run(run())


def test_recv_binary_skips_text():
    async def run():
        client = await connected_client()
        await client.send({"type": "echo", "text": "ignored"})
        await client.send_sealed_binary(b"\x01\x00")
        assert await client.recv_binary() == b"\x01\x00"
        await client.close()
    asyncio.run(run())


def test_client_over_a_websocket():
    from python_peer import serve_websocket

    async def run():
        server = await serve_websocket("123456")
        port = server.sockets[0].getsockname()[1]
        client = await DeckClient.connect(f"ws://127.0.0.1:{port}/ws")
        await client.hello("ws test")
        device_id, secret = await client.pair("123456")
        assert (await client.authenticate(device_id, secret))["type"] == "authorized"
        await client.send({"type": "echo", "text": "over ws"})
        assert await client.recv_type("echo") == {"type": "echo", "text": "over ws"}
        await client.send_sealed_binary(b"\x02")
        assert await client.recv_binary() == b"\x02"
        await client.close()
        server.close()
        await server.wait_closed()
    asyncio.run(run())
