"""Type checking of expressions: every node gets a Type, every misuse a located error.

`check(expr, ctx, expected)` is the one entry point. The builtins are a table,
BUILTINS, of name -> signature plus an optional extra checker; their code
generators live in compiler/emit_expr.py (EMITTERS, same names).
"""
from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

from rulespec.errors import Span, did_you_mean, fail
from rulespec.lang.decks import Deck

from .expressions import (
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


class Type(Enum):
    """The types of the expression language."""

    INT = "int"
    BOOL = "bool"
    STR = "str"
    CARD = "card"
    CARDS = "cards"
    LIST_CARD = "list[card]"
    LIST_INT = "list[int]"
    LIST_STR = "list[str]"
    MAP = "map"

    def __str__(self) -> str:
        return self.value


INT, BOOL, STR, CARD, CARDS = Type.INT, Type.BOOL, Type.STR, Type.CARD, Type.CARDS
LIST_CARD, LIST_INT, LIST_STR, MAP = Type.LIST_CARD, Type.LIST_INT, Type.LIST_STR, Type.MAP

# Types that denote a set of cards at run time (all are bitmasks there).
CARD_LIKE = frozenset({CARD, CARDS, LIST_CARD})
_LIST_OF = {CARD: LIST_CARD, INT: LIST_INT, STR: LIST_STR}
_ELEMENT_OF = {v: k for k, v in _LIST_OF.items()}

# Inside a filter, these name the candidate card.
CANDIDATE_NAMES: dict[str, Type] = {"rank": STR, "suit": STR, "value": INT, "numbered": BOOL, "card": CARD}

NAME_RE = re.compile(r"[a-z_][a-z0-9_]*\Z")
# Names with a meaning of their own, and the Python builtins emitted code calls.
RESERVED_NAMES = frozenset({"deck", "wild", "options", "min", "max", "abs", "tuple", "piles"})


def accepts(expected: Type, actual: Type) -> bool:
    """Whether a value of type `actual` may stand where `expected` is required."""
    return expected == actual or (expected == CARDS and actual in CARD_LIKE)


@dataclass
class Context:
    """What an expression may refer to: the deck, runtime names, options, and whether most() is allowed."""

    deck: Deck
    names: dict[str, Type]
    wild: int | None = None
    options: dict[str, object] = field(default_factory=dict)
    allow_most: bool = False
    # For an options-only expression (the target, an `enabled` switch): what such a value may be, said when a
    # name is unknown (the builtins, which need cards, would be no suggestion there).
    options_only: str = ""

    def __post_init__(self):
        # Runtime names become Python locals of the generated function, so they
        # must be plain identifiers that shadow nothing the emitted code uses.
        for name, typ in self.names.items():
            if (not NAME_RE.match(name) or name.startswith("_") or keyword.iskeyword(name)
                    or name in RESERVED_NAMES):
                raise ValueError(f"invalid runtime name {name!r} for an expression context")
            if not isinstance(typ, Type):
                raise ValueError(f"runtime name {name!r} has no Type: {typ!r}")


# ----------------------------------------------------------------- builtins

@dataclass(frozen=True)
class Scoped:
    """A parameter checked in a scope of its own: a filter, or most()'s per-side value."""

    kind: str  # "filter": rank/suit/value/numbered/card name a candidate; "per_side": pile is each side's
    type: Type

    def __str__(self) -> str:
        return str(self.type)


PRED = Scoped("filter", BOOL)
# A filter runs its condition once per card of its set, so filters nested d deep cost |set|^d per
# evaluation, at every move: 160^2 is the most a move may pay for one filter (a few milliseconds).
MAX_FILTER_DEPTH = 2
PER_SIDE = Scoped("per_side", INT)


@dataclass(frozen=True)
class Builtin:
    """A builtin's signature: parameter types, result, optional trailing count, variadic, extra checker."""

    params: tuple
    result: Type
    optional: int = 0
    variadic: bool = False
    check: Callable | None = None

    def arity(self, name: str) -> str:
        least, most_ = len(self.params) - self.optional, len(self.params)
        if self.variadic:
            return f"{name}() takes at least {least} arguments"
        plural = "argument" if most_ == 1 else "arguments"
        if least == most_:
            return f"{name}() takes {least} {plural}"
        return f"{name}() takes {least} or {most_} arguments"


def _check_best_per_suit(checker: "_Checker", node: Call) -> None:
    # A map only comes from a literal, so its keys are known here.
    for key in node.args[1].keys:
        checker.check_symbol("rank", key.value, key.span)


def _check_made(checker: "_Checker", node: Call) -> None:
    # Scoring only, and the event named in the ruleset's text: lint checks the name against its events.
    if not checker.ctx.allow_most:
        fail(f"{node.func}() is only allowed in scoring expressions", node.span)
    if checker.in_most or checker.pred_depth:
        fail(f"{node.func}() counts this side's events: it cannot stand inside most(), sharing(), tied() or a "
             f"filter", node.span)
    if not isinstance(node.args[0], Str):
        fail(f"{node.func}() takes an event's name in quotes, such as {node.func}(\"sweep\")", node.args[0].span)


def _check_round(checker: "_Checker", node: Call) -> None:
    step = node.args[1]
    if isinstance(step, Int) and step.value < 1:
        fail(f"{node.func}() rounds to a multiple of a whole number of at least 1, found {step.value}", step.span)


BUILTINS: dict[str, Builtin] = {
    "count": Builtin((CARDS, PRED), INT, optional=1),
    "select": Builtin((CARDS, PRED), CARDS),
    "total": Builtin((CARDS,), INT),
    "can_total": Builtin((CARDS, INT), BOOL),
    "subset_total": Builtin((CARDS, INT), BOOL),
    "empty": Builtin((CARDS,), BOOL),
    "holds": Builtin((CARDS, CARD), BOOL),
    "holds_all": Builtin((CARDS, CARDS), BOOL),
    "holds_any": Builtin((CARDS, CARDS), BOOL),
    "run": Builtin((CARDS, LIST_CARD), INT),
    "best_per_suit": Builtin((CARDS, MAP), INT, check=_check_best_per_suit),
    "max_same_rank": Builtin((CARDS,), INT),
    "same_value": Builtin((CARDS,), BOOL),
    "same_rank": Builtin((CARDS,), BOOL),
    "same_suit": Builtin((CARDS,), BOOL),
    # A set (such as `previous`) gives its first card's, or ''/0 when empty.
    "rank": Builtin((CARDS,), STR),
    "suit": Builtin((CARDS,), STR),
    "value": Builtin((CARDS,), INT),
    "min": Builtin((INT, INT), INT, variadic=True),
    "max": Builtin((INT, INT), INT, variadic=True),
    "abs": Builtin((INT,), INT),
    "most": Builtin((PER_SIDE,), BOOL),
    # Scoring: how many sides share the greatest value with this side (0: this side is not at the top), and
    # whether this side is at the top with another; this side's and the other sides' events of a name.
    "sharing": Builtin((PER_SIDE,), INT),
    "tied": Builtin((PER_SIDE,), BOOL),
    "made": Builtin((STR,), INT, check=_check_made),
    "rivals_made": Builtin((STR,), INT, check=_check_made),
    "fewest_made": Builtin((STR,), INT, check=_check_made),
    "round_up": Builtin((INT, INT), INT, check=_check_round),
    "round_down": Builtin((INT, INT), INT, check=_check_round),
}


# ------------------------------------------------------------------ checker


def _type_of_option(value) -> Type | None:
    if isinstance(value, bool):  # before int: bool is an int subclass
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    return None


class _Checker:
    """Walks a tree, setting `node.type`; holds the filter scopes currently open."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.pred_depth = 0  # number of enclosing filters
        self.in_most = False

    # Entry: dispatch on the node class through a table.
    def visit(self, node: Expr, expected: Type | None = None) -> Type:
        typ = self.DISPATCH[type(node)](self, node, expected)
        node.type = typ
        return typ

    def want(self, node: Expr, expected: Type, what: str) -> Type:
        """Check a sub-expression that must have type `expected`; `what` names it in the error."""
        typ = self.visit(node, expected)
        if not accepts(expected, typ):
            fail(f"{what} must be {expected}, found {typ}", node.span)
        return typ

    # -- literals
    def _int(self, node: Int, expected):
        return INT

    def _bool(self, node: Bool, expected):
        return BOOL

    def _str(self, node: Str, expected):
        return STR

    def _card(self, node: CardLit, expected):
        deck = self.ctx.deck
        if any(c.islower() for c in node.name):
            if deck.index(node.name.upper()) is not None:
                fail(f"unknown card '{node.name}' in deck {deck.id}: card symbols are case-sensitive; "
                     f"did you mean '{node.name.upper()}'?", node.span)
            fail(f"'{node.name}' is neither a name (names are lowercase) nor a card of deck {deck.id}", node.span)
        node.index = deck.card(node.name, node.span)
        return CARD

    def _list(self, node: ListLit, expected):
        if not node.items:
            return expected if expected in _ELEMENT_OF else LIST_CARD
        first = self.visit(node.items[0])
        if first not in _LIST_OF:
            fail(f"a list holds cards, ints or strings, found {first}", node.items[0].span)
        for n, item in enumerate(node.items[1:], start=2):
            typ = self.visit(item, first)
            if typ != first:
                fail(f"list item {n} must be {first} like item 1, found {typ}", item.span)
        if first == CARD:
            seen: set[int] = set()
            for item in node.items:
                if isinstance(item, CardLit):
                    if item.index in seen:
                        fail(f"card '{item.name}' appears twice in the list", item.span)
                    seen.add(item.index)
        return _LIST_OF[first]

    def _map(self, node: MapLit, expected):
        seen: set[str] = set()
        for key, value in zip(node.keys, node.values):
            if key.value in seen:
                fail(f"key '{key.value}' appears twice in the map", key.span)
            seen.add(key.value)
            key.type = STR
            self.want(value, INT, f"the value for key '{key.value}'")
        return MAP

    # -- names
    def _name(self, node: Name, expected):
        name, ctx = node.id, self.ctx
        if name.startswith("_"):
            fail(f"invalid name '{name}': names may not start with '_'", node.span)
        if self.pred_depth and name in CANDIDATE_NAMES:
            node.ref, node.depth = "candidate", self.pred_depth - 1
            return CANDIDATE_NAMES[name]
        if self.in_most and name == "pile":
            node.ref = "local"
            return CARDS
        if self.in_most and name in ("game_score", "rival_score", "dealer_side") and name in ctx.names:
            fail(f"'{name}' is this side's: inside most(), sharing() or tied(), which compare every side, only "
                 f"'pile' is each side's", node.span)
        if name in ctx.names:
            node.ref = "local"
            return ctx.names[name]
        if name == "deck":
            node.ref = "deck"
            return CARDS
        if name == "wild":
            if ctx.wild is None:
                fail("'wild' is not defined: this ruleset has no wild card", node.span)
            node.ref = "wild"
            return CARD
        if name == "options":
            fail("'options' needs a name: options.<name>", node.span)
        if name in CANDIDATE_NAMES:
            fail(f"'{name}' names the candidate card only inside a filter, such as "
                 f"count(pile, {name} == ...); use {name}(card) for a given card", node.span)
        if ctx.options_only:
            close = did_you_mean(name, ctx.options)
            hint = close.replace("'", "'options.", 1) if close else ""
            fail(f"unknown name '{name}': {ctx.options_only}{hint}", node.span)
        if ctx.deck.index(name.upper()) is not None:
            fail(f"unknown name '{name}'; did you mean the card '{name.upper()}'?", node.span)
        known = sorted({*ctx.names, "deck", *(["wild"] if ctx.wild is not None else []), *BUILTINS,
                        *(CANDIDATE_NAMES if self.pred_depth else ())})
        fail(f"unknown name '{name}'{did_you_mean(name, known)}", node.span)

    def _attr(self, node: Attr, expected):
        if node.base != "options":
            fail(f"'{node.base}' has no attributes: only options.<name> does", node.base_span)
        options = self.ctx.options
        if node.name not in options:
            hint = did_you_mean(node.name, options) if options else " (this ruleset declares no options)"
            fail(f"unknown option '{node.name}'{hint}", node.span)
        value = options[node.name]
        typ = _type_of_option(value)
        if typ is None:
            fail(f"option '{node.name}' has a value of type {type(value).__name__}; "
                 f"expressions use only bool, int or str options", node.span)
        node.value = value
        return typ

    # -- calls
    def _call(self, node: Call, expected):
        name = node.func
        spec = BUILTINS.get(name)
        if spec is None:
            if name in self.ctx.names or name in ("deck", "wild", "options"):
                fail(f"'{name}' is not a function", node.span)
            fail(f"unknown function '{name}'{did_you_mean(name, BUILTINS)}", node.span)
        n = len(node.args)
        least = len(spec.params) - spec.optional
        if n < least or (n > len(spec.params) and not spec.variadic):
            fail(f"{spec.arity(name)}, found {n}", node.span)
        for i, arg in enumerate(node.args):
            param = spec.params[min(i, len(spec.params) - 1)]
            what = f"{name}() argument {i + 1}"
            if isinstance(param, Scoped):
                self.want_scoped(arg, param, what, node)
            else:
                self.want(arg, param, what)
        if spec.check is not None:
            spec.check(self, node)
        return spec.result

    def want_scoped(self, arg: Expr, param: Scoped, what: str, call: Call) -> None:
        """Check a filter or per-side argument with its names bound."""
        if param.kind == "filter":
            if self.pred_depth >= MAX_FILTER_DEPTH:
                fail(f"filters nested more than {MAX_FILTER_DEPTH} deep: each level repeats the condition for "
                     f"every card of its set, at every move; compute the inner count apart or compare the "
                     f"cards another way", call.span)
            call.pred_depth = self.pred_depth
            self.pred_depth += 1
            try:
                self.want(arg, param.type, what)
            finally:
                self.pred_depth -= 1
            return
        # per_side: most()
        if not self.ctx.allow_most:
            fail(f"{call.func}() is only allowed in scoring expressions", call.span)
        if self.in_most:
            fail(f"{call.func}() cannot be nested", call.span)
        if self.pred_depth:
            fail(f"{call.func}() cannot be used inside a filter", call.span)
        self.in_most = True
        try:
            self.want(arg, param.type, what)
        finally:
            self.in_most = False

    # -- operators
    def _neg(self, node: Neg, expected):
        return self.want(node.operand, INT, "the operand of unary '-'")

    def _not(self, node: Not, expected):
        self.want(node.operand, BOOL, "the operand of 'not'")
        return BOOL

    def _boolop(self, node: BoolOp, expected):
        self.want(node.left, BOOL, f"the left operand of '{node.op}'")
        self.want(node.right, BOOL, f"the right operand of '{node.op}'")
        return BOOL

    def _binop(self, node: BinOp, expected):
        op = node.op
        left, right = self.visit(node.left), self.visit(node.right)
        if op == "-" and left in CARD_LIKE and right in CARD_LIKE:
            return CARDS
        if op in ("|", "&"):
            for side, typ in ((node.left, left), (node.right, right)):
                if typ not in CARD_LIKE:
                    fail(f"'{op}' needs card sets, found {typ}", side.span)
            return CARDS
        for side, typ in ((node.left, left), (node.right, right)):
            if typ != INT:
                needs = "two ints or two card sets" if op == "-" else "ints"
                fail(f"'{op}' needs {needs}, found {left} and {right}", side.span if op != "-" else node.op_span)
        return INT

    def _compare(self, node: Compare, expected):
        op = node.op
        if op in ("==", "!=", "in", "not in"):
            self._unquoted_symbols(node.left, node.right)
            if op in ("==", "!="):
                self._unquoted_symbols(node.right, node.left)
        left = self.visit(node.left)
        # The left side tells what an empty list on the right holds.
        right = self.visit(node.right, _LIST_OF.get(left) if op in ("in", "not in") else None)
        if op in ("in", "not in"):
            if left == CARD and right in CARD_LIKE:
                pass
            elif right in (LIST_INT, LIST_STR) and left == _ELEMENT_OF[right]:
                self._check_symbols(node.left, node.right)
            else:
                fail(f"'{op}' needs a card and a card set, or a value and a list of its kind; "
                     f"found {left} and {right}", node.op_span)
        elif op in ("==", "!="):
            if not (left == right or (left in CARD_LIKE and right in CARD_LIKE)):
                fail(f"cannot compare {left} with {right}", node.op_span)
            if left == STR:
                self._check_symbols(node.left, node.right)
                self._check_symbols(node.right, node.left)
        else:
            for side, typ in ((node.left, left), (node.right, right)):
                if typ != INT:
                    fail(f"'{op}' needs ints, found {left} and {right}", node.op_span)
        return BOOL

    def _ifelse(self, node: IfElse, expected):
        self.want(node.cond, BOOL, "the condition of 'if'")
        then, other = self.visit(node.then, expected), self.visit(node.other, expected)
        if then == other:
            return then
        if then in CARD_LIKE and other in CARD_LIKE:
            return CARDS
        fail(f"the two results of 'if' differ in type: {then} and {other}", node.span)

    DISPATCH = {
        Int: _int, Bool: _bool, Str: _str, CardLit: _card, ListLit: _list, MapLit: _map,
        Name: _name, Attr: _attr, Call: _call, Neg: _neg, Not: _not, BoolOp: _boolop,
        BinOp: _binop, Compare: _compare, IfElse: _ifelse,
    }

    # -- ranks and suits compared with strings are checked against the deck
    @staticmethod
    def _symbol_kind(node: Expr) -> str | None:
        if isinstance(node, Name) and node.ref == "candidate" and node.id in ("rank", "suit"):
            return node.id
        if isinstance(node, Call) and node.func in ("rank", "suit"):
            return node.func
        return None

    def _unquoted_symbols(self, subject: Expr, other: Expr) -> None:
        """`rank == J`, `suit in [D, H]`: a rank or suit written bare where it is compared with one reads as
        a card (or a number), so its own error would suggest a card; say to quote it instead."""
        if isinstance(subject, Name) and subject.id in ("rank", "suit") and self.pred_depth:
            kind = subject.id
        elif isinstance(subject, Call) and subject.func in ("rank", "suit"):
            kind = subject.func
        else:
            return
        symbols = self.ctx.deck.all_ranks if kind == "rank" else self.ctx.deck.all_suits
        for item in other.items if isinstance(other, ListLit) else [other]:
            text = {CardLit: lambda n: n.name, Int: lambda n: str(n.value), Name: lambda n: n.id}.get(
                type(item), lambda n: None)(item)
            if text is not None and text in symbols:
                fail(f"'{text}' is a {kind} here: quote it, \"{text}\" (unquoted, "
                     f"{text} {'is a number' if isinstance(item, Int) else 'reads as a card'})", item.span)

    def _check_symbols(self, subject: Expr, other: Expr) -> None:
        kind = self._symbol_kind(subject)
        if kind is None:
            return
        constants = other.items if isinstance(other, ListLit) else [other]
        for item in constants:
            if isinstance(item, Str):
                self.check_symbol(kind, item.value, item.span)
            elif isinstance(item, Attr) and isinstance(item.value, str):
                self.check_symbol(kind, item.value, item.span)

    def check_symbol(self, kind: str, text: str, span: Span) -> None:
        """Fail unless `text` is a rank (kind 'rank') or suit symbol of the deck."""
        deck = self.ctx.deck
        symbols = deck.all_ranks if kind == "rank" else deck.all_suits
        if text in symbols:
            return
        folded = [s for s in symbols if s.lower() == text.lower()]
        hint = f"; did you mean '{folded[0]}'?" if folded else did_you_mean(text, symbols)
        fail(f"unknown {kind} '{text}' in deck {deck.id} ({kind}s: {' '.join(symbols)}){hint}", span)


def check(expr: Expr, ctx: Context, expected: Type | None = None) -> Type:
    """Type-check an expression tree in place (sets each node's `type`); returns its type."""
    typ = _Checker(ctx).visit(expr, expected)
    if expected is not None and not accepts(expected, typ):
        fail(f"expected {expected}, found {typ}", expr.span)
    expr.expected = expected
    return typ
