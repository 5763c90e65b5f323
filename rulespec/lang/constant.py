"""Constant folding on the tree: the value of an expression that needs no card in play.

`value_of(tree, ctx)` evaluates a type-checked expression whose only inputs are
literals, options, the deck and the wild card (an `enabled` switch, the target),
as Jinja's `nodes.as_const`. It walks the tree: the check stage never runs
compiled or emitted code. Card sets are int bitmasks, as everywhere; a list of
cards is a tuple of one-card masks. A runtime name (a card in play, a pile)
has no value here: `NotConstant`.
"""
from __future__ import annotations

from rulespec.errors import RulespecError, fail
from rulespec.lang.decks import bits as _bits
from rulespec.lang.decks import index_tables
from rulespec.lang.expressions import (
    Attr,
    BinOp,
    Bool,
    BoolOp,
    Call,
    CardLit,
    Compare,
    Expr,
    IfElse,
    Int,
    ListLit,
    MapLit,
    Name,
    Neg,
    Not,
    Str,
)
from rulespec.lang.typecheck import CARD_LIKE, LIST_CARD, Context

_UNKNOWN = object()


class NotConstant(RulespecError):
    """The expression reads something only known in play (located at what it reads)."""


def value_of(tree: Expr, ctx: Context):
    """The value of a checked expression that reads only literals, options, the deck and the wild card."""
    return Folder(ctx).value(tree, ())


