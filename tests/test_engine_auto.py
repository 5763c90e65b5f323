"""`simulate --engine auto`, the default: native where it can, else Python with one line on stderr saying why; a
failed build falls back and never fails the run; the first build shows a spinner on a terminal."""
import io
import json
import os
import stat

import pytest

from rulespec.cli.main import run
from rulespec.cli.progress import status_line
from rulespec.compiler import native

needs_cc = pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler on this machine")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def simulate(*words: str) -> tuple[dict, list[str]]:
    """`simulate ... --json`: the document and the lines on stderr (exit status 0)."""
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", *words, "--json", "--no-timings"], out, err) == 0, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue().splitlines()


@needs_cc
def test_the_default_is_native_where_it_can_be_and_says_nothing():
    doc, lines = simulate("cirulla", "--hands", "50")
    assert doc["engine"] == "native" and lines == []
    forced, lines = simulate("cirulla", "--hands", "50", "--engine", "python")
    assert forced["engine"] == "python" and lines == []
    assert {k: v for k, v in forced.items() if k != "engine"} == {k: v for k, v in doc.items() if k != "engine"}


@needs_cc
@pytest.mark.parametrize("words", [("--hands", "30", "--bots", "greedy,random"), ("--games", "3")])
def test_greedy_bots_and_games_play_native_with_the_python_engines_figures(words):
    """They fell back to Python ("plays random bots only", "not whole games"); the native engine plays them now
    (issue 26 item 2), from the same streams."""
    doc, lines = simulate("cirulla-short", *words)
    assert doc["engine"] == "native" and lines == []
    forced, _ = simulate("cirulla-short", *words, "--engine", "python")
    assert {k: v for k, v in forced.items() if k != "engine"} == {k: v for k, v in doc.items() if k != "engine"}


def test_the_default_falls_back_to_python_saying_why_in_one_line():
    doc, lines = simulate("pishti", "--hands", "4")
    assert doc["engine"] == "python" and len(lines) == 1
    assert lines[0].startswith("rulespec: using the Python engine: ") and "pishti.yaml:" in lines[0]
    assert "the native engine does not support" in lines[0]


def fresh(tmp_path, name: str = "fresh") -> str:
    """A ruleset no earlier test loaded into this process (a library loaded once serves the process on)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\nextends: scopa\n", encoding="utf-8")
    return str(path)


def test_without_a_c_compiler_the_default_plays_python(monkeypatch, tmp_path):
    monkeypatch.setenv("RULESPEC_CC", "")
    doc, lines = simulate(fresh(tmp_path), "--hands", "5")
    assert doc["engine"] == "python" and len(lines) == 1
    assert lines[0].startswith("rulespec: using the Python engine: the native engine needs a C compiler")


def failing_compiler(tmp_path, text: str = "echo 'rs.c:1: error: something broke' >&2; exit 3") -> str:
    path = tmp_path / "broken-cc"
    path.write_text(f"#!/bin/sh\n{text}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.skipif(os.name != "posix", reason="a shell script as the compiler")
def test_a_compiler_that_fails_falls_back_and_never_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_CC", failing_compiler(tmp_path))
    ruleset = fresh(tmp_path)
    doc, lines = simulate(ruleset, "--hands", "5", "--seed", "3")
    assert doc["engine"] == "python"
    assert lines == [f"rulespec: using the Python engine: the C compiler {tmp_path / 'broken-cc'} failed on the "
                     f"generated source (exit status 3)"]
    # --engine native says all of it, the compiler's own lines included, and fails
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", ruleset, "--hands", "5", "--engine", "native"], out, err) == 2
    assert "something broke" in err.getvalue() and "Traceback" not in err.getvalue()


def test_a_library_that_does_not_load_falls_back(tmp_path, monkeypatch):
    """A loader's OSError (a library of another architecture...) is a fallback too, not a traceback."""
    def refuse(*args, **kwargs):
        raise OSError("wrong ELF class: ELFCLASS32")
    monkeypatch.setattr(native, "load", refuse)
    monkeypatch.setattr(native, "quick_load", lambda *a, **k: None)
    doc, lines = simulate("scopa", "--hands", "5")
    assert doc["engine"] == "python"
    assert lines == ["rulespec: using the Python engine: the native library does not load: wrong ELF class: ELFCLASS32"]


