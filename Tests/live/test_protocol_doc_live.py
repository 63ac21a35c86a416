"""What docs/PROTOCOL.md promises a client written from it alone, checked against the real daemon with the
Python reference client: which answer each refused message gets before and after authorization, that errors
after authorization are sealed, which refusals keep the connection, the PIN a new `touchdeck pair`
replaces, the `apps` id of an entry in a subfolder, the name rules, `revoke` matching and `setVolume`
clamping (the last one under scripts/with-desktop's PulseAudio)."""

import base64
import os
import secrets

import pytest

from deskhome import eventually, pactl, sink_percent
from livehelpers import paired_device, run, until_closed
from touchdeck.client import DeckClient, PairingFailed, Unauthorized
from touchdeck.handshake import DevicePairing


def url(host):
    return f"ws://127.0.0.1:{host.port}/ws"


async def assert_still_greets(client):
    """The connection is open and still before authorization: `hello` gets its ordinary answer."""
    assert (await client.hello("Probe"))["type"] == "needPairing"


# `volume` may come at any time (the sound server reports); `recordState` follows `authorized` (PROTOCOL §6).
UNPROMPTED = ("volume", "recordState")


async def sealed(client):
    """The next message other than those the host sends unprompted, which must have arrived sealed."""
    while True:
        message = await client.recv()
        assert client.last_sealed, f"{message} arrived unsealed after authorization"
        if message.get("type") not in UNPROMPTED:
            return message


def without_volume(messages):
    return [message for message in messages if message.get("type") not in UNPROMPTED]


async def still_serves(client, index=11):
    await client.send({"type": "press", "page": 0, "index": index})
    assert await sealed(client) == {"type": "pressResult", "page": 0, "index": index, "ok": False,
                                    "reason": "empty slot"}


def test_before_authorization_each_refusal_gets_its_answer_and_the_connection_stays(daemon):
    async def scenario():
        client = await DeckClient.connect(url(daemon))
        await client.send_raw_text('{"type":"noSuchThing"}')
        assert await client.recv() == {"type": "error", "code": "unknownType", "message": "unknown type noSuchThing"}
        await assert_still_greets(client)
        for known in ({"type": "press", "page": 0, "index": 0}, {"type": "listApps"},
                      {"type": "secure", "seq": 1, "box": "AAAA"}):
            await client.send_plain(known)
            assert await client.recv() == {"type": "unauthorized", "reason": "notAuthorized"}, known["type"]
        for garbage in ("{garbage", "[1]", '{"name":"no type"}'):
            await client.send_raw_text(garbage)
            assert (await client.recv())["code"] == "badMessage", garbage
        await assert_still_greets(client)
        await client.close()

    run(scenario())


def test_unknown_device_keeps_the_connection_which_then_pairs_and_authenticates_without_a_new_hello(daemon):
    async def scenario():
        pin = daemon.pin()
        client = await DeckClient.connect(url(daemon))
        with pytest.raises(Unauthorized) as refused:
            await client.authenticate(secrets.token_hex(16), secrets.token_bytes(32))
        assert refused.value.reason == "unknownDevice"
        assert (await client.hello("Tablet"))["type"] == "needPairing"
        device_id, secret = await client.pair(pin)
        # Right after `paired`, on the same connection, with no second `hello`.
        assert (await client.authenticate(device_id, secret))["type"] == "authorized"
        assert (await sealed(client))["type"] == "layout"
        await client.close()

        fresh = await DeckClient.connect(url(daemon))
        assert (await fresh.authenticate(device_id, secret))["type"] == "authorized", "authStart as first message"
        await fresh.close()

    run(scenario())


