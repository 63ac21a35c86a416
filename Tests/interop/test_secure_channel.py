"""SecureChannel against the seed's attack table (host seals, device opens, unless the row says otherwise)."""

import base64
import json
import os

import pytest

from touchdeck.secure import BINARY_OVERHEAD, SealError, SecureChannel


def channels():
    """(device, host) ends of one session, each direction with its own key."""
    host_to_device, device_to_host = os.urandom(32), os.urandom(32)
    device = SecureChannel(send_key=device_to_host, open_key=host_to_device)
    host = SecureChannel(send_key=host_to_device, open_key=device_to_host)
    return device, host


def flip_last_byte(data):
    return data[:-1] + bytes([data[-1] ^ 0x01])


def text_box(envelope):
    return base64.b64decode(envelope["box"])


def with_box(envelope, box):
    return dict(envelope, box=base64.b64encode(box).decode())


def test_host_sealed_frame_opens():
    device, host = channels()
    assert device.open_binary(host.seal_binary(b"\x01\x03frame")) == b"\x01\x03frame"
    assert device.open_text(host.seal_text({"type": "authorized", "protocol": 2})) == {
        "type": "authorized", "protocol": 2}


def test_binary_overhead_is_36_bytes_and_seq_leads():
    device, host = channels()
    sealed = host.seal_binary(b"abc")
    assert len(sealed) == 3 + BINARY_OVERHEAD == 39
    assert sealed[:8] == bytes([0, 0, 0, 0, 0, 0, 0, 1])


def test_binary_flipped_last_byte_is_refused():
    device, host = channels()
    with pytest.raises(SealError, match="badSeal"):
        device.open_binary(flip_last_byte(host.seal_binary(b"frame")))


def test_text_flipped_last_byte_is_refused():
    device, host = channels()
    envelope = host.seal_text({"type": "authorized"})
    with pytest.raises(SealError, match="badSeal"):
        device.open_text(with_box(envelope, flip_last_byte(text_box(envelope))))


def test_binary_changed_seq_is_refused():
    device, host = channels()
    sealed = host.seal_binary(b"frame")
    with pytest.raises(SealError, match="badSeal"):
        device.open_binary((2).to_bytes(8, "big") + sealed[8:])


def test_text_changed_seq_is_refused():
    device, host = channels()
    envelope = host.seal_text({"type": "authorized"})
    with pytest.raises(SealError, match="badSeal"):
        device.open_text(dict(envelope, seq=2))


def test_binary_replayed_frame_is_refused():
    device, host = channels()
    sealed = host.seal_binary(b"frame")
    device.open_binary(sealed)
    with pytest.raises(SealError, match="replayed"):
        device.open_binary(sealed)


def test_text_replayed_envelope_is_refused():
    device, host = channels()
    envelope = host.seal_text({"type": "volume", "available": True, "level": 0.5, "muted": False})
    device.open_text(envelope)
    with pytest.raises(SealError, match="replayed"):
        device.open_text(envelope)


def test_older_seq_after_newer_is_refused():
    device, host = channels()
    first, second = host.seal_binary(b"1"), host.seal_binary(b"2")
    assert device.open_binary(second) == b"2"
    with pytest.raises(SealError, match="replayed"):
        device.open_binary(first)


def test_text_box_cannot_be_replayed_as_binary():
    device, host = channels()
    envelope = host.seal_text({"type": "authorized"})
    forged = (1).to_bytes(8, "big") + text_box(envelope)
    with pytest.raises(SealError, match="badSeal"):
        device.open_binary(forged)


def test_binary_cannot_be_replayed_as_text_box():
    device, host = channels()
    sealed = host.seal_binary(json.dumps({"type": "authorized"}).encode())
    forged = {"type": "secure", "seq": 1, "box": base64.b64encode(sealed[8:]).decode()}
    with pytest.raises(SealError, match="badSeal"):
        device.open_text(forged)


def test_reflected_text_is_refused_by_its_sender():
    device, host = channels()
    with pytest.raises(SealError, match="badSeal"):
        host.open_text(host.seal_text({"type": "authorized"}))


def test_reflected_binary_is_refused_by_its_sender():
    device, host = channels()
    with pytest.raises(SealError, match="badSeal"):
        host.open_binary(host.seal_binary(b"frame"))


def test_binary_and_text_count_separately():
    device, host = channels()
    for _ in range(3):
        device.open_text(host.seal_text({"type": "authorized"}))
    sealed = host.seal_binary(b"\x07")
    assert sealed[:8] == bytes([0, 0, 0, 0, 0, 0, 0, 1])
    assert device.open_binary(sealed) == b"\x07"
    assert device.open_text(host.seal_text({"type": "unauthorized"})) == {"type": "unauthorized"}


@pytest.mark.parametrize("data", [b"", b"\x00" * 8, b"\x00" * (BINARY_OVERHEAD - 1)])
def test_truncated_binary_is_refused(data):
    device, _ = channels()
    with pytest.raises(SealError, match="badSeal"):
        device.open_binary(data)


@pytest.mark.parametrize("envelope", [
    {"type": "secure"},
    {"type": "secure", "seq": 1},
    {"type": "secure", "seq": "1", "box": "AAAA"},
    {"type": "secure", "seq": 0, "box": base64.b64encode(bytes(40)).decode()},
    {"type": "secure", "seq": 1, "box": "not base64!"},
    {"type": "secure", "seq": 1, "box": base64.b64encode(bytes(20)).decode()},
])
def test_malformed_text_envelope_is_refused(envelope):
    device, _ = channels()
    with pytest.raises(SealError, match="badSeal"):
        device.open_text(envelope)


def test_refused_box_does_not_advance_the_counter():
    device, host = channels()
    good = host.seal_binary(b"frame")
    with pytest.raises(SealError):
        device.open_binary(flip_last_byte(good))
    assert device.open_binary(good) == b"frame"
