"""A Python stand-in for `touchdeck-peer host`, used to test DeckClient itself (test_deck_client.py).

It pairs with one PIN, authenticates, sends a sealed `authorized`, then echoes sealed messages and sealed
binaries. No PIN counting: that is the Swift host's job and is tested against the real peer. Run as a
script it speaks the line form on stdin/stdout; `serve_websocket` offers the same over a WebSocket.
"""

import base64
import json
import sys

from host_side import HostAuth, HostPairing


class EchoHost:
    """Host logic without I/O: `handle` takes one message (dict, or bytes for binary), returns the reply."""

    def __init__(self, pin):
        self.pairing, self.auth, self.channel = HostPairing(pin), None, None

    def handle(self, message):
        if isinstance(message, bytes):
            return self.channel.seal_binary(self.channel.open_binary(message))
        kind = message.get("type")
        if kind == "hello":
            return {"type": "needPairing", "hostName": "python-peer", "protocol": 2}
        if kind == "pairStart":
            return self.pairing.challenge(message)
        if kind == "pairConfirm":
            self.auth = HostAuth(self.pairing.device_id, self.pairing.secret)
            return self.pairing.answer(message)
        if kind == "authStart":
            return self.auth.challenge(message)
        if kind == "authFinish":
            self.channel = self.auth.accept(message)
            return self.channel.seal_text({"type": "authorized", "protocol": 2, "hostName": "python-peer"})
        return self.channel.seal_text(self.channel.open_text(message))


async def serve_websocket(pin, port=0):
    """A websockets server on 127.0.0.1 running EchoHost per connection; returns the server."""
    from websockets.asyncio.server import serve

    async def session(socket):
        host = EchoHost(pin)
        async for raw in socket:
            reply = host.handle(raw if isinstance(raw, bytes) else json.loads(raw))
            await socket.send(reply if isinstance(reply, bytes) else json.dumps(reply))

    return await serve(session, "127.0.0.1", port)


def main(pin):
    host = EchoHost(pin)
    for line in sys.stdin:
        message = json.loads(line)
        if "binary" in message and "type" not in message:
            message = base64.b64decode(message["binary"])
        reply = host.handle(message)
        if isinstance(reply, bytes):
            reply = {"binary": base64.b64encode(reply).decode()}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
