"""`simulate --html`: the distributions (points per side, hand length, category frequencies) as inline SVG plots."""
import io
import json
import re
import textwrap

import pytest

from rulespec.authoring.html_stats import _nice, render_stats
from rulespec.bots.simulate import simulate
from rulespec.cli.main import run
from tests.browser import CHROMIUM, LONG, SKIP_REASON, Browser, assert_fits, reads_left_to_right


@pytest.fixture(scope="module")
def stats():
    return simulate("cirulla", hands=40, seed=4, workers=1)


def test_distributions_are_counted_per_hand(stats):
    assert sum(stats.lengths.values()) == stats.hands == 40
    assert stats.lengths == {36: 40}                     # cirulla: every card played, 4 x 9
    for side in range(stats.sides):
        assert sum(v for (s, _), v in stats.totals.items() if s == side) == 40
        mean = sum(t * v for (s, t), v in stats.totals.items() if s == side) / 40
        assert mean == pytest.approx(stats.mean(side, "total"))
        for cat in ("carte", "settebello"):
            assert 0 < stats.scored[(side, cat)] <= 40
    # settebello goes to exactly one side in every hand
    assert stats.scored[(0, "settebello")] + stats.scored[(1, "settebello")] == 40


def test_distributions_do_not_depend_on_the_workers(stats):
    other = simulate("cirulla", hands=40, seed=4, workers=2)
    assert (other.totals, other.lengths, other.scored) == (stats.totals, stats.lengths, stats.scored)


def test_axis_bounds_are_round():
    assert [_nice(x) for x in (0.12, 0.97, 1, 3, 36, 0.0049)] == [0.2, 1.0, 1, 5, 50, 0.005]


def test_page_has_the_five_plots_and_no_script(stats):
    text = render_stats(stats, ruleset_name="Cirulla", ruleset_id="cirulla", title="40 hands", bots=["random"] * 4)
    assert "<script" not in text and not re.search(r"<(link|img|iframe)\b|\bsrc=", text)
    assert set(re.findall(r"https?://[^\s\"']+", text)) == {"http://www.w3.org/2000/svg"}
    for chart in ("points", "captures", "sweeps", "categories", "events"):
        assert f'id="{chart}"' in text
    cats = text.split('id="categories"')[1].split("</svg>")[0]
    assert cats.count('<rect class="bar"') == 7 * 2        # 7 categories x 2 sides
    # Every cirulla hand has 36 plays: one bar would say nothing, so the captures per hand are drawn.
    assert 'id="length"' not in text and "every played hand has 36 plays" in text
    captures = text.split('id="captures"')[1].split("</svg>")[0]
    assert captures.count('<rect class="bar"') == max(stats.captures) - min(stats.captures) + 1
    sweeps = text.split('id="sweeps"')[1].split("</svg>")[0]            # scopas per hand, both sides
    assert sweeps.count('<rect class="bar"') == max(stats.sweeps) - min(stats.sweeps) + 1
    events = text.split('id="events"')[1].split("</svg>")[0]
    assert events.count('<rect class="bar"') == 5 * 2      # scopa, two dealer's bonuses, barsega, decino
    lo = min(t for _, t in stats.totals)
    hi = max(t for _, t in stats.totals)
    points = text.split('id="points"')[1].split("</svg>")[0]
    assert points.count('<rect class="bar"') == (hi - lo + 1) * 2


