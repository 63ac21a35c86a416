"""Helpers for the live tests: pairing and authorizing devices against a running daemon.
(A module of its own: several test folders have a `conftest`, so importing from one by name is ambiguous.)"""

import asyncio
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from daemon import BINARY, ROOT, Daemon, free_port, rss  # noqa: E402,F401

from touchdeck.client import DeckClient  # noqa: E402


def run(coroutine):
    """Runs one async scenario to the end."""
    return asyncio.run(coroutine)


async def paired_device(host, name, protocol=2):
    """A new device paired with a PIN from `touchdeck pair` and authorized; returns (client, id, secret)."""
    pin = host.pin()
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    reply = await client.hello(name, protocol=protocol)
    assert reply["type"] == "needPairing"
    device_id, secret = await client.pair(pin)
    await client.authenticate(device_id, secret)
    await client.recv_type("layout")
    return client, device_id, secret


async def reconnect(host, device_id, secret, name="again", wss=False, protocol=None):
    """An authorized connection of an already paired device (at `protocol`, default the client's); the first layout
    is consumed and returned."""
    url = f"wss://127.0.0.1:{host.port}/ws" if wss else f"ws://127.0.0.1:{host.port}/ws"
    client = await DeckClient.connect(url)
    at = {} if protocol is None else {"protocol": protocol}
    assert (await client.hello(name, device_id=device_id, **at))["type"] == "authRequired"
    await client.authenticate(device_id, secret)
    layout = await client.recv_type("layout")
    return client, layout


async def until_closed(client, timeout=10):
    """Reads messages until the host closes the connection; returns (messages, close code or None)."""
    from touchdeck.transports import Closed

    seen = []
    while True:
        try:
            seen.append(await client.recv(timeout=timeout))
        except Closed as closed:
            return seen, closed.code


async def closed_code(client, timeout=10):
    """Drops messages until the host closes the connection; returns the close code (None: no close frame)."""
    return (await until_closed(client, timeout))[1]


async def viewer_device(host, name):
    """A new paired device allowed to view the screen, once it has heard so (`screenPermission`)."""
    client, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    await client.recv_type("screenPermission", timeout=20)
    return client


async def fetch_whole(client, name, timeout=30):
    """Fetches a recording chunk by chunk; returns (bytes, the last chunk, which names size and sha256)."""
    import base64

    received = bytearray()
    while True:
        await client.send({"type": "fetchRecording", "name": name, "offset": len(received)})
        chunk = await client.recv_type("recordingChunk", timeout=timeout)
        data = base64.b64decode(chunk["data"])
        if not data:
            return bytes(received), chunk
        received += data


async def press_key(client, index, button):
    """Puts `button` in slot `index` of page 0, presses it and returns the first pressResult."""
    await client.send({"type": "setButton", "page": 0, "index": index, "button": button})
    await client.recv_type("layout")
    await client.send({"type": "press", "page": 0, "index": index})
    return await client.recv_type("pressResult", timeout=20)
