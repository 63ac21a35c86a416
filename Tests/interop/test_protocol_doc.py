"""docs/PROTOCOL.md stands alone: it names no document outside the repository (SPEC.md is not in it), and
every message type the fixtures hold, every error code and every close code the host uses is in it."""

import json
import pathlib
import re

from touchdeck.messages import ERROR_CODES

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text()
# Every `code span` of the document; a name counts as documented when one of them holds it as a word.
CODE_SPANS = re.findall(r"`([^`\n]+)`", DOC)


def in_code(word):
    return any(re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", span) for span in CODE_SPANS)


def test_the_document_refers_to_no_spec():
    # Case-sensitive: "the Desktop Entry spec" is a public standard, not the product's SPEC.md.
    assert not re.search(r"\bSPEC\b", DOC), "PROTOCOL.md must not send readers to SPEC.md"


def test_every_fixture_message_type_is_documented():
    types = {json.loads(path.read_text())["type"] for path in (ROOT / "Tests/Fixtures/messages").glob("*.json")}
    assert len(types) > 30
    assert sorted(t for t in types if not in_code(t)) == []


def test_every_error_code_is_documented():
    assert sorted(code for code in ERROR_CODES if not in_code(code)) == []


def test_every_close_code_the_host_uses_is_in_the_close_code_table():
    assert "### Close codes" in DOC, "PROTOCOL.md has a close code table"
    table = DOC[DOC.index("### Close codes"):]
    table = table[:table.index("\n### ", 1)]
    rows = set(re.findall(r"^\| (\d{4}) ", table, re.MULTILINE))
    assert {"1001", "1003", "1007", "1008", "1009", "1013"} <= rows, rows


def test_every_file_the_document_names_exists():
    named = {span for span in CODE_SPANS if re.fullmatch(r"(Tests|docs|Sources|Web)/[\w./-]+", span)}
    assert named, "the document names its fixture files"
    assert sorted(path for path in named if not (ROOT / path).exists()) == []
