"""`rulespec list` reads the shipped rulesets' top-level keys only: the same fields `model.load` gives, without
loading, checking or compiling any ruleset (it compiled all 44 to print three fields: 1.8 s; bench/startup.py).
`rulespec schema` prints the shipped file without importing the validator."""
import os
import subprocess
import sys

from rulespec.lang import model
from rulespec.source.rulesets import shipped_ids
from rulespec.source.summaries import shipped_summaries

# What loading or compiling a ruleset imports; `list` needs none of it.
HEAVY = ("rulespec.lang.model", "rulespec.lang.expr", "lark", "jsonschema", "rulespec.source.validate",
         "rulespec.checks.stage", "rulespec.compiler", "rulespec.compiler.build", "rulespec.run.engine")


def test_each_summary_is_what_loading_the_ruleset_gives():
    summaries = shipped_summaries()
    assert [s.id for s in summaries] == shipped_ids() and len(summaries) >= 44
    for s in summaries:
        rs = model.load(s.id)
        assert (s.id, s.base, s.description, s.source) == (rs.id, rs.base, rs.description, rs.source)


def test_list_loads_and_compiles_nothing(tmp_path):
    code = ("import io, sys\nfrom rulespec.cli.main import run\nout = io.StringIO()\n"
            "assert run(['list'], out, io.StringIO()) == 0 and 'cirulla ' in out.getvalue()\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout == "[]\n"
    assert not (tmp_path / "rulespec").exists()          # no compile cache written either


def test_schema_imports_no_validator():
    from rulespec.source.validate import SCHEMA_DIR
    code = ("import io, sys\nfrom rulespec.cli.main import run\nout = io.StringIO()\n"
            "assert run(['schema', 'transcript'], out, io.StringIO()) == 0\n"
            "print(out.getvalue())\n"
            "print(sorted(m for m in ('jsonschema', 'yaml', 'rulespec.source.validate') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    text, imported = done.stdout.rstrip("\n").rsplit("\n", 1)
    assert imported == "[]"
    assert text == (SCHEMA_DIR / "transcript.schema.json").read_text(encoding="utf-8")