class Folder:
    """Evaluates constant subtrees of one context (the compiler folds with it too)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.tables = index_tables(ctx.deck, ctx.wild)
        self.values, self.ranks, self.suits = self.tables["_VALUE"], self.tables["_RANK"], self.tables["_SUIT"]
        # Values a caller already knows by node (id), beyond what the tree says: the compiler
        # knows `count(table, false)` is 0 though `table` is not known. As value(), cards(), filtered().
        self.known: dict[int, object] = {}
        self.known_masks: dict[int, int] = {}
        self.known_filtered: dict[int, int] = {}

    def value(self, node: Expr, candidates: tuple[int, ...] = ()):
        """The node's value; `candidates[d]` is the card index the filter at depth d binds."""
        got = self.known.get(id(node), _UNKNOWN)
        if got is not _UNKNOWN:
            return got
        return self.DISPATCH[type(node)](self, node, candidates)

    def cards(self, node: Expr, candidates) -> int:
        """A card-like node as one mask (a list of cards: the OR of its cards)."""
        known = self.known_masks.get(id(node))
        if known is not None:
            return known
        got = self.value(node, candidates)
        if node.type == LIST_CARD:
            mask = 0
            for m in got:
                mask |= m
            return mask
        return got

    # -- leaves
    def _literal(self, node, candidates):
        return node.value

    def _card(self, node: CardLit, candidates):
        return 1 << node.index

    def _list(self, node: ListLit, candidates):
        return tuple(self.value(item, candidates) for item in node.items)

    def _map(self, node: MapLit, candidates):
        return {k.value: self.value(v, candidates) for k, v in zip(node.keys, node.values)}

    def _attr(self, node: Attr, candidates):
        return node.value

    _CANDIDATE = {"rank": "ranks", "suit": "suits", "value": "values"}

    def _name(self, node: Name, candidates):
        if node.ref == "candidate":
            i = candidates[node.depth]
            if node.id == "numbered":
                return self.values[i] > 0
            if node.id == "card":
                return 1 << i
            return getattr(self, self._CANDIDATE[node.id])[i]
        if node.ref == "deck":
            return (1 << self.ctx.deck.size) - 1
        if node.ref == "wild":
            return 1 << self.ctx.wild
        raise NotConstant(f"'{node.id}' is only known in play; this expression is computed before any card "
                          f"is dealt (use options, numbers and cards)", node.span)

    # -- operators
    def _neg(self, node: Neg, candidates):
        return -self.value(node.operand, candidates)

    def _not(self, node: Not, candidates):
        return not self.value(node.operand, candidates)

    def _boolop(self, node: BoolOp, candidates):
        left = self.value(node.left, candidates)
        if node.op == "and":
            return left and self.value(node.right, candidates)
        return left or self.value(node.right, candidates)

    def _binop(self, node: BinOp, candidates):
        if node.type in CARD_LIKE:
            left, right = self.cards(node.left, candidates), self.cards(node.right, candidates)
            return {"|": left | right, "&": left & right, "-": left & ~right}[node.op]
        left, right = self.value(node.left, candidates), self.value(node.right, candidates)
        if node.op in ("//", "%") and right == 0:
            fail("division by zero", node.span)
        return {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": int.__floordiv__,
                "%": int.__mod__}[node.op](left, right)

    def _compare(self, node: Compare, candidates):
        op = node.op
        if op in ("in", "not in") and node.right.type in CARD_LIKE:
            held = (self.cards(node.right, candidates) & self.cards(node.left, candidates)) != 0
            return held if op == "in" else not held
        if node.left.type in CARD_LIKE:
            left, right = self.cards(node.left, candidates), self.cards(node.right, candidates)
        else:
            left, right = self.value(node.left, candidates), self.value(node.right, candidates)
        return {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
                "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
                "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}[op](left, right)

    def _ifelse(self, node: IfElse, candidates):
        chosen = node.then if self.value(node.cond, candidates) else node.other
        return self.value(chosen, candidates)

    def _call(self, node: Call, candidates):
        fold = _BUILTINS.get(node.func)
        if fold is None:
            raise NotConstant(f"{node.func}() is only computed in play; this expression is computed before "
                              f"any card is dealt", node.span)
        return fold(self, node, candidates)

    def filtered(self, node: Call, candidates) -> int:
        """The cards of the first argument that pass the filter (the second), one candidate at a time."""
        known = self.known_filtered.get(id(node))
        if known is not None:
            return known
        cards = self.cards(node.args[0], candidates)
        if len(node.args) < 2:
            return cards
        pred = node.args[1]
        keep = 0
        for i in _bits(cards):
            if self.value(pred, candidates + (i,)):
                keep |= 1 << i
        return keep

    DISPATCH = {
        Int: _literal, Bool: _literal, Str: _literal, CardLit: _card, ListLit: _list, MapLit: _map,
        Name: _name, Attr: _attr, Call: _call, Neg: _neg, Not: _not, BoolOp: _boolop,
        BinOp: _binop, Compare: _compare, IfElse: _ifelse,
    }


def _attribute(table: str, empty):
    """rank()/suit()/value() of a card, or of a set's lowest card (`empty` for no cards)."""
    def fold(f: Folder, node: Call, candidates):
        cards = f.cards(node.args[0], candidates)
        return getattr(f, table)[(cards & -cards).bit_length() - 1] if cards else empty
    return fold


def _same(table: str):
    def fold(f: Folder, node: Call, candidates):
        return len({getattr(f, table)[i] for i in _bits(f.cards(node.args[0], candidates))}) == 1
    return fold


def _same_value(f: Folder, node: Call, candidates):
    seen = {f.values[i] for i in _bits(f.cards(node.args[0], candidates))}
    return len(seen) == 1 and 0 not in seen


def _max_same_rank(f: Folder, node: Call, candidates):
    counts: dict[str, int] = {}
    for i in _bits(f.cards(node.args[0], candidates)):
        counts[f.ranks[i]] = counts.get(f.ranks[i], 0) + 1
    return max(counts.values(), default=0)


def _holds(f: Folder, node: Call, candidates):
    return (f.cards(node.args[0], candidates) & f.cards(node.args[1], candidates)) != 0


def _holds_all(f: Folder, node: Call, candidates):
    wanted = f.cards(node.args[1], candidates)
    return wanted & ~f.cards(node.args[0], candidates) == 0


def _run(f: Folder, node: Call, candidates):
    cards, n = f.cards(node.args[0], candidates), 0
    for card in f.value(node.args[1], candidates):
        if not cards & card:
            break
        n += 1
    return n


def _can_total(f: Folder, node: Call, candidates):
    cards, target = f.cards(node.args[0], candidates), f.value(node.args[1], candidates)
    wild = 1 << f.ctx.wild if f.ctx.wild is not None else 0
    if cards & wild:
        return 1 <= target - sum(f.values[i] for i in _bits(cards & ~wild)) <= 10
    return sum(f.values[i] for i in _bits(cards)) == target


def _best_per_suit(f: Folder, node: Call, candidates):
    cards, scores = f.cards(node.args[0], candidates), f.value(node.args[1], candidates)
    result = 0
    for suit in f.ctx.deck.suits:
        held = [i for i in _bits(cards) if f.suits[i] == suit]
        if not held:
            return 0
        result += max(scores.get(f.ranks[i], 0) for i in held)
    return result


def _python(function):
    def fold(f: Folder, node: Call, candidates):
        return function(*(f.value(a, candidates) for a in node.args))
    return fold


def _round(f: Folder, node: Call, candidates, up: bool):
    n, step = (f.value(a, candidates) for a in node.args)
    if step < 1:
        fail(f"{node.func}() rounds to a multiple of a whole number of at least 1, found {step}", node.args[1].span)
    return (-(-n // step) if up else n // step) * step


# One fold per builtin, the same computation as rulespec/run/runtime.py's helper; most()
# compares the sides' piles, which exist only at the end of a hand.
_BUILTINS = {
    "run": _run,
    "can_total": _can_total,
    "best_per_suit": _best_per_suit,
    "count": lambda f, node, c: f.filtered(node, c).bit_count(),
    "select": lambda f, node, c: f.filtered(node, c),
    "total": lambda f, node, c: sum(f.values[i] for i in _bits(f.cards(node.args[0], c))),
    "empty": lambda f, node, c: f.cards(node.args[0], c) == 0,
    "holds": _holds,
    "holds_any": _holds,
    "holds_all": _holds_all,
    "max_same_rank": _max_same_rank,
    "same_value": _same_value,
    "same_rank": _same("ranks"),
    "same_suit": _same("suits"),
    "rank": _attribute("ranks", ""),
    "suit": _attribute("suits", ""),
    "value": _attribute("values", 0),
    "min": _python(min),
    "max": _python(max),
    "abs": _python(abs),
    "round_up": lambda f, node, c: _round(f, node, c, up=True),
    "round_down": lambda f, node, c: _round(f, node, c, up=False),
}