def test_compare_without_a_c_compiler_says_it_plays_python(monkeypatch, tmp_path):
    """--compare played Python always; it plays native now where it can (tests/test_compare_native.py)."""
    monkeypatch.setenv("RULESPEC_CC", "")
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", fresh(tmp_path, "fresh-a"), "--compare", fresh(tmp_path, "fresh-b"), "--hands", "4",
                "--json"], out, err) == 0
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulespec: using the Python engine: the native engine needs a C "
                                                    "compiler")


@pytest.mark.skipif(os.name != "posix", reason="sleep as the compiler")
def test_the_compile_ticks_while_it_runs():
    ticks = []
    code, _err = native._run_compiler(["sleep", "0.45"], lambda: ticks.append(1))
    assert code == 0 and len(ticks) >= 4


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_status_line_shows_only_on_a_terminal_and_once_ticked():
    err = Terminal()
    with status_line(err, "building the native engine for cirulla") as tick:
        pass
    assert err.getvalue() == ""                      # never ticked: nothing drawn
    with status_line(err, "building the native engine for cirulla") as tick:
        tick()
        tick()
    assert "building the native engine for cirulla" in err.getvalue()
    plain = io.StringIO()
    with status_line(plain, "building") as tick:
        tick()
    assert plain.getvalue() == ""
    with status_line(Terminal(), "building", shown=False) as tick:
        tick()


@needs_cc
@pytest.mark.skipif(os.name != "posix", reason="a shell script as the compiler")
def test_the_first_build_shows_its_spinner_on_a_terminal(tmp_path, monkeypatch):
    """A slow compiler (the real one, behind a second's sleep) and a terminal: the spinner names the ruleset."""
    real = native.find_compiler()
    monkeypatch.setenv("RULESPEC_CC", failing_compiler(tmp_path, f'sleep 0.3; exec {real} "$@"'))
    path = tmp_path / "spun.yaml"          # a ruleset no manifest of the cache serves: built here
    path.write_text("id: spun\nextends: cirulla-short\n", encoding="utf-8")
    out, err = io.StringIO(), Terminal()
    assert run(["simulate", str(path), "--hands", "5", "--no-timings"], out, err) == 0
    assert "building the native engine for spun" in err.getvalue()


def test_workers_are_capped_at_the_cores_unless_oversubscribed(monkeypatch):
    """--workers 5 on a machine of 2 cores ran 5 processes, which only cost CPU: now 2, said in one line."""
    from rulespec.bots import simulate as sim
    monkeypatch.setattr(sim, "default_workers", lambda: 2)
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla-short", "--hands", "6", "--engine", "python", "--workers", "5", "--json"],
               out, err) == 0
    assert json.loads(out.getvalue())["workers"] == 2
    assert err.getvalue().splitlines() == [
        "rulespec: --workers 5: running 2, the cores this machine has (--oversubscribe runs 5)"]
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla-short", "--hands", "6", "--engine", "python", "--workers", "3",
                "--oversubscribe", "--json"], out, err) == 0
    assert json.loads(out.getvalue())["workers"] == 3 and err.getvalue() == ""


@needs_cc
def test_a_native_run_from_the_manifest_loads_neither_the_python_engine_nor_the_compiler(tmp_path):
    """Start-up is most of a short native run: served by the cache's manifest, it imports neither
    run/engine.py (and the bots) nor the ruleset compiler nor the C generator."""
    import subprocess
    import sys
    ruleset = fresh(tmp_path, "quick")
    simulate(ruleset, "--hands", "5")                    # built, and the manifest written
    code = ("import io, sys\nfrom rulespec.cli.main import run\n"
            f"out = io.StringIO()\nassert run(['simulate', {ruleset!r}, '--hands', '5', '--json'], out, io.StringIO()) == 0\n"
            "assert '\"engine\": \"native\"' in out.getvalue(), out.getvalue()\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('rulespec'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "rulespec.compiler.native" in loaded
    assert not loaded & {"rulespec.run.engine", "rulespec.bots.policy", "rulespec.bots.random_bot",
                         "rulespec.compiler.build", "rulespec.compiler.codegen_c", "rulespec.lang.model"}, loaded
