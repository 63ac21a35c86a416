"""Media keys on the real daemon (PROTOCOL §6 "Layout", docs/ARCHITECTURE.md "Media keys"): on a private session
bus a fake MPRIS player (Tests/support/fake_mpris.py) gets PlayPause and Next when media keys are pressed; with no
player on the bus a press fails with "no media player"; `mediaState` follows the player's PlaybackStatus."""

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, press_key, run
from mprisbus import fake_player, private_bus


@pytest.fixture
def bus():
    with private_bus() as address:
        yield address


@pytest.fixture
def player(bus, tmp_path):
    with fake_player(bus, tmp_path / "calls.txt") as calls:
        yield calls


def host_on(bus, tmp_path):
    return Daemon(home=tmp_path / "home", env={"DBUS_SESSION_BUS_ADDRESS": bus}).start()


PLAY = {"label": "Play", "kind": "media", "action": "playPause"}
NEXT = {"label": "Next", "kind": "media", "action": "next"}


def test_media_keys_call_play_pause_and_next_on_the_player(bus, player, tmp_path):
    host = host_on(bus, tmp_path)
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck")
            answers = [await press_key(client, 0, PLAY), await press_key(client, 1, NEXT)]
            await client.close()
            return answers

        play, next_ = run(scenario())
    finally:
        host.stop()
    assert play == {"type": "pressResult", "page": 0, "index": 0, "ok": True}, play
    assert next_ == {"type": "pressResult", "page": 0, "index": 1, "ok": True}, next_
    assert player() == ["PlayPause", "Next"]


def test_with_no_player_a_media_key_fails_with_no_media_player(bus, tmp_path):
    host = host_on(bus, tmp_path)
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck")
            answer = await press_key(client, 0, PLAY)
            await client.close()
            return answer

        answer = run(scenario())
    finally:
        host.stop()
    assert answer == {"type": "pressResult", "page": 0, "index": 0, "ok": False, "reason": "no media player"}


def test_media_state_follows_the_player(bus, player, tmp_path):
    host = host_on(bus, tmp_path)
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            seen = [await client.recv_type("mediaState", timeout=10)]
            assert (await press_key(client, 0, PLAY))["ok"]
            seen.append(await client.recv_type("mediaState", timeout=10))
            assert (await press_key(client, 1, PLAY))["ok"]
            seen.append(await client.recv_type("mediaState", timeout=10))
            await client.close()
            return seen

        seen = run(scenario())
    finally:
        host.stop()
    assert [(state["status"], state["player"]) for state in seen] == \
        [("paused", "testplayer"), ("playing", "testplayer"), ("paused", "testplayer")], seen
    assert player() == ["PlayPause", "PlayPause"]


def test_a_protocol_2_device_is_not_sent_media_state(bus, player, tmp_path):
    host = host_on(bus, tmp_path)
    try:
        async def scenario():
            old, _, _ = await paired_device(host, "Old", protocol=2)
            new, _, _ = await paired_device(host, "New", protocol=3)
            await new.recv_type("mediaState", timeout=10)
            try:
                return await old.recv_type("mediaState", timeout=2.5)
            except TimeoutError:
                return None
            finally:
                await old.close()
                await new.close()

        assert run(scenario()) is None
    finally:
        host.stop()
