"""The figures `simulate` and `simulate --compare` print, recomputed independently from the hands themselves."""
import io
import json
import math
import re
import statistics

import pytest

from rulespec.bots.compare import Paired, _play, compare
from rulespec.bots.compare import to_dict as compare_to_dict
from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot
from rulespec.bots.native_sim import simulate_native
from rulespec.bots.simulate import Stats, simulate, to_dict, wilson
from rulespec.cli.main import run
from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import Hand, shuffled_source
from rulespec.run.stream import Stream

Z = 1.96
needs_cc = pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler (the native engine needs one)")


def _half_width(xs: list) -> float:
    """1.96 standard errors of the mean, from the sample standard deviation (n - 1)."""
    return Z * statistics.stdev(xs) / math.sqrt(len(xs))


def _hands(ruleset: str, count: int, seed: int) -> list:
    """Hands 0..count-1 of `simulate ruleset --seed seed`, played through Hand by random bots on their one stream."""
    rules = compile_ruleset(ruleset).module
    n = rules.DEFAULT_SEATS
    out = []
    for i in range(count):
        rng = Stream.for_hand(seed, i)
        hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
        play_out(hand, [make_bot("random", rng) for _ in range(n)])
        out.append(hand)
    return out


def test_means_intervals_and_wins_are_those_of_the_hands():
    hands = _hands("cirulla", 60, 7)
    stats = simulate("cirulla", hands=60, seed=7, workers=1)
    rows = [h.score() for h in hands]
    for side in range(2):
        for cat in ("scope", "primiera", "total"):
            xs = [r[side][cat] for r in rows]
            assert stats.mean(side, cat) == pytest.approx(statistics.fmean(xs))
            assert stats.ci95(side, cat) == pytest.approx(_half_width(xs))
        margins = [r[side]["total"] - r[1 - side]["total"] for r in rows]
        assert stats.ci95(side, "margin") == pytest.approx(_half_width(margins))
        wins = sum(r[side]["total"] > r[1 - side]["total"] for r in rows)      # a tie is won by neither
        assert stats.hand_wins[side] == wins
        assert stats.win_rate(side) == pytest.approx((wins / 60, *wilson(wins, 60)))
    assert stats.mean_plays == statistics.fmean(h.plays for h in hands)


def _stats_of(xs: list) -> Stats:
    return Stats(1, 1, ("a", "total", "margin"), hands=len(xs), sums={(0, "a"): sum(xs)},
                 squares={(0, "a"): sum(x * x for x in xs)})


@pytest.mark.parametrize("offset", [0, 10 ** 6, 10 ** 9, 10 ** 12])
def test_the_interval_does_not_depend_on_where_the_points_lie(offset):
    # Points 0 and 1 in turn have the interval 1.96 * 0.5004 / sqrt(1000) wherever they lie: from
    # floats (sum of squares / n - mean squared) it was 0 from points around 10**8 (all digits cancelled).
    xs = [offset + i % 2 for i in range(1000)]
    want = _half_width([i % 2 for i in range(1000)])
    assert _stats_of(xs).ci95(0, "a") == pytest.approx(want, rel=1e-12)
    paired = Paired(1, ("a",), hands=len(xs), diff={(0, "a"): sum(xs)}, diff_sq={(0, "a"): sum(x * x for x in xs)})
    assert paired.difference(0, "a") == pytest.approx((statistics.fmean(xs), want), rel=1e-12)


def test_one_hand_gives_no_interval():
    # One hand has no spread to measure: its interval is unbounded, not "± 0.000".
    stats = simulate("cirulla", hands=1, seed=3, workers=1)
    assert stats.ci95(0, "total") == math.inf
    assert _stats_of([5, 5]).ci95(0, "a") == 0.0             # two equal hands: no spread seen, 0
    doc = to_dict(stats)
    assert doc["ci95"]["0"]["total"] is None                 # JSON has no infinity
    out = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "1", "--workers", "1"], out, io.StringIO()) == 0
    assert "± inf" in out.getvalue() and "± 0.000" not in out.getvalue()
    out = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "1", "--workers", "1", "--json"], out, io.StringIO()) == 0
    assert "Infinity" not in out.getvalue() and json.loads(out.getvalue())["ci95"]["1"]["margin"] is None


@pytest.mark.parametrize("n", range(1, 120))
def test_wilson_ends_at_exactly_0_and_1(n):
    # 0 of n: the interval starts at exactly 0; n of n: it ends at exactly 1 (floats gave 2.8e-17 and 1 - 1e-16).
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    assert 0.0 < wilson(0, n)[1] < 1.0 and 0.0 < wilson(n, n)[0] < 1.0


