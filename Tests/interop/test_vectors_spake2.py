"""RFC 9382 Appendix B known answers (P256-SHA256-HKDF-HMAC) from the shared vector file, both roles."""

import json

import pytest

from touchdeck import p256, spake2
from touchdeck.spake2 import Spake2, Spake2Error
from vectors import VECTORS, hex_field, load_cases

CASES = load_cases("rfc9382-p256.json")


def test_m_and_n_match_the_vector_file():
    constants = json.loads((VECTORS / "rfc9382-p256.json").read_text())
    assert p256.decode(bytes.fromhex(constants["M"])) == spake2.M
    assert p256.decode(bytes.fromhex(constants["N"])) == spake2.N


def party(case, role):
    w = int(case["w"], 16)
    scalar = int(case["x" if role == "A" else "y"], 16)
    return Spake2(role, w, scalar, id_a=hex_field(case, "idA"), id_b=hex_field(case, "idB"))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_shares(case):
    assert party(case, "A").share == hex_field(case, "pA")
    assert party(case, "B").share == hex_field(case, "pB")


@pytest.mark.parametrize("role", ["A", "B"])
@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_transcript_and_keys(case, role):
    peer_share = hex_field(case, "pB" if role == "A" else "pA")
    keys = party(case, role).finish(peer_share)
    assert keys.transcript == hex_field(case, "TT")
    assert keys.transcript[-(32 + 8 + 65):-(32 + 8)] == hex_field(case, "K")
    assert (keys.ke, keys.ka) == (hex_field(case, "Ke"), hex_field(case, "Ka"))
    assert (keys.kc_a, keys.kc_b) == (hex_field(case, "KcA"), hex_field(case, "KcB"))
    assert (keys.confirm_a, keys.confirm_b) == (hex_field(case, "cA"), hex_field(case, "cB"))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_a_share_with_a_flipped_bit_is_refused(case):
    share = bytearray(hex_field(case, "pB"))
    share[-1] ^= 1  # (x, y ^ 1) is on the curve only if y ^ 1 == p - y, which none of these vectors hit
    with pytest.raises(Spake2Error):
        party(case, "A").finish(bytes(share))
