"""The Python reference client reads key looks (PROTOCOL §6 "Looks") as the host and the web client do: the
same table, Tests/Fixtures/rules/looks.json, that DeckKit's KeyLookTests and Web/test/rules.test.js run."""

import json
import pathlib

import pytest

from touchdeck.messages import PALETTE, is_button, look_error

TABLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "Fixtures/rules/looks.json").read_text())


def test_the_palette_is_the_tables():
    assert PALETTE == TABLE["palette"] and len(set(PALETTE)) == 12


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["name"] for c in TABLE["cases"]])
def test_looks_case(case):
    error = case.get("error")
    assert is_button(case["button"]) == (error != "malformed")
    if error != "malformed":
        assert look_error(case["button"]) == error
