"""Code generation for expressions, native back end: a type-checked AST becomes one C expression.

The C counterpart of emit_expr.py, for codegen_c.py. Representation at run
time: a card or card set is a `uint64_t` bitmask (virtual wild-card indices
included, so a deck and its declared wild ranks fit in 64 indices); ints are
`int64_t`; bools are `int`; strings are small ints, their rank in the sorted
list of every string the ruleset can produce (`Strings`), so `==` and `<`
compare as Python compares the strings and no string from the YAML ever
reaches the C source. Whatever is static is folded by the Python emitter
(emit_expr) and rendered as a C literal; what the C back end cannot do is
refused with `Unsupported`, naming the construct and where it is written.

The text refers to the context's runtime names as `v_<name>` locals, the
tables `VAL`, `RANK_ID`, `SUIT_ID`, `RANK_NO` of the generated file and the
`rs_*` helpers of codegen_c's prelude; auxiliary definitions (constant
arrays, most() helpers) are appended to `Aux`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.compiler.emit_expr import _Emitter, uses_runtime
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
    walk,
)
from rulespec.lang.typecheck import BOOL, CARD, CARD_LIKE, CARDS, INT, LIST_CARD, MAP, NAME_RE, STR, Context


class Unsupported(Exception):
    """A construct the C back end does not implement: what it is and the node (for its span)."""

    def __init__(self, construct: str, node: Expr | None = None):
        super().__init__(construct)
        self.construct = construct
        self.node = node


class Strings:
    """Every string a ruleset's expressions can produce, numbered in sorted order."""

    def __init__(self, strings):
        self.ordered = sorted(set(strings) | {""})
        self.ids = {s: i for i, s in enumerate(self.ordered)}

    def id(self, s: str) -> int:
        if s not in self.ids:
            raise ValueError(f"string {s!r} is not among the ruleset's strings")
        return self.ids[s]


def strings_of(trees, deck, option_values) -> set[str]:
    """The strings that expressions `trees` may compare: ranks, suits, literals, map keys, option values."""
    out = set(deck.all_ranks) | set(deck.all_suits)
    out |= {v for v in option_values.values() if isinstance(v, str)}
    for tree in trees:
        for n in walk(tree):
            if isinstance(n, Str):
                out.add(n.value)
    return out


@dataclass
class Aux:
    """Definitions an emitted expression needs before the function that holds it."""

    lines: list[str] = field(default_factory=list)
    count: int = 0
    errors: list = field(default_factory=list)   # spans of run-time failures (division by zero), by number

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}_{self.count}"


def _u64(value: int) -> str:
    if value < 0 or value >= 1 << 64:
        raise Unsupported("a card set beyond 64 card indices")
    return f"UINT64_C({hex(value)})"


# Every int the C code computes stays strictly within ±INT_LIMIT, proved before a line is emitted
# (CEmitter.bounds): an int64_t then never overflows, where Python's ints would just grow.
INT_LIMIT = 1 << 62
# The int names of the contexts (round, turn, play, side) count rounds, plays and sides of one hand.
NAME_BOUND = 1 << 16


def _i64(value: int) -> str:
    if not -INT_LIMIT < value < INT_LIMIT:
        raise Unsupported(f"the integer {value} (the native back end computes with 64-bit integers)")
    return f"INT64_C({value})" if value >= 0 else f"(-INT64_C({-value}))"


