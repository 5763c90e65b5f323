"""The auction before play (bid:): its options and the cards' values, which `Hand` reads (run/engine.py).
Written only for a ruleset with a bid (every other module is unchanged)."""
from __future__ import annotations

from rulespec.lang.model import Ruleset

from .plan import Plan
from .writer import Writer


def emit_bid(w: Writer, rs: Ruleset, plan: Plan) -> None:
    b = rs.bid
    if b is None:
        return
    deck = rs.deck
    spec = {
        "who": b.who,
        "after_cards": b.after_cards,
        "values": tuple(b.values),
        "binds": b.binds,
        "void": b.void,
        # per card index: the values it captures as from the hand (a bid names one of them)
        "hand_values": tuple(tuple(deck.hand_values_of(i)) for i in range(deck.size)),
    }
    with w.at(b.span):
        w(f"BID = {spec!r}")
    w()
    w()
