"""SPAKE2, RFC 9382, suite P256-SHA256-HKDF-HMAC, as TouchDeck uses it (PROTOCOL §3).

Both roles live here so the known-answer tests can check either side. TouchDeck's device is A and its host
is B; the RFC test vectors use other identities, so identities are parameters.
"""

import secrets

from . import p256
from .primitives import hkdf_sha256, hmac_sha256, length_prefixed, sha256

ID_DEVICE = b"TouchDeck device"
ID_HOST = b"TouchDeck host"

# RFC 9382 §6 constants for P-256 (compressed SEC1).
M = p256.decode(bytes.fromhex("02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f"))
N = p256.decode(bytes.fromhex("03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49"))


class Spake2Error(ValueError):
    """The peer's share is unusable: not a point on the curve, or it makes K the point at infinity."""


def password_scalar(pin):
    """w from a PIN: 40 HKDF bytes reduced mod n, so the reduction is unbiased (RFC 9382 §3.2)."""
    okm = hkdf_sha256(pin.encode("ascii"), b"TouchDeck SPAKE2 w", 40)
    return int.from_bytes(okm, "big") % p256.N


def random_scalar():
    """Uniform in [1, n-1]."""
    return 1 + secrets.randbelow(p256.N - 1)


class Spake2Keys:
    """Everything the transcript yields: Ke, Ka, the confirmation keys and both confirmation MACs."""

    def __init__(self, transcript):
        self.transcript = transcript
        digest = sha256(transcript)
        self.ke, self.ka = digest[:16], digest[16:]
        confirmation = hkdf_sha256(self.ka, b"ConfirmationKeys", 32)
        self.kc_a, self.kc_b = confirmation[:16], confirmation[16:]
        self.confirm_a = hmac_sha256(self.kc_a, transcript)
        self.confirm_b = hmac_sha256(self.kc_b, transcript)


class Spake2:
    """One side of an exchange. role "A" sends pA = x·G + w·M; role "B" sends pB = y·G + w·N."""

    def __init__(self, role, w, scalar=None, id_a=ID_DEVICE, id_b=ID_HOST):
        if role not in ("A", "B"):
            raise ValueError("role is A or B")
        self.role, self.w, self.id_a, self.id_b = role, w, id_a, id_b
        self.scalar = scalar if scalar is not None else random_scalar()
        own_blind, self.peer_blind = (M, N) if role == "A" else (N, M)
        self.share = p256.encode(p256.add(p256.multiply(self.scalar, p256.G), p256.multiply(w, own_blind)))

    def finish(self, peer_share):
        """K = scalar · (peer − w·blind), then the transcript keys."""
        try:
            peer = p256.decode(peer_share)
        except p256.PointError as error:
            raise Spake2Error(str(error)) from None
        if len(peer_share) != 65:
            raise Spake2Error("share must be an uncompressed point")
        unblinded = p256.add(peer, p256.negate(p256.multiply(self.w, self.peer_blind)))
        k = p256.multiply(self.scalar, unblinded) if unblinded is not None else None
        if k is None:
            raise Spake2Error("K is the point at infinity")
        p_a, p_b = (self.share, peer_share) if self.role == "A" else (peer_share, self.share)
        return Spake2Keys(transcript(self.id_a, self.id_b, p_a, p_b, p256.encode(k), self.w))


def transcript(id_a, id_b, p_a, p_b, k, w):
    """TT of RFC 9382 §3.3: every field framed by an 8-byte little-endian length."""
    parts = (id_a, id_b, p_a, p_b, k, w.to_bytes(32, "big"))
    return b"".join(length_prefixed(part) for part in parts)
