"""Asking on the computer: a device that may not view sends startScreen{ask:true}; the real host puts the question
on the desktop (a test notification server on a private session bus, Tests/support/fake_notifications.py) and the
device's answer follows the button pressed there. The messages are Tests/Fixtures/rules/asking.json's."""

import json

import pytest

from askdesk import AskingDesktop
from livehelpers import ROOT, paired_device, run

RULES = json.loads((ROOT / "Tests/Fixtures/rules/asking.json").read_text())
NAME = "Asking tablet"


@pytest.fixture(scope="module")
def desktop(tmp_path_factory):
    desk = AskingDesktop(tmp_path_factory.mktemp("asking"))
    yield desk
    desk.stop()


def ask(client):
    return client.send(RULES["ask"])


def test_allow_once_starts_the_viewing_and_lasts_only_for_it(desktop):
    desktop.answer("once")

    async def scenario():
        client, _, _ = await paired_device(desktop.host, NAME)
        await client.send({"type": "listDisplays"})
        assert (await client.recv_type("displays"))["status"] == "notAllowed"
        await ask(client)
        asking = await client.recv_type("screenPending")
        allowed = await client.recv_type("screenPermission")
        await client.send({"type": "listDisplays"})
        displays = await client.recv_type("displays")
        await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 640})
        started = await client.recv_type("screenStarted", timeout=30)
        await client.send({"type": "recordStart", "displayId": displays["displays"][0]["id"]})
        recording = await client.recv_type("recordDenied")
        await client.send({"type": "stopScreen"})
        await client.recv_type("screenStopped")
        await client.send({"type": "listDisplays"})
        after = await client.recv_type("displays")
        await client.close()
        return asking, allowed, displays, started, after, recording

    asking, allowed, displays, started, after, recording = run(scenario())
    assert recording["reason"] == "notAllowed", "Allow once is for viewing, not recording"

    assert asking == RULES["asking"]
    assert allowed == RULES["answers"]["once"]
    assert displays["status"] == "ok" and started["width"] > 0
    assert after["status"] == "notAllowed", "Allow once ends with its viewing"
    [question] = desktop.questions()
    assert question["app"] == "TouchDeck" and NAME in question["summary"]
    assert question["actions"] == ["once", "Allow once", "always", "Always allow", "deny", "Deny"]
    assert desktop.screen(NAME) == "off", "the device's own setting is untouched"


def test_deny_and_no_answer_refuse_and_always_allow_sets_the_permission(desktop):
    async def scenario():
        client, _, _ = await paired_device(desktop.host, "Second tablet")
        answers = []
        for key in ["deny", "none", "always"]:
            desktop.answer(key)
            await ask(client)
            assert await client.recv_type("screenPending") == RULES["asking"]
            answers.append(await client.recv_type("screenDenied" if key != "always" else "screenPermission"))
        await client.close()
        return answers

    before = len(desktop.questions())
    denied, timed_out, always = run(scenario())
    assert denied == RULES["answers"]["deny"]
    assert timed_out == RULES["answers"]["timeout"]
    assert always == RULES["answers"]["always"]
    questions = desktop.questions()[before:]
    assert len(questions) == 3
    assert questions[1]["id"] in desktop.closed(), "the unanswered question is withdrawn"
    assert desktop.screen("Second tablet") == "on"


def test_a_server_without_buttons_gets_the_old_refusal(tmp_path):
    desk = AskingDesktop(tmp_path, caps="body")
    try:
        async def scenario():
            client, _, _ = await paired_device(desk.host, NAME)
            await ask(client)
            refused = await client.recv_type("screenDenied")
            await client.close()
            return refused

        assert run(scenario()) == RULES["answers"]["unavailable"]
        assert desk.questions() == []
    finally:
        desk.stop()