def test_the_same_deal_is_the_deal_each_hand_was_played_from():
    # cirulla throws in a deal with two aces on the table; cirulla-aces-keep-bonus only when they make
    # no 15 or 30 either. Hands where one threw its first deal in and the other did not were played from
    # different cards, yet their first deals were the same and they were counted as the same deal.
    base, variant = compile_ruleset("cirulla").module, compile_ruleset("cirulla-aces-keep-bonus").module
    hands = 120          # seed 6 splits three of them (54, 70: rare, and seed-dependent)
    split = sum((None in _play(base, 4, 6, i, ["random"] * 4).deal_log)
                != (None in _play(variant, 4, 6, i, ["random"] * 4).deal_log) for i in range(hands))
    assert split > 0
    p = compare("cirulla-aces-keep-bonus", "cirulla", hands=hands, seed=6, workers=1)
    assert p.same_deal == hands - split


@needs_cc
def test_the_native_engine_counts_the_distributions_the_page_draws():
    # --engine native --html drew a page from statistics without distributions: every category scored in
    # 0.0% of the hands, every total 0. Counted from the native hands' own rows when they are asked for.
    nat = native.load(compile_ruleset("cirulla"))
    rows = nat.run(3, 0, 300, 4, per_hand=True).per_hand
    stats = simulate_native(nat, hands=300, seed=3, distributions=True)
    assert stats.lengths == {36: 300}
    for side in range(2):
        totals = [r["scores"][side]["total"] for r in rows]
        assert sum(k for (s, _), k in stats.totals.items() if s == side) == 300
        assert sum(t * k for (s, t), k in stats.totals.items() if s == side) == sum(totals)
        for cat in ("scope", "settebello", "piccola"):
            assert stats.scored[(side, cat)] == sum(r["scores"][side][cat] != 0 for r in rows) > 0
    plain = simulate_native(nat, hands=300, seed=3)
    assert (plain.sums, plain.squares, plain.hand_wins) == (stats.sums, stats.squares, stats.hand_wins)


@needs_cc
def test_the_native_page_shows_the_category_frequencies(tmp_path):
    page = tmp_path / "native.html"
    assert run(["simulate", "cirulla", "--hands", "200", "--engine", "native", "--html", str(page)],
               io.StringIO(), io.StringIO()) == 0
    svg = page.read_text(encoding="utf-8").split('id="categories"')[1].split("</svg>")[0]
    shares = [float(p) for p in re.findall(r"<title>side \d [^<]*, settebello: ([\d.]+)%</title>", svg)]
    assert len(shares) == 2 and sum(shares) == pytest.approx(100, abs=0.01)   # one side takes the 7 of coins


def test_json_keeps_the_figures_of_a_rare_category():
    # 37 points in a million hands: a mean of 0.000037 ± 0.000012 was written 0.0 ± 0.0 (4 decimals), as if
    # the category never scored. Small figures keep 4 significant digits; larger ones 4 decimals as before.
    stats = Stats(1, 1, ("rare", "total", "margin"), hands=10 ** 6, sums={(0, "rare"): 37},
                  squares={(0, "rare"): 37}, hand_wins=[3])
    doc = to_dict(stats)
    assert doc["mean"]["0"]["rare"] == 3.7e-05
    assert doc["ci95"]["0"]["rare"] == pytest.approx(stats.ci95(0, "rare"), rel=1e-3) and doc["ci95"]["0"]["rare"] > 0
    assert doc["win_rate"]["side"]["0"] == 3e-06 and doc["win_rate"]["side_interval95"]["0"][0] > 0
    assert doc["mean"]["0"]["total"] == 0.0
    big = _stats_of([7, 8, 8])
    assert to_dict(big)["mean"]["0"]["a"] == 7.6667 and to_dict(big)["ci95"]["0"]["a"] == 0.6533


def test_compare_json_keeps_a_small_difference():
    p = Paired(1, ("rare",), hands=10 ** 6, base={(0, "rare"): 0}, variant={(0, "rare"): 50},
               diff={(0, "rare"): 50}, diff_sq={(0, "rare"): 50})
    row = compare_to_dict(p)["categories"]["rare"]["0"]
    assert row["variant"] == row["difference"] == 5e-05 and row["ci95"] > 0 and row["significant"] is True