class CEmitter:
    """Emits checked trees of one context as C; constants are folded by emit_expr's emitter."""

    def __init__(self, ctx: Context, strings: Strings, aux: Aux, hoisted: list | None = None):
        self.ctx = ctx
        # Where most() value arrays that are the same for every side go, when the caller computes
        # them once before its loop over the sides: (array name, C value with `v_pile` bound).
        self.hoisted = hoisted
        self.py = _Emitter(ctx)
        self.strings = strings
        self.aux = aux
        self.n_indices = self.py.n_indices
        for name in ctx.names:
            if not NAME_RE.match(name):
                raise ValueError(f"refusing to emit name {name!r}")
        self._bounds: dict[int, tuple[int, int]] = {}
        values = self.py.tables["_VALUE"]
        self.value_range = (min(0, *values), max(0, *values))
        self.total_range = (sum(v for v in values if v < 0), sum(v for v in values if v > 0))

    # -- constants
    def literal(self, value, typ, node: Expr) -> str:
        if typ == BOOL:
            return "1" if value else "0"
        if typ == INT:
            return _i64(value)
        if typ == STR:
            return _i64(self.strings.id(value))
        if typ in (CARD, CARDS):
            return _u64(value)
        if typ == LIST_CARD:   # a constant list of one-card masks, as one set
            combined = 0
            for m in value:
                combined |= m
            return _u64(combined)
        raise Unsupported(f"a constant {typ} here", node)

    def constant(self, node: Expr, as_mask: bool):
        """The node's value when it is a compile-time constant, else None (as a Code)."""
        try:
            code = self.py.mask(node) if as_mask else self.py.emit(node)
        except Unsupported:
            raise
        return code if code.const else None

    # -- entry points
    def emit(self, node: Expr) -> str:
        """C for a node in its own type's representation (a list of cards as a mask)."""
        if node.type is None:
            raise ValueError("emit() needs an expression that typecheck.check() has annotated")
        as_mask = node.type in CARD_LIKE
        const = self.constant(node, as_mask)
        if const is not None:
            return self.literal(const.value, CARDS if as_mask else node.type, node)
        if node.type == INT:
            self.bounds(node)
        handler = self.DISPATCH.get(type(node))
        if handler is None:
            raise Unsupported(f"a {type(node).__name__} expression", node)
        return handler(self, node)

    # -- the range of ints
    def bounds(self, node: Expr) -> tuple[int, int]:
        """The least and the greatest value an int node can take in play (a safe over-estimate).

        Unsupported when either is INT_LIMIT or more away from 0: C's int64_t would overflow
        (undefined behaviour; in practice the value wraps) where Python's int is exact.
        """
        key = id(node)
        hit = self._bounds.get(key)
        if hit is None:
            hit = self._bounds[key] = self._range(node)
            if max(-hit[0], hit[1]) >= INT_LIMIT:
                raise Unsupported("an int that may pass ±2**62 (the native back end computes with 64-bit "
                                  f"integers; this one may reach {hit[0] if -hit[0] > hit[1] else hit[1]:.3g})",
                                  node)
        return hit

    def _range(self, node: Expr) -> tuple[int, int]:
        const = self.constant(node, False)
        if const is not None:
            return const.value, const.value
        if isinstance(node, Name):
            if node.ref == "candidate" and node.id == "value":
                return self.value_range
            return 0, NAME_BOUND
        if isinstance(node, Neg):
            lo, hi = self.bounds(node.operand)
            return -hi, -lo
        if isinstance(node, IfElse):
            (a, b), (c, d) = self.bounds(node.then), self.bounds(node.other)
            return min(a, c), max(b, d)
        if isinstance(node, BinOp):
            return self._binop_range(node)
        if isinstance(node, Call):
            return self._call_range(node)
        raise Unsupported(f"an int {type(node).__name__} of unknown range", node)

    def _binop_range(self, node: BinOp) -> tuple[int, int]:
        (a, b), (c, d) = self.bounds(node.left), self.bounds(node.right)
        if node.op == "+":
            return a + c, b + d
        if node.op == "-":
            return a - d, b - c
        if node.op == "*":
            corners = (a * c, a * d, b * c, b * d)
            return min(corners), max(corners)
        if node.op == "//":     # |x // y| <= |x| for a divisor other than 0
            m = max(-a, b)
            return -m, m
        m = max(-c, d)          # %: |x % y| < |y|
        return -m, m

    def _call_range(self, node: Call) -> tuple[int, int]:
        func, n = node.func, self.n_indices
        if func in ("count", "run", "max_same_rank"):
            return 0, n
        if func == "total":
            return self.total_range
        if func == "value":
            return self.value_range
        if func in ("min", "max"):
            ranges = [self.bounds(a) for a in node.args]
            pick = min if func == "min" else max
            return pick(r[0] for r in ranges), pick(r[1] for r in ranges)
        if func == "abs":
            lo, hi = self.bounds(node.args[0])
            return 0, max(-lo, hi)
        if func == "best_per_suit":     # one score of the table (or 0) per suit
            table = self.constant(node.args[1], False)
            if table is not None:
                scores = list(table.value.values()) + [0]
                suits = len(self.py.deck.suits)
                return suits * min(scores), suits * max(scores)
        raise Unsupported(f"the int {func}() of unknown range", node)

    # -- names and literals (non-constant cases)
    _CANDIDATE = {"rank": "RANK_ID[{}]", "suit": "SUIT_ID[{}]", "value": "VAL[{}]", "numbered": "(VAL[{}] > 0)",
                  "card": "(UINT64_C(1) << {})"}

    def _name(self, node: Name) -> str:
        if node.ref == "candidate":
            return self._CANDIDATE[node.id].format(f"c{node.depth}")
        if node.ref in ("deck", "wild"):   # constants, folded above
            raise Unsupported(f"'{node.id}' here", node)
        if node.id not in self.ctx.names or not NAME_RE.match(node.id):
            raise ValueError(f"refusing to emit name {node.id!r}")
        return f"v_{node.id}"

    def _list(self, node: ListLit) -> str:
        if node.type == LIST_CARD:
            return "(" + " | ".join(self.emit(item) for item in node.items) + ")" if node.items else "UINT64_C(0)"
        raise Unsupported(f"a {node.type} computed at run time", node)

    def _not_const(self, node: Expr) -> str:
        raise Unsupported(f"a {type(node).__name__} computed at run time", node)

    # -- operators
    def _neg(self, node: Neg) -> str:
        return f"(-{self.emit(node.operand)})"

    def _not(self, node: Not) -> str:
        return f"(!{self.emit(node.operand)})"

    def _boolop(self, node: BoolOp) -> str:
        op = "&&" if node.op == "and" else "||"
        return f"({self.emit(node.left)} {op} {self.emit(node.right)})"

    def _binop(self, node: BinOp) -> str:
        left, right = self.emit(node.left), self.emit(node.right)
        if node.type == CARDS:
            if node.op == "|":
                return f"({left} | {right})"
            if node.op == "&":
                return f"({left} & {right})"
            return f"({left} & ~{right})"
        if node.op in ("+", "-", "*"):
            return f"({left} {node.op} {right})"
        self.aux.errors.append(node.span)
        helper = "rs_floordiv" if node.op == "//" else "rs_floormod"
        return f"{helper}({left}, {right}, {len(self.aux.errors)})"

    def _compare(self, node: Compare) -> str:
        op = node.op
        if op in ("in", "not in") and node.right.type in CARD_LIKE:
            test = "!=" if op == "in" else "=="
            return f"(({self.emit(node.right)} & {self.emit(node.left)}) {test} 0)"
        if op in ("in", "not in"):
            left = self.emit(node.left)
            items = self._items(node.right)
            if not items:
                return "0" if op == "in" else "1"
            anyof = "(" + " || ".join(f"({left} == {self.emit_or_literal(i, node.left.type)})" for i in items) + ")"
            return anyof if op == "in" else f"(!{anyof})"
        return f"({self.emit(node.left)} {op} {self.emit(node.right)})"

    def emit_or_literal(self, item, typ) -> str:
        return self.emit(item) if isinstance(item, Expr) else self.literal(item, typ, None)

    def _items(self, node: Expr) -> list:
        """The elements of a list operand of `in`: nodes, or constant values."""
        const = self.constant(node, False)
        if const is not None:
            return list(const.value)
        if isinstance(node, ListLit):
            return list(node.items)
        raise Unsupported("'in' over a list computed at run time", node)

    def _ifelse(self, node: IfElse) -> str:
        return f"({self.emit(node.cond)} ? {self.emit(node.then)} : {self.emit(node.other)})"

    def _call(self, node: Call) -> str:
        emitter = BUILTINS.get(node.func)
        if emitter is None:
            raise Unsupported(f"the builtin {node.func}()", node)
        return emitter(self, node)

    DISPATCH = {
        Name: _name, ListLit: _list, MapLit: _not_const, Int: _not_const, Bool: _not_const, Str: _not_const,
        CardLit: _not_const, Attr: _not_const, Call: _call, Neg: _neg, Not: _not, BoolOp: _boolop,
        BinOp: _binop, Compare: _compare, IfElse: _ifelse,
    }

    # -- filters
    def keep_mask(self, node: Call) -> int:
        """The cards passing a filter argument that reads only the candidate (every card index tested now)."""
        pred, depth = node.args[1], node.pred_depth
        code = self.py.emit(pred)
        if code.const:
            return (1 << self.n_indices) - 1 if code.value else 0
        # The predicate reads only its own candidate: try it on every card index (emit_expr does the same).
        outer = (0,) * depth
        try:
            return sum(1 << i for i in range(self.n_indices) if self.py.folder.value(pred, outer + (i,)))
        except RulespecError:
            fail("division by zero in filter", pred.span)

    def filtered(self, node: Call) -> str:
        cards = self.emit(node.args[0])
        if len(node.args) < 2:
            return cards
        pred, depth = node.args[1], node.pred_depth
        if not uses_runtime(pred, depth):
            return f"({cards} & {_u64(self.keep_mask(node))})"
        # A condition that reads run-time values (a card in play, an outer filter's candidate): a
        # function that tests each card of the set, given every local the condition may read.
        name = self.aux.name("select")
        params = [("uint64_t" if t not in (BOOL, INT) else ("int" if t == BOOL else "int64_t"), f"v_{n}")
                  for n, t in self.ctx.names.items()] + [("int", f"c{d}") for d in range(depth)]
        test = self.emit(pred)
        self.aux.lines.append(
            f"static uint64_t {name}(uint64_t cards{''.join(f', {t} {v}' for t, v in params)}) {{\n"
            + "".join(f"    (void){v};\n" for _, v in params)
            + f"    uint64_t out = 0;\n"
            f"    for (uint64_t m = cards; m; m &= m - 1) {{\n"
            f"        int c{depth} = rs_low(m);\n"
            f"        if ({test}) out |= UINT64_C(1) << c{depth};\n"
            f"    }}\n"
            f"    return out;\n"
            f"}}")
        return f"{name}({cards}{''.join(f', {v}' for _, v in params)})"

    def table(self, stem: str, ctype: str, values) -> str:
        """A static constant array among the auxiliary definitions; its name."""
        name = self.aux.name(stem)
        self.aux.lines.append(f"static const {ctype} {name}[{max(len(values), 1)}] = "
                              f"{{{', '.join(str(v) for v in values) or '0'}}};")
        return name


