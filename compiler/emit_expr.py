"""Code generation for expressions: a type-checked AST becomes one Python expression.

`emit(expr, ctx)` is the one entry point. At run time every card or card set
is an int bitmask; ints, bools and strs are native. The text refers only to
runtime names of the context (validated identifiers), `_rt` (rulespec.run.runtime),
the generated module's `_VALUE`, `_RANK`, `_SUIT`, `_WILD` tables, `piles` and
`side` (inside most()), and the builtins min/max/abs. Strings from the
ruleset appear only as repr() literals. Whatever is static (options, literal
arithmetic, filters over card attributes) is folded here, at compile time.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rulespec.checks.check import context
from rulespec.errors import RulespecError, fail
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
    uses_runtime,
    walk,
)
from rulespec.lang.typecheck import (
    BOOL,
    CARD,
    CARD_LIKE,
    CARDS,
    INT,
    LIST_CARD,
    LIST_INT,
    LIST_STR,
    MAP,
    NAME_RE,
    STR,
    Context,
    Type,
)
from rulespec.lang.constant import Folder

# Python operator precedence, lowest first (only the levels emitted code uses).
P_TERNARY, P_OR, P_AND, P_NOT, P_CMP, P_BOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY = range(1, 12)
P_NUMBER = 15  # a numeric literal: an atom, except before `.attr`, where `0x10.x` would misparse
P_ATOM = 16

_NO_VALUE = object()


@dataclass(frozen=True)
class Code:
    """Emitted Python text, its precedence, and its value when it is a compile-time constant."""

    text: str
    prec: int
    value: object = _NO_VALUE

    @property
    def const(self) -> bool:
        return self.value is not _NO_VALUE


def wrap(code: Code, prec: int) -> str:
    """The code's text, parenthesised unless it binds at least as tightly as `prec`."""
    return code.text if code.prec >= prec else f"({code.text})"


def render(value, typ: Type) -> Code:
    """A constant as Python source (masks in hex, strings through repr)."""
    if typ == BOOL:
        return Code("True" if value else "False", P_ATOM, bool(value))
    if typ == INT:
        return Code(repr(value), P_UNARY if value < 0 else P_NUMBER, value)
    if typ == STR:
        return Code(repr(value), P_ATOM, value)
    if typ in (CARD, CARDS):
        return Code(hex(value), P_NUMBER, value)
    if typ == MAP:
        return Code("{" + ", ".join(f"{k!r}: {v!r}" for k, v in value.items()) + "}", P_ATOM, value)
    # lists become tuples; a list of cards is a tuple of one-card masks
    element = {LIST_CARD: CARD, LIST_INT: INT, LIST_STR: STR}[typ]
    items = [render(v, element).text for v in value]
    return Code("(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")", P_ATOM, tuple(value))


def _candidate_var(depth: int) -> str:
    return "_c" if depth == 0 else f"_c{depth}"


