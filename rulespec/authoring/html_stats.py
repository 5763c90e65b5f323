"""A simulation's distributions as one self-contained HTML page of inline SVG plots (`simulate --html`).

Plots drawn here as SVG (no script, no plotting library): points per hand
for each side; hand length in plays, or, where every played hand has the
same length, captures and play events (sweeps) per hand; how often each
category scores for each side; how often each event and bonus fires for
each side; then the mean points per category with their 95% intervals, and
per event and bonus the times it fired, the hands it fired in and its points
per hand. Category and ruleset names come from YAML: they reach the page
only escaped (html_page.esc).
"""
from __future__ import annotations

import math

from rulespec.authoring.html_page import esc, isolate, page

COLOURS = ("#2f6fa8", "#c0392b", "#2e7d32", "#b07000", "#6a3d9a", "#00838f", "#ad1457", "#5d4037")
W, H = 640, 260                       # the viewBox; the SVG scales to the page's width
LEFT, RIGHT, TOP, BOTTOM = 48, 10, 14, 42

# break-word, not anywhere: `anywhere` lets a table cell shrink below its longest word, so a narrow page cut
# "poin|ts" and "0.47|3"; break-word breaks only a word longer than its line (a stranger's long name).
# A table wider than the page scrolls inside its .wrap box.
CSS = """
*{box-sizing:border-box}
body{margin:0;padding:8px;font:15px/1.35 system-ui,sans-serif;background:#fafaf7;color:#222;overflow-x:hidden;
  overflow-wrap:break-word}
h1{font-size:1.3em;margin:.2em 0}
h2{font-size:1.05em;margin:1em 0 .3em}
.meta{color:#555;font-size:.9em}
figure{margin:0 0 12px;background:#fff;border:1px solid #ccc;border-radius:6px;padding:6px;max-width:820px}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:.9em;color:#444}
.legend span{display:inline-block;margin-right:10px}
.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
.wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}
td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:right}
td:first-child,th:first-child{text-align:left}
"""


def _nice(top: float) -> float:
    """A round upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten, at least `top`."""
    if top <= 0:
        return 1.0
    step = 10 ** math.floor(math.log10(top))
    for m in (1, 2, 2.5, 5, 10):
        if top <= m * step * (1 + 1e-9):
            return m * step
    return 10 * step


def _percent(share: float) -> str:
    """`25%`, `12.5%`: a tick's share, with the decimal it needs (a quarter of 50% is 12.5%, not 12%)."""
    return f"{share * 100:.4g}%"


CHAR_W = 0.62                         # a label character's width, as a share of the font size (a wide guess)


