"""Interop with the Swift host side: `touchdeck-peer host --pin 123456` over stdin/stdout.

The peer is found at $TOUCHDECK_PEER, else .build/debug/touchdeck-peer under the repository root. A missing
peer fails these tests: they are the proof that the Swift and Python sides agree.
"""

import asyncio
import base64
import contextlib
import os
import pathlib

import pytest

from touchdeck.client import DeckClient, PairingFailed, Unauthorized
from touchdeck.handshake import HandshakeError

REPO = pathlib.Path(__file__).resolve().parents[2]
PIN = "123456"
WRONG_PIN = "654321"


def peer_path():
    path = pathlib.Path(os.environ.get("TOUCHDECK_PEER", REPO / ".build" / "debug" / "touchdeck-peer"))
    if not path.is_file():
        pytest.fail(f"touchdeck-peer not found at {path}: build it with `swift build --product touchdeck-peer` "
                    "or point TOUCHDECK_PEER at it")
    return str(path)


@contextlib.asynccontextmanager
async def peer():
    client = await DeckClient.spawn([peer_path(), "host", "--pin", PIN])
    try:
        yield client
    finally:
        await client.close()


async def paired_and_authorized(client):
    reply = await client.hello("Python reference client")
    assert reply["type"] == "needPairing"
    device_id, secret = await client.pair(PIN)
    authorized = await client.authenticate(device_id, secret)
    return device_id, secret, authorized


def test_pair_authenticate_and_echo_text_and_binary():
    async def run():
        async with peer() as client:
            device_id, secret, authorized = await paired_and_authorized(client)
            assert len(device_id) == 32 and device_id == device_id.lower() and int(device_id, 16) >= 0
            assert len(secret) == 32
            assert authorized["type"] == "authorized" and authorized["protocol"] == 2
            for text in ["hello", "Grüße, 안녕 🎛", ""]:
                await client.send({"type": "echo", "text": text})
                echoed = await client.recv()
                assert client.last_sealed and echoed == {"type": "echo", "text": text}
            for body in [b"\x00", bytes(range(256)) * 40, b"\x01\x03" + os.urandom(1000)]:
                await client.send_sealed_binary(body)
                assert await client.recv() == body and client.last_sealed
            assert client.channel.received_text == 4 and client.channel.received_binary == 3
    asyncio.run(run())


def test_five_wrong_pins_count_down_then_the_pin_is_dead():
    async def run():
        async with peer() as client:
            await client.hello("guesser")
            remaining = []
            for _ in range(5):
                with pytest.raises(PairingFailed) as failed:
                    await client.pair(WRONG_PIN)
                assert failed.value.reason == "wrongPin"
                remaining.append(failed.value.remaining)
            assert remaining == [4, 3, 2, 1, 0]
            with pytest.raises(PairingFailed) as dead:
                await client.pair(PIN)
            assert dead.value.reason == "noPin" and dead.value.remaining == 0
    asyncio.run(run())


def test_the_right_pin_still_pairs_after_fewer_than_five_mistakes():
    async def run():
        async with peer() as client:
            await client.hello("clumsy")
            for expected in [4, 3]:
                with pytest.raises(PairingFailed) as failed:
                    await client.pair(WRONG_PIN)
                assert failed.value.remaining == expected
            device_id, secret = await client.pair(PIN)
            assert (await client.authenticate(device_id, secret))["type"] == "authorized"
    asyncio.run(run())


def test_device_refuses_a_host_proof_made_with_another_secret():
    async def run():
        async with peer() as client:
            await client.hello("forgetful")
            device_id, secret = await client.pair(PIN)
            wrong = bytes(b ^ 0xFF for b in secret)
            with pytest.raises(HandshakeError, match="badProof"):
                await client.authenticate(device_id, wrong)
    asyncio.run(run())


def test_unknown_device_is_sent_back_to_pairing():
    async def run():
        async with peer() as client:
            await client.hello("stranger")
            with pytest.raises(Unauthorized) as refused:
                await client.authenticate("0123456789abcdef0123456789abcdef", bytes(32))
            assert refused.value.reason == "unknownDevice"
    asyncio.run(run())


def b64(data):
    return base64.b64encode(data).decode()