class _Emitter:
    """Emits one checked tree; holds the deck tables used for compile-time folding."""

    def __init__(self, ctx: Context, card_indices: dict[str, str] | None = None,
                 hoisted: list[str] | None = None, locals_as: dict[str, str] | None = None):
        self.ctx = ctx
        # Runtime card names whose index the enclosing function already holds in a local.
        self.card_indices = card_indices or {}
        # Runtime names the enclosing function holds under another local, or computes (compiler text).
        self.locals_as = locals_as or {}
        # Where per-side-invariant most() value lists go, when the caller hoists them (see _most).
        self.hoisted = hoisted
        self.deck = ctx.deck
        # Folding evaluates the tree (rulespec/lang/constant.py), never the emitted text.
        self.folder = Folder(ctx)
        self.tables = self.folder.tables
        self.n_indices = len(self.tables["_RANK"])

    # -- helpers
    def folded(self, text: str, prec: int, node: Expr, parts: list[Code]) -> Code:
        """Code for `text`, or the node's value now when every part is constant."""
        if all(p.const for p in parts):
            return render(self.folder.value(node), node.type)
        return Code(text, prec)

    def emit(self, node: Expr) -> Code:
        """Code for a node in its own type's representation."""
        if node.type is None:
            raise ValueError("emit() needs an expression that typecheck.check() has annotated")
        code = self.DISPATCH[type(node)](self, node)
        if code.const:
            self.folder.known[id(node)] = code.value
        return code

    def mask(self, node: Expr) -> Code:
        """Code for a card-like node as one bitmask (a list of cards becomes the OR of its cards)."""
        if node.type != LIST_CARD:
            return self.emit(node)
        if isinstance(node, IfElse):
            code = self._ifelse(node, branch=self.mask)
        else:
            parts = [self.mask(item) for item in node.items]
            combined = 0
            for p in parts:
                combined |= p.value if p.const else 0
            code = render(combined, CARDS) if all(p.const for p in parts) else \
                Code(" | ".join(wrap(p, P_BOR + 1) for p in parts), P_BOR)
        if code.const:
            self.folder.known_masks[id(node)] = code.value
        return code

    # -- literals and names
    def _int(self, node: Int) -> Code:
        return render(node.value, INT)

    def _bool(self, node: Bool) -> Code:
        return render(node.value, BOOL)

    def _str(self, node: Str) -> Code:
        return render(node.value, STR)

    def _card(self, node: CardLit) -> Code:
        return render(1 << node.index, CARD)

    def _list(self, node: ListLit) -> Code:
        parts = [self.emit(item) for item in node.items]
        if all(p.const for p in parts):
            return render([p.value for p in parts], node.type)
        return Code("(" + ", ".join(p.text for p in parts) + ("," if len(parts) == 1 else "") + ")", P_ATOM)

    def _map(self, node: MapLit) -> Code:
        parts = [self.emit(v) for v in node.values]
        if all(p.const for p in parts):
            return render({k.value: p.value for k, p in zip(node.keys, parts)}, MAP)
        return Code("{" + ", ".join(f"{k.value!r}: {p.text}" for k, p in zip(node.keys, parts)) + "}", P_ATOM)

    _CANDIDATE = {
        "rank": ("_RANK[{}]", P_ATOM),
        "suit": ("_SUIT[{}]", P_ATOM),
        "value": ("_VALUE[{}]", P_ATOM),
        "numbered": ("_VALUE[{}] > 0", P_CMP),  # every numbered card's value is 1 or more
        "card": ("1 << {}", P_CMP),  # really P_SHIFT; lower, so it is parenthesised in & and |
    }

    def _name(self, node: Name) -> Code:
        if node.ref == "candidate":
            template, prec = self._CANDIDATE[node.id]
            return Code(template.format(_candidate_var(node.depth)), prec)
        if node.ref == "deck":
            return render((1 << self.deck.size) - 1, CARDS)
        if node.ref == "wild":
            return render(1 << self.ctx.wild, CARD)
        # A runtime name: emitted as is, so it must be a plain, non-private identifier.
        if not NAME_RE.match(node.id) or node.id.startswith("_"):
            raise ValueError(f"refusing to emit name {node.id!r}")
        if node.id in self.locals_as:
            return Code(self.locals_as[node.id], P_ATOM)
        return Code(node.id, P_ATOM)

    def _attr(self, node: Attr) -> Code:
        return render(node.value, node.type)

    # -- operators
    def _neg(self, node: Neg) -> Code:
        operand = self.emit(node.operand)
        return self.folded(f"-{wrap(operand, P_UNARY)}", P_UNARY, node, [operand])

    _NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}

    def _not(self, node: Not) -> Code:
        inner = node.operand
        # `not empty(x)` as `x != 0`, `not a < b` as `a >= b`: shorter to read, same value.
        if isinstance(inner, Call) and inner.func == "empty":
            cards = self.mask(inner.args[0])
            return self.folded(f"{wrap(cards, P_ADD)} != 0", P_CMP, node, [cards])
        if isinstance(inner, Compare):
            flipped = replace(inner, op=self._NEGATED[inner.op])
            flipped.type = inner.type
            return self._compare(flipped)
        operand = self.emit(inner)
        # `not (x == 0)` rather than the equivalent but misleading-looking `not x == 0`
        return self.folded(f"not {wrap(operand, P_CMP + 1)}", P_NOT, node, [operand])

    def _boolop(self, node: BoolOp) -> Code:
        left, right = self.emit(node.left), self.emit(node.right)
        # Expressions have no side effects, so a constant operand decides or drops out.
        absorbing = node.op == "or"  # `x or True` is True; `x and False` is False
        for known, other in ((left, right), (right, left)):
            if known.const:
                return known if known.value == absorbing else other
        prec = P_OR if node.op == "or" else P_AND
        return Code(f"{wrap(left, prec)} {node.op} {wrap(right, prec + 1)}", prec)

    _INT_OPS = {"+": P_ADD, "-": P_ADD, "*": P_MUL, "//": P_MUL, "%": P_MUL}

    def _binop(self, node: BinOp) -> Code:
        if node.type == CARDS:
            left, right = self.mask(node.left), self.mask(node.right)
            if node.op == "|":
                text, prec = f"{wrap(left, P_BOR)} | {wrap(right, P_BOR + 1)}", P_BOR
            elif node.op == "&":
                text, prec = f"{wrap(left, P_BAND)} & {wrap(right, P_BAND + 1)}", P_BAND
            else:  # set difference
                text, prec = f"{wrap(left, P_BAND)} & ~{wrap(right, P_UNARY)}", P_BAND
            return self.folded(text, prec, node, [left, right])
        left, right = self.emit(node.left), self.emit(node.right)
        prec = self._INT_OPS[node.op]
        return self.folded(f"{wrap(left, prec)} {node.op} {wrap(right, prec + 1)}", prec, node, [left, right])

    def _compare(self, node: Compare) -> Code:
        op = node.op
        if op in ("in", "not in") and node.right.type in CARD_LIKE:
            card, cards = self.mask(node.left), self.mask(node.right)
            test = "!=" if op == "in" else "=="
            text = f"({wrap(cards, P_BAND)} & {wrap(card, P_BAND + 1)}) {test} 0"
            return self.folded(text, P_CMP, node, [card, cards])
        if node.left.type in CARD_LIKE:
            left, right = self.mask(node.left), self.mask(node.right)
        else:
            left, right = self.emit(node.left), self.emit(node.right)
        # Bitwise operands get parentheses they do not need: `(a & b) == 0` reads unambiguously.
        text = f"{wrap(left, P_ADD)} {op} {wrap(right, P_ADD)}"
        return self.folded(text, P_CMP, node, [left, right])

    def _ifelse(self, node: IfElse, branch=None) -> Code:
        if branch is None:
            branch = self.mask if node.type == CARDS else self.emit
        cond = self.emit(node.cond)
        if cond.const:
            return branch(node.then if cond.value else node.other)
        then, other = branch(node.then), branch(node.other)
        text = f"{wrap(then, P_OR)} if {wrap(cond, P_OR)} else {wrap(other, P_TERNARY)}"
        return Code(text, P_TERNARY)

    def _call(self, node: Call) -> Code:
        return EMITTERS[node.func](self, node)

    DISPATCH = {
        Int: _int, Bool: _bool, Str: _str, CardLit: _card, ListLit: _list, MapLit: _map,
        Name: _name, Attr: _attr, Call: _call, Neg: _neg, Not: _not, BoolOp: _boolop,
        BinOp: _binop, Compare: _compare, IfElse: _ifelse,
    }

    # -- filters
    def filtered(self, cards: Code, node: Call) -> Code:
        """The cards of `cards` that pass the filter argument of `node` (a mask when static)."""
        code = self._filtered(cards, node)
        if code.const:
            self.folder.known_filtered[id(node)] = code.value
        return code

    def _filtered(self, cards: Code, node: Call) -> Code:
        pred, depth = node.args[1], node.pred_depth
        var = _candidate_var(depth)
        code = self.emit(pred)
        if uses_runtime(pred, depth):
            return Code(f"_rt.select({cards.text}, lambda {var}: {code.text})", P_ATOM)
        if code.const:
            keep = (1 << self.n_indices) - 1 if code.value else 0
        else:
            # The predicate reads only its own candidate: try it on every card index.
            outer = (0,) * depth
            try:
                keep = sum(1 << i for i in range(self.n_indices) if self.folder.value(pred, outer + (i,)))
            except RulespecError:
                fail("division by zero in filter", pred.span)
        if keep == 0:
            return render(0, CARDS)
        if keep == (1 << self.n_indices) - 1:  # every card passes
            return cards
        if cards.const:
            return render(cards.value & keep, CARDS)
        return Code(f"{wrap(cards, P_BAND)} & {hex(keep)}", P_BAND)


