"""Starting the Swift host side, `touchdeck-peer host --pin 123456`, for the interop tests.

The peer is found at $TOUCHDECK_PEER, else .build/debug/touchdeck-peer under the repository root. A missing
peer fails the test that asked for it: these tests are the proof that the Swift and Python sides agree.
"""

import contextlib
import os
import pathlib

import pytest

from touchdeck.client import DeckClient

REPO = pathlib.Path(__file__).resolve().parents[2]
PIN = "123456"
WRONG_PIN = "654321"


def peer_path():
    path = pathlib.Path(os.environ.get("TOUCHDECK_PEER", REPO / ".build" / "debug" / "touchdeck-peer"))
    if not path.is_file():
        pytest.fail(f"touchdeck-peer not found at {path}: build it with `swift build --product touchdeck-peer` "
                    "or point TOUCHDECK_PEER at it")
    return str(path)


@contextlib.asynccontextmanager
async def peer():
    client = await DeckClient.spawn([peer_path(), "host", "--pin", PIN])
    try:
        yield client
    finally:
        await client.close()


async def paired_and_authorized(client):
    """hello → pair → authenticate on one connection; returns (device_id, secret, authorized)."""
    reply = await client.hello("Python reference client")
    assert reply["type"] == "needPairing"
    device_id, secret = await client.pair(PIN)
    authorized = await client.authenticate(device_id, secret)
    return device_id, secret, authorized