def test_hostile_names_are_escaped(stats):
    text = render_stats(stats, ruleset_name='<script>alert(1)</script>', ruleset_id="x", title='"><svg onload=1>',
                        bots=["<b>"] * 4)
    assert "<script>alert" not in text and "<svg onload" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_cli_html_beside_json_keeps_stdout_json(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    page = tmp_path / "sim.html"
    assert run(["simulate", "cirulla", "--hands", "12", "--seed", "1", "--workers", "1", "--json",
                "--html", str(page)], out, err) == 0
    assert json.loads(out.getvalue())["hands"] == 12
    assert f"wrote {page}" in err.getvalue()
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_page_in_a_browser_at_400px(tmp_path):
    (tmp_path / "v.yaml").write_text(textwrap.dedent("""\
        id: v
        extends: cirulla-latin
        name: 'Latin </title><script>document.title="pwned"</script>'
        """), encoding="utf-8")
    page = tmp_path / "sim.html"
    assert run(["simulate", str(tmp_path / "v.yaml"), "--hands", "16", "--seed", "2", "--workers", "1",
                "--html", str(page)], io.StringIO(), io.StringIO()) == 0
    b = Browser()
    try:
        b.open(page, width=400)
        assert b.js("document.querySelectorAll('figure svg').length") == 5
        assert b.js("document.title").startswith("Latin </title>")
        assert b.js("document.querySelectorAll('script').length") == 0
        widths = b.js("[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
        assert max(widths[:2]) <= widths[2] == 400
        assert b.js("Math.round(document.querySelector('#points').getBoundingClientRect().width)") <= 400
        assert b.errors == []
        b.screenshot(tmp_path / "sim.png")
    finally:
        b.close()


def _many_categories() -> str:
    """A cirulla with 40 more categories (one per card) and one that never scores."""
    cards = [r + s for s in "HDCS" for r in "A234567JQK"]
    lines = [f"  holds_{c.lower()}: {{points: '1 if holds(pile, {c}) else 0'}}" for c in cards]
    return "id: many\nextends: cirulla\nname: Many categories\nscoring:\n" + "\n".join(lines) + \
        "\n  never_scores: {points: '0'}\n"


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
@pytest.mark.parametrize("width", [400, 1000])
def test_every_category_is_labelled_and_no_labels_overlap(tmp_path, width):
    (tmp_path / "many.yaml").write_text(_many_categories(), encoding="utf-8")
    page = tmp_path / "sim.html"
    out = io.StringIO()
    assert run(["simulate", str(tmp_path / "many.yaml"), "--hands", "2", "--seed", "1", "--workers", "1", "--json",
                "--html", str(page)], out, io.StringIO()) == 0
    cats = [c for c in json.loads(out.getvalue())["mean"]["0"] if c not in ("total", "margin")]
    assert len(cats) == 48 and "never_scores" in cats
    b = Browser()
    try:
        b.open(page, width=width)
        boxes = b.js("""Array.prototype.map.call(document.querySelectorAll('#categories text'), function (t) {
            var r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right, r.top, r.bottom]; })""")
        labels = [box for box in boxes if box[0] in cats]
        assert sorted(box[0] for box in labels) == sorted(cats)          # every category named once
        labels.sort(key=lambda box: box[1])
        for a, c in zip(labels, labels[1:]):
            overlap = a[2] > c[1] + 0.5 and a[4] > c[3] and c[4] > a[3]
            assert not overlap, (a, c)
        # The labels stay inside the figure.
        fig = b.js("(function(){var r=document.getElementById('categories').getBoundingClientRect();"
                   "return [r.left, r.right, r.top, r.bottom];})()")
        assert all(fig[0] - 1 <= box[1] and box[2] <= fig[1] + 1 and box[4] <= fig[3] + 1 for box in labels)
        widths = b.js("[document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= widths[1]
        assert b.errors == []
    finally:
        b.close()


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_a_right_to_left_override_in_the_name_stays_inside_it(tmp_path):
    (tmp_path / "bidi.yaml").write_text("id: bidi\nextends: cirulla\nname: 'Cirulla \u202eabc'\n", encoding="utf-8")
    page = tmp_path / "sim.html"
    assert run(["simulate", str(tmp_path / "bidi.yaml"), "--hands", "2", "--seed", "1", "--workers", "1",
                "--html", str(page)], io.StringIO(), io.StringIO()) == 0
    b = Browser()
    try:
        b.open(page)
        assert reads_left_to_right(b, "h1", "(bidi)")
        assert "\u202eabc" in b.js("document.querySelector('h1').textContent")
        assert b.errors == []
    finally:
        b.close()


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_longest_unbroken_name_wraps_at_400px(tmp_path):
    (tmp_path / "long.yaml").write_text(LONG, encoding="utf-8")
    page = tmp_path / "sim.html"
    assert run(["simulate", str(tmp_path / "long.yaml"), "--hands", "2", "--seed", "1", "--workers", "1",
                "--html", str(page)], io.StringIO(), io.StringIO()) == 0
    with Browser() as b:
        assert_fits(b, page)


def _spread(top: int):
    """Two hands of two sides whose totals lie `top` points apart."""
    from rulespec.bots.simulate import Stats
    return Stats(2, 2, ("settebello", "total", "margin"), hands=2, plays=72, lengths={36: 2},
                 totals={(0, 0): 1, (0, top): 1, (1, 3): 1, (1, top - 7): 1},
                 scored={(0, "settebello"): 1, (1, "settebello"): 1})


@pytest.mark.parametrize("top", [5000, 10 ** 9])
def test_a_wide_spread_of_points_is_drawn_in_bins(top):
    # A ruleset may give a category 10**9 points: one bar per point from the lowest total to the
    # highest was a list of a billion values (MemoryError), and 5000 points were 10,000 bars.
    text = render_stats(_spread(top), ruleset_name="spread", ruleset_id="spread", title="2 hands",
                        bots=["random"] * 2)
    points = text.split('id="points"')[1].split("</svg>")[0]
    bars = re.findall(r'<rect class="bar"[^>]*><title>side (\d) [^<]*: ([\d.]+)%</title>', points)
    assert 0 < len(bars) <= 2 * 41
    for side in "01":
        assert sum(float(p) for s, p in bars if s == side) == pytest.approx(100.0)
    low = re.search(r'<title>side 0 [^<]*, ([^<:]*): 50.0%</title>', points).group(1)
    assert low.startswith("0\u2013")                       # the lowest bin, named by its range


ALWAYS_DEALER = ("id: always\nextends: cirulla\n"
                 "deal_checks:\n  - {name: always, when: 'count(table) >= 0', result: dealer_wins}\n")


@pytest.mark.parametrize("args", [
    ["cirulla", "--hands", "1"], ["cirulla", "--seats", "2", "--hands", "9"],
    ["cirulla-a-cinque", "--hands", "7"], ["escoba", "--seats", "6", "--hands", "5"],
    ["always.yaml", "--hands", "3"]], ids=["1-hand", "2-seats", "5-seats", "6-seats", "no-hand-played"])
def test_the_page_agrees_with_json_for_the_same_seed(tmp_path, args):
    (tmp_path / "always.yaml").write_text(ALWAYS_DEALER, encoding="utf-8")
    if args[0].endswith(".yaml"):
        args = [str(tmp_path / args[0])] + args[1:]
    out, page = io.StringIO(), tmp_path / "sim.html"
    assert run(["simulate", *args, "--seed", "3", "--workers", "1", "--json", "--html", str(page)], out,
               io.StringIO()) == 0
    data, text = json.loads(out.getvalue()), page.read_text(encoding="utf-8")
    sides = len(data["mean"])
    # The table of means: every category, each side's mean and interval as --json has them.
    rows = re.findall(r"<tr><td>([^<]*)</td>((?:<td>[^<]*</td>)+)</tr>",
                      text.split('id="means"')[1].split("</table>")[0])
    assert [r[0] for r in rows] == list(data["mean"]["0"])
    for cat, cells in rows:
        for side, cell in enumerate(re.findall(r"<td>([^<]*)</td>", cells)):
            mean, ci = (float(x) for x in cell.split(" ± "))
            assert mean == pytest.approx(data["mean"][str(side)][cat], abs=6e-4)
            if data["ci95"][str(side)][cat] is None:      # one hand: no interval (JSON has no infinity)
                assert ci == float("inf")
            else:
                assert ci == pytest.approx(data["ci95"][str(side)][cat], abs=6e-4)

    def bars(chart):
        svg = text.split(f'id="{chart}"')[1].split("</svg>")[0]
        return re.findall(r"<title>(.*?), ([^,<]*): ([\d.]+)%</title>", svg)
    if 'id="length"' in text:
        # Hand length: shares of all hands, whose mean is the mean plays per hand.
        lengths = bars("length")
        assert sum(float(p) for *_, p in lengths) == pytest.approx(100, abs=0.3)
        mean_plays = sum(int(x) * float(p) / 100 for _, x, p in lengths)
        assert mean_plays == pytest.approx(data["mean_plays_per_hand"], abs=0.05)
        played = data["hands"] * sum(float(p) for _, x, p in lengths if int(x) > 0) / 100
    else:
        # A fixed length: the captures per played hand instead, as --json counts them.
        captures = data["captures_per_hand"]
        played = sum(captures.values())
        assert {x: float(p) for _, x, p in bars("captures") if float(p)} == \
            pytest.approx({x: 100 * k / played for x, k in captures.items()}, abs=0.06)
        if data["play_events_per_hand"] and 'id="sweeps"' in text:
            sweeps = data["play_events_per_hand"]
            assert {x: float(p) for _, x, p in bars("sweeps") if float(p)} == \
                pytest.approx({x: 100 * k / played for x, k in sweeps.items()}, abs=0.06)
    # Points per side: shares of the played hands, whose mean (over all hands) is the mean total.
    for side in range(sides):
        points = [(int(x), float(p)) for name, x, p in bars("points") if name.startswith(f"side {side} ")]
        if played:
            assert sum(p for _, p in points) == pytest.approx(100, abs=0.3)
        mean = sum(x * p / 100 for x, p in points) * played / data["hands"]
        assert mean == pytest.approx(data["mean"][str(side)]["total"], abs=0.02 * max(1, abs(mean)))
    # Events and bonuses: each side's times, share of hands and points as --json has them.
    cells = re.findall(r"<tr><td>([^<]*)</td><td>[^<]*</td><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)%</td>"
                       r"<td>([^<]*)</td></tr>", text.split('id="event-table"')[1]) if data["events"] else []
    assert len(cells) == sides * len(data["events"])
    name = None
    for first, side, times, share, points in cells:
        name = first or name
        figures = data["events"][name]["side"][side]
        assert float(times) == pytest.approx(figures["per_hand"], abs=6e-4)
        assert float(share) == pytest.approx(100 * figures["share_of_hands"], abs=0.06)
        assert float(points) == pytest.approx(figures["points_per_hand"], abs=6e-4)
    # Category frequencies: one bar per category and side, none above 100%.
    cats = bars("categories")
    assert len(cats) == sides * (len(data["mean"]["0"]) - 2)
    assert all(0 <= float(p) <= 100 for *_, p in cats)


def test_axis_ticks_say_their_exact_share():
    # A top of 50% puts grid lines at 12.5% and 37.5%: they were labelled 12% and 38%.
    from rulespec.authoring.html_stats import bar_chart
    svg = bar_chart(["a", "b"], [("s", [0.5, 0.1])], y_label="hands", x_label="x", percent=True)
    ticks = re.findall(r'text-anchor="end">([^<]*)</text>', svg)
    assert ticks == ["0%", "12.5%", "25%", "37.5%", "50%"]


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
@pytest.mark.parametrize("top", [37, 5000, 10 ** 9])
def test_points_labels_do_not_overlap_at_400px(tmp_path, top):
    page = tmp_path / "spread.html"
    page.write_text(render_stats(_spread(top), ruleset_name="spread", ruleset_id="spread", title="2 hands",
                                 bots=["random"] * 2), encoding="utf-8")
    b = Browser()
    try:
        b.open(page, width=400)
        boxes = sorted(b.js("""Array.prototype.map.call(document.querySelectorAll('#points text.x'), function (t) {
            var r = t.getBoundingClientRect(); return [r.left, r.right, t.textContent]; })"""))
        assert len(boxes) >= 3
        for a, c in zip(boxes, boxes[1:]):
            assert a[1] <= c[0], (a, c)
        assert b.errors == []
    finally:
        b.close()
