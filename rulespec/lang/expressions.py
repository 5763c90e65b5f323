"""Expressions: parse the short formulas written inside rulesets into an AST.

`parse(text, origin)` is the one entry point. Every node carries a Span in
the YAML file the text came from; `rulespec.lang.typecheck.check` later sets each
node's `type`, and `compiler.emit_expr.emit` turns the typed tree into Python.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from rulespec.errors import RulespecError, Span

# Words the grammar uses; the contextual lexer may still hand one over as a NAME.
KEYWORDS = frozenset({"if", "else", "or", "and", "not", "in", "true", "false"})

# Every later stage (tree building, type checking, emitting) recurses once per
# level, so a deeper tree would exhaust Python's recursion: refused up front.
MAX_DEPTH = 64
# As for integers in YAML (yamlsafe.MAX_INT_DIGITS): larger literals are refused, not converted.
MAX_INT_DIGITS = 18


# ---------------------------------------------------------------- AST nodes


@dataclass(eq=False)
class Expr:
    """Base of every expression node; `type` is set by the type checker."""

    span: Span
    type = None  # class default; typecheck.check() sets it per node
    expected = None  # on the root only: the type check() was asked for (emit coerces to it)

    def children(self) -> list["Expr"]:
        """The direct sub-expressions, in source order."""
        return []


@dataclass(eq=False)
class Int(Expr):
    """An integer literal."""

    value: int


@dataclass(eq=False)
class Bool(Expr):
    """`true` or `false`."""

    value: bool


@dataclass(eq=False)
class Str(Expr):
    """A string literal (already unescaped)."""

    value: str


@dataclass(eq=False)
class CardLit(Expr):
    """A card literal (rank then suit); the checker resolves it against the deck."""

    name: str
    index: int | None = None


@dataclass(eq=False)
class ListLit(Expr):
    """`[a, b, ...]`: an ordered list of cards, ints or strings."""

    items: list[Expr]

    def children(self):
        return list(self.items)


@dataclass(eq=False)
class MapLit(Expr):
    """`{"7": 21, ...}`: string keys to int values."""

    keys: list[Str]
    values: list[Expr]

    def children(self):
        return list(self.values)


@dataclass(eq=False)
class Name(Expr):
    """A bare name; the checker records what it refers to in `ref`/`depth`."""

    id: str
    ref: str | None = None  # "local", "candidate", "deck" or "wild"
    depth: int = 0  # for candidates: which enclosing filter binds it


@dataclass(eq=False)
class Attr(Expr):
    """`base.name`; only `options.<name>` is meaningful."""

    base: str
    name: str
    base_span: Span | None = None
    value: object = None  # the option's value, set by the checker


@dataclass(eq=False)
class Call(Expr):
    """`func(args...)`; `func` names a builtin."""

    func: str
    args: list[Expr] = field(default_factory=list)
    pred_depth: int = 0  # depth of the candidate a filter argument binds

    def children(self):
        return list(self.args)


@dataclass(eq=False)
class Neg(Expr):
    """Unary minus."""

    operand: Expr

    def children(self):
        return [self.operand]


@dataclass(eq=False)
class Not(Expr):
    """`not x`."""

    operand: Expr

    def children(self):
        return [self.operand]


@dataclass(eq=False)
class BoolOp(Expr):
    """`a and b`, `a or b`."""

    op: str
    left: Expr
    right: Expr

    def children(self):
        return [self.left, self.right]


@dataclass(eq=False)
class BinOp(Expr):
    """`| & + - * // %` (meaning of `-` depends on the operand types)."""

    op: str
    left: Expr
    right: Expr
    op_span: Span | None = None

    def children(self):
        return [self.left, self.right]


@dataclass(eq=False)
class Compare(Expr):
    """`== != < <= > >= in` and `not in`; never chained."""

    op: str
    left: Expr
    right: Expr
    op_span: Span | None = None

    def children(self):
        return [self.left, self.right]


@dataclass(eq=False)
class IfElse(Expr):
    """`then if cond else other`."""

    then: Expr
    cond: Expr
    other: Expr

    def children(self):
        return [self.then, self.cond, self.other]


def walk(expr: Expr):
    """Every node of a tree, parents before children."""
    yield expr
    for child in expr.children():
        yield from walk(child)


def uses_runtime(pred: Expr, depth: int) -> bool:
    """Whether a filter at `depth` needs values only known at run time (so cannot fold to a mask, and
    runs its condition card by card)."""
    for node in walk(pred):
        if isinstance(node, Name) and (node.ref == "local" or (node.ref == "candidate" and node.depth < depth)):
            return True
    return False


def copy_tree(expr: Expr) -> Expr:
    """New nodes for a whole tree (the type checker annotates them); spans and literal values are shared."""
    new = copy.copy(expr)
    for name, value in vars(expr).items():
        if isinstance(value, Expr):
            setattr(new, name, copy_tree(value))
        elif isinstance(value, list) and value and isinstance(value[0], Expr):
            setattr(new, name, [copy_tree(v) for v in value])
    return new


def to_text(expr: Expr) -> str:
    """A fully parenthesised rendering of the tree (for tests and --emit)."""
    f = _TEXT[type(expr)]
    return f(expr)


_TEXT = {
    Int: lambda e: str(e.value),
    Bool: lambda e: "true" if e.value else "false",
    Str: lambda e: repr(e.value),
    CardLit: lambda e: e.name,
    Name: lambda e: e.id,
    Attr: lambda e: f"{e.base}.{e.name}",
    ListLit: lambda e: "[" + ", ".join(to_text(i) for i in e.items) + "]",
    MapLit: lambda e: "{" + ", ".join(f"{k.value!r}: {to_text(v)}" for k, v in zip(e.keys, e.values)) + "}",
    Call: lambda e: f"{e.func}(" + ", ".join(to_text(a) for a in e.args) + ")",
    Neg: lambda e: f"(-{to_text(e.operand)})",
    Not: lambda e: f"(not {to_text(e.operand)})",
    BoolOp: lambda e: f"({to_text(e.left)} {e.op} {to_text(e.right)})",
    BinOp: lambda e: f"({to_text(e.left)} {e.op} {to_text(e.right)})",
    Compare: lambda e: f"({to_text(e.left)} {e.op} {to_text(e.right)})",
    IfElse: lambda e: f"({to_text(e.then)} if {to_text(e.cond)} else {to_text(e.other)})",
}


# ------------------------------------------------------------------ parsing


def grammar_dir() -> Path:
    """Where expr.lark lives: rulespec/grammars."""
    # rulespec/grammars: the checkout links it to the top-level grammars/ folder, the wheel copies it there.
    here = Path(__file__).resolve().parent.parent / "grammars"
    if (here / "expr.lark").is_file():
        return here
    raise FileNotFoundError(f"expr.lark not found in {here}")


@lru_cache(maxsize=None)
def _parser() -> Lark:
    # Built once per process (constructing an LALR table is the slow part) and kept on disk between
    # processes as data, not a pickle (lang/larkcache.py).
    from rulespec.lang import larkcache
    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)
    return larkcache.parser(str(grammar_dir() / "expr.lark"), options)


class _Locator:
    """Maps (line, column) inside the expression text to a Span in the YAML file."""

    def __init__(self, origin: Span):
        self.origin = origin

    def at(self, line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> Span:
        o = self.origin

        def col(ln, c):
            return o.column + c - 1 if ln == 1 else c

        if end_line is None:
            return Span(o.file, o.line + line - 1, col(line, column))
        return Span(o.file, o.line + line - 1, col(line, column), o.line + end_line - 1, col(end_line, end_column))

    def meta(self, meta) -> Span:
        return self.at(meta.line, meta.column, meta.end_line, meta.end_column)

    def token(self, tok: Token) -> Span:
        return self.at(tok.line, tok.column, tok.end_line, tok.end_column)


def _unescape(tok: Token, where: Span) -> str:
    # The STRING terminal only admits a quoted literal, so literal_eval sees
    # exactly one Python string literal and can evaluate nothing else.
    try:
        value = ast.literal_eval(str(tok))
    except (SyntaxError, ValueError):
        raise RulespecError(f"invalid escape in string literal {tok}", where) from None
    if not isinstance(value, str):  # pragma: no cover - the terminal rules it out
        raise RulespecError(f"invalid string literal {tok}", where)
    return value


@v_args(meta=True)
class _Build(Transformer):
    """Turns the Lark tree into AST nodes, each located in the YAML file."""

    def __init__(self, loc: _Locator):
        super().__init__()
        self.loc = loc

    def _name_token(self, tok: Token) -> str:
        if str(tok) in KEYWORDS:
            raise RulespecError(
                f"unexpected '{tok}' in expression; expected a value, name or '('", self.loc.token(tok)
            )
        return str(tok)

    def int(self, meta, ch):
        digits = str(ch[0]).lstrip("0")
        if len(digits) > MAX_INT_DIGITS:
            raise RulespecError(f"integer with more than {MAX_INT_DIGITS} digits in expression", self.loc.meta(meta))
        return Int(self.loc.meta(meta), int(digits or "0"))

    def true(self, meta, ch):
        return Bool(self.loc.meta(meta), True)

    def false(self, meta, ch):
        return Bool(self.loc.meta(meta), False)

    def string(self, meta, ch):
        span = self.loc.meta(meta)
        return Str(span, _unescape(ch[0], span))

    def card(self, meta, ch):
        return CardLit(self.loc.meta(meta), str(ch[0]))

    def name(self, meta, ch):
        return Name(self.loc.meta(meta), self._name_token(ch[0]))

    def call(self, meta, ch):
        return Call(self.loc.meta(meta), self._name_token(ch[0]), list(ch[1:]))

    def attr(self, meta, ch):
        base, name = ch
        return Attr(self.loc.meta(meta), self._name_token(base), self._name_token(name), self.loc.token(base))

    def list(self, meta, ch):
        return ListLit(self.loc.meta(meta), list(ch))

    def pair(self, meta, ch):
        key, value = ch
        span = self.loc.token(key)
        return Str(span, _unescape(key, span)), value

    def map(self, meta, ch):
        return MapLit(self.loc.meta(meta), [k for k, _ in ch], [v for _, v in ch])

    def neg(self, meta, ch):
        return Neg(self.loc.meta(meta), ch[0])

    def not_(self, meta, ch):
        return Not(self.loc.meta(meta), ch[0])

    def and_(self, meta, ch):
        return BoolOp(self.loc.meta(meta), "and", ch[0], ch[1])

    def or_(self, meta, ch):
        return BoolOp(self.loc.meta(meta), "or", ch[0], ch[1])

    def comp_op(self, meta, ch):
        return " ".join(str(t) for t in ch), self.loc.token(ch[0])

    add_op = mul_op = comp_op

    def compare(self, meta, ch):
        (op, op_span) = ch[1]
        return Compare(self.loc.meta(meta), op, ch[0], ch[2], op_span)

    def arith(self, meta, ch):
        (op, op_span) = ch[1]
        return BinOp(self.loc.meta(meta), op, ch[0], ch[2], op_span)

    def cup(self, meta, ch):
        return BinOp(self.loc.meta(meta), "|", ch[0], ch[1])

    def cap(self, meta, ch):
        return BinOp(self.loc.meta(meta), "&", ch[0], ch[1])

    def ifelse(self, meta, ch):
        return IfElse(self.loc.meta(meta), ch[0], ch[1], ch[2])


# How expected terminals are described in syntax errors.
_VALUE_START = {"INT", "STRING", "CARD", "NAME", "TRUE", "FALSE", "LPAR", "LSQB", "LBRACE", "MINUS", "NOT"}
# Binary operators only ever follow a value, so their presence means "after a value".
_BINARY = {
    "__ANON_0", "__ANON_1", "__ANON_2", "__ANON_3", "__ANON_4", "LESSTHAN", "MORETHAN", "IN",
    "VBAR", "AMPERSAND", "PLUS", "STAR", "PERCENT", "AND", "OR", "IF",
}
_CLOSERS = {"COMMA": "','", "COLON": "':'", "RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'", "ELSE": "'else'"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in"}


def _describe_expected(expected: set[str]) -> str:
    parts = []
    if expected & _BINARY:
        parts.append("an operator")
    elif expected & (_VALUE_START - {"STRING"}):
        parts.append("a value, name or '('")
    elif "STRING" in expected:
        parts.append("a string key")
    parts += [text for name, text in _CLOSERS.items() if name in expected]
    if "$END" in expected:
        parts.append("the end of the expression")
    if not parts:  # pragma: no cover - every parser state expects something
        return "something else"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _end_position(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


# Characters other languages write where this one has a word or a doubled sign.
_OTHER_LANGUAGES = {
    "=": "; to compare, write '==' (an expression assigns nothing)",
    "&": "; write 'and'",
    "|": "; write 'or'",
    "!": "; write 'not' (or '!=' to compare)",
}


def _syntax_error(err: UnexpectedInput, text: str, loc: _Locator) -> RulespecError:
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        what = "unterminated string" if ch and ch in "\"'" else f"unexpected character {ch!r}"
        return RulespecError(f"{what} in expression{_OTHER_LANGUAGES.get(ch, '')}", loc.at(err.line, err.column))
    if isinstance(err, UnexpectedToken):
        before = (err.token_history or [None])[-1]
        if before is not None and before.type == "NAME" and str(before) in KEYWORDS:
            # `a and and b`: the lexer read the second `and` as a name where a value was due; the name
            # is the mistake, not what follows it.
            return RulespecError(f"unexpected '{before}' in expression; expected a value, name or '('",
                                 loc.token(before))
    if isinstance(err, UnexpectedToken) and err.token.type != "$END":
        tok = err.token
        expected = set(err.accepts or err.expected)
        if str(tok) in _COMPARISONS and expected & _BINARY:
            return RulespecError(
                f"unexpected '{tok}' in expression: comparisons do not chain (write 'a < b and b < c')",
                loc.token(tok),
            )
        doubled = str(tok) in ("&", "|") and str(tok) in text[max(tok.start_pos - 1, 0):tok.start_pos + 2:2]
        return RulespecError(
            f"unexpected '{tok}' in expression; expected {_describe_expected(expected)}"
            f"{_OTHER_LANGUAGES[str(tok)] if doubled else ''}", loc.token(tok)
        )
    # End of input (UnexpectedToken on $END; UnexpectedEOF alike): point just past the text.
    expected = set(getattr(err, "accepts", None) or getattr(err, "expected", None) or ())
    line, column = _end_position(text)
    return RulespecError(
        f"unexpected end of expression; expected {_describe_expected(expected)}", loc.at(line, column)
    )


def _check_depth(tree, loc: _Locator) -> None:
    """Refuse a tree nested more than MAX_DEPTH levels, without recursing over it."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RulespecError(f"expression nested more than {MAX_DEPTH} levels deep", loc.meta(node.meta))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def parse(text: str, origin: Span) -> Expr:
    """Parse one expression; `origin` is the Span of its first character in the YAML file."""
    loc = _Locator(origin)
    if not isinstance(text, str):
        raise RulespecError(f"expected an expression (a string), found {text!r}", origin)
    if not text.strip():
        raise RulespecError("empty expression", origin)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, loc) from None
    _check_depth(tree, loc)
    try:
        return _Build(loc).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RulespecError):
            raise err.orig_exc from None
        raise
