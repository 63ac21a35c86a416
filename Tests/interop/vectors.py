"""Loads the shared known-answer vector files in Tests/Fixtures/vectors/ (the Swift tests read the same)."""

import json
import pathlib

VECTORS = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "vectors"


def load_cases(file_name):
    """The `cases` array of one vector file; a missing file fails the test that asked for it."""
    path = VECTORS / file_name
    assert path.is_file(), f"missing shared vector file {path}"
    cases = json.loads(path.read_text())["cases"]
    assert cases, f"{path} has no cases"
    return cases


def hex_field(case, name):
    return bytes.fromhex(case[name])
