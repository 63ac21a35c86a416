"""The seed attack table and garbage handshake messages, sent to the Swift host side (touchdeck-peer).

Every refused message must leave the connection usable: each test ends with a sealed echo that works.
"""

import asyncio
import base64

import pytest

from swift_peer import PIN, WRONG_PIN, paired_and_authorized, peer
from touchdeck import p256
from touchdeck.client import PairingFailed
from touchdeck.handshake import DevicePairing
from touchdeck.spake2 import M, password_scalar


def b64(data):
    return base64.b64encode(data).decode()


def flip_last_byte(data):
    return data[:-1] + bytes([data[-1] ^ 0x01])


async def still_echoes(client):
    await client.send({"type": "echo", "text": "still here"})
    assert await client.recv() == {"type": "echo", "text": "still here"}


def is_bad_message(reply, field_missing=False):
    """pairingFailed{badMessage} (§3). A message missing a required field fails to decode at all, so for it
    the generic error{code:badMessage} is as good an answer (the Swift host gives that one)."""
    if reply.get("type") == "pairingFailed" or not field_missing:
        return reply.get("reason") == "badMessage"
    return reply.get("type") == "error" and reply.get("code") == "badMessage"


async def expect_error(client, code):
    reply = await client.recv()
    assert reply == {**reply, "type": "error", "code": code}


def run_authorized(attack):
    """Pairs and authenticates with the peer, runs `attack(client)`, then checks the session still works."""
    async def run():
        async with peer() as client:
            await paired_and_authorized(client)
            await attack(client)
            await still_echoes(client)
    asyncio.run(run())


def test_text_box_with_flipped_last_byte_gets_bad_seal():
    async def attack(client):
        envelope = client.channel.seal_text({"type": "echo", "text": "x"})
        box = flip_last_byte(base64.b64decode(envelope["box"]))
        await client.send_plain(dict(envelope, box=b64(box)))
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_binary_with_flipped_last_byte_gets_bad_seal():
    async def attack(client):
        await client.send_raw_binary(flip_last_byte(client.channel.seal_binary(b"frame")))
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_changed_seq_gets_bad_seal():
    async def attack(client):
        envelope = client.channel.seal_text({"type": "echo", "text": "x"})
        await client.send_plain(dict(envelope, seq=envelope["seq"] + 5))
        await expect_error(client, "badSeal")
        sealed = client.channel.seal_binary(b"frame")
        await client.send_raw_binary((9).to_bytes(8, "big") + sealed[8:])
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_replayed_text_and_binary_get_bad_seal():
    async def attack(client):
        envelope = client.channel.seal_text({"type": "echo", "text": "once"})
        await client.send_plain(envelope)
        assert await client.recv() == {"type": "echo", "text": "once"}
        await client.send_plain(envelope)
        await expect_error(client, "badSeal")
        sealed = client.channel.seal_binary(b"once")
        await client.send_raw_binary(sealed)
        assert await client.recv() == b"once"
        await client.send_raw_binary(sealed)
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_text_box_sent_as_binary_and_binary_sent_as_text_get_bad_seal():
    async def attack(client):
        envelope = client.channel.seal_text({"type": "echo", "text": "x"})
        forged_binary = envelope["seq"].to_bytes(8, "big") + base64.b64decode(envelope["box"])
        await client.send_raw_binary(forged_binary)
        await expect_error(client, "badSeal")
        sealed = client.channel.seal_binary(b'{"type":"echo","text":"x"}')
        seq = int.from_bytes(sealed[:8], "big")
        await client.send_plain({"type": "secure", "seq": seq, "box": b64(sealed[8:])})
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_reflected_host_messages_get_bad_seal():
    async def attack(client):
        await client.send({"type": "echo", "text": "mirror"})
        await client.transport.send_text(await client.transport.recv())  # the host's own sealed echo
        await expect_error(client, "badSeal")
        await client.send_sealed_binary(b"mirror")
        await client.transport.send_binary(await client.transport.recv())
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_seq_zero_gets_bad_seal():
    async def attack(client):
        await client.send_plain({"type": "secure", "seq": 0, "box": b64(bytes(40))})
        await expect_error(client, "badSeal")
    run_authorized(attack)


def test_plain_messages_after_authorization_must_be_sealed():
    async def attack(client):
        await client.send_plain({"type": "press", "page": 0, "index": 0})
        await expect_error(client, "mustBeSealed")
        await client.send_plain(DevicePairing(PIN).start())
        await expect_error(client, "mustBeSealed")
    run_authorized(attack)


def test_sealed_handshake_messages_after_authorization_are_bad_messages():
    async def attack(client):
        for message in (DevicePairing(PIN).start(), {"type": "hello", "name": "again"}):
            await client.send(message)
            reply = await client.recv()
            assert client.last_sealed, "errors after authorization are sealed"
            assert reply == {"type": "error", "code": "badMessage", "request": message["type"],
                             "message": f"{message['type']}: handshake messages are not accepted after authorization"}
    run_authorized(attack)


