"""The table as a pile and the deal's buried cards: what the engine needs of capture.table, face_down and
deal.bury (the capture kinds, events and deal checks read `top` through their own emitters)."""
from __future__ import annotations

from rulespec.checks.check import BURY_NAMES
from rulespec.lang.model import Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def face_down_steps(rs: Ruleset) -> dict[int, tuple[int, ...]]:
    """Per deal round that lays face-down cards (numbered from 1 as written; the last one repeats), how many of
    each of its table steps' cards lie face down."""
    return {i + 1: tuple(s.face_down for s in steps if s.kind == "table") for i, steps in enumerate(rs.rounds)
            if any(s.face_down for s in steps)}


def emit_pile(w: Writer, rs: Ruleset, plan: Plan) -> None:
    w(f"PILE = {rs.pile!r}")
    w(f"FACE_DOWN = {face_down_steps(rs)!r}")
    w(f"FACE_DOWN_ROUNDS = {len(rs.rounds)!r}")
    w(f"BURY_TO = {rs.bury.to if rs.bury is not None else None!r}")
    w()
    w()
    w("def bury(dealt):")
    w('    """Whether the table card `dealt` (a mask), just dealt face up, goes back into the stock."""')
    with w.block():
        if rs.bury is None:
            w("return False")
        else:
            with w.at(rs.bury.when.span):
                w.where(rs.bury.when)
                w(f"return bool({emit_rule(rs, rs.bury.when, BURY_NAMES)})")
    w()
    w()