def _label_layout(groups: list[str], gw: float, name_all: bool) -> tuple[int, float, float]:
    """How the x labels go: (every how many groups one, font size, extra height for turned labels; 0: level).

    Level labels wider than their room would run into one another: numbers (name_all false) are
    then shown one in `every`; names (name_all true) are each shown, turned upright, in a font
    that fits the group's width, the chart growing downward to hold the longest.
    """
    widest = max((len(g) for g in groups), default=0) * 11 * CHAR_W
    if not name_all:                                    # at most 16 numbers, and room for each
        return max(1, len(groups) // 16, math.ceil((widest + 4) / gw)), 11.0, 0.0
    if widest <= gw * 0.95:
        return 1, 11.0, 0.0
    size = max(5.0, min(11.0, gw * 0.75))
    return 1, size, max(len(g) for g in groups) * size * CHAR_W + 4


def bar_chart(groups: list[str], series: list[tuple[str, list[float]]], *, y_label: str, x_label: str,
              percent: bool = False, chart_id: str = "", name_all: bool = False) -> str:
    """Grouped bars: one group per x value, one bar per series in it (series = (name, values per group)).

    `name_all`: every group gets its label (category names); otherwise labels may be thinned (numbers).
    """
    top = _nice(max((v for _, vals in series for v in vals), default=0))
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM
    k = max(1, len(series))
    gw = plot_w / max(1, len(groups))
    bw = min(48.0, max(1.0, gw * 0.8 / k))
    every, size, turned = _label_layout(groups, gw, name_all)
    height = H + (turned - 14 if turned else 0)      # turned labels take the level label row's place
    ident = f' id="{esc(chart_id)}"' if chart_id else ""
    out = [f'<svg viewBox="0 0 {W} {height:.0f}"{ident} role="img" aria-label="{esc(y_label)} by {esc(x_label)}" '
           'xmlns="http://www.w3.org/2000/svg">']
    for i in range(5):                                   # horizontal grid and y labels
        v = top * i / 4
        y = TOP + plot_h - plot_h * i / 4
        label = _percent(v) if percent else (f"{v:g}" if v < 10 else f"{v:.0f}")
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{label}</text>')
    for g, name in enumerate(groups):
        x0 = LEFT + g * gw + (gw - bw * k) / 2
        for s, (sname, vals) in enumerate(series):
            v = vals[g]
            h = plot_h * v / top if top else 0
            value = f"{v:.1%}" if percent else f"{v:g}"
            out.append(f'<rect class="bar" x="{x0 + s * bw:.1f}" y="{TOP + plot_h - h:.1f}" width="{bw:.1f}" '
                       f'height="{h:.1f}" fill="{COLOURS[s % len(COLOURS)]}"><title>{esc(sname)}, {esc(name)}: '
                       f'{value}</title></rect>')
        tx = LEFT + g * gw + gw / 2
        if turned:
            # Read bottom to top, ending just under the axis, centred on the group.
            x, y = tx + size * 0.35, TOP + plot_h + 4
            out.append(f'<text class="x" x="{x:.1f}" y="{y}" font-size="{size:.1f}" text-anchor="end" '
                       f'transform="rotate(-90 {x:.1f} {y})">{esc(name)}</text>')
        elif g % every == 0:
            out.append(f'<text class="x" x="{tx:.1f}" y="{TOP + plot_h + 14}" font-size="11" '
                       f'text-anchor="middle">{esc(name)}</text>')
    out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{height - 6:.0f}" font-size="12" text-anchor="middle">'
               f'{esc(x_label)}</text>')
    out.append(f'<text x="12" y="{TOP + plot_h / 2:.0f}" font-size="12" text-anchor="middle" '
               f'transform="rotate(-90 12 {TOP + plot_h / 2:.0f})">{esc(y_label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _legend(names: list[str]) -> str:
    return '<div class="legend">' + "".join(
        f'<span><i style="background:{COLOURS[i % len(COLOURS)]}"></i>{esc(n)}</span>' for i, n in enumerate(names)
    ) + "</div>"


MOST_BINS = 40                        # the points plot's bars per side, at most (one per point while they fit)


def _bin_width(span: int) -> int:
    """The points one bar covers: 1, 2 or 5 times a power of ten, the least that makes `span` points at most
    MOST_BINS bars (one more when the first bar starts below the lowest total)."""
    power = 1
    while True:
        for m in (1, 2, 5):
            if -(-span // (m * power)) <= MOST_BINS:
                return m * power
        power *= 10


def _points_bins(stats, played: int) -> tuple[list[str], list[list[float]]]:
    """The points plot's x labels and, per side, each bar's share of the played hands.

    One bar per point from the lowest total to the highest; when they are more than MOST_BINS
    (a ruleset may give a category a billion points), one bar per range of points, named by it.
    Only the totals seen are visited, never every point in the range.
    """
    lo = min((t for _, t in stats.totals), default=0)
    hi = max((t for _, t in stats.totals), default=0)
    width = _bin_width(hi - lo + 1)
    start = lo // width * width
    count = (hi - start) // width + 1
    shares = [[0.0] * count for _ in range(stats.sides)]
    for (side, total), hands in stats.totals.items():
        shares[side][(total - start) // width] += hands / played if played else 0
    names = [str(start + i) if width == 1 else f"{start + i * width}\u2013{start + (i + 1) * width - 1}"
             for i in range(count)]
    return names, shares


def _per_hand(counts: dict, played: int, key: str, heading: str, what: str, note: str) -> tuple:
    """A plot of how many hands had each count of something (captures, play events)."""
    xs = list(range(min(counts), max(counts) + 1))
    series = [("hands", [counts.get(x, 0) / played if played else 0 for x in xs])]
    mean = sum(k * v for k, v in counts.items()) / played if played else 0
    return (key, heading, f"share of the {played} played hands by the number of {what} (mean {mean:.2f}; {note})",
            bar_chart([str(x) for x in xs], series, y_label="hands", x_label=f"{what} in the hand", percent=True,
                      chart_id=key), [])


def _length_or_what_varies(stats, played: int) -> list[tuple]:
    """The hand-length plot; where every played hand has the same length (one bar, telling nothing), what
    varies instead, when it was counted: captures per hand, and play events (sweeps...) per hand."""
    lengths = sorted(stats.lengths)
    played_lengths = [x for x in lengths if x > 0]
    if len(played_lengths) == 1 and stats.captures:
        note = f"every played hand has {played_lengths[0]} plays"
        out = [_per_hand(stats.captures, played, "captures", "Captures per hand", "plays that captured", note)]
        names = [name for name, kind, _s in stats.events or () if kind == "event"]
        if names and stats.sweeps:
            out.append(_per_hand(stats.sweeps, played, "sweeps", "Play events per hand", "play events",
                                 f"{', '.join(names)}, every side's"))
        return out
    xs = list(range(lengths[0], lengths[-1] + 1)) if lengths else []
    series = [("hands", [stats.lengths.get(x, 0) / stats.hands if stats.hands else 0 for x in xs])]
    return [("length", "Hand length", f"share of the {stats.hands} hands by the number of plays "
             f"(mean {stats.mean_plays:.1f}; 0: the deal ended the hand)",
             bar_chart([str(x) for x in xs], series, y_label="hands", x_label="plays in the hand",
                       percent=True, chart_id="length"), [])]


def _event_table(stats) -> str:
    """Per event and bonus and side: times fired per hand, share of hands, points per hand."""
    if not stats.events:
        return ""
    rows = []
    for name, kind, scoring in stats.events:
        for s in range(stats.sides):
            times, share, points = stats.fires(s, name)
            rows.append(f"<tr><td>{esc(name) if s == 0 else ''}</td><td>{esc(kind) if s == 0 else ''}</td>"
                        f"<td>{s}</td><td>{times:.3f}</td><td>{100 * share:.1f}%</td>"
                        f"<td>{f'{points:.3f}' if scoring else '-'}</td></tr>")
    return ('<h2>Events and bonuses per hand</h2><div class="wrap"><table id="event-table"><tr>'
            '<th>event or bonus</th><th>kind</th><th>side</th><th>times fired</th><th>hands</th><th>points</th>'
            f'</tr>{"".join(rows)}</table></div>')


def render_stats(stats, *, ruleset_name: str, ruleset_id: str, title: str, bots: list[str]) -> str:
    """The page for a Stats (rulespec/bots/simulate.py)."""
    sides = list(range(stats.sides))
    members = [[f"{seat}:{bots[seat]}" for seat in range(stats.seats) if seat % stats.sides == s] for s in sides]
    side_names = [f"side {s} ({', '.join(members[s])})" for s in sides]
    played = sum(stats.lengths.get(k, 0) for k in stats.lengths if k > 0)
    figures = []

    names, shares = _points_bins(stats, played)
    series = [(side_names[s], shares[s]) for s in sides]
    figures.append(("points", "Points per hand, per side", f"share of the {played} played hands by the points a "
                    "side made in it (every category, bonuses included)",
                    bar_chart(names, series, y_label="hands", x_label="points in the hand",
                              percent=True, chart_id="points"), side_names))

    figures += _length_or_what_varies(stats, played)

    cats = [c for c in stats.categories if c not in ("total", "margin")]
    series = [(side_names[s], [stats.scored.get((s, c), 0) / played if played else 0 for c in cats]) for s in sides]
    figures.append(("categories", "Category frequencies", "share of the played hands in which a side scored "
                    "in the category",
                    bar_chart(cats, series, y_label="hands", x_label="category", percent=True,
                              chart_id="categories", name_all=True), side_names))

    names = [name for name, _kind, _scores in stats.events or ()]
    if names:
        series = [(side_names[s], [stats.fires(s, name)[1] for name in names]) for s in sides]
        figures.append(("events", "Events and bonuses", f"share of the {stats.hands} hands in which the event "
                        "or bonus fired for a side (at least once)",
                        bar_chart(names, series, y_label="hands", x_label="event or bonus", percent=True,
                                  chart_id="events", name_all=True), side_names))

    body = [f"<h1>{esc(isolate(ruleset_name))} <span class=\"meta\">({esc(ruleset_id)})</span></h1>",
            f'<p class="meta">{esc(title)}</p>']
    for key, heading, caption, svg, legend in figures:
        body.append(f'<h2>{esc(heading)}</h2><figure id="fig-{key}">{svg}<figcaption>'
                    f'{_legend(legend) if legend else ""}{esc(caption)}</figcaption></figure>')
    rows = "".join(f"<tr><td>{esc(c)}</td>" + "".join(
        f"<td>{stats.mean(s, c):.3f} ± {stats.ci95(s, c):.3f}</td>" for s in sides) + "</tr>"
        for c in stats.categories)
    head = "".join(f"<th>side {s}</th>" for s in sides)
    body.append(f'<h2>Mean points per hand (95% interval)</h2><div class="wrap"><table id="means"><tr>'
                f'<th>category</th>{head}</tr>{rows}</table></div>')
    body.append(_event_table(stats))
    return page(f"{isolate(ruleset_name)}: simulation", "\n".join(body), css=CSS)
