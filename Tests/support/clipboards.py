"""What the clipboard tests share: a real PNG to copy, and copying on the computer with xclip."""

import struct
import subprocess
import zlib

import pytest


def png(width, height):
    """A real PNG file of `width`×`height` (a gradient, so it is not all one colour)."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\x00" + b"".join(bytes((x % 256, y % 256, 128)) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture
def copier():
    """Copies on the computer with xclip (in the foreground, stopped afterwards)."""
    started = []

    def copy(data, target="UTF8_STRING", selection="clipboard"):
        process = subprocess.Popen(["xclip", "-quiet", "-selection", selection, "-t", target, "-i"],
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        process.stdin.write(data)
        process.stdin.close()
        started.append(process)
    yield copy
    for process in started:
        process.kill()
        process.wait(10)
