"""Issue 14 gap 5: the transcript format is documented in docs/transcripts.md, key for key with the
schema the reader validates against (a key added to the format without its documentation fails)."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _keys(node, out):
    if isinstance(node, dict):
        out |= set(node.get("properties", {}))
        for value in node.values():
            _keys(value, out)
    elif isinstance(node, list):
        for value in node:
            _keys(value, out)
    return out


def test_every_transcript_key_is_documented():
    schema = json.loads((ROOT / "rulespec" / "schemas" / "transcript.schema.json").read_text(encoding="utf-8"))
    keys = _keys(schema, set())
    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    assert len(keys) > 15
    assert [k for k in sorted(keys) if f"`{k}`" not in doc] == []


def test_the_guide_names_the_contract_it_follows():
    # It says what it reproduces (the project's contract and its card notation), without the path of a file
    # that ships nowhere: a reader has the page, not the project's shared/ folder (tests/test_author_day.py).
    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    assert "the project's contract for transcripts, with its card\nnotation" in doc
    assert "shared/" not in doc
