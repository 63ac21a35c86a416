"""The PIN notification a stranger brings up, against the real daemon with a test notification server on a private
session bus (issue 20.13, PROTOCOL §3): a stranger's request shows a notification only when it brings up a new PIN —
not during the back-off, not while a PIN is live — and that notification says how many asked since the last PIN.

The back-off is the host's own, saved in `pairing-backoff.json` as a dead PIN leaves it (PairingBackoffFile): the
test writes one that ends a few seconds after the host starts, so no test-only knob is needed and the test waits
seconds, not the 30 s a first dead PIN costs."""

import datetime
import json
import re
import time

from askdesk import AskingDesktop
from deskhome import eventually
from livehelpers import run
from touchdeck.client import DeckClient
from touchdeck.handshake import DevicePairing

BACKOFF_SECONDS = 6


async def stranger(host, name):
    client = await DeckClient.connect(f"ws://127.0.0.1:{host.port}/ws")
    assert (await client.hello(name))["type"] == "needPairing"
    return client


def test_a_stranger_is_notified_once_per_back_off_and_told_how_many_asked(tmp_path):
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True, mode=0o700)
    until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=BACKOFF_SECONDS)
    (config / "pairing-backoff.json").write_text(
        json.dumps({"deadPins": 1, "blockedUntil": until.strftime("%Y-%m-%dT%H:%M:%SZ")}))
    (config / "pairing-backoff.json").chmod(0o600)
    desk = AskingDesktop(tmp_path)
    host = desk.host
    try:
        async def during_back_off():
            # Three strangers ask while the back-off holds: each is told there is no PIN (so each request came
            # within it), and none brings up a notification.
            for n in range(3):
                client = await stranger(host, f"Stranger {n}")
                await client.send_plain(DevicePairing("000000").start())
                refused = await client.recv()
                assert refused["type"] == "pairingFailed" and refused["reason"] == "noPin", refused
                assert refused["retryAfter"] > 0, refused
                await client.close()

        run(during_back_off())
        time.sleep(max(0.0, until.timestamp() - time.time()) + 0.5)  # the back-off is over

        async def after_it():
            # The fourth request brings up a PIN: one notification, counting every request since the last PIN.
            kitchen = await stranger(host, "Kitchen tablet")
            shown = eventually(lambda: [n for n in desk.notifications() if "wants to pair" in n["summary"]])
            assert [n["summary"] for n in shown] == [
                "TouchDeck: Kitchen tablet wants to pair (4 requests since the last PIN)"], shown
            pin = re.fullmatch(r"PIN (\d{6})", shown[0]["body"])[1]
            # Another stranger while the PIN is live: no new PIN, no notification. The notified PIN still pairs.
            fifth = await stranger(host, "Fifth")
            device_id, secret = await kitchen.pair(pin)
            assert (await kitchen.authenticate(device_id, secret))["type"] == "authorized"
            for client in (kitchen, fifth):
                await client.close()

        run(after_it())
        # Each notification is logged when it is shown, before the device is answered; "paired a new device" came
        # after the fifth stranger's hello, so a folded repeat of the line would have been written by now.
        log = host.log()
        asked = [line for line in log.splitlines() if "a new device asks to pair" in line]
        assert len(asked) == 1 and asked[0].endswith("device.name=Kitchen tablet"), log
        assert "paired a new device" in log, log
        shown = [n["summary"] for n in desk.notifications() if "wants to pair" in n["summary"]]
        assert shown == ["TouchDeck: Kitchen tablet wants to pair (4 requests since the last PIN)"], shown
    finally:
        desk.stop()
