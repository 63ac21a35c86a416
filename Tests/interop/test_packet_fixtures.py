"""Tests/Fixtures/packets/*.bin decode to expected.json, re-encode byte for byte, and cut copies are dropped."""

import json
import pathlib

import pytest

from touchdeck.packets import AudioPacket, VideoPacket, encode_audio, encode_video, parse_packet

PACKETS = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "packets"
EXPECTED = {name: facts for name, facts in json.loads((PACKETS / "expected.json").read_text()).items()
            if name.endswith(".bin")}
VIDEO = [name for name, facts in EXPECTED.items() if facts["kind"] == "video"]
AUDIO = [name for name, facts in EXPECTED.items() if facts["kind"] == "audio"]


def read(name):
    return (PACKETS / name).read_bytes()


def test_expected_covers_every_packet_file():
    assert sorted(EXPECTED) == sorted(path.name for path in PACKETS.glob("*.bin"))
    assert VIDEO and AUDIO


@pytest.mark.parametrize("name", VIDEO)
def test_video_packet_decodes_to_expected(name):
    facts, packet = EXPECTED[name], parse_packet(read(name))
    assert isinstance(packet, VideoPacket)
    assert (packet.codec, packet.keyframe) == (facts["codec"], facts["keyframe"])
    timing = facts["timing"] or {}
    assert packet.capture_time_us == timing.get("captureMicros")
    assert packet.processing_time_us == timing.get("hostProcessingMicros")
    assert [chunk.hex() for chunk in packet.parameter_sets] == facts["parameterSets"]
    assert packet.frame.hex() == facts["frame"]
    assert encode_video(packet) == read(name)


@pytest.mark.parametrize("name", AUDIO)
def test_audio_packet_decodes_to_expected(name):
    facts, packet = EXPECTED[name], parse_packet(read(name))
    assert isinstance(packet, AudioPacket)
    assert (packet.channels, packet.sample_rate) == (facts["channels"], facts["sampleRate"])
    assert packet.samples == facts["samples"] and packet.frame_count == facts["frameCount"]
    assert encode_audio(packet) == read(name)


@pytest.mark.parametrize("name", VIDEO)
def test_every_video_prefix_without_a_frame_byte_is_dropped_and_the_rest_shorten_the_frame(name):
    data, frame = read(name), bytes.fromhex(EXPECTED[name]["frame"])
    frame_start = len(data) - len(frame)
    for length in range(len(data)):
        packet = parse_packet(data[:length])
        if length <= frame_start:
            assert packet is None, f"prefix of {length} bytes"
        else:
            assert packet.frame == frame[:length - frame_start]


@pytest.mark.parametrize("name", AUDIO)
def test_audio_prefixes_decode_only_on_whole_sample_frames(name):
    data, facts = read(name), EXPECTED[name]
    frame_size = 2 * facts["channels"]
    for length in range(len(data)):
        packet = parse_packet(data[:length])
        if length >= 6 and (length - 6) % frame_size == 0:
            assert packet.samples == facts["samples"][:(length - 6) // 2]
        else:
            assert packet is None, f"prefix of {length} bytes"


@pytest.mark.parametrize("data", [b"\x03\x00\x00", b"\x02\x00\x00\x00\xbb\x80", b"\x02\x02\x00\x00\x00\x00",
                                  b"\x01\x01\xff"])
def test_unknown_kinds_and_impossible_headers_are_dropped(data):
    assert parse_packet(data) is None
