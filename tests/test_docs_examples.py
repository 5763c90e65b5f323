"""The YAML examples in docs/*.md: a whole ruleset (first key `id:`) validates as written; a fragment
(any other yaml block that is not a transcript) uses only ruleset keys at its top level.

The convention is stated in docs/language.md ("In these documents a YAML example whose first key is
`id:` ..."); a transcript example (first key `ruleset:`) is held by tests/test_docs_transcripts.py.
"""
import json
import re
from pathlib import Path

import pytest
import yaml

from rulespec.compiler.build import compile_ruleset

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "rulespec" / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))


def _examples() -> list[tuple[str, str]]:
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"^```yaml[^\n]*\n(.*?)^```", text, re.S | re.M):
            line = text[:m.start()].count("\n") + 2
            found.append((f"{doc.name}:{line}", m.group(1)))
    return found


def _first_key(block: str) -> str:
    return next(line.split(":", 1)[0] for line in block.splitlines() if line and not line.startswith("#"))


EXAMPLES = _examples()
WHOLE = [(where, block) for where, block in EXAMPLES if _first_key(block) == "id"]
FRAGMENTS = [(where, block) for where, block in EXAMPLES if _first_key(block) not in ("id", "ruleset")]


def test_the_docs_have_whole_rulesets_and_fragments():
    assert {where.split(":")[0] for where, _ in WHOLE} >= {"language.md", "expressions.md"}
    assert len(FRAGMENTS) >= 10


@pytest.mark.parametrize("where,block", WHOLE, ids=[w for w, _ in WHOLE])
def test_whole_ruleset_example_validates(where, block, tmp_path):
    path = tmp_path / "example.yaml"
    path.write_text(block, encoding="utf-8")
    compile_ruleset(path)                     # a RulespecError (located) fails the test with its message


@pytest.mark.parametrize("where,block", FRAGMENTS, ids=[w for w, _ in FRAGMENTS])
def test_fragment_example_uses_ruleset_keys(where, block):
    keys = set(yaml.safe_load(block) or {})
    assert keys <= set(SCHEMA["properties"]), f"{where}: not ruleset keys: {sorted(keys - set(SCHEMA['properties']))}"
