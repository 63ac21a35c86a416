"""Device-side pairing and authentication against the in-process host of host_side.py."""

import base64
import os

import pytest

from host_side import HostAuth, HostPairing
from touchdeck import p256
from touchdeck.handshake import DeviceAuth, DevicePairing, HandshakeError
from touchdeck.spake2 import M, N, password_scalar


def b64(data):
    return base64.b64encode(data).decode()


def pair(device_pin, host_pin, secret=None):
    device, host = DevicePairing(device_pin, "iPad"), HostPairing(host_pin, secret=secret)
    confirm = device.confirm(host.challenge(device.start()))
    return device, host.answer(confirm)


def test_pairing_with_the_right_pin_delivers_the_secret():
    secret = os.urandom(32)
    device, paired = pair("123456", "123456", secret)
    assert paired["type"] == "paired"
    assert device.finish(paired) == ("00112233445566778899aabbccddeeff", secret)


def test_pairing_with_a_wrong_pin_fails_at_the_host():
    _, answer = pair("123456", "654321")
    assert answer == {"type": "pairingFailed", "reason": "wrongPin", "remaining": 4}


def test_pair_start_carries_name_and_an_uncompressed_point():
    start = DevicePairing("123456", "iPad").start()
    assert start["type"] == "pairStart" and start["name"] == "iPad"
    p_a = base64.b64decode(start["pA"])
    assert len(p_a) == 65 and p_a[0] == 4 and p256.is_on_curve(p256.decode(p_a))


def test_spake2_constants_are_on_the_curve_and_distinct():
    assert p256.is_on_curve(M) and p256.is_on_curve(N) and M != N


def test_password_scalar_is_in_range_and_depends_on_the_pin():
    w = password_scalar("123456")
    assert 0 < w < p256.N
    assert w != password_scalar("123457")


def test_device_refuses_a_paired_message_with_a_wrong_cb():
    device, paired = pair("123456", "123456")
    forged = dict(paired, cB=b64(bytes(32)))
    with pytest.raises(HandshakeError, match="badConfirmation"):
        device.finish(forged)


def test_device_refuses_a_secret_box_bound_to_another_device_id():
    device, paired = pair("123456", "123456")
    with pytest.raises(HandshakeError, match="badMessage"):
        device.finish(dict(paired, deviceId="ffeeddccbbaa99887766554433221100"))


GOOD_POINT = b64(p256.encode(p256.multiply(7, p256.G)))
OFF_CURVE = b64(b"\x04" + (1).to_bytes(32, "big") + (1).to_bytes(32, "big"))
COMPRESSED = b64(b"\x02" + (p256.G[0]).to_bytes(32, "big"))


@pytest.mark.parametrize("challenge", [
    {"type": "pairChallenge"},
    {"type": "pairChallenge", "pB": 42},
    {"type": "pairChallenge", "pB": "%%%"},
    {"type": "pairChallenge", "pB": GOOD_POINT[:40]},
    {"type": "pairChallenge", "pB": b64(bytes(65))},
    {"type": "pairChallenge", "pB": OFF_CURVE},
    {"type": "pairChallenge", "pB": COMPRESSED},
    {"type": "paired", "pB": GOOD_POINT},
    "pairChallenge",
])
def test_device_refuses_garbage_pair_challenges(challenge):
    with pytest.raises(HandshakeError, match="badMessage"):
        DevicePairing("123456").confirm(challenge)


def test_device_refuses_a_pb_that_makes_k_infinity():
    # pB = w·N makes pB − w·N the point at infinity, whatever x is.
    w_n = p256.encode(p256.multiply(password_scalar("123456"), N))
    with pytest.raises(HandshakeError, match="badMessage"):
        DevicePairing("123456").confirm({"type": "pairChallenge", "pB": b64(w_n)})


def authenticate(device_secret, host_secret, device_id="abc123"):
    device, host = DeviceAuth(device_id, device_secret), HostAuth(device_id, host_secret)
    challenge = host.challenge(device.start())
    return device, host, challenge


def test_authentication_yields_matching_channels():
    secret = os.urandom(32)
    device, host, challenge = authenticate(secret, secret)
    host_channel = host.accept(device.finish(challenge))
    assert host_channel is not None
    authorized = {"type": "authorized", "protocol": 2, "hostName": "desk"}
    assert device.channel.open_text(host_channel.seal_text(authorized)) == authorized
    assert host_channel.open_text(device.channel.seal_text({"type": "press", "page": 0, "index": 3}))["index"] == 3


def test_device_refuses_a_host_without_the_secret():
    device, _, challenge = authenticate(os.urandom(32), os.urandom(32))
    with pytest.raises(HandshakeError, match="badProof"):
        device.finish(challenge)
    assert device.channel is None


def test_host_refuses_a_device_proof_for_another_session():
    secret = os.urandom(32)
    device, host, challenge = authenticate(secret, secret)
    _, other_host, _ = authenticate(secret, secret)
    finish = device.finish(challenge)
    assert other_host.accept(finish) is None


@pytest.mark.parametrize("change", [
    {"eB": OFF_CURVE}, {"eB": GOOD_POINT[:30]}, {"eB": None}, {"proof": "!!"}, {"proof": b64(bytes(31))},
    {"type": "authChallenge2"},
])
def test_device_refuses_garbage_auth_challenges(change):
    secret = os.urandom(32)
    device, _, challenge = authenticate(secret, secret)
    with pytest.raises(HandshakeError, match="badMessage"):
        device.finish(dict(challenge, **change))
