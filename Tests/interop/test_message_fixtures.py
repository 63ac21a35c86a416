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
