"""Decoding checks for the encode stage: runs `touchdeck-encode-sample`, decodes its H.264 with PyAV and
measures PSNR-Y against the source frames (the same test pattern, emitted raw by the same tool)."""

import json
import math
import pathlib
import subprocess
import sys

import av

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from daemon import BINARY  # noqa: E402

SAMPLE = BINARY.parent / "touchdeck-encode-sample"


def encode(out, *args):
    """Runs the sample encoder; returns (per-frame JSON records, summary record, stderr lines)."""
    assert SAMPLE.exists(), f"{SAMPLE} is missing: run `swift build` first"
    done = subprocess.run([str(SAMPLE), "--out", str(out), *map(str, args)], capture_output=True, text=True,
                          timeout=300, check=True)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    return records[:-1], records[-1], [line for line in done.stderr.splitlines() if line]


def source_frames(width, height, count, wanted):
    """The raw BGRA source frames whose indexes are in `wanted`, read from the tool's --emit-source stream."""
    size = width * height * 4
    frames = {}
    with subprocess.Popen([str(SAMPLE), "--emit-source", "--width", str(width), "--height", str(height),
                           "--frames", str(count)], stdout=subprocess.PIPE) as tool:
        for index in range(count):
            chunk = tool.stdout.read(size)
            assert len(chunk) == size, "the source stream ended early"
            if index in wanted:
                frames[index] = chunk
    return frames


def decode(path):
    """Every decoded frame of an Annex-B .h264 file (PyAV VideoFrames), in order."""
    with av.open(str(path), format="h264") as container:
        return list(container.decode(video=0))


def luma(frame):
    """The Y plane of a yuv420p frame as bytes, without row padding."""
    plane = frame.planes[0]
    data = bytes(plane)
    return b"".join(data[row * plane.line_size:row * plane.line_size + frame.width] for row in range(frame.height))


def reference_luma(bgra, width, height, size=None):
    """Y of the source frame, converted by swscale with BT.601 limited range (what the SPS declares),
    scaled with an area filter when `size` (w, h) is given."""
    frame = av.VideoFrame(width, height, "bgra")
    frame.planes[0].update(bgra)
    out_w, out_h = size or (width, height)
    yuv = frame.reformat(width=out_w, height=out_h, format="yuv420p", interpolation="AREA",
                         dst_colorspace="ITU601", dst_color_range="MPEG")
    return luma(yuv)


def psnr(a, b):
    """PSNR in dB between two equally long 8-bit planes (inf when identical)."""
    assert len(a) == len(b)
    squared = sum((x - y) * (x - y) for x, y in zip(a, b))
    return math.inf if squared == 0 else 10 * math.log10(255 * 255 * len(a) / squared)
