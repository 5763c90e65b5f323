"""The compile stage: readable, deterministic, located, cached; options and extends."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError

ROOT = Path(__file__).resolve().parent.parent


def test_generated_source_names_its_yaml_lines(cirulla):
    src = cirulla.source
    assert "# cirulla.yaml:" in src
    assert "def captures(played, table, round, turn, play):" in src
    # Filters over static card properties are folded into bitmasks at compile time.
    assert "count(" not in src.split('"""', 2)[2].replace("# ", "#").split("#")[0]


def test_generated_source_is_deterministic():
    code = "from rulespec.compiler.build import compile_ruleset; print(compile_ruleset('cirulla').source)"
    outs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1


def test_compile_is_cached(cirulla):
    assert compile_ruleset("cirulla") is cirulla


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_extends_merges_and_null_deletes(tmp_path):
    path = write(tmp_path, "v.yaml", """\
        id: no-decino-short
        extends: cirulla
        hand_bonuses:
          decino: null
          barsega: {excluded_by: []}
        game: {target: 26}
        """)
    c = compile_ruleset(path)
    assert sorted(c.module.HAND_BONUSES) == ["barsega"]
    assert c.module.TARGET == 26
    assert c.module.CATEGORIES == compile_ruleset("cirulla").module.CATEGORIES


def test_null_deletes_an_inherited_key_of_any_type(tmp_path):
    """docs/language.md: "`null` deletes an inherited key" -- a key whose own type has no null (an enum, a
    list) too: the file alone is checked without its deletions, the merged ruleset with them applied."""
    path = write(tmp_path, "v.yaml", """\
        id: battuta-for-all
        extends: cirulla-a-cinque
        hand_bonuses:
          battuta: {unique_by: null}
          barsega: {excluded_by: null}
        """)
    c = compile_ruleset(path)
    assert c.module.HAND_BONUSES["battuta"].unique_by is None
    assert c.module.HAND_BONUSES["barsega"].excluded_by == ()
    base = compile_ruleset("cirulla-a-cinque").module.HAND_BONUSES
    assert base["battuta"].unique_by == "value" and base["barsega"].excluded_by


def test_options_are_compile_time_constants(tmp_path):
    path = write(tmp_path, "o.yaml", """\
        id: with-options
        extends: cirulla
        options:
          target: {type: int, default: 51, min: 1}
          decino: {type: bool, default: true}
        hand_bonuses:
          decino: {enabled: options.decino}
          barsega: {excluded_by: []}
        game: {target: options.target}
        """)
    assert compile_ruleset(path).module.TARGET == 51
    c = compile_ruleset(path, {"target": 26, "decino": False})
    assert c.module.TARGET == 26 and "decino" not in c.module.HAND_BONUSES
    with pytest.raises(RulespecError, match="unknown option 'targte'.*did you mean 'target'"):
        compile_ruleset(path, {"targte": 3})
    with pytest.raises(RulespecError, match="option 'target' is int, found 'x'"):
        compile_ruleset(path, {"target": "x"})


def test_error_in_an_inherited_file_names_that_file(tmp_path):
    write(tmp_path, "base.yaml", """\
        id: broken-base
        extends: cirulla
        events:
          scopa: {when: "empty(tabel)", points: 1, category: scope}
        """)
    child = write(tmp_path, "child.yaml", "id: child\nextends: base.yaml\n")
    with pytest.raises(RulespecError) as info:
        compile_ruleset(child)
    assert info.value.span.file.endswith("base.yaml")
    assert "unknown name 'tabel'" in info.value.message


def test_deal_schedule_must_use_the_deck(tmp_path):
    path = write(tmp_path, "d.yaml", """\
        id: bad-deal
        extends: cirulla
        deal:
          rounds: [[{each: 3}, {table: 5}], [{each: 3}]]
        """)
    with pytest.raises(RulespecError, match="with 2 players the deal uses 35 of the 40 cards|only .* remain"):
        compile_ruleset(path)


def test_extends_cycle(tmp_path):
    write(tmp_path, "a.yaml", "id: a\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "id: b\nextends: a.yaml\n")
    with pytest.raises(RulespecError, match="extends forms a cycle"):
        compile_ruleset(tmp_path / "a.yaml")


def test_emit_command_prints_the_module(capsys):
    from rulespec.cli.main import run
    import io
    out = io.StringIO()
    assert run(["compile", "cirulla", "--emit"], out, io.StringIO()) == 0
    compile(out.getvalue(), "<emitted>", "exec")
