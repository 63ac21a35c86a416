"""Every Tests/Fixtures/messages/*.json decodes, follows the catalogue and round-trips unchanged."""

import json
import pathlib

import pytest

from touchdeck import messages

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "messages"
FILES = sorted(FIXTURES.glob("*.json"))


def test_there_are_fixtures_for_every_catalogued_type():
    assert {path.stem for path in FILES} >= set(messages.CATALOGUE)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_fixture_decodes_and_follows_the_catalogue(path):
    message = messages.decode(path.read_text(encoding="utf-8"))
    assert message["type"] == path.stem
    assert messages.problems(message) == []


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_fixture_round_trips(path):
    message = messages.decode(path.read_text(encoding="utf-8"))
    again = messages.decode(messages.encode(message))
    assert again == message
    assert json.dumps(again, sort_keys=True) == json.dumps(message, sort_keys=True)


def test_the_asking_messages_follow_the_catalogue():
    """Tests/Fixtures/rules/asking.json, which the Swift and JS tests read too."""
    rules = json.loads((FIXTURES.parent / "rules" / "asking.json").read_text(encoding="utf-8"))
    shown = [rules["ask"], rules["asking"], *rules["answers"].values()]
    assert [messages.problems(message) for message in shown] == [[]] * len(shown)
    assert messages.problems({**rules["asking"], "reason": "pleading"}) != [], "the catalogue can refuse"


def test_the_clipboard_asking_messages_follow_the_catalogue():
    """Tests/Fixtures/rules/clipboard-asking.json, which the Swift and JS tests read too."""
    rules = json.loads((FIXTURES.parent / "rules" / "clipboard-asking.json").read_text(encoding="utf-8"))
    shown = [rules["refused"], rules["ask"], *rules["answers"].values()]
    assert [messages.problems(message) for message in shown] == [[]] * len(shown)
    assert messages.problems({**rules["answers"]["deny"], "asked": "shrugged"}) != [], "the catalogue can refuse"


def test_defaults_fill_only_absent_fields():
    assert messages.with_defaults({"type": "hello"}) == {"type": "hello", "protocol": 1, "name": ""}
    assert messages.with_defaults({"type": "startScreen", "displayId": 1, "maxSide": 800, "fps": 60})["fps"] == 60
    assert messages.with_defaults({"type": "pointer", "kind": "click", "x": 0, "y": 0})["dx"] == 0


@pytest.mark.parametrize("message, problem", [
    ({"type": "dance"}, "unknown type 'dance'"),
    ({"type": "press", "page": 0}, "missing index"),
    ({"type": "press", "page": 0, "index": "3"}, "bad index"),
    ({"type": "pairStart", "pA": "AAAA"}, "bad pA"),
    ({"type": "keypad", "key": "x"}, "bad key"),
    ({"type": "layout", "pages": [[None] * 11]}, "bad pages"),
    ({"type": "setButton", "page": 0, "index": 0, "button": {"label": "A", "kind": "app"}}, "bad button"),
    ({"type": "volume", "available": 1, "level": 0.5, "muted": False}, "bad available"),
])
def test_problems_are_reported(message, problem):
    assert problem in messages.problems(message)


@pytest.mark.parametrize("text", ['[]', '{"page":0}', '{"type":3}', '"press"'])
def test_decode_refuses_non_messages(text):
    with pytest.raises(ValueError):
        messages.decode(text)


COMPOUND = json.loads((FIXTURES.parent / "rules" / "compound-keys.json").read_text(encoding="utf-8"))


def test_the_compound_keys_layout_follows_the_catalogue():
    """The layout with a multi-action and a toggle (rules/compound-keys.json `wire`) is one the client reads."""
    wire = COMPOUND["wire"]
    assert messages.problems(wire) == []
    assert messages.decode(messages.encode(wire)) == wire
    toggle = wire["pages"][0][3]
    assert (toggle["kind"], toggle["state"]) == ("toggle", "on")


@pytest.mark.parametrize("case", [c for c in COMPOUND["cases"] if "expect" in c], ids=lambda c: c["name"])
def test_every_compound_key_the_host_keeps_follows_the_catalogue(case):
    assert messages.problems({"type": "layout", "pages": case["expect"]}) == []


def test_a_nested_multi_action_is_not_a_button():
    nested = {"label": "M", "kind": "multi", "steps": [{"label": "", "kind": "multi", "steps": []}]}
    assert "bad button" in messages.problems({"type": "setButton", "page": 0, "index": 0, "button": nested})
