"""`rulespec test`: finding and replaying transcripts, and --update for recorded ones only."""
from __future__ import annotations

import io
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


def test_default_is_the_shipped_golden_folder():
    assert testrun.default_paths() == [GOLDEN]


def test_without_a_checkout_it_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(testrun, "_ROOT", tmp_path)
    code, out, err = rulespec_test([])
    assert code == 2 and out == ""
    assert err.startswith("no golden transcripts to replay: the tests/golden folder comes with a source checkout "
                          "of rulespec, not with the installed package; give the transcripts' files or folders")


def test_a_folder_is_searched_and_rulesets_in_it_skipped(tmp_path, recorded):
    (tmp_path / "sub").mkdir()
    shutil.copy(VERIFIED, tmp_path / "sub" / "v.yaml")
    (tmp_path / "sub" / "rules.yaml").write_text("id: local\nextends: cirulla\ndeal: {packet: 3}\n", encoding="utf-8")
    assert testrun.find([tmp_path]) == [recorded, tmp_path / "sub" / "v.yaml"]
    code, out, _ = rulespec_test([tmp_path])
    assert code == 0
    assert out.splitlines()[-1] == "2 passed, 0 failed"


def test_a_failure_is_reported_and_counted(recorded):
    recorded.write_text(recorded.read_text().replace("carte: 1", "carte: 9"), encoding="utf-8")
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
