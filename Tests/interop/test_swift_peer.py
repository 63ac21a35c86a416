"""Interop with the Swift host side over stdin/stdout: pairing, authentication, sealed echo, PIN counting."""

import asyncio
import os

import pytest

from swift_peer import PIN, WRONG_PIN, paired_and_authorized, peer
from touchdeck.client import PairingFailed, Unauthorized
from touchdeck.handshake import HandshakeError


def test_pair_authenticate_and_echo_text_and_binary():
    async def run():
        async with peer() as client:
            device_id, secret, authorized = await paired_and_authorized(client)
            assert len(device_id) == 32 and device_id == device_id.lower() and int(device_id, 16) >= 0
            assert len(secret) == 32
            assert authorized["type"] == "authorized" and authorized["protocol"] == 3
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