def test_after_authorization_every_error_is_sealed_and_the_connection_stays(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send_raw_text("{garbage")
        assert (await sealed(client))["code"] == "badMessage"
        await client.send_raw_text('{"type":"noSuchThing"}')
        assert (await sealed(client))["code"] == "unknownType"
        await client.send_plain({"type": "press", "page": 0, "index": 0})
        assert (await sealed(client))["code"] == "mustBeSealed"
        await client.send_plain({"type": "hello", "name": "again"})
        assert (await sealed(client))["code"] == "mustBeSealed"
        await client.send_raw_text('{"type":"secure","seq":99,"box":"AAAA"}')
        assert (await sealed(client))["code"] == "badSeal"
        await client.send({"type": "noSuchThing"})
        assert (await sealed(client))["code"] == "unknownType"
        await client.send(DevicePairing("123456").start())
        assert await sealed(client) == {
            "type": "error", "code": "badMessage", "request": "pairStart",
            "message": "pairStart: handshake messages are not accepted after authorization"}
        await client.send({"type": "keypad", "key": "F5"})
        assert await sealed(client) == {"type": "error", "code": "badMessage", "request": "keypad",
                                        "message": "invalid value for 'key'"}
        # The press answer comes next: the refused key got no keypadResult of its own.
        await still_serves(client)
        await client.close()

    run(scenario())


def test_a_text_box_re_sent_as_binary_gets_a_sealed_bad_message_then_1003(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        envelope = client.channel.seal_text({"type": "press", "page": 0, "index": 0})
        await client.send_raw_binary(envelope["seq"].to_bytes(8, "big") + base64.b64decode(envelope["box"]))
        seen, code = await until_closed(client)
        assert without_volume(seen) == [{"type": "error", "code": "badMessage",
                                         "message": "binary messages from a device are not allowed"}]
        assert client.last_sealed, "the error before the close is sealed"
        assert code == 1003

    run(scenario())


def test_a_new_touchdeck_pair_replaces_the_live_pin(daemon):
    async def scenario():
        old_pin = daemon.pin()
        waiting = await DeckClient.connect(url(daemon))
        pairing = DevicePairing(old_pin, "Waiting")
        await waiting.send_plain(pairing.start())
        challenge = await waiting.recv()
        assert challenge["type"] == "pairChallenge"

        new_pin = daemon.pin()
        await waiting.send_plain(pairing.confirm(challenge))
        failed = await waiting.recv()
        assert failed["type"] == "pairingFailed" and failed["reason"] == "noPin", failed

        late = await DeckClient.connect(url(daemon))
        await late.hello("Late")
        with pytest.raises(PairingFailed) as refused:
            await late.pair(old_pin)
        assert refused.value.reason == "wrongPin"
        device_id, secret = await late.pair(new_pin)
        assert (await late.authenticate(device_id, secret))["type"] == "authorized"
        for client in (waiting, late):
            await client.close()

    run(scenario())


def test_names_lose_control_characters_and_keep_64_characters(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Ta\u0007b\u0001" + "x" * 100)
        await client.close()

    run(scenario())
    listing = daemon.cli("devices")
    assert "Tab" + "x" * 61 + " " in listing, listing
    assert "x" * 62 not in listing


def test_revoke_matches_the_exact_name_then_closes_with_1001(daemon):
    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        for near_miss in ("tablet", "Tab", "Tablet "):
            daemon.cli("devices", "revoke", near_miss, check=False)
            await still_serves(client)
        assert "Tablet" in daemon.cli("devices")
        daemon.cli("devices", "revoke", "Tablet")
        seen, code = await until_closed(client)
        assert without_volume(seen) == [] and code == 1001, "nothing but the close"

    run(scenario())


def test_apps_ids_are_desktop_file_ids_with_subfolders_joined_by_dashes(daemon):
    folder = daemon.home / ".local/share/applications/tdsub"
    folder.mkdir(parents=True)
    (folder / "td-nested.desktop").write_text("[Desktop Entry]\nType=Application\nName=Nested\nExec=true\n")

    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send({"type": "listApps"})
        apps = {app["id"]: app for app in (await client.recv_type("apps", timeout=30))["apps"]}
        assert apps["tdsub-td-nested.desktop"]["name"] == "Nested"
        button = {"label": "N", "kind": "app", "appId": "tdsub-td-nested.desktop"}
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": button})
        await client.recv_type("layout")
        await client.send({"type": "press", "page": 0, "index": 0})
        assert (await client.recv_type("pressResult"))["ok"] is True
        await client.close()

    run(scenario())


async def until_level(client, level):
    while True:
        message = await client.recv_type("volume")
        if abs(message["level"] - level) < 0.01:
            return message


def test_set_volume_outside_0_to_1_is_clamped(daemon):
    if not os.environ.get("PULSE_SERVER"):
        pytest.fail("PULSE_SERVER not set: run under scripts/with-desktop (make test-py)")
    start = sink_percent()
    # A level the sink is not at, so that setting it is reported.
    middle = 30 if start != 30 else 60

    async def scenario():
        client, _, _ = await paired_device(daemon, "Tablet")
        await client.send({"type": "setVolume", "level": middle / 100})
        await until_level(client, middle / 100)
        await client.send({"type": "setVolume", "level": 1.5})
        assert (await until_level(client, 1))["level"] == 1
        assert sink_percent() == 100
        await client.send({"type": "setVolume", "level": -0.5})
        assert (await until_level(client, 0))["level"] == 0
        assert sink_percent() == 0
        await client.close()

    try:
        run(scenario())
    finally:
        pactl("set-sink-volume", "@DEFAULT_SINK@", f"{start}%")
    assert eventually(lambda: sink_percent() == start)
