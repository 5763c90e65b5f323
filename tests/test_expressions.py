"""Parsing expressions: precedence, literals, spans, and syntax errors with exact messages."""
from pathlib import Path

import pytest

from rulespec.lang import expressions
from rulespec.errors import RulespecError, Span
from rulespec.lang.expressions import (
    Attr, BinOp, Call, CardLit, Compare, IfElse, Int, ListLit, MapLit, Name, Str, parse, to_text, walk,
)

ORIGIN = Span("rules.yaml", 12, 11)

# (expression, fully parenthesised rendering)
STRUCTURE = [
    ("count(table, rank == \"A\") >= 2", "(count(table, (rank == 'A')) >= 2)"),
    ("can_total(table, 15)", "can_total(table, 15)"),
    ("not empty(captured) and empty(table) and not last_play",
     "(((not empty(captured)) and empty(table)) and (not last_play))"),
    ("a or b and c", "(a or (b and c))"),
    ("not a == b", "(not (a == b))"),
    ("1 if most(count(pile)) else 0", "(1 if most(count(pile)) else 0)"),
    ("1 if a else 2 if b else 3", "(1 if a else (2 if b else 3))"),
    ("x if a or b else y", "(x if (a or b) else y)"),
    ("a | b & c", "(a | (b & c))"),
    ("a & b - c", "(a & (b - c))"),
    ("a - b - c", "((a - b) - c)"),
    ("a + b * c", "(a + (b * c))"),
    ("a // b % c", "((a // b) % c)"),
    ("-a * b", "((-a) * b)"),
    ("--3", "(-(-3))"),
    ("(a | b) & c", "((a | b) & c)"),
    ("a | b == c", "((a | b) == c)"),
    ("rank in [\"J\", \"Q\", \"K\"]", "(rank in ['J', 'Q', 'K'])"),
    ("rank not in ['J', 'Q',]", "(rank not in ['J', 'Q'])"),
    ("index in x", "(index in x)"),
    ("[AD, 2D, 10S, FC]", "[AD, 2D, 10S, FC]"),
    ("[]", "[]"),
    ("{\"7\": 21, '6': 18,}", "{'7': 21, '6': 18}"),
    ("{}", "{}"),
    ("options.target", "options.target"),
    ("f()", "f()"),
    ("true and not false", "(true and (not false))"),
    ("x\n  and\n  y", "(x and y)"),
]


@pytest.mark.parametrize("text, rendered", STRUCTURE, ids=[t for t, _ in STRUCTURE])
def test_structure(text, rendered):
    assert to_text(parse(text, ORIGIN)) == rendered


def test_node_kinds():
    e = parse("run(pile, [AD, 2D]) if holds_all(pile, [AD]) else options.zero", ORIGIN)
    assert isinstance(e, IfElse)
    assert isinstance(e.then, Call) and e.then.func == "run"
    assert isinstance(e.then.args[1], ListLit) and isinstance(e.then.args[1].items[0], CardLit)
    assert isinstance(e.other, Attr) and (e.other.base, e.other.name) == ("options", "zero")
    m = parse("{\"7\": 21}", ORIGIN)
    assert isinstance(m, MapLit) and m.keys[0].value == "7" and isinstance(m.values[0], Int)
    c = parse("a <= 3", ORIGIN)
    assert isinstance(c, Compare) and c.op == "<=" and isinstance(c.left, Name)
    b = parse("a - b", ORIGIN)
    assert isinstance(b, BinOp) and b.op == "-"


STRINGS = [
    ('"D"', "D"),
    ("'D'", "D"),
    (r'"it\"s"', 'it"s'),
    (r"'a\'b'", "a'b"),
    (r'"line\nbreak"', "line\nbreak"),
    (r'"back\\slash"', "back\\slash"),
    ('"__import__(\'os\')"', "__import__('os')"),
    ('""', ""),
]


@pytest.mark.parametrize("text, value", STRINGS, ids=[t for t, _ in STRINGS])
def test_string_literals(text, value):
    node = parse(text, ORIGIN)
    assert isinstance(node, Str) and node.value == value


@pytest.mark.parametrize("text", ["7D", "AD", "10S", "FC", "KD", "CC", "Ad", "myTable"])
def test_any_word_with_an_uppercase_letter_is_a_card(text):
    node = parse(text, ORIGIN)
    assert isinstance(node, CardLit) and node.name == text


def test_spans_on_the_first_line_are_offset_by_the_origin_column():
    e = parse("count(pile, suit == \"D\") >= 2", ORIGIN)
    assert (e.span.line, e.span.column) == (12, 11)
    call = e.left
    pred = call.args[1]
    assert (pred.span.line, pred.span.column) == (12, 23)
    assert (pred.right.span.line, pred.right.span.column) == (12, 31)
    assert (e.right.span.line, e.right.span.column) == (12, 39)
    assert (e.span.end_line, e.span.end_column) == (12, 40)
    assert e.op_span.column == 36


def test_spans_on_later_lines_keep_their_own_column():
    e = parse("a and\n  count(b)", ORIGIN)
    assert (e.right.span.line, e.right.span.column) == (13, 3)
    assert (e.right.args[0].span.line, e.right.args[0].span.column) == (13, 9)


