"""DeckClient: an asyncio TouchDeck device, over a WebSocket or over a subprocess's stdin/stdout.

    client = await DeckClient.connect("wss://127.0.0.1:52801/ws")
    await client.hello("Test board")                 # → needPairing / authRequired
    device_id, secret = await client.pair("123456")
    authorized = await client.authenticate(device_id, secret)
    await client.send({"type": "press", "page": 0, "index": 3})
    result = await client.recv_type("pressResult")
    await client.close()

After `authenticate`, `send` seals and `recv` opens; the `send_plain`/`send_raw_*` methods exist so tests
can also send what a well-behaved device never would.
"""

import asyncio

from . import messages
from .handshake import DeviceAuth, DevicePairing
from .transports import Closed, PipeTransport, WebSocketTransport

DEFAULT_TIMEOUT = 10.0
PROTOCOL_NUMBER = 2


class DeckError(Exception):
    """The host answered something other than what the step needs. `message` is the host's message."""

    def __init__(self, text, message=None):
        super().__init__(text)
        self.message = message


class PairingFailed(DeckError):
    """`pairingFailed` from the host: `reason`, `remaining`, `retry_after` (None when absent)."""

    def __init__(self, message):
        super().__init__(f"pairing failed: {message.get('reason')}", message)
        self.reason = message.get("reason")
        self.remaining = message.get("remaining", 0)
        self.retry_after = message.get("retryAfter")


class Unauthorized(DeckError):
    """`unauthorized` from the host: `reason` is unknownDevice, badProof or notAuthorized."""

    def __init__(self, message):
        super().__init__(f"unauthorized: {message.get('reason')}", message)
        self.reason = message.get("reason")


class DeckClient:
    """One device connection. `channel` is the SecureChannel once authorized, else None."""

    def __init__(self, transport):
        self.transport = transport
        self.channel = None
        self.name = ""
        self.host_name = None
        self.host_protocol = None
        self.last_sealed = False  # whether the message `recv` last returned arrived sealed

    @classmethod
    async def connect(cls, url, ssl_insecure=True):
        """Opens `ws://` or `wss://` (self-signed certificates accepted unless ssl_insecure is False)."""
        return cls(await WebSocketTransport.open(url, ssl_insecure))

    @classmethod
    async def spawn(cls, argv):
        """Runs `argv` and speaks the line form of the protocol over its stdin/stdout."""
        return cls(await PipeTransport.spawn(argv))

    async def close(self):
        await self.transport.close()

    def pause_reading(self):
        """Stops reading from the connection until `resume_reading` (WebSocket transport only)."""
        self.transport.pause_reading()

    def resume_reading(self):
        self.transport.resume_reading()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *_):
        await self.close()

    # Handshake

    async def hello(self, name="", device_id=None, protocol=PROTOCOL_NUMBER):
        """Sends `hello`; returns the reply (`needPairing` or `authRequired`)."""
        self.name = name
        hello = {"type": "hello", "protocol": protocol, "name": name}
        if device_id is not None:
            hello["deviceId"] = device_id
        await self.send_plain(hello)
        reply = await self._expect("needPairing", "authRequired")
        self.host_name, self.host_protocol = reply.get("hostName"), reply.get("protocol", 1)
        return reply

    async def pair(self, pin):
        """SPAKE2 pairing with the host's PIN; returns (device_id, secret). Raises PairingFailed."""
        pairing = DevicePairing(pin, self.name)
        await self.send_plain(pairing.start())
        await self.send_plain(pairing.confirm(await self._expect("pairChallenge")))
        return pairing.finish(await self._expect("paired"))

    async def authenticate(self, device_id, secret):
        """ECDH + secret proof; returns the sealed `authorized` message. Raises Unauthorized."""
        auth = DeviceAuth(device_id, secret)
        await self.send_plain(auth.start())
        finish = auth.finish(await self._expect("authChallenge"))
        self.channel = auth.channel
        await self.send_plain(finish)
        authorized = await self._expect("authorized")
        if not self.last_sealed:
            raise DeckError("`authorized` arrived unsealed", authorized)
        return authorized

    async def _expect(self, *types, timeout=DEFAULT_TIMEOUT):
        message = await self.recv(timeout)
        kind = message.get("type") if isinstance(message, dict) else "binary"
        if kind in types:
            return message
        if kind == "pairingFailed":
            raise PairingFailed(message)
        if kind == "unauthorized":
            raise Unauthorized(message)
        raise DeckError(f"expected {' or '.join(types)}, got {kind}", message)

    # Sending

    async def send(self, inner):
        """Seals one message (a dict) in a `secure` envelope and sends it."""
        await self.send_plain(self.channel.seal_text(inner))

    async def send_sealed_binary(self, body):
        """Seals bytes as a binary message (a host refuses binary from a device; tests use this)."""
        await self.transport.send_binary(self.channel.seal_binary(body))

    async def send_plain(self, message):
        """Sends a message dict as-is, unsealed."""
        await self.transport.send_text(messages.encode(message))

    async def send_raw_text(self, text):
        await self.transport.send_text(text)

    async def send_raw_binary(self, data):
        await self.transport.send_binary(data)

    # Receiving

    async def recv(self, timeout=DEFAULT_TIMEOUT):
        """The next message: a dict (sealed ones opened) or bytes (sealed binaries opened).

        Raises SealError when a sealed message does not open, Closed when the connection ends.
        """
        raw = await asyncio.wait_for(self.transport.recv(), timeout)
        self.last_sealed = False
        if isinstance(raw, bytes):
            if self.channel is None:
                return raw
            self.last_sealed = True
            return self.channel.open_binary(raw)
        message = messages.decode(raw)
        if self.channel is not None and message["type"] == "secure":
            self.last_sealed = True
            return self.channel.open_text(message)
        return message

    async def recv_type(self, wanted, timeout=DEFAULT_TIMEOUT):
        """Skips messages (and binaries) until one of type `wanted`; raises TimeoutError if none comes."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"no {wanted} within {timeout} s")
            message = await self.recv(remaining)
            if isinstance(message, dict) and message.get("type") == wanted:
                return message

    async def recv_binary(self, timeout=DEFAULT_TIMEOUT):
        """Skips text messages until the next binary one; returns its (opened) bytes."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"no binary message within {timeout} s")
            message = await self.recv(remaining)
            if isinstance(message, bytes):
                return message


__all__ = ["Closed", "DeckClient", "DeckError", "PairingFailed", "Unauthorized"]