# ------------------------------------------------------- builtin emitters


def _count(em: CEmitter, node: Call) -> str:
    return f"((int64_t)rs_popcount({em.filtered(node)}))"


def _select(em: CEmitter, node: Call) -> str:
    return em.filtered(node)


def _total(em: CEmitter, node: Call) -> str:
    return f"rs_total({em.emit(node.args[0])})"


def _can_total(em: CEmitter, node: Call) -> str:
    return f"rs_can_total({em.emit(node.args[0])}, {em.emit(node.args[1])})"


def _subset_total(em: CEmitter, node: Call) -> str:
    return f"rs_subset_total({em.emit(node.args[0])}, {em.emit(node.args[1])})"


def _empty(em: CEmitter, node: Call) -> str:
    return f"({em.emit(node.args[0])} == 0)"


def _holds_any(em: CEmitter, node: Call) -> str:
    return f"(({em.emit(node.args[0])} & {em.emit(node.args[1])}) != 0)"


def _holds_all(em: CEmitter, node: Call) -> str:
    wanted = em.emit(node.args[1])
    return f"(({wanted} & ~{em.emit(node.args[0])}) == 0)"


def _run(em: CEmitter, node: Call) -> str:
    seq = node.args[1]
    const = em.constant(seq, False)
    if const is not None:
        masks = [_u64(m) for m in const.value]
    elif isinstance(seq, ListLit):
        masks = None
    else:
        raise Unsupported("run() over a sequence computed at run time", seq)
    cards = em.emit(node.args[0])
    if masks is not None:
        name = em.table("RUN", "uint64_t", masks)
        return f"rs_run({cards}, {name}, {len(masks)})"
    items = ", ".join(em.emit(i) for i in seq.items)
    return f"rs_run({cards}, (const uint64_t[]){{{items}}}, {len(seq.items)})"


