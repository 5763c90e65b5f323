"""`simulate VARIANT --compare BASE` per event and per bonus (paired differences with 95% intervals, checked
against the same hands played through `Hand` and counted here), its progress bar and its `--html` page; and
`test --coverage`'s progress bar."""
import io
import json
from pathlib import Path

import pytest

from rulespec.bots.compare import compare
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.bots.simulate import half_width95
from rulespec.cli.main import run
from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import Hand, shuffled_source
from rulespec.run.stream import Stream
from tests.browser import CHROMIUM, SKIP_REASON, Browser, assert_fits
from tests.played import play_out

# Scopa is worth 2, and a new hand bonus the base does not have (three cards of at most 7).
VARIANT = """\
id: house
extends: cirulla
events:
  scopa: {points: 2}
hand_bonuses:
  tris:
    size: 3
    when: count(cards, value <= 7) == 3
    points: 5
    category: scope
"""
HANDS = 30


@pytest.fixture
def variant(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    return path


def _hand_events(ref, seed: int, i: int) -> dict:
    """Hand i as compare plays it (the hand's one stream, random bots), its events counted here:
    (side, name) -> [times, points]."""
    compiled = compile_ruleset(ref, None)
    rules = compiled.module
    n = rules.DEFAULT_SEATS
    rng = Stream.for_hand(seed, i)
    hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
    players = [make_bot(spec, rng) for spec in parse_bots("random", n, rules.SIDES[n])]
    play_out(hand, players)
    counted: dict = {}
    for e in hand.events if hand.plays else ():
        row = counted.setdefault((e.side, e.name), [0, 0])
        row[0] += 1
        row[1] += e.points if e.category else 0
    return counted


def test_event_differences_are_the_hands_counted_one_by_one(variant):
    p = compare(variant, "cirulla", hands=HANDS, seed=4, workers=1)
    assert p.events == (("scopa", "event"), ("dealer_15", "deal"), ("dealer_30", "deal"), ("barsega", "bonus"),
                        ("decino", "bonus"), ("tris", "bonus"))
    sums: dict = {}
    for i in range(HANDS):
        base, var = _hand_events("cirulla", 4, i), _hand_events(variant, 4, i)
        for side in range(2):
            for name, _kind in p.events:
                for k, what in enumerate(("times", "points")):
                    b, v = base.get((side, name), [0, 0])[k], var.get((side, name), [0, 0])[k]
                    row = sums.setdefault((side, name, what), [0, 0, 0, 0])
                    row[0] += b
                    row[1] += v
                    row[2] += v - b
                    row[3] += (v - b) ** 2
    for (side, name, what), (b, v, d, sq) in sums.items():
        assert p.fired_mean("base", side, name, what) == b / HANDS
        assert p.fired_mean("variant", side, name, what) == v / HANDS
        assert p.fired_difference(side, name, what) == (d / HANDS, half_width95(HANDS, d, sq))
    assert sums[(0, "tris", "times")][0] == 0 and sums[(0, "tris", "times")][1] + sums[(1, "tris", "times")][1] > 0
    # a scopa is worth 2 in the variant, 1 in the base
    assert p.fired_mean("variant", 0, "scopa", "points") == 2 * p.fired_mean("variant", 0, "scopa", "times") > 0
    assert p.fired_mean("base", 0, "scopa", "points") == p.fired_mean("base", 0, "scopa", "times") > 0


def test_the_figures_do_not_depend_on_the_workers(variant):
    one = compare(variant, "cirulla", hands=HANDS, seed=4, workers=1)
    two = compare(variant, "cirulla", hands=HANDS, seed=4, workers=2)
    assert (one.fired, one.fired_sq) == (two.fired, two.fired_sq)


def test_the_table_and_json_show_them(variant):
    out = io.StringIO()
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "20", "--workers", "1"], out,
               io.StringIO()) == 0
    text = out.getvalue()
    assert "events and bonuses per hand (*: the 95% interval excludes 0)" in text and "│ tris (bonus) " in text
    out = io.StringIO()
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "20", "--workers", "1", "--json"],
               out, io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    scopa = doc["events"]["scopa"]["side"]["0"]
    assert scopa["points"]["variant"] == pytest.approx(2 * scopa["times"]["variant"], abs=1e-4)
    assert set(scopa["points"]) == {"base", "variant", "difference", "ci95", "significant"}
    assert doc["events"]["tris"]["kind"] == "bonus" and doc["events"]["tris"]["side"]["1"]["times"]["base"] == 0


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_compare_and_coverage_show_progress_on_a_terminal(variant):
    err = _Terminal()
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "8", "--workers", "1"], io.StringIO(),
               err) == 0
    assert "comparing with cirulla" in err.getvalue()
    err = _Terminal()
    golden = Path(__file__).parent / "golden" / "cirulla" / "02-complete-2p-deck-six-rounds.yaml"
    run(["test", "--coverage", "cirulla", str(golden)], io.StringIO(), err)
    assert "mutating cirulla" in err.getvalue()
    err = io.StringIO()                                   # not a terminal: no bar
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "4", "--workers", "1"], io.StringIO(),
               err) == 0
    # no bar: at most the default engine's (auto) one line, where it plays Python (tests/test_engine_auto.py)
    lines = err.getvalue().splitlines()
    assert len(lines) <= 1 and all(line.startswith("rulespec: using the Python engine: ") for line in lines)
    err = io.StringIO()
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "4", "--workers", "1", "--engine",
                "python"], io.StringIO(), err) == 0
    assert err.getvalue() == ""


def test_the_compare_page_is_written(variant, tmp_path):
    page = tmp_path / "cmp.html"
    out = io.StringIO()
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "12", "--workers", "1", "--html",
                str(page)], out, io.StringIO()) == 0
    assert f"wrote {page}" in out.getvalue()
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and 'id="categories"' in text and 'id="events"' in text
    assert text.count('<g class="row') == 2 * 8 + 2 * 6       # (7 categories + total) x 2 sides, 6 events x 2
    assert 'class="row significant"><title>scopa, side 0:' in text


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_compare_page_fits_400_and_1000_px(variant, tmp_path):
    page = tmp_path / "cmp.html"
    assert run(["simulate", str(variant), "--compare", "cirulla", "--hands", "12", "--workers", "1", "--html",
                str(page)], io.StringIO(), io.StringIO()) == 0
    with Browser() as b:
        for width in (400, 1000):
            assert_fits(b, page, width)
            assert b.js("document.querySelectorAll('figure svg').length") == 2
            assert b.js("document.querySelectorAll('#event-table tr').length") == 1 + 6 * 2
            assert b.js("document.querySelector('#fig-events').getBoundingClientRect().right") <= width


def test_names_reach_the_compare_page_only_escaped():
    from rulespec.authoring.html_compare import render_compare
    from rulespec.bots.compare import Paired
    p = Paired(2, ("<i>cat</i>", "total"), hands=3, variant_id="<v>", base_id="b&", events=(("<img src=x>", "event"),),
               fired={(0, "<img src=x>", "points", "diff"): 3}, fired_sq={(0, "<img src=x>", "points"): 5})
    text = render_compare(p, variant_name="</title><script>alert(1)</script>", title='"><svg onload=1>')
    assert "<script>alert" not in text and "<img src" not in text and "<i>cat" not in text and "<svg onload" not in text
    assert "&lt;img src=x&gt;, side 0" in text and "&lt;/title&gt;&lt;script&gt;" in text
