"""Builds on the table (capture.builds): the options of the construct and the cards' values, which the
engine's run/builds.py reads. Written only for a ruleset with builds (every other module is unchanged)."""
from __future__ import annotations

from rulespec.lang.model import Ruleset

from .plan import Plan
from .writer import Writer


def emit_builds(w: Writer, rs: Ruleset, plan: Plan) -> None:
    b = rs.builds
    if b is None:
        return
    deck = rs.deck
    n = deck.size
    spec = {
        "values": tuple(b.values) if b.values is not None else None,
        "raise": b.raise_,
        "multiple": b.multiple,
        "owner_must_act": b.owner_must_act,
        # per card index: the values it counts as in a build on the table, and as it captures from the hand
        "table_values": tuple(tuple(deck.table_values_of(i)) for i in range(n)),
        "hand_values": tuple(tuple(deck.hand_values_of(i)) for i in range(n)),
    }
    # Options off by default are written only when on: the modules of rulesets without them are unchanged.
    if b.subtract:
        spec["subtract"] = True
    if b.one_per_value:
        spec["one_per_value"] = True
    if b.owner_may_trail:
        spec["owner_may_trail"] = True
    if b.owners != "last":
        spec["owners"] = b.owners
    with w.at(b.span):
        w(f"BUILDS = {spec!r}")
    w()
    w()