# ------------------------------------------------------- builtin emitters
# One function per builtin (same names as typecheck.BUILTINS): (emitter, call node) -> Code.


def _count(em: _Emitter, node: Call) -> Code:
    cards = em.mask(node.args[0])
    if len(node.args) == 2:
        cards = em.filtered(cards, node)
    return em.folded(f"{wrap(cards, P_ATOM)}.bit_count()", P_ATOM, node, [cards])


def _select(em: _Emitter, node: Call) -> Code:
    return em.filtered(em.mask(node.args[0]), node)


def _helper(name: str, *tables: str):
    """An emitter for `_rt.<name>(cards..., <tables>)` with every argument as a mask or value."""

    def emit_call(em: _Emitter, node: Call) -> Code:
        parts = [em.mask(a) if a.type in CARD_LIKE else em.emit(a) for a in node.args]
        args = ", ".join([p.text for p in parts] + list(tables))
        return em.folded(f"_rt.{name}({args})", P_ATOM, node, parts)

    return emit_call


def _empty(em: _Emitter, node: Call) -> Code:
    cards = em.mask(node.args[0])
    return em.folded(f"{wrap(cards, P_ADD)} == 0", P_CMP, node, [cards])


def _holds_any(em: _Emitter, node: Call) -> Code:
    cards, wanted = em.mask(node.args[0]), em.mask(node.args[1])
    return em.folded(f"({wrap(cards, P_BAND)} & {wrap(wanted, P_BAND + 1)}) != 0", P_CMP, node, [cards, wanted])