# best_per_suit() by table: a suit whose real cards lie within this many consecutive card indices gets
# its best score looked up, indexed by those bits (2 ** 13 entries at most: a suit of 13 ranks).
_SUIT_WINDOW = 13


def _best_per_suit(em: CEmitter, node: Call) -> str:
    table = em.constant(node.args[1], False)
    if table is None:
        raise Unsupported("best_per_suit() with a score table computed at run time", node.args[1])
    ranks, suits = em.py.tables["_RANK"], em.py.tables["_SUIT"]
    suit_bits = [sum(1 << i for i in range(em.n_indices) if suits[i] == s) for s in em.py.deck.suits]
    # Each suit's best is the first score level, highest first, that the suit's cards in the set reach:
    # one mask test per level instead of a loop over the cards.
    scores = [table.value.get(r, 0) for r in ranks]
    levels = sorted(set(scores), reverse=True)
    level_masks = [_u64(sum(1 << i for i in range(em.n_indices) if scores[i] == v)) for v in levels]
    masks_name = em.table("SUITS", "uint64_t", [_u64(m) for m in suit_bits])
    levels_name = em.table("LEVEL_MASKS", "uint64_t", level_masks)
    values_name = em.table("LEVEL_SCORES", "int64_t", [_i64(v) for v in levels])
    general = f"rs_best_per_suit({{}}, {masks_name}, {len(suit_bits)}, {levels_name}, {values_name}, {len(levels)})"
    cards = em.emit(node.args[0])
    lookup = _best_by_table(em, suit_bits, scores, general.format("m"))
    return f"{lookup}({cards})" if lookup else general.format(cards)