OFF_CURVE = b64(b"\x04" + (1).to_bytes(32, "big") * 2)
GOOD_POINT = p256.encode(p256.multiply(5, p256.G))


@pytest.mark.parametrize("pair_start", [
    {"type": "pairStart", "name": "x"},
    {"type": "pairStart", "pA": "%%%"},
    {"type": "pairStart", "pA": b64(GOOD_POINT[:40])},
    {"type": "pairStart", "pA": b64(GOOD_POINT + b"\x00")},
    {"type": "pairStart", "pA": OFF_CURVE},
    {"type": "pairStart", "pA": b64(bytes(65))},
], ids=["missing", "not-base64", "truncated", "too-long", "off-curve", "zeros"])
def test_garbage_pair_start_is_bad_message_and_costs_no_try(pair_start):
    async def run():
        async with peer() as client:
            await client.hello("garbage")
            await client.send_plain(pair_start)
            assert is_bad_message(await client.recv(), field_missing="pA" not in pair_start)
            with pytest.raises(PairingFailed) as wrong:
                await client.pair(WRONG_PIN)
            assert wrong.value.remaining == 4
    asyncio.run(run())


@pytest.mark.parametrize("c_a", [b64(bytes(31)), b64(bytes(33)), "!!", None])
def test_garbage_pair_confirm_is_bad_message_and_costs_only_its_starts_try(c_a):
    async def run():
        async with peer() as client:
            await client.hello("garbage")
            pairing = DevicePairing(PIN)
            await client.send_plain(pairing.start())
            assert (await client.recv())["type"] == "pairChallenge"
            confirm = {"type": "pairConfirm"} if c_a is None else {"type": "pairConfirm", "cA": c_a}
            await client.send_plain(confirm)
            assert is_bad_message(await client.recv(), field_missing=c_a is None)
            # The accepted pairStart spent a try (§3); the garbage confirmation spent no other.
            with pytest.raises(PairingFailed) as wrong:
                await client.pair(WRONG_PIN)
            assert wrong.value.remaining == 3
            device_id, secret = await client.pair(PIN)
            assert (await client.authenticate(device_id, secret))["type"] == "authorized"
    asyncio.run(run())


def test_pair_confirm_without_a_challenge_is_bad_message():
    async def run():
        async with peer() as client:
            await client.hello("eager")
            await client.send_plain({"type": "pairConfirm", "cA": b64(bytes(32))})
            reply = await client.recv()
            assert reply["type"] == "pairingFailed" and reply["reason"] == "badMessage"
    asyncio.run(run())


def test_a_pa_that_cancels_the_blinding_for_the_right_pin_is_answered_like_a_wrong_guess():
    # pA = w·M makes the host's K the point at infinity exactly when w is the PIN's: the host must not say so.
    async def run():
        async with peer() as client:
            await client.hello("sneaky")
            answers = []
            for pin in (PIN, WRONG_PIN):
                w_m = p256.encode(p256.multiply(password_scalar(pin), M))
                await client.send_plain({"type": "pairStart", "name": "x", "pA": b64(w_m)})
                challenge = await client.recv()
                assert challenge["type"] == "pairChallenge" and len(base64.b64decode(challenge["pB"])) == 65
                await client.send_plain({"type": "pairConfirm", "cA": b64(bytes(32))})
                answers.append(await client.recv())
            assert answers == [{"type": "pairingFailed", "reason": "wrongPin", "remaining": 4},
                               {"type": "pairingFailed", "reason": "wrongPin", "remaining": 3}]
    asyncio.run(run())


def test_messages_before_authorization_are_not_authorized():
    async def run():
        async with peer() as client:
            await client.hello("early")
            await client.send_plain({"type": "press", "page": 0, "index": 0})
            assert await client.recv() == {"type": "unauthorized", "reason": "notAuthorized"}
            await client.send_plain({"type": "authFinish", "proof": b64(bytes(32))})
            assert await client.recv() == {"type": "unauthorized", "reason": "notAuthorized"}
    asyncio.run(run())


def test_garbage_auth_start_is_bad_message_and_the_connection_stays():
    async def run():
        async with peer() as client:
            await client.hello("garbage")
            device_id, secret = await client.pair(PIN)
            for e_a in [OFF_CURVE, b64(GOOD_POINT[:33]), "??"]:
                await client.send_plain({"type": "authStart", "deviceId": device_id, "eA": e_a})
                reply = await client.recv()
                assert reply["type"] == "error" and reply["code"] == "badMessage"
            assert (await client.authenticate(device_id, secret))["type"] == "authorized"
    asyncio.run(run())


def test_a_wrong_device_proof_is_refused_and_closes():
    async def run():
        async with peer() as client:
            await client.hello("forger")
            device_id, secret = await client.pair(PIN)
            auth_start = {"type": "authStart", "deviceId": device_id, "eA": b64(GOOD_POINT)}
            await client.send_plain(auth_start)
            assert (await client.recv())["type"] == "authChallenge"
            await client.send_plain({"type": "authFinish", "proof": b64(bytes(32))})
            assert await client.recv() == {"type": "unauthorized", "reason": "badProof"}
    asyncio.run(run())
