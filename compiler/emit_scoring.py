"""End of hand: the scoring categories per side, and the outcomes that end the game."""
from __future__ import annotations

from rulespec.checks.check import DEAL_OUTCOME_NAMES, OUTCOME_NAMES, SCORE_RULE_NAMES
from rulespec.checks.running import reads
from rulespec.lang.model import Expression, Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def emit_scoring(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w(f"CATEGORIES = {tuple(rs.categories)!r}")
    w(f"TARGET = {rs.target!r}")     # None: no target (the game lasts HANDS hands)
    w(f"HANDS = {rs.hands!r}")       # None: played to the target
    w(f"TIE = {rs.tie!r}")
    w(f"POINTS = {rs.points_mode!r}")    # end_of_hand | as_made: when events' points join the game totals
    w(f"LEAD = {rs.lead!r}")       # None: no lead wins the game
    w(f"CARRY = {dict((c.name, c.carry) for c in rs.categories.values() if c.carry)!r}")
    # What the categories read of the game's state; `Hand` passes it only then (scoring of other rulesets unchanged).
    read = sorted(set().union(*(reads(c.points) for c in rs.categories.values()))
                  & {"game_score", "rival_score", "dealer_side", "made", "rivals_made", "fewest_made"})
    w(f"SCORE_READS = {tuple(read)!r}")
    w()
    w()
    # Each most(...) compares one value per side: the list of values is the same for every
    # side, so it is computed once, before the loop over the sides.
    hoisted: list[str] = []
    spans = []
    exprs = {}
    for c in rs.categories.values():
        if isinstance(c.points, Expression):
            exprs[c.name] = emit_rule(rs, c.points, SCORE_RULE_NAMES, allow_most=True, hoisted=hoisted)
            spans += [c.points.span] * (len(hoisted) - len(spans))
    state = ", before=None, dealer_side=0, _made=None" if read else ""
    w(f"def score(piles, event_points{state}):")
    w('    """Per side: every category\'s points and the total."""')
    with w.block():
        for i, values in enumerate(hoisted):
            with w.at(spans[i]):
                w(f"_most{i} = {values}")
        w("out = []")
        if read:
            w("before = before or (0,) * len(piles)")
            w("_made = _made or [{} for _ in piles]")
        w("for side, pile in enumerate(piles):")
        with w.block():
            if "game_score" in read:
                w("game_score = before[side]")
            if "rival_score" in read:
                w("rival_score = max(before[:side] + before[side + 1:], default=0)")
            w("row = {}")
            w("got = event_points[side]")
            for c in rs.categories.values():
                _category(w, c, exprs)
            w("row['total'] = total = sum(row.values())")
            # Each category is checked where it is written (its line gives the failure's place), the total
            # with the first category's: many categories within the bound may add up past it.
            first = next(iter(rs.categories.values()), None)
            with w.at(_place(first) if first is not None else None):
                w("if not -_rt.MAX_POINTS < total < _rt.MAX_POINTS:")
                w("    _rt.points_past(\"the hand's total\", total)")
            w("out.append(row)")
        w("return out")
    w()
    w()


def _place(c):
    """Where a category's points are written: its expression, else the category itself."""
    return c.points.span if isinstance(c.points, Expression) else c.span


def _category(w: Writer, c, exprs: dict) -> None:
    """The line that scores category `c` into `row`, and, unless its points are a literal, the check that they
    lie within runtime.MAX_POINTS, located at the expression (or the category, for events' points)."""
    if c.from_events:
        with w.at(c.span):
            w(f"row[{c.name!r}] = points = got.get({c.name!r}, 0)")
    elif isinstance(c.points, Expression):
        with w.at(c.points.span):
            w.where(c.points)
            w(f"row[{c.name!r}] = points = {exprs[c.name]}")
    else:
        w(f"row[{c.name!r}] = {c.points!r}")     # a literal: at most 18 digits (yamlsafe), the total checks them
        return
    with w.at(_place(c)):
        w("if not -_rt.MAX_POINTS < points < _rt.MAX_POINTS:")
        w(f"    _rt.points_past({f'points of category {c.name!r}'!r}, points)")


def emit_outcomes(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w("def outcome(piles):")
    w('    """An end-of-hand outcome that ends the game: (name, side), or None."""')
    with w.block():
        w("for side, pile in enumerate(piles):")
        with w.block():
            for o in rs.outcomes.values():
                if o.at != "hand_end":
                    continue
                with w.at(o.when.span):
                    w.where(o.when)
                    w(f"if {emit_rule(rs, o.when, OUTCOME_NAMES)}:")
                    w(f"    return ({o.name!r}, side)")
            w("pass")
        w("return None")
    at_deal = [o for o in rs.outcomes.values() if o.at == "deal"]
    w()
    w()
    w(f"DEAL_OUTCOMES = {bool(at_deal)!r}")
    w()
    w()
    w("def deal_outcome(hand, table):")
    w('    """An outcome asked of a seat\'s hand after a deal round that ends the game: its name, or None."""')
    with w.block():
        for o in at_deal:
            with w.at(o.when.span):
                w.where(o.when)
                w(f"if {emit_rule(rs, o.when, DEAL_OUTCOME_NAMES)}:")
                w(f"    return {o.name!r}")
        w("return None")
