"""`simulate` per event and per bonus: how often each fires, in how many hands, for how many points, per side;
checked against the same seeded hands replayed through `Hand` and counted here, event by event."""
import io
import json

import pytest

from rulespec.bots.registry import make_bot, parse_bots
from rulespec.bots.simulate import simulate
from rulespec.cli.main import run
from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import Hand, shuffled_source
from rulespec.run.stream import Stream
from tests.browser import CHROMIUM, SKIP_REASON, Browser, assert_fits
from tests.played import play_out

HANDS = 40


def count_by_hand(ref: str, seed: int, hands: int, seats: int | None = None, bots: str = "random"):
    """Per (side, name): times fired, hands fired in, points scored; captures per hand -> hands; play events
    (a play's, not the deal's nor a bonus) per hand -> hands. Each hand
    i dealt and played from the stream simulate names after (seed, i), moves chosen by the bots here."""
    compiled = compile_ruleset(ref, None)
    rules = compiled.module
    play_events = set(compiled.ruleset.events)
    n = seats or rules.DEFAULT_SEATS
    specs = parse_bots(bots, n, rules.SIDES[n])
    times, hands_in, points, captures, sweeps = {}, {}, {}, {}, {}
    for i in range(hands):
        rng = Stream.for_hand(seed, i)
        hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
        players = [make_bot(spec, rng) for spec in specs]
        took = play_out(hand, players)
        if hand.plays == 0:
            continue
        seen = set()
        swept = sum(1 for e in hand.events if e.play > 0 and e.name in play_events)
        sweeps[swept] = sweeps.get(swept, 0) + 1
        for e in hand.events:
            key = (e.side, e.name)
            times[key] = times.get(key, 0) + 1
            points[key] = points.get(key, 0) + (e.points if e.category else 0)
            seen.add(key)
        for key in seen:
            hands_in[key] = hands_in.get(key, 0) + 1
        captures[took] = captures.get(took, 0) + 1
    return times, hands_in, points, captures, sweeps


@pytest.mark.parametrize("ref, seats", [("cirulla", None), ("cicera", None), ("escoba", 2),
                                        ("cirulla-knock-after-deal", 2), ("cirulla-a-cinque", None)])
def test_the_figures_are_the_hands_counted_one_by_one(ref, seats):
    expected = count_by_hand(ref, 7, HANDS, seats)
    for playout in (True, False):                     # the generated playout and Hand with bot objects
        stats = simulate(ref, hands=HANDS, seed=7, seats=seats, workers=1, playout=playout)
        assert (stats.fired, stats.fired_hands, stats.fired_points, stats.captures, stats.sweeps) == expected, \
            playout
    assert expected[0], "no event fired: the test would prove nothing"


def test_cirulla_lists_its_events_deal_bonuses_and_hand_bonuses_and_their_points_make_the_scope():
    stats = simulate("cirulla", hands=HANDS, seed=2, workers=1)
    assert stats.events == (("scopa", "event", True), ("dealer_15", "deal", True), ("dealer_30", "deal", True),
                            ("barsega", "bonus", True), ("decino", "bonus", True))
    # cirulla's `scope` category is scored by these alone: their points add up to it, side by side
    for side in range(2):
        assert sum(stats.fired_points.get((side, name), 0) for name, *_ in stats.events) == stats.sums[(side, "scope")]
    assert stats.fired_points[(0, "scopa")] == stats.fired[(0, "scopa")]             # 1 point each
    assert stats.fired_points.get((0, "decino"), 0) == 10 * stats.fired.get((0, "decino"), 0)


def test_the_figures_do_not_depend_on_the_workers():
    one = simulate("cirulla", hands=HANDS, seed=3, workers=1)
    two = simulate("cirulla", hands=HANDS, seed=3, workers=2)
    assert (one.fired, one.fired_hands, one.fired_points, one.captures, one.sweeps) == \
        (two.fired, two.fired_hands, two.fired_points, two.captures, two.sweeps)


def test_the_table_and_json_show_them():
    out = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "30", "--seed", "1", "--workers", "1", "--no-timings"], out,
               io.StringIO()) == 0
    text = out.getvalue()
    assert "events and bonuses per hand" in text
    stats = simulate("cirulla", hands=30, seed=1, workers=1)
    times, share, points = stats.fires(1, "barsega")
    row = text.split("│ barsega ")[1].split("\n")[1]           # side 1's row, under side 0's
    assert [c.strip() for c in row.split("│")[3:7]] == ["1", f"{times:.3f}", f"{100 * share:.1f}%", f"{points:.3f}"]
    out = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "30", "--seed", "1", "--workers", "1", "--json", "--no-timings"],
               out, io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    assert list(doc["events"]) == ["scopa", "dealer_15", "dealer_30", "barsega", "decino"]
    barsega = doc["events"]["barsega"]
    assert barsega["kind"] == "bonus" and barsega["side"]["1"] == {
        "fired": stats.fired.get((1, "barsega"), 0), "hands": stats.fired_hands.get((1, "barsega"), 0),
        "points": stats.fired_points.get((1, "barsega"), 0), "per_hand": round(times, 4),
        "share_of_hands": round(share, 4), "points_per_hand": round(points, 4)}
    assert sum(doc["captures_per_hand"].values()) == 30 == sum(doc["play_events_per_hand"].values())


def test_a_ruleset_without_events_shows_no_event_table(tmp_path):
    (tmp_path / "quiet.yaml").write_text("id: quiet\nextends: scopa\nevents:\n  scopa: {enabled: false}\n",
                                         encoding="utf-8")
    out = io.StringIO()
    assert run(["simulate", str(tmp_path / "quiet.yaml"), "--hands", "5", "--workers", "1", "--no-timings"], out,
               io.StringIO()) == 0
    assert "events and bonuses" not in out.getvalue()


@pytest.mark.skipif(native.find_compiler() is None, reason="no C compiler on this machine")
def test_the_native_engine_counts_them_as_the_python_engine_does():
    """It said "per-event figures: not counted by --engine native" and left the table out; now it counts them,
    and a seed gives the same table and the same JSON on both engines (the same hands: rulespec/run/stream.py)."""
    shown = {}
    for engine in ("python", "native"):
        out = io.StringIO()
        assert run(["simulate", "cirulla", "--hands", "20", "--engine", engine, "--workers", "1", "--no-timings"],
                   out, io.StringIO()) == 0
        shown[engine] = out.getvalue()
    assert "events and bonuses per hand" in shown["native"] and shown["native"] == shown["python"]
    out = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "200", "--engine", "native", "--json"], out, io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    assert doc["events"]["scopa"]["side"]["0"]["fired"] > 0 and "events_note" not in doc
    assert sum(doc["captures_per_hand"].values()) == 200 == sum(doc["play_events_per_hand"].values())


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_page_shows_them_at_400_and_1000_px(tmp_path):
    page = tmp_path / "sim.html"
    assert run(["simulate", "cirulla-a-cinque", "--hands", "12", "--workers", "1", "--html", str(page)],
               io.StringIO(), io.StringIO()) == 0
    with Browser() as b:
        for width in (400, 1000):
            assert_fits(b, page, width)
            assert b.js("document.querySelectorAll('#event-table tr').length") == 1 + 5 * 6   # 6 events x 5 sides
            assert b.js("document.querySelectorAll('#events rect.bar').length") == 5 * 6
            assert b.js("document.querySelector('#fig-events').getBoundingClientRect().right") <= width
