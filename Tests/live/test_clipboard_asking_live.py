"""Asking on the computer to paste: the viewer whose clipboard permission is off sends clipboardSet{ask:true}; the
real host puts the question on the desktop (a test notification server on a private session bus,
Tests/support/fake_notifications.py) and the paste follows the button pressed there, under the test desktop's Xvfb
with `xclip` as the other app. The messages are Tests/Fixtures/rules/clipboard-asking.json's."""

import base64
import json
import os
import subprocess

import pytest

from askdesk import AskingDesktop
from livehelpers import ROOT, paired_device, run

RULES = json.loads((ROOT / "Tests/Fixtures/rules/clipboard-asking.json").read_text())
NAME = "Asking tablet"


def pasted():
    """What another app gets when it pastes the computer's clipboard."""
    return subprocess.run(["xclip", "-selection", "clipboard", "-t", "UTF8_STRING", "-o"], capture_output=True,
                          timeout=20).stdout


def clipboard_column(desk, name):
    """The device's CLIPBOARD column in `touchdeck devices` (NAME SCREEN EDIT CLIPBOARD …)."""
    line = next(line for line in desk.host.cli("devices").splitlines() if line.startswith(name + "  "))
    return line[len(name):].split()[2]


def paste_message(text, ask=False):
    message = {"type": "clipboardSet", "kind": "text", "data": base64.b64encode(text.encode()).decode(),
               "paste": False}
    return {**message, "ask": True} if ask else message


async def viewer(desk):
    """The paired device, allowed to view (not to paste), viewing."""
    client, _, _ = await paired_device(desk.host, NAME)
    desk.host.cli("devices", "allow-screen", NAME, "on")
    await client.recv_type("screenPermission")
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 320})
    await client.recv_type("screenStarted", timeout=30)
    return client


async def paste(client, text, ask=False):
    await client.send(paste_message(text, ask))
    return await client.recv_type("clipboardResult", timeout=30)


@pytest.fixture
def desk(tmp_path):
    if not os.environ.get("DISPLAY"):
        pytest.fail("DISPLAY not set: run these tests under scripts/with-desktop (make test-py)")
    desk = AskingDesktop(tmp_path)
    yield desk
    desk.stop()


def test_allow_once_pastes_that_once_deny_and_no_answer_set_nothing_always_sets_the_permission(desk):
    async def scenario():
        client = await viewer(desk)
        results = {"refused": await paste(client, "not asked")}
        desk.answer("once")
        results["once"] = await paste(client, "Once-7f3 text", ask=True)
        results["once pasted"] = pasted()
        results["after once"] = await paste(client, "once is once")
        results["column after once"] = clipboard_column(desk, NAME)
        desk.answer("deny")
        results["deny"] = await paste(client, "denied", ask=True)
        results["deny pasted"] = pasted()
        desk.answer("none")
        results["timeout"] = await paste(client, "nobody answered", ask=True)
        results["timeout pasted"] = pasted()
        desk.answer("always")
        results["always"] = await paste(client, "Always-9c2 text", ask=True)
        results["always pasted"] = pasted()
        results["after always"] = await paste(client, "no question now")
        await client.close()
        return results

    results = run(scenario())
    assert results["refused"] == RULES["refused"]
    assert results["once"] == RULES["answers"]["once"]
    assert results["once pasted"] == b"Once-7f3 text"
    assert results["after once"] == RULES["refused"], "Allow once is for that paste only"
    assert results["column after once"] == "off"
    assert results["deny"] == RULES["answers"]["deny"]
    assert results["deny pasted"] == b"Once-7f3 text", "a denied paste sets nothing"
    assert results["timeout"] == RULES["answers"]["timeout"]
    assert results["timeout pasted"] == b"Once-7f3 text"
    assert results["always"] == RULES["answers"]["always"]
    assert results["always pasted"] == b"Always-9c2 text"
    assert results["after always"] == {"type": "clipboardResult", "ok": True}
    assert pasted() == b"no question now"
    assert clipboard_column(desk, NAME) == "on"

    once, deny, timeout, always = desk.questions()
    for question in (once, deny, timeout, always):
        assert question["app"] == "TouchDeck" and question["summary"] == f"TouchDeck: {NAME} asks to paste on this " \
            "computer", question
        assert question["actions"] == ["once", "Allow once", "always", "Always allow", "deny", "Deny"]
    assert timeout["id"] in desk.closed(), "the unanswered question is withdrawn"
    assert "Once-7f3 text" not in desk.host.log() and "Always-9c2 text" not in desk.host.log(), "contents never logged"


def test_a_server_without_buttons_gets_the_old_refusal(tmp_path):
    desk = AskingDesktop(tmp_path, caps="body")
    try:
        async def scenario():
            client = await viewer(desk)
            refused = await paste(client, "cannot ask", ask=True)
            await client.close()
            return refused

        assert run(scenario()) == RULES["answers"]["unavailable"]
        assert desk.questions() == []
        assert pasted() != b"cannot ask"
    finally:
        desk.stop()
