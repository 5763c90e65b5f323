"""An author's own folder: a variant, recorded hands that name it so they replay from anywhere, the loop end to end."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.transcripts.transcript import read_transcript


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def variant(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("new", "my-variant", "--extends", "cirulla")[0] == 0
    return tmp_path / "my-variant.yaml"


def test_record_names_a_ruleset_file_relative_to_the_transcript(variant, tmp_path):
    assert cli("record", "my-variant.yaml", "--seed", "2", "-o", "golden/mv.yaml")[0] == 0
    assert read_transcript(tmp_path / "golden" / "mv.yaml").ruleset == "../my-variant.yaml"
    assert cli("record", "my-variant.yaml", "--seed", "2", "-o", "mv.yaml")[0] == 0
    assert read_transcript(tmp_path / "mv.yaml").ruleset == "my-variant.yaml"


def test_record_names_a_shipped_ruleset_by_its_id(variant, tmp_path):
    assert cli("record", "cirulla-short", "--seed", "2", "-o", "deep/er/s.yaml")[0] == 0
    assert read_transcript(tmp_path / "deep" / "er" / "s.yaml").ruleset == "cirulla-short"


def test_record_to_standard_output_names_the_file_from_the_current_folder(variant, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    code, out, _ = cli("record", "../my-variant.yaml", "--seed", "1")
    assert code == 0 and "\nruleset: ../my-variant.yaml\n" in out


@pytest.mark.parametrize("where", [".", "golden", "golden/deeper", "/"])
def test_a_relative_ruleset_path_is_resolved_once_from_any_folder(variant, tmp_path, monkeypatch, where):
    assert cli("record", "my-variant.yaml", "--seed", "3", "-o", "golden/mv3.yaml")[0] == 0
    (tmp_path / "golden" / "deeper").mkdir()
    transcript = tmp_path / "golden" / "mv3.yaml"
    monkeypatch.chdir(tmp_path / where)
    for command in ("test", "replay"):
        code, out, err = cli(command, os.path.relpath(transcript))
        assert (code, err) == (0, ""), out
        assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_a_missing_ruleset_file_is_named_as_written(tmp_path):
    path = tmp_path / "golden" / "t.yaml"
    path.parent.mkdir()
    path.write_text("ruleset: ../nowhere.yaml\ndealer: 0\ndeck: [AH]\n", encoding="utf-8")
    code, out, _ = cli("replay", path)
    assert code == 1
    assert f"{path}:1:10: no ruleset file '../nowhere.yaml'" in out