def test_every_node_has_a_span_in_the_origin_file():
    e = parse("1 if most(best_per_suit(pile, {\"7\": 21})) else -options.x", ORIGIN)
    for node in walk(e):
        assert node.span.file == "rules.yaml" and node.span.line == 12 and node.span.column >= 11


# (expression, exact error) — origin rules.yaml:12:11, so column c of the text is 10 + c.
SYNTAX_ERRORS = [
    ("count(table))", "rules.yaml:12:23: unexpected ')' in expression; expected the end of the expression"),
    ("count(table rank)", "rules.yaml:12:23: unexpected 'rank' in expression; expected an operator, ',' or ')'"),
    ("count(table,", "rules.yaml:12:23: unexpected end of expression; expected a value, name or '(' or ')'"),
    ("(a", "rules.yaml:12:13: unexpected end of expression; expected ')'"),
    ("a +", "rules.yaml:12:14: unexpected end of expression; expected a value, name or '('"),
    ("a if b", "rules.yaml:12:17: unexpected end of expression; expected an operator or 'else'"),
    ("a b", "rules.yaml:12:13: unexpected 'b' in expression; expected an operator or the end of the expression"),
    ("== 3", "rules.yaml:12:11: unexpected '==' in expression; expected a value, name or '('"),
    (")", "rules.yaml:12:11: unexpected ')' in expression; expected a value, name or '('"),
    ("a == b == c", "rules.yaml:12:18: unexpected '==' in expression: comparisons do not chain "
                    "(write 'a < b and b < c')"),
    ("1 < x <= 3", "rules.yaml:12:17: unexpected '<=' in expression: comparisons do not chain "
                   "(write 'a < b and b < c')"),
    ("[1 2]", "rules.yaml:12:14: unexpected '2' in expression; expected an operator, ',' or ']'"),
    ("{1: 2}", "rules.yaml:12:12: unexpected '1' in expression; expected a string key or '}'"),
    ("{\"a\" 1}", "rules.yaml:12:16: unexpected '1' in expression; expected ':'"),
    ("x.y.z", "rules.yaml:12:14: unexpected '.' in expression; expected an operator or the end of the expression"),
    ("count(if)", "rules.yaml:12:17: unexpected 'if' in expression; expected a value, name or '('"),
    ("in.x", "rules.yaml:12:11: unexpected 'in' in expression; expected a value, name or '('"),
    # a doubled keyword: the second is the mistake (it was read as a name, and the error fell on what follows)
    ("a and and b", "rules.yaml:12:17: unexpected 'and' in expression; expected a value, name or '('"),
    ("a or if b", "rules.yaml:12:16: unexpected 'if' in expression; expected a value, name or '('"),
    ("a $ b", "rules.yaml:12:13: unexpected character '$' in expression"),
    ("rank == \"D", "rules.yaml:12:19: unterminated string in expression"),
    ("\"\\x4\"", "rules.yaml:12:11: invalid escape in string literal \"\\x4\""),
    ("a and\n  b)", "rules.yaml:13:4: unexpected ')' in expression; expected the end of the expression"),
    ("", "rules.yaml:12:11: empty expression"),
    ("   ", "rules.yaml:12:11: empty expression"),
]


@pytest.mark.parametrize("text, message", SYNTAX_ERRORS, ids=[t or "<empty>" for t, _ in SYNTAX_ERRORS])
def test_syntax_errors(text, message):
    with pytest.raises(RulespecError) as info:
        parse(text, ORIGIN)
    assert str(info.value) == message
    assert "Traceback" not in info.value.render() and "Token(" not in info.value.message


def test_non_string_is_rejected():
    with pytest.raises(RulespecError, match="expected an expression"):
        parse(3, ORIGIN)


def test_error_renders_the_yaml_line_with_a_caret():
    from rulespec.errors import register_source
    register_source("r.yaml", "events:\n  scopa: {when: count(table)) > 0}\n")
    with pytest.raises(RulespecError) as info:
        parse("count(table)) > 0", Span("r.yaml", 2, 17))
    assert info.value.render().splitlines()[1:] == [
        "      scopa: {when: count(table)) > 0}",
        " " * (4 + 28) + "^",  # the stray ')' is column 29 of the YAML line
    ]
    assert str(info.value).startswith("r.yaml:2:29: ")


def test_the_parser_is_built_once():
    assert expressions._parser() is expressions._parser()


def test_grammar_is_found_in_the_checkout():
    assert expressions.grammar_dir() == Path(expressions.__file__).resolve().parent.parent / "grammars"


def test_a_cache_folder_not_in_utf_8_still_keeps_the_parser(tmp_path, monkeypatch):
    """XDG_CACHE_HOME of bytes that are not UTF-8 (a str with surrogates): Lark's own cache hashed the file's
    name as UTF-8 and raised UnicodeEncodeError; lang/larkcache.py names files by os's own encoding."""
    import os

    from rulespec.lang import expressions
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/c\xff")
    monkeypatch.setenv("XDG_CACHE_HOME", odd)
    monkeypatch.delenv("RULESPEC_CACHE", raising=False)
    expressions._parser.cache_clear()
    try:
        assert expressions._parser().parse("1 + 2") is not None
        assert len(os.listdir(os.path.join(odd, "rulespec", "grammar"))) == 1
    finally:
        expressions._parser.cache_clear()
