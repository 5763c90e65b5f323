"""Hand bonuses: one condition function each, their table, and the declaration settings."""
from __future__ import annotations

from rulespec.checks.check import BONUS_NAMES
from rulespec.lang.expressions import Name, walk
from rulespec.lang.model import Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


def emit_hand_bonuses(w: Writer, rs: Ruleset, plan: Plan) -> None:
    entries = []
    for i, b in enumerate(rs.hand_bonuses.values()):
        fn = f"_bonus_{i}"
        with w.at(b.when.span):
            w(f"def {fn}(cards, hand, round, last_round):")
            w(f'    """Hand bonus {b.name!r}: whether the declared cards make it."""')
            with w.block():
                w.where(b.when)
                w(f"return {emit_rule(rs, b.when, BONUS_NAMES)}")
        w()
        w()
        entries.append(f"    {b.name!r}: _rt.BonusSpec({fn}, {b.size}, {b.points}, {b.category!r}, {b.wild!r}, "
                       f"{tuple(b.excluded_by)!r}, {tuple(b.shares_cards_with)!r}, {tuple(b.rounds)!r}, "
                       f"{b.unique_by!r}),")
    w("HAND_BONUSES = {")
    for e in entries:
        w(e)
    w("}")
    # What the bonus conditions read besides the cards: the declaration search is memoised on no more.
    reads = sorted({n.id for b in rs.hand_bonuses.values() for n in walk(b.when.tree)
                    if isinstance(n, Name) and n.id in ("hand", "round", "last_round")})
    w(f"BONUS_READS = {tuple(reads)!r}")
    w(f"TIMING = {rs.timing!r}")
    w(f"DECLARE_WILD = {rs.declare_wild!r}")
    w(f"DECLARED_FIRST = {rs.declared_first!r}")
    w(f"PER_TURN = {rs.per_turn!r}")
    w()
    w()
    w("def unique_key(by, cards, wild_rank):")
    w('    """The value or rank a single-card bonus is made with (the wild card as declared)."""')
    w("    i = cards.bit_length() - 1 if wild_rank is None else N_CARDS + wild_rank")
    w("    return _VALUE[i] if by == 'value' else _RANK[i]")
    w()
    w()
