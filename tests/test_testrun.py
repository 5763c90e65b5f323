"""`rulespec test`: finding and replaying transcripts, and --update for recorded ones only."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.transcripts import testrun
from rulespec.cli.main import run
from rulespec.transcripts.record import record

GOLDEN = Path(__file__).parent / "golden"
VERIFIED = GOLDEN / "cirulla" / "08-barsega.yaml"


def rulespec_test(argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(["test", *map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "rec.yaml"
    path.write_text(record(compile_ruleset("cirulla"), seed=5, command="rulespec record cirulla --seed 5"),
                    encoding="utf-8")
    return path


def test_default_in_a_checkout_is_its_golden_folder(monkeypatch):
    # From the checkout's top (pyproject's [tool.rulespec]) and from a folder below it.
    monkeypatch.chdir(GOLDEN.parent.parent)
    assert testrun.default_paths() == [Path("tests/golden")]
    monkeypatch.chdir(GOLDEN / "cirulla")
    assert testrun.default_paths() == [GOLDEN]


def test_default_without_settings_is_tests_golden_here(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = rulespec_test([])
    assert code == 2 and out == ""
    assert err.startswith("no golden transcripts to replay: no tests/golden folder here, and no `golden` setting in a "
                          "rulespec.toml or the [tool.rulespec] table of a pyproject.toml (here or in a folder above); "
                          "give the transcripts' files or folders")
    (tmp_path / "tests" / "golden").mkdir(parents=True)
    assert testrun.default_paths() == [Path("tests/golden")]


@pytest.mark.parametrize("name, text", [
    ("rulespec.toml", 'golden = ["hands", "more"]\n'),
    ("pyproject.toml", '[project]\nname = "x"\n[tool.rulespec]\ngolden = ["hands", "more"]\n'),
])
def test_default_from_the_authors_settings(monkeypatch, tmp_path, recorded, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    for folder in ("hands", "more", "sub"):
        (tmp_path / folder).mkdir()
    shutil.move(recorded, tmp_path / "hands" / "rec.yaml")
    monkeypatch.chdir(tmp_path / "sub")  # settings apply from a folder below too, relative to their file
    assert testrun.default_paths() == [tmp_path / "hands", tmp_path / "more"]
    code, out, _ = rulespec_test([])
    assert code == 0 and out.splitlines()[-1] == "1 passed, 0 failed"


@pytest.mark.parametrize("text, message", [
    ("golden = 3\n", "golden must be a folder or file, or a list of them (relative to rulespec.toml), found 3"),
    ("goldne = 'x'\n", "unknown key 'goldne' in the file; expected one of: golden"),
    ("[tool.rulespec]\ngolden = 'x'\n", "unknown key 'tool' in the file; expected one of: golden; a rulespec.toml "
                                        "gives them at its top level (golden = ...), the [tool.rulespec] table "
                                        "is for pyproject.toml"),
    ("tool = 3\n", "unknown key 'tool' in the file; expected one of: golden\n"),
    ("golden = [\n", "not valid TOML"),
    ("golden = 'nowhere'\n", "no golden transcripts to replay: "),
])
def test_bad_settings_are_reported(monkeypatch, tmp_path, text, message):
    (tmp_path / "rulespec.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = rulespec_test([])
    assert code == 2 and message in err


def test_a_folder_is_searched_and_rulesets_in_it_skipped(tmp_path, recorded):
    (tmp_path / "sub").mkdir()
    shutil.copy(VERIFIED, tmp_path / "sub" / "v.yaml")
    (tmp_path / "sub" / "rules.yaml").write_text("id: local\nextends: cirulla\ndeal: {packet: 3}\n", encoding="utf-8")
    found = testrun.find([tmp_path])
    assert found.transcripts == [recorded, tmp_path / "sub" / "v.yaml"]
    assert found.rulesets == [tmp_path / "sub" / "rules.yaml"]
    for command in ("test", "replay"):  # one rule for both
        out, err = io.StringIO(), io.StringIO()
        assert run([command, str(tmp_path)], out, err) == 0
        assert out.getvalue().splitlines()[-1] == "2 passed, 0 failed"
        assert err.getvalue() == f"skipped 1 ruleset file: {tmp_path / 'sub' / 'rules.yaml'}\n"


def test_a_ruleset_named_as_a_transcript_is_refused_by_name(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("id: local\nextends: cirulla\n", encoding="utf-8")
    for command in ("test", "replay"):
        out = io.StringIO()
        assert run([command, str(path)], out, io.StringIO()) == 1
        assert out.getvalue().splitlines()[:2] == [
            f"FAIL {path}", f"  {path}: a ruleset (it has `id:`), not a transcript; replay and test take transcripts "
            f"(`rulespec validate` checks a ruleset)"]


def test_a_failure_is_reported_and_counted(recorded):
    # carte raised by 8, and the side's total with it (a total that is not its categories' sum is the author's
    # arithmetic, reported before any play): replay finds the difference
    text = recorded.read_text()
    line = next(x for x in text.splitlines() if "carte: 1" in x)
    total = int(re.search(r"total: (\d+)", line).group(1))
    changed = line.replace("carte: 1", "carte: 9").replace(f"total: {total}", f"total: {total + 8}")
    recorded.write_text(text.replace(line, changed), encoding="utf-8")
    code, out, _ = rulespec_test([recorded])
    assert code == 1
    assert "expect.score: side" in out and "carte: expected 9, got 1" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed"


def test_update_rewrites_a_recorded_transcript_from_the_engine(recorded):
    good = recorded.read_text(encoding="utf-8")
    broken = good.replace("carte: 1", "carte: 9").replace("events: [scopa]", "events: []", 1)
    assert broken != good
    recorded.write_text(broken, encoding="utf-8")
    code, out, _ = rulespec_test(["--update", recorded])
    assert code == 0
    assert out.splitlines() == [f"updated {recorded} ({good.count('- seat:')} plays)", "1 updated", "1 passed, 0 failed"]
    assert recorded.read_text(encoding="utf-8") == good


def test_update_never_touches_a_hand_verified_transcript(tmp_path):
    path = tmp_path / "v.yaml"
    text = VERIFIED.read_text(encoding="utf-8").replace("events: {0: [], 1: [barsega]}", "events: {0: [], 1: []}")
    path.write_text(text, encoding="utf-8")
    code, out, _ = rulespec_test(["--update", path])
    assert code == 1
    assert "  hand-verified: not updated (fix the engine, or the transcript by hand)" in out.splitlines()
    assert out.splitlines()[-2:] == ["0 updated", "0 passed, 1 failed"]
    assert path.read_text(encoding="utf-8") == text


def test_update_stops_at_a_play_the_engine_refuses(recorded):
    text = recorded.read_text(encoding="utf-8")
    # The first play's card swapped for one the seat does not hold.
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.lstrip().startswith("card: "))
    lines[i] = lines[i].split("card:")[0] + "card: 7H" if "7H" not in lines[i] else lines[i].replace("7H", "7D")
    recorded.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = rulespec_test(["--update", recorded])
    assert code == 1
    assert any(line.startswith("  cannot update: ") and "is refused by the engine now" in line
               for line in out.splitlines())


def test_a_missing_path():
    code, _, err = rulespec_test(["no/such/folder"])
    assert code == 2 and err.startswith("no such file or folder: no/such/folder")


def test_file_kind(tmp_path):
    kinds = {"id: x\nextends: cirulla\ndeck: latin40\n": "ruleset",
             "ruleset: cirulla\ndealer: 0\ndeck: [AH]\nplays: []\n": "transcript",
             "deal: [\n  broken": "transcript", "id: [\n  broken": "ruleset"}
    for i, (text, kind) in enumerate(kinds.items()):
        path = tmp_path / f"{i}.yaml"
        path.write_text(text, encoding="utf-8")
        assert testrun.file_kind(path) == kind, text


@pytest.mark.parametrize("text, message", [
    ("", "empty file; expected a mapping"),
    ("- {seat: 1, card: 7H}\n", "expected a mapping at the top level, found a list"),
    ("hello\n", "expected a mapping at the top level, found the value 'hello'"),
])
def test_a_named_file_of_neither_kind_is_read_as_a_transcript(tmp_path, text, message):
    # It was reported as "a ruleset (it has `id:`)", which it is not; its own error says what is wrong.
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = rulespec_test([path])
    assert code == 1 and f"{path}:1:1: {message}" in out and "id:" not in out, out
    path.write_text("id: x\nextends: cirulla\n", encoding="utf-8")
    code, out, _ = rulespec_test([path])
    assert code == 1 and "a ruleset (it has `id:`), not a transcript" in out, out


def test_a_folder_s_json_transcripts_are_replayed_and_other_json_passed_over(tmp_path):
    # transcripts.md: "Transcripts are YAML (JSON is valid YAML)": a generator's folder of .json hands.
    import json
    hand = {"ruleset": "cirulla", "seats": 2, "dealer": 1,
            "deal": [{"table": ["KH", "AD", "5S", "7S"], "hands": {"0": ["6H", "6D", "3S"], "1": ["7D", "AC", "JS"]}}],
            "plays": [{"seat": 0, "card": "6D", "capture": ["AD", "5S"]}]}
    (tmp_path / "hand.json").write_text(json.dumps(hand), encoding="utf-8")
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    (tmp_path / "v.yaml").write_text("id: v\nextends: cirulla\n", encoding="utf-8")
    found = testrun.find([tmp_path])
    assert found.transcripts == [tmp_path / "hand.json"] and found.rulesets == [tmp_path / "v.yaml"]
    code, out, _ = rulespec_test([tmp_path])
    assert code == 0 and "1 passed, 0 failed" in out, out


def test_settings_without_a_toml_reader_say_what_to_install(monkeypatch, tmp_path):
    # Python 3.10 has no tomllib: with tomli missing too, a settings file is an error that says what to do,
    # and a pyproject.toml without [tool.rulespec] is passed over without being parsed at all.
    import sys
    monkeypatch.setitem(sys.modules, "tomllib", None)
    monkeypatch.setitem(sys.modules, "tomli", None)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    (tmp_path / "tests" / "golden").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert testrun.default_paths() == [Path("tests/golden")]
    (tmp_path / "rulespec.toml").write_text('golden = "tests/golden"\n', encoding="utf-8")
    code, _, err = rulespec_test([])
    assert code == 2
    assert err == (f"{tmp_path / 'rulespec.toml'}: reading its rulespec settings needs Python 3.11 or the tomli "
                   f"package (pip install tomli)\n")
