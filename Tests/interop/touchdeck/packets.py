"""Media packets inside sealed binaries, host → device (PROTOCOL §7).

`parse_packet` returns a VideoPacket, an AudioPacket, or None for a packet to drop (shorter than its header
says, a video packet without a frame byte, audio with a partial sample frame, or an unknown kind). It never
raises on packet bytes. `encode_video` and `encode_audio` write the same layout back.
"""

import struct
from dataclasses import dataclass, field

CODEC_H264 = 1
KIND_AUDIO = 2
FLAG_KEYFRAME = 0x01
FLAG_TIMESTAMP = 0x02


@dataclass
class VideoPacket:
    codec: int
    keyframe: bool
    capture_time_us: int | None = None  # present when flag bit1 is set
    processing_time_us: int | None = None  # present when flag bit1 is set
    parameter_sets: list = field(default_factory=list)  # SPS/PPS, keyframes only
    frame: bytes = b""  # H.264 Annex-B access unit


@dataclass
class AudioPacket:
    channels: int
    sample_rate: int
    samples: list  # signed 16-bit values, channels interleaved

    @property
    def frame_count(self):
        return len(self.samples) // self.channels


class _Reader:
    """Takes bytes from the front; `take` returns None once the packet runs short."""

    def __init__(self, data):
        self.data, self.offset = bytes(data), 0

    def take(self, count):
        if self.offset + count > len(self.data):
            return None
        chunk = self.data[self.offset:self.offset + count]
        self.offset += count
        return chunk

    def integer(self, size):
        chunk = self.take(size)
        return None if chunk is None else int.from_bytes(chunk, "big")

    def rest(self):
        return self.data[self.offset:]


def parse_packet(data):
    if not data:
        return None
    if data[0] == CODEC_H264:
        return parse_video(data)
    if data[0] == KIND_AUDIO:
        return parse_audio(data)
    return None


def parse_video(data):
    reader = _Reader(data)
    header = reader.take(2)
    if header is None:
        return None
    packet = VideoPacket(codec=header[0], keyframe=bool(header[1] & FLAG_KEYFRAME))
    if header[1] & FLAG_TIMESTAMP:
        packet.capture_time_us = reader.integer(8)
        packet.processing_time_us = reader.integer(4)
        if packet.processing_time_us is None:
            return None
    if packet.keyframe:
        packet.parameter_sets = _parameter_sets(reader)
        if packet.parameter_sets is None:
            return None
    packet.frame = reader.rest()
    # Everything before the frame is counted, so a packet cut there still looks whole: no frame, no packet.
    return packet if packet.frame else None


def _parameter_sets(reader):
    count = reader.integer(1)
    if count is None:
        return None
    sets = []
    for _ in range(count):
        length = reader.integer(2)
        chunk = reader.take(length) if length is not None else None
        if chunk is None:
            return None
        sets.append(chunk)
    return sets


def parse_audio(data):
    reader = _Reader(data)
    header = reader.take(2)
    sample_rate = reader.integer(4)
    if header is None or sample_rate is None or header[1] == 0 or sample_rate == 0:
        return None
    body, channels = reader.rest(), header[1]
    if len(body) % (2 * channels):
        return None  # a partial sample frame: the packet was cut
    samples = list(struct.unpack(f"<{len(body) // 2}h", body))
    return AudioPacket(channels=channels, sample_rate=sample_rate, samples=samples)


def encode_video(packet):
    flags = (FLAG_KEYFRAME if packet.keyframe else 0) | (FLAG_TIMESTAMP if packet.capture_time_us is not None else 0)
    out = bytes([packet.codec, flags])
    if packet.capture_time_us is not None:
        out += packet.capture_time_us.to_bytes(8, "big") + packet.processing_time_us.to_bytes(4, "big")
    if packet.keyframe:
        out += bytes([len(packet.parameter_sets)])
        out += b"".join(len(chunk).to_bytes(2, "big") + chunk for chunk in packet.parameter_sets)
    return out + packet.frame


def encode_audio(packet):
    header = bytes([KIND_AUDIO, packet.channels]) + packet.sample_rate.to_bytes(4, "big")
    return header + struct.pack(f"<{len(packet.samples)}h", *packet.samples)
