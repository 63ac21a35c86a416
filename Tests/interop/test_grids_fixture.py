"""The Python reference client knows the grid sizes (PROTOCOL §6 "Grid sizes") of Tests/Fixtures/rules/grids.json,
the table DeckKit's GridSizeTests and Web/test/rules.test.js run: every resized deck there is a layout it reads."""

import json
import pathlib

import pytest

from touchdeck.messages import GRIDS, problems

TABLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "Fixtures/rules/grids.json").read_text())


def test_the_sizes_are_the_tables():
    assert {name: {"columns": c, "rows": r} for name, (c, r) in GRIDS.items()} == TABLE["grids"]


@pytest.mark.parametrize("case", TABLE["resizes"], ids=[c["name"] for c in TABLE["resizes"]])
def test_both_sides_of_a_resize_are_layouts(case):
    assert problems({"type": "layout", "pages": case["pages"], "grid": case["from"]}) == []
    assert problems({"type": "layout", "pages": case["expect"], "grid": case["to"]}) == []
    assert problems({"type": "setGrid", "grid": case["to"]}) == []
    assert problems({"type": "setGrid", "grid": "9x9"}) != []
