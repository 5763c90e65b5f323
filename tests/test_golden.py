"""Every golden transcript under tests/golden replays through the compiled engine."""
from pathlib import Path

import pytest

from rulespec.transcripts.replay import replay

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.rglob("*.yaml"))


def test_golden_transcripts_exist():
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_replays(path):
    result = replay(path)
    assert result.ok, result.summary()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(GOLDEN)) for p in FILES])
def test_labelled(path):
    # Hand-verified transcripts name the rule they check; recorded ones say they are recorded.
    head = path.read_text(encoding="utf-8").splitlines()[:3]
    assert head and (head[0].startswith("# hand-verified") and any("rule:" in h for h in head)
                     or head[0].startswith("# recorded"))