def _holds_all(em: _Emitter, node: Call) -> Code:
    cards, wanted = em.mask(node.args[0]), em.mask(node.args[1])
    if wanted.const:
        text = f"({wrap(cards, P_BAND)} & {wanted.text}) == {wanted.text}"
        return em.folded(text, P_CMP, node, [cards, wanted])
    return em.folded(f"_rt.holds_all({cards.text}, {wanted.text})", P_ATOM, node, [cards, wanted])


def _run(em: _Emitter, node: Call) -> Code:
    cards, sequence = em.mask(node.args[0]), em.emit(node.args[1])
    return em.folded(f"_rt.run({cards.text}, {sequence.text})", P_ATOM, node, [cards, sequence])


def _best_per_suit(em: _Emitter, node: Call) -> Code:
    cards, table = em.mask(node.args[0]), em.emit(node.args[1])
    ranks, suits = em.tables["_RANK"], em.tables["_SUIT"]
    suit_masks = tuple(sum(1 << i for i in range(em.n_indices) if suits[i] == s) for s in em.deck.suits)
    masks = "(" + ", ".join(hex(m) for m in suit_masks) + ")"
    if table.const:
        # Per suit, its cards best score first, worked out here instead of per call: the best card
        # held is the first one found.
        per_suit = []
        for m in suit_masks:
            ranked = sorted(((table.value.get(ranks[i], 0), i) for i in range(em.n_indices) if m >> i & 1),
                            key=lambda si: (-si[0], si[1]))
            per_suit.append(f"({hex(m)}, (" + "".join(f"({hex(1 << i)}, {int(sc)!r}), " for sc, i in ranked) + "))")
        suits_text = "(" + ", ".join(per_suit) + ",)"
        return em.folded(f"_rt.best_per_suit_ranked({cards.text}, {suits_text})", P_ATOM, node, [cards, table])
    else:
        scores = f"tuple({table.text}.get(r, 0) for r in _RANK)"
    return em.folded(f"_rt.best_per_suit({cards.text}, {masks}, {scores})", P_ATOM, node, [cards, table])


def _card_attribute(table: str, empty: str):
    """An emitter for rank()/suit()/value(): a lookup in the module's table by card index."""

    def emit_call(em: _Emitter, node: Call) -> Code:
        arg = node.args[0]
        card = em.mask(arg)
        if arg.type == CARD and isinstance(arg, Name) and arg.id in em.card_indices:
            text = f"{table}[{em.card_indices[arg.id]}]"
        elif arg.type == CARD:
            text = f"{table}[_rt.idx({card.text})]"
        else:  # a set: its first card, or `empty` when it has none (runtime.first)
            text = f"_rt.first({card.text}, {table}, {empty})"
        return em.folded(text, P_ATOM, node, [card])

    return emit_call


def _python_builtin(name: str):
    """An emitter for min/max/abs, which Python provides."""

    def emit_call(em: _Emitter, node: Call) -> Code:
        parts = [em.emit(a) for a in node.args]
        return em.folded(f"{name}({', '.join(p.text for p in parts)})", P_ATOM, node, parts)

    return emit_call


