"""A minimal host side of pairing and authentication, so the device side can be tested in-process.

Only what the tests need: it follows PROTOCOL §3–§4 but keeps no PIN timers or device store.
"""

import os

from cryptography.hazmat.primitives.asymmetric import ec

from touchdeck.handshake import AuthKeys, ecdh_x, field_bytes, pairing_box_key, public_point
from touchdeck.primitives import b64encode, constant_time_equal, seal
from touchdeck.secure import SecureChannel
from touchdeck.spake2 import Spake2, password_scalar


class HostPairing:
    """SPAKE2 role B against one PIN."""

    def __init__(self, pin, device_id="00112233445566778899aabbccddeeff", secret=None):
        self.spake = Spake2("B", password_scalar(pin))
        self.device_id, self.secret = device_id, secret or os.urandom(32)
        self.keys = None

    def challenge(self, start):
        self.keys = self.spake.finish(field_bytes(start, "pA", 65))
        return {"type": "pairChallenge", "pB": b64encode(self.spake.share)}

    def answer(self, confirm):
        if not constant_time_equal(field_bytes(confirm, "cA", 32), self.keys.confirm_a):
            return {"type": "pairingFailed", "reason": "wrongPin", "remaining": 4}
        nonce = os.urandom(12)
        box = nonce + seal(pairing_box_key(self.keys.ke), nonce, self.secret, self.device_id.encode("ascii"))
        return {"type": "paired", "deviceId": self.device_id, "cB": b64encode(self.keys.confirm_b),
                "box": b64encode(box)}


class HostAuth:
    """The host's half of §4 for one known device."""

    def __init__(self, device_id, secret):
        self.device_id, self.secret = device_id, secret
        self.keys = None

    def challenge(self, start):
        if start.get("deviceId") != self.device_id:
            return {"type": "unauthorized", "reason": "unknownDevice"}
        private_key = ec.generate_private_key(ec.SECP256R1())
        e_a, e_b = field_bytes(start, "eA", 65), public_point(private_key)
        self.keys = AuthKeys(self.device_id, self.secret, e_a, e_b, ecdh_x(private_key, e_a))
        return {"type": "authChallenge", "eB": b64encode(e_b), "proof": b64encode(self.keys.host_proof())}

    def accept(self, finish):
        """The host's SecureChannel when the device proof is right, else None."""
        if not constant_time_equal(field_bytes(finish, "proof", 32), self.keys.device_proof()):
            return None
        return SecureChannel(send_key=self.keys.host_to_device_key, open_key=self.keys.device_to_host_key)
