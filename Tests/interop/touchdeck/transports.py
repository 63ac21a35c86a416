"""The two ways DeckClient reaches a host: a WebSocket, or a subprocess speaking the same messages as lines.

Both offer `send_text(str)`, `send_binary(bytes)`, `recv() -> str | bytes` and `close()`, and both raise
`Closed` when the other side has gone.

Line form (for `touchdeck-peer` and similar tools): one message per line; a text message is the JSON object
itself, a binary message is `{"binary":"<base64>"}`.
"""

import asyncio
import json
import ssl

from websockets.asyncio.client import connect as websocket_connect
from websockets.exceptions import ConnectionClosed

from .primitives import b64decode, b64encode

MAX_MESSAGE = 16 * 1024 * 1024  # PROTOCOL §0


class Closed(ConnectionError):
    """The connection ended. `code` is the WebSocket close code when there was one."""

    def __init__(self, code=None, reason=""):
        super().__init__(f"connection closed (code {code}) {reason}".strip())
        self.code, self.reason = code, reason


def insecure_tls():
    """The host's certificate is self-signed; a test client accepts it as-is."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class WebSocketTransport:
    def __init__(self, socket):
        self.socket = socket

    @classmethod
    async def open(cls, url, ssl_insecure=True):
        tls = insecure_tls() if url.startswith("wss:") and ssl_insecure else None
        # No compression: a microcontroller client would not offer it either.
        socket = await websocket_connect(url, ssl=tls, max_size=MAX_MESSAGE, compression=None, open_timeout=10)
        return cls(socket)

    async def send_text(self, text):
        await self._guard(self.socket.send(text))

    async def send_binary(self, data):
        await self._guard(self.socket.send(bytes(data)))

    async def recv(self):
        return await self._guard(self.socket.recv())

    async def close(self):
        await self.socket.close()

    def pause_reading(self):
        """Stops taking bytes from the socket (a viewer that stops reading: the host's writes back up)."""
        self.socket.transport.pause_reading()

    def resume_reading(self):
        self.socket.transport.resume_reading()

    async def _guard(self, operation):
        try:
            return await operation
        except ConnectionClosed as closed:
            frame = closed.rcvd
            raise Closed(frame.code if frame else None, frame.reason if frame else "") from None


class PipeTransport:
    def __init__(self, process):
        self.process = process

    @classmethod
    async def spawn(cls, argv):
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=2 * MAX_MESSAGE)  # a 16 MiB binary grows by a third in base64
        return cls(process)

    async def send_text(self, text):
        if "\n" in text:
            raise ValueError("a line message cannot contain a newline")
        await self._write(text)

    async def send_binary(self, data):
        await self._write(json.dumps({"binary": b64encode(bytes(data))}))

    async def recv(self):
        line = await self.process.stdout.readline()
        if not line:
            raise Closed(reason=f"peer exited with {await self.process.wait()}")
        text = line.decode("utf-8").rstrip("\n")
        message = json.loads(text)
        if isinstance(message, dict) and "binary" in message and "type" not in message:
            return b64decode(message["binary"])
        return text

    async def close(self):
        if self.process.stdin and not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except asyncio.TimeoutError:
            self.process.kill()
            await self.process.wait()

    async def _write(self, line):
        try:
            self.process.stdin.write(line.encode("utf-8") + b"\n")
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise Closed(reason="peer closed its input") from None