def _most(em: _Emitter, node: Call) -> Code:
    # The comprehension rebinds `pile` to each side's pile.
    value = em.emit(node.args[0])
    values = f"[{value.text} for pile in piles]"
    # Decided on the tree: the list is the same for every side unless it reads `side` or holds
    # another most(); then the caller may compute it once, before its loop over the sides.
    per_side = any((isinstance(n, Name) and n.id == "side") or (isinstance(n, Call) and n.func == "most")
                   for n in walk(node.args[0]))
    if em.hoisted is not None and not per_side:
        # Hoisted: the one side with the strictly greatest value (-1 for a tie at the top) is found
        # once, and each side's test is a comparison.
        em.hoisted.append(f"_rt.top({values})")
        return Code(f"(side == _most{len(em.hoisted) - 1})", P_ATOM)
    return Code(f"_rt.most({values}, side)", P_ATOM)


def _per_side(runtime: str, test: str = ""):
    """sharing()/tied(): the runtime helper over every side's value (`pile` rebound per side, as in most())."""

    def emit_call(em: _Emitter, node: Call) -> Code:
        value = em.emit(node.args[0])
        return Code(f"(_rt.{runtime}([{value.text} for pile in piles], side){test})", P_ATOM)

    return emit_call


def _made(em: _Emitter, node: Call) -> Code:
    # The score function's `_made`: per side, event name -> how many times it was made this hand.
    name = node.args[0].value
    if node.func == "made":
        return Code(f"_made[side].get({name!r}, 0)", P_ATOM)
    return Code(f"_rt.{node.func}(_made, side, {name!r})", P_ATOM)


def _rounding(name: str):
    def emit_call(em: _Emitter, node: Call) -> Code:
        parts = [em.emit(a) for a in node.args]
        return em.folded(f"_rt.{name}({parts[0].text}, {parts[1].text})", P_ATOM, node, parts)
    return emit_call


EMITTERS = {
    "count": _count,
    "select": _select,
    "total": _helper("total", "_VALUE"),
    "can_total": _helper("can_total", "_VALUE", "_WILD"),
    "subset_total": _helper("subset_total", "_VALUE", "_WILD"),
    "empty": _empty,
    "holds": _holds_any,  # a card is a one-bit mask, so holding it is sharing a bit
    "holds_all": _holds_all,
    "holds_any": _holds_any,
    "run": _run,
    "best_per_suit": _best_per_suit,
    "max_same_rank": _helper("max_same_rank", "_RANK"),
    "same_value": _helper("same_value", "_VALUE"),
    "same_rank": _helper("same", "_RANK"),
    "same_suit": _helper("same", "_SUIT"),
    "rank": _card_attribute("_RANK", "''"),
    "suit": _card_attribute("_SUIT", "''"),
    "value": _card_attribute("_VALUE", "0"),
    "min": _python_builtin("min"),
    "max": _python_builtin("max"),
    "abs": _python_builtin("abs"),
    "most": _most,
    "sharing": _per_side("sharing"),
    "tied": _per_side("sharing", " > 1"),
    "made": _made,
    "rivals_made": _made,
    "fewest_made": _made,
    "round_up": _rounding("round_up"),
    "round_down": _rounding("round_down"),
}


def emit(expr: Expr, ctx: Context, *, card_indices: dict[str, str] | None = None,
         hoisted: list[str] | None = None, locals_as: dict[str, str] | None = None) -> str:
    """Python source of a type-checked expression, for a function whose locals are ctx.names.

    `card_indices` maps a runtime card name to a local holding its index (rank(played) becomes
    `_RANK[p]`); with `hoisted`, each most() whose values do not depend on the side appends its
    value list there and refers to it as `_most<N>`; `locals_as` maps a runtime name to the
    compiler's own text for it (a local of another name, or an atom: parenthesised), never to
    anything a ruleset wrote.
    """
    em = _Emitter(ctx, card_indices, hoisted, locals_as)
    # Checked against `cards`, a list of cards must come out as a set (a mask), not a tuple.
    return (em.mask(expr) if expr.expected == CARDS else em.emit(expr)).text


def emit_rule(rs, expression, names: dict, *, allow_most: bool = False, **how) -> str:
    """Python source of one of the ruleset's checked expressions, in a function whose locals are `names`."""
    return emit(expression.tree, context(rs, names, allow_most=allow_most), **how)
