"""`simulate VARIANT --compare BASE` on the native engine (issue 26 item 2): the Python engine's figures, byte
for byte, for the same seed: every shipped ruleset the C back end takes against the ruleset it extends, deals
thrown in on one side only, greedy bots; auto plays native and says nothing, or Python and says why."""
import io
import json

import pytest
import yaml

from rulespec.cli.main import run
from rulespec.compiler import codegen_c, native
from rulespec.compiler.build import compile_ruleset
from rulespec.source.rulesets import rulesets_dir

SHIPPED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
needs_cc = pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler on this machine")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Builds go to the session's cache (as tests/test_native.py's), at -O0."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def compared(variant: str, base: str, engine: str, *words: str, workers: str = "1") -> tuple[str, list[str]]:
    """`simulate VARIANT --compare BASE --json` on an engine: the document's text and stderr's lines."""
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", variant, "--compare", base, "--json", "--engine", engine, "--workers", workers, *words],
               out, err) == 0, err.getvalue()
    return out.getvalue(), err.getvalue().splitlines()


def native_takes(rid: str) -> bool:
    return not codegen_c.unsupported(compile_ruleset(rid).ruleset)


def base_of(rid: str) -> str:
    """The shipped ruleset `rid` extends, where the C takes it too and plays the same seats and sides; else
    `rid` itself (a ruleset against itself: every difference 0)."""
    parent = yaml.safe_load((rulesets_dir() / f"{rid}.yaml").read_text(encoding="utf-8")).get("extends")
    if parent not in SHIPPED or not native_takes(parent):
        return rid
    mine, theirs = compile_ruleset(rid).module, compile_ruleset(parent).module
    n = mine.DEFAULT_SEATS
    return parent if n in theirs.SEATS_ALLOWED and theirs.SIDES[n] == mine.SIDES[n] else rid


@needs_cc
@pytest.mark.parametrize("rid", SHIPPED)
def test_both_engines_compare_alike(rid):
    if not native_takes(rid):
        pytest.skip(f"the C back end refuses {rid}")
    base = base_of(rid)
    python, _ = compared(rid, base, "python", "--hands", "25", "--seed", "7")
    nat, lines = compared(rid, base, "native", "--hands", "25", "--seed", "7")
    assert nat == python and lines == []


@needs_cc
def test_deals_thrown_in_on_one_side_and_greedy_bots_pair_alike():
    """cirulla-luzzati throws deals in that cirulla keeps: some hands are not dealt the same cards."""
    python, _ = compared("cirulla-luzzati", "cirulla", "python", "--hands", "120", "--seed", "4",
                         "--bots", "greedy,random")
    nat, _ = compared("cirulla-luzzati", "cirulla", "native", "--hands", "120", "--seed", "4",
                      "--bots", "greedy,random")
    assert nat == python
    assert 0 < json.loads(nat)["same_deal"] < 120
    # spread over two processes, each loading both libraries from the cache: the same figures
    assert compared("cirulla-luzzati", "cirulla", "native", "--hands", "120", "--seed", "4", "--bots",
                    "greedy,random", "--oversubscribe", workers="2")[0] == nat
    # a deck of another size: no hand dealt the same cards, the same figures
    assert compared("scopa", "cirulla", "native", "--hands", "30")[0] == \
        compared("scopa", "cirulla", "python", "--hands", "30")[0]


@needs_cc
def test_auto_compares_natively_and_says_nothing():
    auto, lines = compared("cirulla-short", "cirulla", "auto", "--hands", "20")
    assert lines == [] and auto == compared("cirulla-short", "cirulla", "python", "--hands", "20")[0]


def test_auto_says_why_it_compares_in_python_and_native_refuses(capsys):
    _doc, lines = compared("cirulla-short", "cirulla", "auto", "--hands", "4", "--bots", "ismcts:2")
    assert lines == ["rulespec: using the Python engine: --compare plays random and greedy bots on the native "
                     "engine"]
    assert run(["simulate", "cirulla-short", "--compare", "cirulla", "--hands", "4", "--bots", "ismcts:2",
                "--engine", "native"]) == 2
    assert "--compare plays random and greedy bots on the native engine" in capsys.readouterr().err
    _doc, lines = compared("kseri", "pishti", "auto", "--hands", "4")
    assert len(lines) == 1 and lines[0].startswith("rulespec: using the Python engine: ") and \
        "the native engine does not support" in lines[0]
