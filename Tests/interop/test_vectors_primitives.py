"""RFC 5869 (HKDF-SHA256), RFC 8439 (ChaCha20-Poly1305) and RFC 8439 A.3 (Poly1305) known answers from the
shared vector files."""

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.poly1305 import Poly1305

from touchdeck.primitives import hkdf_sha256, hmac_sha256, open_sealed, seal
from vectors import hex_field, load_cases

HKDF_CASES = load_cases("rfc5869-hkdf.json")
AEAD_CASES = load_cases("rfc8439-aead.json")
POLY1305_CASES = load_cases("rfc8439-poly1305.json")


@pytest.mark.parametrize("case", HKDF_CASES, ids=lambda case: case["name"])
def test_hkdf_sha256(case):
    ikm, salt, info = hex_field(case, "ikm"), hex_field(case, "salt"), hex_field(case, "info")
    # An empty salt means HashLen zero bytes (RFC 5869 §2.2).
    assert hmac_sha256(salt or bytes(32), ikm) == hex_field(case, "prk")
    assert hkdf_sha256(ikm, info, case["length"], salt=salt) == hex_field(case, "okm")


@pytest.mark.parametrize("case", AEAD_CASES, ids=lambda case: case["name"])
def test_chacha20_poly1305_seal(case):
    key, nonce, aad = hex_field(case, "key"), hex_field(case, "nonce"), hex_field(case, "aad")
    sealed = seal(key, nonce, hex_field(case, "plaintext"), aad)
    assert sealed == hex_field(case, "ciphertext") + hex_field(case, "tag")


@pytest.mark.parametrize("case", AEAD_CASES, ids=lambda case: case["name"])
def test_chacha20_poly1305_open_and_refuse_tampering(case):
    key, nonce, aad = hex_field(case, "key"), hex_field(case, "nonce"), hex_field(case, "aad")
    box = hex_field(case, "ciphertext") + hex_field(case, "tag")
    assert open_sealed(key, nonce, box, aad) == hex_field(case, "plaintext")
    with pytest.raises(InvalidTag):
        open_sealed(key, nonce, box[:-1] + bytes([box[-1] ^ 1]), aad)
    with pytest.raises(InvalidTag):
        open_sealed(key, nonce, box, aad + b"x")


@pytest.mark.parametrize("case", POLY1305_CASES, ids=lambda case: case["name"])
def test_poly1305_edge_vectors(case):
    # RFC 8439 A.3 #5-#11: the final-reduction and carry edges. The RFC's definition in integers, and OpenSSL.
    key, message, tag = hex_field(case, "key"), hex_field(case, "message"), hex_field(case, "tag")
    r = int.from_bytes(key[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    accumulator = 0
    for i in range(0, len(message), 16):
        block = message[i:i + 16] + b"\x01"
        accumulator = (accumulator + int.from_bytes(block, "little")) * r % (2**130 - 5)
    assert ((accumulator + int.from_bytes(key[16:], "little")) % 2**128).to_bytes(16, "little") == tag
    assert Poly1305.generate_tag(key, message) == tag
