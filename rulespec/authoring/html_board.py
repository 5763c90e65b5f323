"""A leaderboard as one self-contained HTML page (`rulespec leaderboard GAME --html OUT`): no script.

The table of bots/leaderboard.py: each entrant's score with its 95% interval
drawn as a bar around the mean, then its points per hand against every other
entrant, green where the interval lies above 0, red where below. Entrant names
are command-line text (file names among them) and the ruleset's name comes
from YAML: they reach the page only escaped (html_page.esc), direction marks
isolated.
"""
from __future__ import annotations

import math

from rulespec.authoring.html_page import esc, isolate, page
from rulespec.authoring.html_stats import CSS as STATS_CSS

CSS = STATS_CSS + """
td.win{background:#e3f1e4}
td.loss{background:#f7e1df}
td.self{color:#999;text-align:center}
td.name{font-family:ui-monospace,monospace}
svg.ci{width:8em;height:1em;vertical-align:middle}
"""


def _cell(mean: float, hw: float) -> tuple[str, str]:
    """The text of a result and its class: above 0 beyond doubt, below, or neither."""
    text = f"{mean:+.2f} ± {'∞' if math.isinf(hw) else f'{hw:.2f}'}"
    kind = "win" if mean - hw > 0 else "loss" if mean + hw < 0 else ""
    return text, kind


def _bar(mean: float, hw: float, scale: float) -> str:
    """The interval as a small horizontal bar on a common scale (0 in the middle)."""
    def x(v: float) -> float:
        return 50 + 48 * max(-1.0, min(1.0, v / scale))
    low, high = (mean - hw, mean + hw) if math.isfinite(hw) else (-scale, scale)
    return (f'<svg class="ci" viewBox="0 0 100 10" role="img" aria-label="95% interval">'
            f'<line x1="50" y1="0" x2="50" y2="10" stroke="#999"/>'
            f'<rect x="{x(low):.1f}" y="3" width="{max(x(high) - x(low), 0.5):.1f}" height="4" fill="#2f6fa8"/>'
            f'<circle cx="{x(mean):.1f}" cy="5" r="2" fill="#222"/></svg>')


def render_board(board, ruleset_name: str) -> str:
    """The page of a Board (bots/leaderboard.py)."""
    order = board.ranking()
    scores = {a: board.score(a) for a in order}
    scale = max([abs(m) + (h if math.isfinite(h) else 0) for m, h in scores.values()] + [1e-9])
    head = "".join(f'<th title="{esc(b)}">#{i + 1}</th>' for i, b in enumerate(order))
    rows = []
    for i, a in enumerate(order):
        text, kind = _cell(*scores[a])
        cells = [f'<td>{i + 1}</td><td class="name">{esc(isolate(a))}</td>'
                 f'<td class="{kind}">{esc(text)} {_bar(*scores[a], scale)}</td>']
        for b in order:
            if b == a:
                cells.append('<td class="self">—</td>')
                continue
            text, kind = _cell(*board.versus(a, b))
            cells.append(f'<td class="{kind}">{esc(text)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = [f'<h1>{esc(isolate(ruleset_name))} <span class="meta">({esc(board.ruleset)})</span>: leaderboard</h1>',
            f'<p class="meta">{board.seats} seats; {2 * board.hands} hands per pair on {board.hands} duplicate deals '
            f'(each played with the seats swapped); seed {board.seed}; points per hand, 95% intervals.</p>',
            f'<div class="wrap"><table id="board"><tr><th>#</th><th>entrant</th><th>score</th>{head}</tr>'
            + "".join(rows) + "</table></div>",
            '<p>score: the mean of an entrant\'s results against the others; a cell: the row\'s entrant\'s points '
            'per hand against the column\'s (#k: the k-th of the board), green where the interval lies above 0, '
            'red where below.</p>']
    return page(f"{isolate(ruleset_name)}: leaderboard", "\n".join(body), css=CSS)
