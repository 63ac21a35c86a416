"""The PIN oracle, tried as a stranger on the network would, against the real daemon (PROTOCOL §3): a right-PIN
`pA = w·M` is answered like any wrong guess and costs a try, every accepted `pairStart` spends a try (a sixth
finds the PIN dead), the back-off holds across a restart, and the log names the peer's address, never the PIN."""

import base64
import os
import re

from livehelpers import paired_device, run
from touchdeck import p256
from touchdeck.client import DeckClient
from touchdeck.handshake import DeviceAuth, DevicePairing
from touchdeck.spake2 import M, password_scalar

WRONG_PIN = "000001"


def b64(data):
    return base64.b64encode(data).decode()


def mask_cancelling_start(pin):
    """`pairStart` with pA = w·M: the host's pA − w·M is the identity exactly when `pin` is its PIN."""
    return {"type": "pairStart", "name": "stranger", "pA": b64(p256.encode(p256.multiply(password_scalar(pin), M)))}


def other_pin(pin):
    return WRONG_PIN if pin != WRONG_PIN else "000002"


async def stranger(host):
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    assert (await client.hello("stranger"))["type"] == "needPairing"
    return client


async def kill_pin(host, pin):
    """Spends the live PIN's five tries with unconfirmed pairStarts; returns the sixth's answer."""
    client = await stranger(host)
    for _ in range(5):
        await client.send_plain(DevicePairing(pin).start())
        assert (await client.recv())["type"] == "pairChallenge"
    await client.send_plain(DevicePairing(pin).start())
    answer = await client.recv()
    await client.close()
    return answer


def test_the_right_pins_mask_cancelling_share_is_answered_like_a_wrong_guess_and_costs_a_try(daemon):
    pin = daemon.pin()

    async def scenario():
        client = await stranger(daemon)
        answers = []
        for guess in (pin, other_pin(pin)):
            await client.send_plain(mask_cancelling_start(guess))
            challenge = await client.recv()
            assert challenge["type"] == "pairChallenge", f"guess {'right' if guess == pin else 'wrong'}: {challenge}"
            assert sorted(challenge) == ["pB", "type"] and len(base64.b64decode(challenge["pB"])) == 65
            # Knowing no x, the stranger can only send some cA.
            await client.send_plain({"type": "pairConfirm", "cA": b64(bytes(32))})
            answers.append(await client.recv())
        assert answers == [{"type": "pairingFailed", "reason": "wrongPin", "remaining": 4},
                           {"type": "pairingFailed", "reason": "wrongPin", "remaining": 3}]
        # The PIN's owner, on the third try, still pairs.
        device = await stranger(daemon)
        device_id, secret = await device.pair(pin)
        assert (await device.authenticate(device_id, secret))["type"] == "authorized"
        for c in (client, device):
            await c.close()

    run(scenario())


def test_a_sixth_pair_start_on_one_pin_gets_no_pin_and_the_back_off_starts(daemon):
    pin = daemon.pin()

    async def scenario():
        assert await kill_pin(daemon, pin) == {"type": "pairingFailed", "reason": "noPin", "remaining": 0,
                                               "retryAfter": 30}
        # Dead as after five wrong PINs: the right PIN is refused, and a new device's hello brings no new PIN.
        client = await stranger(daemon)
        await client.send_plain(DevicePairing(pin).start())
        refused = await client.recv()
        assert refused["reason"] == "noPin" and 0 < refused["retryAfter"] <= 30
        await client.close()

    run(scenario())
    assert "a device asked to pair during the PIN back-off" in daemon.log()


def test_the_back_off_still_holds_after_a_restart(daemon):
    async def kill_four():
        # Four dead PINs in a row: 30, 60, 120, then a 240 s wait — far longer than a restart takes.
        for _ in range(4):
            answer = await kill_pin(daemon, daemon.pin())
            assert answer["reason"] == "noPin"
        return answer["retryAfter"]

    assert run(kill_four()) == 240
    saved = daemon.config_dir / "pairing-backoff.json"
    assert os.stat(saved).st_mode & 0o777 == 0o600
    daemon.stop()
    daemon.start()

    async def after():
        client = await stranger(daemon)
        await client.send_plain(DevicePairing(WRONG_PIN).start())
        refused = await client.recv()
        assert refused["type"] == "pairingFailed" and refused["reason"] == "noPin"
        assert 0 < refused["retryAfter"] <= 240
        await client.close()

    run(after())


def test_wrong_and_dead_pins_are_logged_with_the_address_never_the_pin(daemon):
    pin = daemon.pin()

    async def scenario():
        client = await stranger(daemon)
        for _ in range(5):
            await client.send_plain(DevicePairing(other_pin(pin)).start())
            pairing_reply = await client.recv()
            assert pairing_reply["type"] == "pairChallenge"
            await client.send_plain({"type": "pairConfirm", "cA": b64(bytes(32))})
            assert (await client.recv())["reason"] == "wrongPin"
        await client.close()

    run(scenario())
    log = daemon.log()
    wrong = [line for line in log.splitlines() if "wrong PIN" in line]
    dead = [line for line in log.splitlines() if "PIN dead" in line]
    # Repeated lines are folded ("… repeated 3 more times: … pin.remaining=3,2,1"); every try is still there.
    remaining = [int(n) for line in wrong for n in re.search(r"pin\.remaining=([\d,]+)", line)[1].split(",")]
    assert remaining == [4, 3, 2, 1, 0], log
    assert all("peer.address=127.0.0.1" in line for line in wrong), log
    assert len(dead) == 1 and "peer.address=127.0.0.1" in dead[0], log
    assert not re.search(rf"(?<!\d){pin}(?!\d)", log), "the PIN reached the log"


def test_a_device_revoked_during_its_authentication_is_not_authorized(daemon):
    async def scenario():
        first, device_id, secret = await paired_device(daemon, "Phone")
        await first.close()
        client = await DeckClient.connect(f"ws://127.0.0.1:{daemon.port}/ws")
        assert (await client.hello("Phone", device_id=device_id))["type"] == "authRequired"
        auth = DeviceAuth(device_id, secret)
        await client.send_plain(auth.start())
        finish = auth.finish(await client.recv())
        daemon.cli("devices", "revoke", "Phone")
        await client.send_plain(finish)
        # No sealed `authorized` first: the same answer authStart gives an unknown device, and the connection stays.
        assert await client.recv() == {"type": "unauthorized", "reason": "unknownDevice"}
        assert (await client.hello("Phone"))["type"] == "needPairing"
        await client.close()

    run(scenario())
