"""`rulespec show`: a ruleset's YAML as written, or after inheritance (`--merged`) as a file that stands alone."""
from __future__ import annotations

import io

import pytest

from rulespec.bots.simulate import simulate
from rulespec.cli.main import run
from rulespec.source.rulesets import rulesets_dir, shipped_ids


def cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_shipped_ruleset_is_printed_as_written(tmp_path, monkeypatch):
    """As written, but for its editor line, which points where a file saved here finds the schema (the
    shipped file's own line, `../schemas/...`, names nothing from the folder it is saved in)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("show", "cirulla-a-cinque")
    first, _, rest = (rulesets_dir() / "cirulla-a-cinque.yaml").read_text(encoding="utf-8").partition("\n")
    assert code == 0 and first.startswith("# yaml-language-server: $schema=../")
    assert out == "# yaml-language-server: $schema=.rulespec/ruleset.schema.json\n" + rest
    assert "extends: cirulla" in out and "#" in out          # its own keys and comments, nothing inherited
    assert "mkdir -p .rulespec && rulespec schema > .rulespec/ruleset.schema.json" in err   # not there yet
    (tmp_path / ".rulespec").mkdir()
    assert cli("schema")[0] == 0
    (tmp_path / ".rulespec" / "ruleset.schema.json").write_text(cli("schema")[1], encoding="utf-8")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    code, out, err = cli("show", "cirulla-a-cinque")          # the copy a folder above has
    assert code == 0 and not err and out.startswith("# yaml-language-server: $schema=../.rulespec/ruleset.schema.json\n")


VARIANTS = [rid for rid in shipped_ids()
            if "extends:" in (rulesets_dir() / f"{rid}.yaml").read_text(encoding="utf-8")]


@pytest.mark.parametrize("rid", VARIANTS)
def test_merged_stands_alone_and_makes_the_same_game(rid, tmp_path):
    """What --merged prints has no extends:, validates with no warning, and `rulespec diff` finds no rule
    that differs from the variant it came from."""
    code, out, err = cli("show", rid, "--merged")
    assert code == 0 and not err and "\nextends:" not in out and not out.startswith("extends:")
    path = tmp_path / f"{rid}.yaml"
    path.write_text(out, encoding="utf-8")
    code, _out, err = cli("validate", path)
    assert code == 0 and "warning" not in err, err
    assert cli("diff", path, rid)[0] == 0


def test_merged_plays_the_same_hands(tmp_path):
    """The same seed gives the same figures from the variant and from its merged file (a variant of a
    variant, with a wild card declared and hand bonuses)."""
    path = tmp_path / "merged.yaml"
    path.write_text(cli("show", "cirulla-double-bonus", "--merged")[1], encoding="utf-8")
    assert simulate(path, hands=300, seed=3, workers=1).sums == \
        simulate("cirulla-double-bonus", hands=300, seed=3, workers=1).sums


def test_errors_are_located_and_no_traceback(tmp_path):
    code, out, err = cli("show", "cirula")
    assert code == 2 and not out and err.startswith("unknown ruleset 'cirula'") and "Traceback" not in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: cirulla\nhand_bonuses:\n  barsega: {unique_by: value}\n", encoding="utf-8")
    assert cli("show", bad)[0] == 0                  # as written: what the file says, right or wrong
    code, out, err = cli("show", bad, "--merged")
    assert code == 2 and not out and err.startswith(f"{bad}:4:24: hand bonus 'barsega' has unique_by value")
