"""A comparison (`simulate VARIANT --compare BASE --html OUT`) as one self-contained HTML page.

Two interval plots drawn here as SVG (no script): per category and side,
then per event or bonus and side, the mean difference variant − base per
hand as a dot with its 95% interval as a bar across it, beside a line at 0
(a bar that does not cross it: the difference is significant, drawn in
colour); then the same figures as tables. Names come from YAML: they reach
the page only escaped (html_page.esc).
"""
from __future__ import annotations

from rulespec.authoring.html_page import esc, isolate, page
from rulespec.authoring.html_stats import CSS

W = 640
LABEL = 190                      # the room the row labels take, left of the plot
ROW = 18


def interval_plot(rows: list[tuple[str, float, float]], *, chart_id: str, x_label: str) -> str:
    """One row per (label, mean, half-width): the 95% interval as a bar, the mean as a dot, 0 as a line."""
    reach = max([abs(m) + (h if h != float("inf") else 0) for _, m, h in rows] + [1e-9])
    left, right = LABEL + 8, W - 12
    height = ROW * len(rows) + 44

    def x(v: float) -> float:
        v = max(-reach, min(reach, v))
        return left + (v + reach) / (2 * reach) * (right - left)
    out = [f'<svg viewBox="0 0 {W} {height}" id="{esc(chart_id)}" role="img" aria-label="{esc(x_label)}" '
           'xmlns="http://www.w3.org/2000/svg">',
           f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="6" y2="{height - 34}" stroke="#333"/>']
    for i, (label, m, half) in enumerate(rows):
        y = 14 + i * ROW
        significant = abs(m) > half
        colour = "#c0392b" if significant else "#888"
        lo, hi = (m - half, m + half) if half != float("inf") else (-reach, reach)
        out.append(f'<text x="{LABEL}" y="{y + 4}" font-size="11" text-anchor="end">{esc(label)}</text>')
        out.append(f'<g class="row{" significant" if significant else ""}"><title>{esc(label)}: {m:+.3f} ± '
                   f'{half:.3f}</title><line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y}" y2="{y}" '
                   f'stroke="{colour}" stroke-width="3"/><circle cx="{x(m):.1f}" cy="{y}" r="3.5" '
                   f'fill="{colour}"/></g>')
    # The right-hand tick ends at its mark: centred, "+1.06" ran past the plot's edge and was cut.
    for v, anchor in ((-reach, "middle"), (0, "middle"), (reach, "end")):
        out.append(f'<text x="{x(v):.1f}" y="{height - 20}" font-size="11" text-anchor="{anchor}">{v:+.3g}</text>')
    out.append(f'<text x="{(left + right) / 2:.0f}" y="{height - 4}" font-size="12" text-anchor="middle">'
               f'{esc(x_label)}</text></svg>')
    return "".join(out)


def render_compare(p, *, variant_name: str, title: str) -> str:
    """The page of a Paired (rulespec/bots/compare.py)."""
    sides = range(p.sides)
    cats = [(f"{c}, side {s}", *p.difference(s, c)) for c in p.categories for s in sides]
    body = [f"<h1>{esc(isolate(variant_name))} <span class=\"meta\">({esc(p.variant_id)} against "
            f"{esc(p.base_id)})</span></h1>", f'<p class="meta">{esc(title)}</p>',
            '<h2>Points per category: variant − base per hand</h2><figure id="fig-categories">'
            + interval_plot(cats, chart_id="categories", x_label="points per hand, variant − base (95% interval)")
            + "<figcaption>A bar that does not cross 0 (in colour): the difference is significant at 95%."
              "</figcaption></figure>"]
    if p.events:
        events = [(f"{name}, side {s}", *p.fired_difference(s, name, "points")) for name, _k in p.events
                  for s in sides]
        body.append('<h2>Events and bonuses: points per hand, variant − base</h2><figure id="fig-events">'
                    + interval_plot(events, chart_id="events", x_label="points per hand, variant − base")
                    + "</figure>")
    rows = "".join(
        f"<tr><td>{esc(c) if s == 0 else ''}</td><td>{s}</td><td>{p.mean('base', s, c):.3f}</td>"
        f"<td>{p.mean('variant', s, c):.3f}</td><td>{p.difference(s, c)[0]:+.3f} ± {p.difference(s, c)[1]:.3f}"
        f"</td></tr>" for c in p.categories for s in sides)
    body.append('<h2>Mean points per hand</h2><div class="wrap"><table id="means"><tr><th>category</th>'
                f'<th>side</th><th>base</th><th>variant</th><th>variant − base (95%)</th></tr>{rows}</table></div>')
    if p.events:
        rows = []
        for name, kind in p.events:
            for s in sides:
                times, t_half = p.fired_difference(s, name, "times")
                points, p_half = p.fired_difference(s, name, "points")
                rows.append(f"<tr><td>{esc(name) if s == 0 else ''}</td><td>{esc(kind) if s == 0 else ''}</td>"
                            f"<td>{s}</td><td>{p.fired_mean('base', s, name, 'times'):.3f}</td>"
                            f"<td>{p.fired_mean('variant', s, name, 'times'):.3f}</td>"
                            f"<td>{times:+.3f} ± {t_half:.3f}</td><td>{points:+.3f} ± {p_half:.3f}</td></tr>")
        body.append('<h2>Events and bonuses per hand</h2><div class="wrap"><table id="event-table"><tr>'
                    '<th>event or bonus</th><th>kind</th><th>side</th><th>times: base</th><th>variant</th>'
                    '<th>variant − base (95%)</th><th>points: variant − base (95%)</th></tr>'
                    f'{"".join(rows)}</table></div>')
    notes = [f"{p.hands} paired hands; {p.same_deal} dealt the same cards in both"]
    if p.only_base:
        notes.append(f"only in {p.base_id}: {', '.join(p.only_base)} (0 in {p.variant_id})")
    if p.only_variant:
        notes.append(f"only in {p.variant_id}: {', '.join(p.only_variant)} (0 in {p.base_id})")
    body.append(f'<p class="meta">{esc("; ".join(notes))}</p>')
    return page(f"{isolate(variant_name)}: compared", "\n".join(body), css=CSS)
