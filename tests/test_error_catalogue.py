"""The catalogue of broken rulesets: each gives exactly the located messages it should.

tests/errors/rulesets/<name>.yaml is checked with `rulespec validate`; its
stderr headlines (`file:line:col: message`, `file:line:col: warning: message`)
must be exactly the lines of <name>.expected, where `{rulesets}` stands for
the shipped rulesets' folder. Files under bases/ are inherited by the cases.
A case with only warnings validates (exit 0); any error fails it (exit 1, as a linter's findings).
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.source.rulesets import rulesets_dir

CATALOGUE = Path(__file__).parent / "errors" / "rulesets"
CASES = sorted(p.stem for p in CATALOGUE.glob("*.yaml"))


def test_catalogue_is_complete():
    missing = [name for name in CASES if not (CATALOGUE / f"{name}.expected").exists()]
    orphans = [p.stem for p in CATALOGUE.glob("*.expected") if p.stem not in CASES]
    assert not missing and not orphans
    assert len(CASES) >= 50


def validate(name: str) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["validate", f"{name}.yaml"], out, err)
    text = err.getvalue().replace(str(rulesets_dir()), "{rulesets}")
    headlines = [line for line in text.splitlines() if not line.startswith("    ")]
    return code, headlines, text


@pytest.mark.parametrize("name", CASES)
def test_broken_ruleset(name, monkeypatch):
    monkeypatch.chdir(CATALOGUE)
    expected = (CATALOGUE / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    code, headlines, text = validate(name)
    assert headlines == expected
    errors = [h for h in expected if ": warning: " not in h]
    assert code == (1 if errors else 0)
    # Every message quotes its line with a caret under the column.
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("    "):
            assert lines[i + 1].startswith("    ") and lines[i + 2].strip() == "^", line


def test_shipped_rulesets_have_no_errors_or_warnings():
    out, err = io.StringIO(), io.StringIO()
    ids = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
    assert run(["validate", *ids], out, err) == 0
    assert err.getvalue() == ""
    assert out.getvalue().count("ok   ") == len(ids)
