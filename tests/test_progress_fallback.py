"""After auto's fallback to the Python engine (a hand past one of the C's fixed lists), a progress bar counts
every hand once: `simulate --compare` and `simulate` alike."""
from __future__ import annotations

import io

import pytest

from rulespec.bots import native_compare, native_sim
from rulespec.bots.compare import compare
from rulespec.bots.simulate import Replayed
from rulespec.cli.main import run
from rulespec.compiler import native
from rulespec.compiler.native import NativeLimit

needs_cc = pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler on this machine")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Builds go to the session's cache (as tests/test_native.py's), at -O0."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def test_a_replayed_run_reports_only_the_units_past_those_reported():
    seen = []
    progress = Replayed(seen.append)
    progress(3)
    progress(2)
    progress.again()                     # played again from the start: its first 5 units were counted
    for k in (2, 2, 2, 4):
        progress(k)
    assert seen == [3, 2, 1, 4] and sum(seen) == 10


@needs_cc
def test_compare_counts_each_hand_once_after_falling_back(monkeypatch):
    real, calls = native_compare.run_native_pairs, []

    def fails_on_the_third_chunk(job, start, stop, out):
        calls.append(start)
        if len(calls) == 3:
            raise NativeLimit("a turn has more than 200000 legal moves")
        return real(job, start, stop, out)

    monkeypatch.setattr(native_compare, "run_native_pairs", fails_on_the_third_chunk)
    seen, err = [], io.StringIO()
    paired = compare("cirulla-short", "cirulla", hands=40, seed=3, workers=1, engine="auto", progress=seen.append,
                     err=err)
    assert len(calls) == 3 and "using the Python engine" in err.getvalue()
    assert paired.hands == 40 and sum(seen) == 40


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@needs_cc
def test_the_simulate_bar_counts_each_hand_once_after_falling_back(monkeypatch):
    import rich.progress
    advanced = []
    real_advance = rich.progress.Progress.advance

    def advance(self, task, k):
        advanced.append(k)
        return real_advance(self, task, k)

    def plays_some_then_fails(nat, *, progress=None, **run):
        progress(7)                      # a first batch done, then a hand past the C's lists
        raise NativeLimit("a turn has more than 200000 legal moves")

    monkeypatch.setattr(rich.progress.Progress, "advance", advance)
    monkeypatch.setattr(native_sim, "simulate_native", plays_some_then_fails)
    err = _Terminal()
    assert run(["simulate", "cirulla-short", "--hands", "20", "--workers", "1", "--engine", "auto"], io.StringIO(),
               err) == 0
    assert "using the Python engine" in err.getvalue()
    assert sum(advanced) == 20
