"""The random streams (rulespec/run/stream.py, "rulespec stream 1"): pinned, the same in the generated C, and
the same hands for a seed on `--engine python` and `--engine native` (every shipped ruleset; a 1,000-hand check
for Cirulla).

The pinned values are the scheme: a change to any of them changes the figures of every seed, and must come
with a new STREAM_VERSION (and a line in CHANGELOG.md).
"""
import json
import pickle
import random

import pytest

from rulespec.cli.main import run
from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
from rulespec.run.stream import GAME_BOT, HAND, STREAM_VERSION, Stream, stream_seed
from rulespec.source.rulesets import rulesets_dir

SHIPPED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
needs_cc = pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler on this machine")
NOT_NATIVE = {"engine"}      # which engine played: all the rest is the same


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Builds go to the session's cache (as tests/test_native.py's), at -O0."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def test_the_generator_is_splitmix64():
    """Its words from state 0: splitmix64's published first outputs."""
    rng = Stream(0)
    assert [rng.getrandbits(64) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_the_scheme_is_pinned():
    assert STREAM_VERSION == 1
    assert stream_seed(0, HAND, 0) == 0xC869813041CABA5A
    # the seed counts modulo 2**64: 2**64 + 5 is 5, -1 is 2**64 - 1
    assert stream_seed(2**64 + 5, GAME_BOT, 3, 1) == stream_seed(5, GAME_BOT, 3, 1) == 0xC46AD130DE4E0125
    assert stream_seed(-1, HAND, 7) == stream_seed(2**64 - 1, HAND, 7) == 0xD91A81E4EE4CC28E
    rng = Stream.for_hand(0, 0)
    deck = list(range(40))
    rng.shuffle(deck)
    assert deck == [4, 39, 10, 0, 20, 11, 17, 13, 31, 6, 19, 14, 36, 1, 32, 15, 18, 33, 37, 34, 2, 21, 24, 30, 23,
                    26, 28, 38, 5, 9, 35, 22, 27, 25, 7, 12, 3, 8, 29, 16]
    assert [rng.below(n) for n in (1, 2, 3, 7, 100)] == [0, 1, 1, 6, 44]
    assert rng.random() == 0.7120222323263464 and rng.getrandbits(64) == 5103216029883937323


def test_shuffle_is_below_from_the_top():
    """The shuffle's inlined pool draws what `below` draws: x[i] with x[below(i + 1)], i from the top."""
    for seed in range(20):
        a, b = Stream.for_hand(seed, 3), Stream.for_hand(seed, 3)
        mine = list(range(52))
        a.shuffle(mine)
        theirs = list(range(52))
        for i in range(51, 0, -1):
            j = b.below(i + 1)
            theirs[i], theirs[j] = theirs[j], theirs[i]
        assert mine == theirs and a == b


def test_below_and_randrange_stay_in_range_and_draw_nothing_for_one():
    rng = Stream(7)
    before = Stream(7)
    assert rng.below(1) == 0 and rng.randrange(1) == 0 and rng == before
    for n in (2, 3, 5, 8, 40, 1000, 2**32):
        assert all(0 <= rng.below(n) < n for _ in range(200))
    assert sorted({rng.randrange(3, 12, 4) for _ in range(200)}) == [3, 7, 11]
    assert sorted({rng.randrange(10, 1, -3) for _ in range(200)}) == [4, 7, 10]
    assert sorted({rng.choice("abc") for _ in range(200)}) == ["a", "b", "c"]
    for bad in (lambda: rng.below(0), lambda: rng.randrange(5, 5), lambda: rng.getrandbits(65)):
        with pytest.raises(ValueError):
            bad()


def test_a_stream_pickles_and_compares_by_its_state():
    rng = Stream.for_hand(3, 9)
    rng.getrandbits(5)
    copy = pickle.loads(pickle.dumps(rng))
    assert copy == rng and [copy.below(40) for _ in range(30)] == [rng.below(40) for _ in range(30)]


# -------------------------------------------------------------------- the C implements the same


@needs_cc
def test_the_c_draws_what_python_draws():
    """Bits of every width, below of every kind of range, random(): the generated C's helpers and Stream."""
    nat = native.load(compile_ruleset("cirulla"))
    assert nat.stream_version == STREAM_VERSION
    rnd = random.Random(1)
    ops = [rnd.choice([rnd.randint(0, 64), -rnd.randint(1, 50), -rnd.randint(1, 2**31 - 1), 65])
           for _ in range(2000)]
    for seed, path in ((0, (HAND, 0)), (2**64 - 3, (HAND, 123456789)), (42, (GAME_BOT, 5, 3)), (9, ())):
        py = Stream(stream_seed(seed, *path))
        expected = [py.random() if op == 65 else py.getrandbits(op) if op >= 0 else py.below(-op) for op in ops]
        assert nat.draws(seed, path, ops) == expected, (seed, path)


# -------------------------------------------------------------------- the same hands in both engines


def figures(capsys, rid: str, engine: str, hands: int, seed: int, *extra: str) -> dict:
    """`simulate RID --json --no-timings` on an engine, all but the engine's name."""
    assert run(["simulate", rid, "--hands", str(hands), "--seed", str(seed), "--engine", engine, "--json",
                "--no-timings", "--workers", "1", *extra]) == 0
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert doc["engine"] == engine and doc["stream"] == STREAM_VERSION, out.err
    return {k: v for k, v in doc.items() if k not in NOT_NATIVE}


@needs_cc
@pytest.mark.parametrize("rid", SHIPPED)
def test_both_engines_give_the_same_figures(rid, capsys):
    from rulespec.compiler import codegen_c
    refused = codegen_c.unsupported(compile_ruleset(rid).ruleset)
    if refused:        # a pile, several values...: the C back end refuses it, and auto plays it in Python
        pytest.skip(f"the C back end refuses {rid}: {refused[0][0]}")
    rules = compile_ruleset(rid).module
    seats = max(rules.SEATS_ALLOWED, key=lambda n: n != rules.DEFAULT_SEATS)   # another count where there is one
    assert figures(capsys, rid, "python", 40, 5) == figures(capsys, rid, "native", 40, 5)
    assert figures(capsys, rid, "python", 15, 8, "--seats", str(seats)) == \
        figures(capsys, rid, "native", 15, 8, "--seats", str(seats))


@needs_cc
def test_a_thousand_hands_of_cirulla_are_the_same_in_both_engines(capsys):
    python = figures(capsys, "cirulla", "python", 1000, 2026)
    assert python == figures(capsys, "cirulla", "native", 1000, 2026)
    assert python["hands"] == 1000 and python["mean_plays_per_hand"] == 36
