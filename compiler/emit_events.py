"""Play events: the events one play makes."""
from __future__ import annotations

from rulespec.checks.check import EVENT_NAMES, EVENT_POINT_NAMES, EVENT_RULE_NAMES, RUNNING_NAMES, pile_names
from rulespec.checks.running import first_read, reads
from rulespec.lang.model import Expression, Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def fired_names(rs: Ruleset) -> tuple[tuple[str, str, bool], ...]:
    """What a hand of the ruleset can fire, in the order the ruleset gives them: (name, kind, whether it
    scores in a category); kind "event" (a play's), "deal" (the dealer's, on the table dealt) or "bonus" (a
    hand bonus). `simulate` counts each (bots/simulate.py)."""
    found = [(e.name, "event", bool(e.category)) for e in rs.events.values()]
    found += [(b.event, "deal", bool(b.category)) for b in rs.dealer_bonuses]
    found += [(name, "bonus", bool(b.category)) for name, b in rs.hand_bonuses.items()]
    return tuple(found)


def emit_events(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w(f"EVENTS = {fired_names(rs)!r}")
    # The running state the events read: `Hand` passes it only then, so a ruleset without it keeps its signature.
    read = sorted((set().union(*(reads(e.when) for e in rs.events.values())) & set(RUNNING_NAMES))
                  | {"bid" for e in rs.events.values() if first_read(e.when, "bid") is not None})
    w(f"EVENT_READS = {tuple(read)!r}")
    w()
    # With a pile, `top` (the top card before the play) is passed too; where the events read the game's
    # running state, that state by name; other rulesets keep their call as it was.
    state = "".join(f", {name}=0" for name in read)
    w("def play_events(played, captured, table, table_before, last_play, previous, round, turn, play, last_round, "
      f"players{', top=0' if rs.pile else ''}{state}):")
    w('    """The events one play makes: (event, points, category) each."""')
    with w.block():
        w("out = []")
        if plan.captures.reading:
            w("played_value, sets = _reading(played, captured, table_before, round, turn, play)")
        for e in rs.events.values():
            with w.at(e.when.span):
                w.where(e.when)
                w(f"if {emit_rule(rs, e.when, pile_names(rs, EVENT_RULE_NAMES if read else EVENT_NAMES))}:")
            if isinstance(e.points, Expression):
                with w.at(e.points.span):
                    w.where(e.points)
                    w(f"    points = {emit_rule(rs, e.points, pile_names(rs, EVENT_POINT_NAMES))}")
                    # Bounded where they are made: with `points: as_made` they join the game's totals at once.
                    w("    if not -_rt.MAX_POINTS < points < _rt.MAX_POINTS:")
                    w(f"        _rt.points_past({f'points of event {e.name!r}'!r}, points)")
                    w(f"    out.append(({e.name!r}, points, {e.category!r}))")
            else:
                w(f"    out.append(({e.name!r}, {e.points!r}, {e.category!r}))")
        w("return out")
    w()
    w()
