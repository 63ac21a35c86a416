"""The Python reference client reads folders and page keys (PROTOCOL §6 "Folders and pages") from the same table
DeckKit's FolderTests and Web/test/rules.test.js run: every button and edit in it has the catalogue's shape, a
folder's depth is the host's, and page keys turn where the host's rule says."""

import json
import pathlib

import pytest

from touchdeck.messages import MAX_FOLDER_DEPTH, folder_depth, problems, turn_page

TABLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "Fixtures/rules/folders.json").read_text())
SHAPED = [c for c in TABLE["cases"] if c.get("error") != "wrongPageSize"]


def test_the_depth_is_the_tables():
    assert MAX_FOLDER_DEPTH == TABLE["maxFolderDepth"]


@pytest.mark.parametrize("case", SHAPED, ids=[c["name"] for c in SHAPED])
def test_every_edit_and_layout_has_the_catalogues_shape(case):
    assert problems(case["edit"]) == []
    for pages in [case["start"]] + ([case["expect"]] if "expect" in case else []):
        assert problems({"type": "layout", "pages": pages}) == []


@pytest.mark.parametrize("case", [c for c in TABLE["cases"] if c.get("error") == "folderTooDeep"])
def test_a_folder_too_deep_is_seen_as_such(case):
    assert len(case["edit"].get("path", [])) + folder_depth(case["edit"]["button"]) > MAX_FOLDER_DEPTH


@pytest.mark.parametrize("turn", TABLE["turns"], ids=[t["name"] for t in TABLE["turns"]])
def test_page_turn(turn):
    assert turn_page(turn, turn["from"], turn["pageCount"]) == turn["expect"]
