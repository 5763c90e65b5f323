"""The deal: the misdeal limit, the deal checks and the dealer bonuses."""
from __future__ import annotations

from rulespec.checks.check import TABLE_NAMES, pile_names
from rulespec.lang.model import Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def emit_deal(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w(f"MISDEAL_LIMIT = {rs.misdeal_limit!r}")
    w()
    w()
    # With a pile, `top` (the top card dealt) is passed too: other rulesets keep their one-argument call.
    w("def deal_check(table, top=0):" if rs.pile else "def deal_check(table):")
    w('    """The first deal check that holds for the table after round 1: (name, result, event), or None."""')
    with w.block():
        for c in rs.deal_checks:
            with w.at(c.when.span):
                w.where(c.when)
                w(f"if {emit_rule(rs, c.when, pile_names(rs, TABLE_NAMES))}:")
                w(f"    return ({c.name!r}, {c.result!r}, {c.event!r})")
        w("return None")
    w()
    w()
    w("def dealer_bonus(table):")
    w('    """The first dealer bonus that holds: (event, points, category, captures the table), or None."""')
    with w.block():
        for b in rs.dealer_bonuses:
            with w.at(b.when.span):
                w.where(b.when)
                w(f"if {emit_rule(rs, b.when, TABLE_NAMES)}:")
                w(f"    return ({b.event!r}, {b.points!r}, {b.category!r}, {b.capture_table!r})")
        w("return None")
    w()
    w()
