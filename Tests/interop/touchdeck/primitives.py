"""Thin names over the `cryptography` package, so the protocol modules read like PROTOCOL.md."""

import base64
import hashlib
import hmac

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

NONCE_SIZE = 12
TAG_SIZE = 16


def sha256(data):
    return hashlib.sha256(data).digest()


def hmac_sha256(key, data):
    return hmac.new(key, data, hashlib.sha256).digest()


def hkdf_sha256(ikm, info, length, salt=b""):
    # An empty salt and the RFC 5869 default (HashLen zero bytes) give the same PRK: HMAC pads keys with zeros.
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def length_prefixed(data):
    """len(data) as 8 bytes little-endian, then data (the RFC 9382 transcript framing)."""
    return len(data).to_bytes(8, "little") + data


def constant_time_equal(a, b):
    return hmac.compare_digest(a, b)


def seal(key, nonce, plaintext, ad):
    """ChaCha20-Poly1305 (RFC 8439): returns ciphertext || tag."""
    return ChaCha20Poly1305(key).encrypt(nonce, plaintext, ad)


def open_sealed(key, nonce, ciphertext_and_tag, ad):
    """Raises cryptography.exceptions.InvalidTag when the box does not open."""
    return ChaCha20Poly1305(key).decrypt(nonce, ciphertext_and_tag, ad)


def b64encode(data):
    return base64.b64encode(data).decode("ascii")


def b64decode(text):
    """Standard base64 with padding (RFC 4648 §4); anything else raises ValueError."""
    if not isinstance(text, str):
        raise ValueError("base64 field is not a string")
    return base64.b64decode(text.encode("ascii"), validate=True)
