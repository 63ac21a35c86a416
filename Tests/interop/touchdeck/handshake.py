"""The device side of pairing (PROTOCOL §3) and authentication (§4), as plain objects without I/O.

Each object turns the host's message into the device's next message; DeckClient does the sending. Every
field the host sends is checked before it is used, and a bad one raises HandshakeError("badMessage").
"""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.exceptions import InvalidTag

from .primitives import (
    NONCE_SIZE, b64decode, b64encode, constant_time_equal, hkdf_sha256, hmac_sha256, length_prefixed,
    open_sealed, sha256)
from .secure import SecureChannel
from .spake2 import Spake2, Spake2Error, password_scalar

AUTH_LABEL = b"TouchDeck auth v1"
PAIRING_SECRET_INFO = b"TouchDeck pairing secret"
POINT_SIZE = 65
SECRET_SIZE = 32


class HandshakeError(ValueError):
    """The host's message cannot be trusted. `reason`: "badMessage", "badConfirmation" or "badProof"."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def field_bytes(message, name, size=None):
    """A base64 field of a host message, optionally of an exact size."""
    try:
        value = b64decode(message.get(name))
    except ValueError:
        raise HandshakeError("badMessage") from None
    if size is not None and len(value) != size:
        raise HandshakeError("badMessage")
    return value


def expect_type(message, wanted):
    if not isinstance(message, dict) or message.get("type") != wanted:
        raise HandshakeError("badMessage")


def pairing_box_key(ke):
    return hkdf_sha256(ke, PAIRING_SECRET_INFO, 32)


class DevicePairing:
    """SPAKE2 role A: pairStart → (pairChallenge) → pairConfirm → (paired) → (deviceId, secret)."""

    def __init__(self, pin, name="", scalar=None):
        self.name = name
        self.spake = Spake2("A", password_scalar(pin), scalar)
        self.keys = None

    def start(self):
        return {"type": "pairStart", "name": self.name, "pA": b64encode(self.spake.share)}

    def confirm(self, challenge):
        expect_type(challenge, "pairChallenge")
        try:
            self.keys = self.spake.finish(field_bytes(challenge, "pB", POINT_SIZE))
        except Spake2Error:
            raise HandshakeError("badMessage") from None
        return {"type": "pairConfirm", "cA": b64encode(self.keys.confirm_a)}

    def finish(self, paired):
        """Checks cB before anything else in `paired`, then opens the secret box."""
        expect_type(paired, "paired")
        if not constant_time_equal(field_bytes(paired, "cB", 32), self.keys.confirm_b):
            raise HandshakeError("badConfirmation")
        device_id = paired.get("deviceId")
        if not isinstance(device_id, str) or not device_id.isascii():
            raise HandshakeError("badMessage")
        box = field_bytes(paired, "box", NONCE_SIZE + SECRET_SIZE + 16)
        try:
            secret = open_sealed(pairing_box_key(self.keys.ke), box[:NONCE_SIZE], box[NONCE_SIZE:],
                                 device_id.encode("ascii"))
        except InvalidTag:
            raise HandshakeError("badMessage") from None
        return device_id, secret


class AuthKeys:
    """The §4 key schedule, shared by both ends: th and the four 32-byte keys."""

    def __init__(self, device_id, secret, e_a, e_b, z):
        id_bytes = device_id.encode("ascii")
        self.th = sha256(AUTH_LABEL + length_prefixed(id_bytes) + e_a + e_b)
        okm = hkdf_sha256(z, AUTH_LABEL + self.th, 128, salt=secret)
        self.host_proof_key, self.device_proof_key = okm[0:32], okm[32:64]
        self.host_to_device_key, self.device_to_host_key = okm[64:96], okm[96:128]

    def host_proof(self):
        return hmac_sha256(self.host_proof_key, b"host" + self.th)

    def device_proof(self):
        return hmac_sha256(self.device_proof_key, b"device" + self.th)


def public_point(private_key):
    return private_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def ecdh_x(private_key, peer_point):
    """The 32-byte X coordinate of private · peer; refuses a point that is not on P-256."""
    try:
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), peer_point)
    except ValueError:
        raise HandshakeError("badMessage") from None
    return private_key.exchange(ec.ECDH(), peer)


class DeviceAuth:
    """authStart → (authChallenge) → authFinish; afterwards `channel` is the device's SecureChannel."""

    def __init__(self, device_id, secret, private_key=None):
        self.device_id, self.secret = device_id, secret
        self.private_key = private_key or ec.generate_private_key(ec.SECP256R1())
        self.e_a = public_point(self.private_key)
        self.channel = None

    def start(self):
        return {"type": "authStart", "deviceId": self.device_id, "eA": b64encode(self.e_a)}

    def finish(self, challenge):
        """Checks the host's proof (a host without the secret stops here), then proves the device."""
        expect_type(challenge, "authChallenge")
        e_b = field_bytes(challenge, "eB", POINT_SIZE)
        keys = AuthKeys(self.device_id, self.secret, self.e_a, e_b, ecdh_x(self.private_key, e_b))
        if not constant_time_equal(field_bytes(challenge, "proof", 32), keys.host_proof()):
            raise HandshakeError("badProof")
        self.private_key = None  # forward secrecy: the ephemeral key is not needed again
        self.channel = SecureChannel(send_key=keys.device_to_host_key, open_key=keys.host_to_device_key)
        return {"type": "authFinish", "proof": b64encode(keys.device_proof())}
