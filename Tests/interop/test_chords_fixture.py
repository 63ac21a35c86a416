"""The Python reference client takes the hotkey chords of Tests/Fixtures/rules/chords.json that DeckKit's
KeyChordTests and Web/test/hotkeys.test.js take, and refuses the others (PROTOCOL §6 "Layout", `hotkey`)."""

import json
import pathlib

import pytest

from touchdeck.messages import problems

TABLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "Fixtures/rules/chords.json").read_text())


def hotkey(case):
    button = {"label": "", "kind": "hotkey"}
    button.update({field: case[field] for field in ("key", "modifiers") if field in case})
    return button


@pytest.mark.parametrize("case", TABLE["chords"], ids=[c["name"] for c in TABLE["chords"]])
def test_a_chord_is_taken_exactly_when_the_table_says(case):
    found = problems({"type": "setButton", "page": 0, "index": 0, "button": hotkey(case)})
    assert found == ([] if "problem" not in case else ["bad button"]), found
