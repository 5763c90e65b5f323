"""What the generated Python playout (playout.py) cannot play: the constructs it refuses, located.

`Hand` (run/engine.py) is the reference and plays every construct of the language. The playout is an
acceleration kept in lockstep with it; a construct it does not play is listed here as (what, where),
the way codegen_c.unsupported lists the native back end's. A refused ruleset is played by `Hand`
(simulate, ISMCTS rollouts), the same moves from the same streams, only slower.
"""
from __future__ import annotations

from rulespec.checks import running
from rulespec.errors import Span
from rulespec.lang.model import Expression, Ruleset


def _capture_section_span(rs: Ruleset, key: str) -> Span | None:
    """Where `capture.<key>` is written (else the capture section, else the ruleset)."""
    cap = (rs.doc or {}).get("capture") if isinstance(rs.doc, dict) else None
    return getattr(cap, "value_spans", {}).get(key) or getattr(cap, "span", None) or rs.span


def several_sets(rs: Ruleset):
    """capture.combine other than `one`: a card taking several offered sets at once."""
    if rs.combine != "one":
        yield f"capture.combine: {rs.combine} (several sets in one capture)", _capture_section_span(rs, "combine")


def several_values(rs: Ruleset):
    """A deck with cards of several values, or of another value from the hand."""
    if rs.deck.several_values:
        deck = (rs.doc or {}).get("deck") if isinstance(rs.doc, dict) else None
        yield "cards with several values (deck value lists, hand_value, card_values)", \
            getattr(deck, "span", None) or rs.span


def builds_on_table(rs: Ruleset):
    """capture.builds: builds on the table, which only `Hand` keeps (run/builds.py)."""
    if rs.builds is not None:
        yield "capture.builds (builds on the table)", rs.builds.span or _capture_section_span(rs, "builds")


def bid_before_play(rs: Ruleset):
    """bid: an auction before play, which only `Hand` plays."""
    if rs.bid is not None:
        yield "bid (an auction before play)", rs.bid.span or rs.span


def event_points_expressions(rs: Ruleset):
    """An event whose points are an expression."""
    for e in rs.events.values():
        if isinstance(e.points, Expression):
            yield f"event '{e.name}': points as an expression", e.points.span


from .pile_support import pile_constructs, table_redeals

# Each check takes a checked Ruleset and yields (what, span) for every construct it refuses.
# running.constructs: the game's running state (scores so far, points as made, deal-time outcomes, carried
# points, the events, dealer and ties in scoring), which the playout's hand does not keep.
CHECKS: tuple = (pile_constructs, table_redeals, several_sets, several_values, event_points_expressions,
                 running.constructs, builds_on_table, bid_before_play)


def playout_unsupported(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every construct of a checked ruleset the Python playout does not play: (what, where)."""
    return [found for check in CHECKS for found in check(rs)]
