"""`micMute` keys on the real daemon (issue 23, PROTOCOL §6 "Live looks"): a press toggles the default source's mute
(pactl sees it), a change made with pactl reaches the device as the key's live look, and without a sound server the
key shows why and a press fails with the reason. Under scripts/with-desktop (its PulseAudio's default source)."""

import asyncio
import os

import pytest

from livehelpers import Daemon, paired_device, run
from soundhelpers import pactl

pytestmark = pytest.mark.skipif("PULSE_SERVER" not in os.environ, reason="needs scripts/with-desktop")

MIC = {"label": "Mic", "kind": "micMute"}


def source_muted():
    answer = pactl("get-source-mute", "@DEFAULT_SOURCE@").strip()
    assert answer in ("Mute: yes", "Mute: no"), answer
    return answer == "Mute: yes"


@pytest.fixture
def host(tmp_path):
    pactl("set-source-mute", "@DEFAULT_SOURCE@", "0")
    daemon = Daemon(home=tmp_path / "home").start()
    yield daemon
    daemon.stop()
    pactl("set-source-mute", "@DEFAULT_SOURCE@", "0")


async def until(client, wanted, timeout=20):
    """Messages until one for which `wanted(message)` holds; returns it (TimeoutError if none comes)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise TimeoutError("the wanted message did not come")
        message = await client.recv(remaining)
        if isinstance(message, dict) and wanted(message):
            return message


def mic_look(state):
    return lambda m: m["type"] == "keyState" and m["index"] == 0 and m["look"].get("state") == state


def press_result(m):
    return m["type"] == "pressResult" and m["index"] == 0


def test_a_press_toggles_the_default_source_and_pactl_changes_show_on_the_key(host):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck", protocol=3)
        await client.send({"type": "setButton", "page": 0, "index": 0, "button": MIC})
        shown = [await until(client, mic_look("off"))]
        await client.send({"type": "press", "page": 0, "index": 0})
        answers = [await until(client, press_result)]
        after_first = source_muted()
        shown.append(await until(client, mic_look("on")))
        await client.send({"type": "press", "page": 0, "index": 0})
        answers.append(await until(client, press_result))
        after_second = source_muted()
        shown.append(await until(client, mic_look("off")))
        # A change made elsewhere: the key follows it with no press.
        pactl("set-source-mute", "@DEFAULT_SOURCE@", "1")
        shown.append(await until(client, mic_look("on")))
        pactl("set-source-mute", "@DEFAULT_SOURCE@", "0")
        shown.append(await until(client, mic_look("off")))
        await client.close()
        return answers, after_first, after_second, shown

    answers, after_first, after_second, shown = run(scenario())
    assert answers == [{"type": "pressResult", "page": 0, "index": 0, "ok": True}] * 2, answers
    assert (after_first, after_second) == (True, False)
    assert [m["look"]["label"] for m in shown] == ["Mic on", "Mic muted", "Mic on", "Mic muted", "Mic on"], shown
    assert all("error" not in m and m["profile"] == "Default" for m in shown), shown
    assert shown[1]["look"]["color"] == "red"


def test_without_a_sound_server_the_key_shows_why_and_a_press_fails(tmp_path):
    host = Daemon(home=tmp_path / "home", env={"PULSE_SERVER": f"unix:{tmp_path}/no-such-server"}).start()
    try:
        async def scenario():
            client, _, _ = await paired_device(host, "Deck", protocol=3)
            await client.send({"type": "setButton", "page": 0, "index": 0, "button": MIC})
            shown = await until(client, lambda m: m["type"] == "keyState" and m["index"] == 0)
            await client.send({"type": "press", "page": 0, "index": 0})
            answer = await until(client, press_result)
            await client.close()
            return shown, answer

        shown, answer = run(scenario())
    finally:
        host.stop()
    assert shown["error"] == "no sound server" and shown["look"] == {}, shown
    assert answer == {"type": "pressResult", "page": 0, "index": 0, "ok": False, "reason": "no sound server"}
