"""Play events: the events one play makes."""
from __future__ import annotations

from rulespec.checks.check import EVENT_NAMES
from rulespec.lang.model import Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def emit_events(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w("def play_events(played, captured, table, table_before, last_play, previous, round, turn, play):")
    w('    """The events one play makes: (event, points, category) each."""')
    with w.block():
        w("out = []")
        for e in rs.events.values():
            with w.at(e.when.span):
                w.where(e.when)
                w(f"if {emit_rule(rs, e.when, EVENT_NAMES)}:")
                w(f"    out.append(({e.name!r}, {e.points!r}, {e.category!r}))")
        w("return out")
    w()
    w()