def _best_by_table(em: CEmitter, suit_bits: list[int], scores: list[int], general: str) -> str | None:
    """A function of a set giving best_per_suit by one table look-up per suit (the general helper for a
    set holding cards beyond the suits' windows, such as a wild card's stand-ins); None if some suit's
    real cards do not lie within _SUIT_WINDOW consecutive indices."""
    real = (1 << em.py.deck.size) - 1
    windows, outside = [], 0
    for bits in suit_bits:
        if not bits & real:
            return None
        low = (bits & -bits).bit_length() - 1
        window = bits & (((1 << _SUIT_WINDOW) - 1) << low)
        if bits & real & ~window:
            return None
        outside |= bits & ~window
        windows.append((low, window >> low))
    tables: dict[tuple, str] = {}
    names = []
    for low, window in windows:
        # entry x: the best score of the suit's cards x (shifted down by `low`); 0 where x is not a
        # set of the suit's cards (never looked up) or empty (the caller's test)
        entries = [max((scores[low + i] for i in range(window.bit_length()) if (x >> i) & 1), default=0)
                   if x & ~window == 0 else 0 for x in range(1 << window.bit_length())]
        key = tuple(entries)
        if key not in tables:
            lo, hi = min(entries), max(entries)
            ctype = next(t for t, b in (("int8_t", 7), ("int16_t", 15), ("int32_t", 31), ("int64_t", 63))
                         if -(1 << b) <= lo and hi < 1 << b)
            tables[key] = em.table("BEST", ctype, [_i64(e) if ctype == "int64_t" else str(e) for e in entries])
        names.append(tables[key])
    name = em.aux.name("best_per_suit")
    held = [f"x{i} = (m >> {low}) & {_u64(window)}" for i, (low, window) in enumerate(windows)]
    em.aux.lines.append(
        f"static int64_t {name}(uint64_t m) {{\n"
        + (f"    if (m & {_u64(outside)}) return {general};\n" if outside else "")
        + f"    uint64_t {', '.join(held)};\n"
        f"    if ({' || '.join(f'!x{i}' for i in range(len(windows)))}) return 0;\n"
        f"    return {' + '.join(f'(int64_t){t}[x{i}]' for i, t in enumerate(names))};\n"
        f"}}")
    return name


