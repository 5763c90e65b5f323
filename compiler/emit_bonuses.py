"""Hand bonuses: one condition function each, their table, and the declaration settings."""
from __future__ import annotations

from rulespec.checks.check import BONUS_NAMES, RUNNING_NAMES
from rulespec.lang.expressions import Call, Name, walk
from rulespec.lang.model import Ruleset

from .emit_expr import emit_rule
from .plan import Plan
from .writer import Writer


# What a bonus condition may read for cards to be told apart by value and rank alone: functions of
# the set's multiset of (value, rank) classes (the wild card is a class of its own), and the
# candidate's value or rank inside a filter. `rank(...)` and `value(...)` read a set's first card
# by index, which only a one-card set pins down; a suit, a named card, a list, an option: every
# card its own class.
_CLASS_SAFE_CALLS = {"count", "select", "total", "can_total", "subset_total", "empty", "max_same_rank",
                     "same_value", "same_rank", "min", "max", "abs"}
_FIRST_CARD_CALLS = {"rank", "value"}
_CLASS_SAFE_NAMES = {"cards", "hand", "round", "last_round"}
_CLASS_SAFE_CANDIDATE = {"rank", "value", "numbered"}
_CLASS_SAFE_NODES = {"Int", "Bool", "Str", "Name", "Call", "Neg", "Not", "BoolOp", "BinOp", "Compare", "IfElse"}


def _reads_classes_only(b) -> bool:
    """Whether a hand bonus's condition reads its cards (and the hand) only through their classes."""
    for node in walk(b.when.tree):
        kind = type(node).__name__
        if kind not in _CLASS_SAFE_NODES:
            return False
        if isinstance(node, Call) and node.func not in _CLASS_SAFE_CALLS:
            one_card = (node.func in _FIRST_CARD_CALLS and b.size == 1 and len(node.args) == 1
                        and isinstance(node.args[0], Name) and node.args[0].id == "cards")
            if not one_card:
                return False
        if isinstance(node, Name):
            if not (node.ref == "local" and node.id in _CLASS_SAFE_NAMES
                    or node.ref == "candidate" and node.id in _CLASS_SAFE_CANDIDATE):
                return False
    return True


def bonus_classes(rs: Ruleset) -> tuple[int, ...]:
    """Per real card index: a class id; cards of one class make the hand bonuses alike.

    A class is a card's value and rank, the wild card a class of its own, where every bonus
    condition reads cards through their classes only (`_reads_classes_only`); otherwise every
    card is its own class. Card combinations of the same classes therefore pass the same checks
    (with the same wild-card ranks), in hands of the same classes (run/declarations.py keys on this).
    """
    deck = rs.deck
    safe = all(_reads_classes_only(b) for b in rs.hand_bonuses.values())
    classes: dict = {}
    out = []
    for i in range(deck.size):
        key = i if not safe else ("wild",) if i == rs.wild else (deck.value_of(i), deck.rank_of(i))
        out.append(classes.setdefault(key, len(classes)))
    return tuple(out)


def _condition(w: Writer, rs: Ruleset, fn: str, params: str, doc: str, expr, names) -> None:
    """A generated function `fn(params)` returning a ruleset condition, located at the expression."""
    with w.at(expr.span):
        w(f"def {fn}({params}):")
        w(f'    """{doc}"""')
        with w.block():
            w.where(expr)
            w(f"return {emit_rule(rs, expr, names)}")
    w()
    w()


def emit_hand_bonuses(w: Writer, rs: Ruleset, plan: Plan) -> None:
    entries = []
    for i, b in enumerate(rs.hand_bonuses.values()):
        fn = f"_bonus_{i}"
        _condition(w, rs, fn, "cards, hand, round, last_round", f"Hand bonus {b.name!r}: whether the declared "
                   f"cards make it.", b.when, BONUS_NAMES)
        entries.append(f"    {b.name!r}: _rt.BonusSpec({fn}, {b.size}, {b.points}, {b.category!r}, {b.wild!r}, "
                       f"{tuple(b.excluded_by)!r}, {tuple(b.shares_cards_with)!r}, {tuple(b.rounds)!r}, "
                       f"{b.unique_by!r}),")
    w("HAND_BONUSES = {")
    for e in entries:
        w(e)
    w("}")
    # Per bonus with `open_when`: its condition on the game's running state (the declaring side's scores);
    # the bonus may be declared only while it holds (`Hand` alone plays it: rulespec/checks/running.py).
    opens = []
    for i, b in enumerate(rs.hand_bonuses.values()):
        if b.open_when is None:
            continue
        fn = f"_bonus_open_{i}"
        _condition(w, rs, fn, "game_score, rival_score", f"Hand bonus {b.name!r}: whether it may be declared "
                   f"at these game scores.", b.open_when, RUNNING_NAMES)
        opens.append(f"    {b.name!r}: {fn},")
    w("BONUS_OPEN = {")
    for e in opens:
        w(e)
    w("}")
    # What the bonus conditions read besides the cards: the declaration search is memoised on no more.
    reads = sorted({n.id for b in rs.hand_bonuses.values() for n in walk(b.when.tree)
                    if isinstance(n, Name) and n.id in ("hand", "round", "last_round")})
    w(f"BONUS_READS = {tuple(reads)!r}")
    # Per card, the class the bonus conditions tell it by (the declaration search is memoised on classes).
    w(f"BONUS_CLASSES = {bonus_classes(rs)!r}")
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
