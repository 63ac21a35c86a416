"""Strangers at the host's front door, for the live tests and the bench.

Every address in 127.0.0.0/8 reaches this computer, so a socket bound to 127.0.0.N looks to the host like a
connection from another machine: that is how the per-address and total limits are exercised on loopback.
Raw sockets send frames a well-behaved client never would (unmasked, invalid UTF-8, a 16 MiB header with
half a body) and read the host's frames, close code and reason included.
"""

import asyncio
import base64
import os
import socket
import struct
import time

from websockets.asyncio.client import connect as websocket_connect

from touchdeck.client import DeckClient
from touchdeck.transports import MAX_MESSAGE, WebSocketTransport

FRONT_DOOR_ENV = "TOUCHDECK_TEST_FRONT_DOOR"
PRE_AUTH_MAX = 64 * 1024  # DESIGN.md#transport


def loopback(n):
    """The n-th stranger address: 127.0.0.n (n ≥ 2; 127.0.0.1 is left to the paired devices)."""
    return f"127.0.0.{n}"


def spread(count, per_address, first=10):
    """`count` source addresses, `per_address` on each, from 127.0.0.<first> on."""
    return [loopback(first + i // per_address) for i in range(count)]


async def stranger(port, address, origin=None):
    """A reference client connected from `address` (it answers the host's pings by itself)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    sock.setblocking(False)
    headers = {"Origin": origin} if origin else None
    ws = await websocket_connect(f"ws://127.0.0.1:{port}/ws", sock=sock, max_size=MAX_MESSAGE, compression=None,
                                 open_timeout=10, additional_headers=headers)
    return DeckClient(WebSocketTransport(ws))


class RawSocket:
    """A WebSocket opened by hand: `status` is the handshake's status code (101 when upgraded)."""

    def __init__(self, port, address="127.0.0.1", origin=None, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(address, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        origin_line = f"Origin: {origin}\r\n" if origin else ""
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{origin_line}Upgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        first = head.split(b"\r\n")[0].split()
        self.status = int(first[1]) if len(first) > 1 else None

    def send(self, data):
        self.sock.sendall(data)

    def read_until_close(self, timeout=10):
        """Text messages until the host's close frame: (texts, close code, reason). Code None: the socket ended
        (EOF or reset) with no close frame."""
        texts = []
        deadline = time.monotonic() + timeout
        while True:
            parsed = parse_frame(self.buffer)
            if parsed:
                opcode, payload, self.buffer = parsed
                if opcode == 1:
                    texts.append(payload.decode())
                elif opcode == 8:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                    self.send(frame(payload[:2], opcode=8))  # the close handshake's answer
                    return texts, code, payload[2:].decode(errors="replace")
                continue
            self.sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                chunk = self.sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                return texts, None, ""
            if not chunk:
                return texts, None, ""
            self.buffer += chunk

    def close(self):
        self.sock.close()


def frame(payload, opcode=1, masked=True, fin=True, announce=None):
    """One client frame; `announce` claims a longer payload than is sent (an unfinished message)."""
    length = len(payload) if announce is None else announce
    mask_bit = 0x80 if masked else 0
    header = bytes([(0x80 if fin else 0) | opcode])
    if length < 126:
        header += bytes([mask_bit | length])
    elif length < 65536:
        header += bytes([mask_bit | 126]) + struct.pack(">H", length)
    else:
        header += bytes([mask_bit | 127]) + struct.pack(">Q", length)
    if not masked:
        return header + payload
    key = os.urandom(4)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def parse_frame(data):
    """(opcode, payload, rest) of the first whole server frame in `data`, or None."""
    if len(data) < 2:
        return None
    opcode, length, offset = data[0] & 0x0F, data[1] & 0x7F, 2
    if length == 126:
        if len(data) < 4:
            return None
        length, offset = struct.unpack(">H", data[2:4])[0], 4
    elif length == 127:
        if len(data) < 10:
            return None
        length, offset = struct.unpack(">Q", data[2:10])[0], 10
    if len(data) < offset + length:
        return None
    return opcode, data[offset:offset + length], data[offset + length:]


async def hello_answered(client, name="stranger"):
    """Says hello and returns the host's answer (needPairing): proof the host admitted the connection."""
    await client.send_plain({"type": "hello", "name": name})
    return await client.recv()


async def open_strangers(port, addresses):
    """One admitted stranger per address in `addresses`, opened in order (the first is the oldest)."""
    clients = []
    for address in addresses:
        client = await stranger(port, address)
        assert (await hello_answered(client))["type"] == "needPairing"
        clients.append(client)
    return clients


async def close_all(clients):
    await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


def hello_flood(port, address):
    """Sends hellos of the largest size allowed before authorization, as fast as the host takes them, from
    `address`; when the host closes the connection (its flood guard), opens another at once. Runs until killed."""
    import json
    import select

    padding = PRE_AUTH_MAX - len(json.dumps({"type": "hello", "name": ""}))
    hello = frame(json.dumps({"type": "hello", "name": "x" * padding}).encode())
    while True:
        try:
            raw = RawSocket(port, address)
            raw.sock.settimeout(None)
            while not closed_by_host(raw, select):
                raw.send(hello)
            raw.close()
        except OSError:
            continue


def closed_by_host(raw, select):
    """Reads what the host sent so far without waiting; True once its close frame is in."""
    while select.select([raw.sock], [], [], 0)[0]:
        chunk = raw.sock.recv(65536)
        if not chunk:
            return True
        raw.buffer += chunk
    while (parsed := parse_frame(raw.buffer)) is not None:
        opcode, _, raw.buffer = parsed
        if opcode == 8:
            return True
    return False


def churn(port, addresses, threads_per_address):
    """Strangers that never give up: on each address in `addresses`, `threads_per_address` threads each open a
    connection, say hello (as a stranger would) and wait; the moment the host closes it (made room, refused,
    too slow) they open the next one. Runs until SIGTERM, then prints how many connections it opened."""
    import signal
    import sys
    import threading

    hello = frame(b'{"type":"hello","name":"churn"}')
    opened = [0]

    def one(address):
        while True:
            try:
                raw = RawSocket(port, address, timeout=30)
                opened[0] += 1
                raw.send(hello)
                raw.read_until_close(timeout=60)
                # Closed with a reset: tens of thousands of sockets in TIME-WAIT would take the ports later
                # tests bind (their daemons' listening ports come from the same range).
                raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                raw.close()
            except OSError:
                time.sleep(0.001)  # e.g. no free local port for a moment

    def report(*_):
        print(opened[0], flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, report)
    for address in addresses:
        for _ in range(threads_per_address):
            threading.Thread(target=one, args=(address,), daemon=True).start()
    while True:
        signal.pause()


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["flood"]:
        hello_flood(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1:2] == ["churn"]:
        churn(int(sys.argv[2]), sys.argv[4].split(","), int(sys.argv[3]))