def _simple(helper: str):
    def emit_call(em: CEmitter, node: Call) -> str:
        return f"{helper}({', '.join(em.emit(a) for a in node.args)})"
    return emit_call


def _attribute(table: str, empty: str):
    """rank()/suit()/value(): of a card, its table entry; of a set, its lowest card's, `empty` for none."""

    def emit_call(em: CEmitter, node: Call) -> str:
        arg = node.args[0]
        none = _i64(em.strings.id("")) if empty == "str" else "INT64_C(0)"
        if arg.type == CARD:
            return f"{table}[rs_high({em.emit(arg)})]"
        return f"rs_first({em.emit(arg)}, {table}, {none})"

    return emit_call


def _minmax(helper: str):
    def emit_call(em: CEmitter, node: Call) -> str:
        parts = [em.emit(a) for a in node.args]
        text = parts[0]
        for p in parts[1:]:
            text = f"{helper}({text}, {p})"
        return text
    return emit_call


def _most(em: CEmitter, node: Call) -> str:
    if "side" not in em.ctx.names or "pile" not in em.ctx.names:
        raise Unsupported("most() outside scoring", node)
    value = em.emit(node.args[0])
    # Decided on the tree, as emit_expr does: the values are the same for every side unless they
    # read `side` or hold another most(); then the caller computes them once, before its loop.
    per_side = any((isinstance(n, Name) and n.id == "side") or (isinstance(n, Call) and n.func == "most")
                   for n in walk(node.args[0]))
    if em.hoisted is not None and not per_side:
        name = em.aux.name("most_vals")
        em.hoisted.append((name, value))
        return f"(v_side == {name}_top)"     # the caller computes {name}_top = rs_top({name}, k)
    name = em.aux.name("most")
    em.aux.lines.append(
        f"static int {name}(const uint64_t *piles, int k, int64_t v_side) {{\n"
        f"    int64_t vals[MAX_SIDES];\n"
        f"    for (int s = 0; s < k; s++) {{ uint64_t v_pile = piles[s]; vals[s] = {value}; }}\n"
        f"    return rs_most(vals, k, v_side);\n"
        f"}}")
    return f"{name}(piles, k, v_side)"


BUILTINS = {
    "count": _count,
    "select": _select,
    "total": _total,
    "can_total": _can_total,
    "subset_total": _subset_total,
    "empty": _empty,
    "holds": _holds_any,
    "holds_all": _holds_all,
    "holds_any": _holds_any,
    "run": _run,
    "best_per_suit": _best_per_suit,
    "max_same_rank": _simple("rs_max_same_rank"),
    "same_value": _simple("rs_same_value"),
    "same_rank": lambda em, node: f"rs_same({em.emit(node.args[0])}, RANK_ID)",
    "same_suit": lambda em, node: f"rs_same({em.emit(node.args[0])}, SUIT_ID)",
    "rank": _attribute("RANK_ID", "str"),
    "suit": _attribute("SUIT_ID", "str"),
    "value": _attribute("VAL", "int"),
    "min": _minmax("rs_min"),
    "max": _minmax("rs_max"),
    "abs": _simple("rs_abs"),
    "most": _most,
}


def emit(expr: Expr, ctx: Context, strings: Strings, aux: Aux, hoisted: list | None = None) -> str:
    """C source of a type-checked expression, for a function whose locals are `v_<name>` of ctx.names.

    With `hoisted`, each most() whose values are the same for every side appends (array name, value)
    there and reads the array, which the caller fills before its loop over the sides.
    """
    em = CEmitter(ctx, strings, aux, hoisted)
    text = em.emit(expr)
    if getattr(expr, "expected", None) == CARDS and expr.type not in CARD_LIKE:
        raise ValueError("a set of cards was expected")
    return text


def int_bounds(expr: Expr, ctx: Context, strings: Strings) -> tuple[int, int]:
    """The least and the greatest value of a type-checked int expression in play (Unsupported past ±INT_LIMIT)."""
    em = CEmitter(ctx, strings, Aux())
    em.emit(expr)
    return em.bounds(expr)


__all__ = ["Aux", "CEmitter", "INT_LIMIT", "int_bounds", "Strings", "Unsupported", "emit", "strings_of", "MAP"]
