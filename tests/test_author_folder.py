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


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_authors_loop_end_to_end_in_a_folder_outside_the_checkout(tmp_path):
    # The "done when": new, record, test, replay from the parent folder, pytest with the plugin.
    from importlib.metadata import entry_points
    assert "rulespec.transcripts.pytest_plugin" in [e.value for e in entry_points(group="pytest11")], \
        "the pytest plugin is not registered: reinstall rulespec (pip install -e .)"
    home = tmp_path / "house"
    home.mkdir()
    assert not (Path(__file__).resolve().parent.parent in home.resolve().parents)
    steps = [
        (home, ["-m", "rulespec", "new", "my-variant", "--extends", "cirulla"]),
        (home, ["-m", "rulespec", "record", "my-variant.yaml", "--seed", "2", "-o", "golden/mv.yaml"]),
        (home, ["-m", "rulespec", "test", "golden"]),
        (tmp_path, ["-m", "rulespec", "replay", "house/golden"]),
        (home, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--rulespec-golden", "golden"]),
    ]
    for cwd, argv in steps:
        if argv[:3] == ["-m", "pytest", "-q"]:
            # the same hand written as JSON (transcripts.md: JSON is YAML) is collected too; other JSON is not
            import json

            import yaml
            hand = yaml.safe_load((home / "golden" / "mv.yaml").read_text(encoding="utf-8"))
            (home / "golden" / "mv.json").write_text(json.dumps(hand), encoding="utf-8")
            (home / "golden" / "package.json").write_text('{"name": "house", "version": "1.0.0"}', encoding="utf-8")
        done = _run(cwd, *argv)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    assert done.stdout.splitlines()[-1].startswith("2 passed")
    (home / "golden" / "mv.json").unlink()
    # Pytest's report of a transcript that no longer holds names the play (events the ruleset has, which no
    # play makes so: a name it lacks is refused before any play, as validate does).
    text = (home / "golden" / "mv.yaml").read_text(encoding="utf-8")
    first = text.index("  events: [", text.index("plays:"))
    (home / "golden" / "mv.yaml").write_text(text[:first] + "  events: [scopa, scopa]" + text[text.index("\n", first):],
                                             encoding="utf-8")
    (home / "pytest.ini").write_text("[pytest]\nrulespec_golden = true\n", encoding="utf-8")  # the setting, not the flag
    done = _run(home, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "golden")
    assert done.returncode == 1
    assert "golden/mv.yaml::replay" in done.stdout
    assert "play 1 (seat 1, " in done.stdout and "expected events [scopa, scopa], got [" in done.stdout


class _Config:
    def __init__(self, flag, ini):
        self.flag, self.ini = flag, ini

    def getoption(self, name):
        return self.flag

    def getini(self, name):
        return self.ini


@pytest.mark.parametrize("flag, ini, collected", [(None, False, False), (True, False, True), (None, True, True)])
def test_the_plugin_collects_only_when_asked(tmp_path, flag, ini, collected):
    # Off by default, so a project that replays its transcripts another way (this one) does not run them twice.
    from types import SimpleNamespace

    from rulespec.transcripts import pytest_plugin
    transcript = tmp_path / "t.yaml"
    transcript.write_text("ruleset: cirulla\ndealer: 0\ndeck: [AH]\n", encoding="utf-8")
    ruleset = tmp_path / "r.yaml"
    ruleset.write_text("id: r\nextends: cirulla\n", encoding="utf-8")
    parent = SimpleNamespace(config=_Config(flag, ini))
    assert pytest_plugin._enabled(parent.config) is collected
    if not collected:
        assert pytest_plugin.pytest_collect_file(transcript, parent) is None
    assert pytest_plugin.pytest_collect_file(ruleset, parent) is None
    assert pytest_plugin.pytest_collect_file(tmp_path / "x.json", parent) is None
    # a transcript written as JSON (transcripts.md) is one too, as `rulespec test` takes it; other JSON is not
    as_json = tmp_path / "t.json"
    as_json.write_text('{"ruleset": "cirulla", "dealer": 0, "deck": ["AH"]}', encoding="utf-8")
    other = tmp_path / "package.json"
    other.write_text('{"name": "x", "version": "1.0.0"}', encoding="utf-8")
    assert pytest_plugin.pytest_collect_file(other, parent) is None
    if not collected:
        assert pytest_plugin.pytest_collect_file(as_json, parent) is None


def test_the_pre_commit_hook_runs_rulespec_validate(tmp_path, monkeypatch):
    import shlex

    import yaml
    hooks = yaml.safe_load((Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["rulespec-validate"]
    hook = hooks[0]
    assert {"id", "name", "entry", "language"} <= set(hook) and hook["language"] == "python"
    command = shlex.split(hook["entry"])
    assert command[:2] == ["rulespec", "validate"]
    # pre-commit appends the staged files that match `files:`; the command then checks each.
    import re
    monkeypatch.chdir(tmp_path)
    assert cli("new", "v", "--extends", "cirulla")[0] == 0
    assert cli("record", "v.yaml", "--seed", "1", "-o", "t.yaml")[0] == 0
    staged = [p for p in ("v.yaml", "t.yaml", ".rulespec/ruleset.schema.json")
              if re.search(hook["files"], p) and not re.search(hook.get("exclude", "^$"), p)]
    assert staged == ["v.yaml", "t.yaml"]
    assert cli(*command[1:], *staged) == (0, "ok   v.yaml (ruleset v)\nok   t.yaml (transcript)\n", "")
    Path("v.yaml").write_text(Path("v.yaml").read_text().replace("extends:", "extend:"), encoding="utf-8")
    assert cli(*command[1:], *staged)[0] == 1
