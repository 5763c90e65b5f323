"""Load stage: JSON-like YAML with spans; every hostile or malformed input is one located error."""
from __future__ import annotations

import math

import pytest

from tests.work import count_calls
from hypothesis import given, settings, strategies as st

from rulespec.errors import RulespecError, Span, source_line
from rulespec.source import yamlsafe
from rulespec.source.yamlsafe import LocDict, LocList, key_span_at, load, span_at

F = "f.yaml"


def value(text: str):
    """The value of `a:` in a one-line document."""
    return load(f"a: {text}\n", F)["a"]


# ---------------------------------------------------------------- scalars

SCALARS = [
    ("7", 7),
    ("-3", -3),
    ("+5", 5),
    ("0777", 777),  # YAML 1.2: decimal, not octal
    ("0x1F", 31),
    ("0o17", 15),
    ("123456789012345678", 123456789012345678),
    ("1.5", 1.5),
    ("1e3", 1000.0),
    ("-.5", -0.5),
    (".inf", math.inf),
    ("-.Inf", -math.inf),
    ("true", True),
    ("True", True),
    ("TRUE", True),
    ("false", False),
    ("FALSE", False),
    ("~", None),
    ("null", None),
    ("Null", None),
    ("", None),
    # YAML 1.1 booleans, dates, sexagesimals and underscores stay text.
    ("yes", "yes"),
    ("no", "no"),
    ("on", "on"),
    ("off", "off"),
    ("y", "y"),
    ("2024-01-01", "2024-01-01"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("12:30:00", "12:30:00"),
    ("1_000", "1_000"),
    ("0b101", "0b101"),
    # Cards are text, including ones that start with a digit.
    ("10S", "10S"),
    ("7D", "7D"),
    ("AH", "AH"),
    ("'7'", "7"),
    ('"true"', "true"),
    ("!!str 7", "7"),
    ("!!int '7'", 7),
    ("!!float 1", 1.0),
    ("!!null ''", None),
    ("!!bool 'true'", True),
    ("|\n  two\n  lines\n", "two\nlines\n"),
]


@pytest.mark.parametrize("text, expected", SCALARS, ids=[s[0] or "empty" for s in SCALARS])
def test_scalar_resolution(text, expected):
    result = value(text)
    assert result == expected
    assert type(result) is type(expected)


def test_nan():
    assert math.isnan(value(".nan"))


# ---------------------------------------------------------------- containers and spans

DOC = """\
# a comment
seat: 1
card: '7D'
plain: AH
quoted: "10S"
cards: [5H, AC, "KS"]
hands:
  1: [5H]
  "2": [2D]
block:
  - x
  - {k: v}
text: |
    first line
    second line
"""


def test_containers_are_loc_types_and_plain_data():
    doc = load(DOC, F)
    assert isinstance(doc, LocDict) and isinstance(doc, dict)
    assert isinstance(doc["cards"], LocList) and isinstance(doc["cards"], list)
    assert isinstance(doc["block"][1], LocDict)
    assert doc == {
        "seat": 1,
        "card": "7D",
        "plain": "AH",
        "quoted": "10S",
        "cards": ["5H", "AC", "KS"],
        "hands": {1: ["5H"], "2": ["2D"]},
        "block": ["x", {"k": "v"}],
        "text": "first line\nsecond line\n",
    }


@pytest.mark.parametrize(
    "path, line, column",
    [
        ((), 2, 1),  # the mapping starts at its first key
        (("seat",), 2, 7),
        (("card",), 3, 8),  # inside the quotes
        (("plain",), 4, 8),
        (("quoted",), 5, 10),  # inside the quotes
        (("cards",), 6, 8),
        (("cards", 0), 6, 9),
        (("cards", 2), 6, 18),  # inside the quotes
        (("hands", 1), 8, 6),
        (("hands", "1"), 8, 6),  # a JSON path spells integer keys as digits
        (("hands", 1, 0), 8, 7),
        (("hands", "2", 0), 9, 9),
        (("block", 1), 12, 5),
        (("block", 1, "k"), 12, 9),
        (("text",), 14, 5),  # a block scalar's content, not its `|`
        # The deepest node that exists:
        (("cards", 9), 6, 8),
        (("nope", "deeper"), 2, 1),
        (("seat", "x"), 2, 7),
    ],
)
def test_span_at(path, line, column):
    assert span_at(load(DOC, F), path) == Span(F, line, column)


@pytest.mark.parametrize(
    "path, key, line, column",
    [
        ((), "seat", 2, 1),
        ((), "quoted", 5, 1),
        (("hands",), 1, 8, 3),
        (("hands",), "2", 9, 4),  # inside the quotes
        (("hands",), "1", 8, 3),
        (("block", 1), "k", 12, 6),
        (("block", 1), "missing", 12, 5),
    ],
)
def test_key_span_at(path, key, line, column):
    assert key_span_at(load(DOC, F), path, key) == Span(F, line, column)


def test_spans_recorded_on_containers():
    doc = load(DOC, F)
    assert doc.key_spans["card"] == Span(F, 3, 1)
    assert doc.value_spans["card"] == Span(F, 3, 8)
    assert doc["cards"].span == Span(F, 6, 8)
    assert doc["cards"].item_spans == [Span(F, 6, 9), Span(F, 6, 13), Span(F, 6, 18)]
    assert doc["hands"].key_spans == {1: Span(F, 8, 3), "2": Span(F, 9, 4)}


def test_expression_inside_string_can_be_located():
    doc = load("when: 'hand.count(7) > 2'\n", F)
    inner = Span(F, 1, 6)  # as an expression parser sees column 6 of its text
    start = doc.value_spans["when"]
    assert start == Span(F, 1, 8)
    assert inner.shifted(start.line - 1, start.column - 1) == Span(F, 1, 13)
    assert source_line(Span(F, 1, 13))[12] == "c"


def test_source_is_registered_for_rendering():
    with pytest.raises(RulespecError) as info:
        load("name: reg\nseat: 1\nseat: 2\n", "registered.yaml")
    assert info.value.render() == (
        "registered.yaml:3:1: duplicate key 'seat' (first at line 2)\n    seat: 2\n    ^"
    )


def test_crlf_and_bom():
    doc = load(b"\xef\xbb\xbfa: x\r\nb: 'y'\r\n", F)
    assert doc == {"a": "x", "b": "y"}
    assert doc.value_spans["b"] == Span(F, 2, 5)


def test_bytes_and_str_agree():
    assert load(DOC.encode("utf-8"), F) == load(DOC, F)


def test_aliases_are_expanded_into_independent_copies():
    doc = load("a: &x [1, 2]\nb: *x\n", F)
    assert doc["a"] == doc["b"] == [1, 2]
    assert doc["a"] is not doc["b"]


# ---------------------------------------------------------------- refusals

ERRORS = [
    # syntax
    ("tab indentation", "a:\n\tb: 1\n", "f.yaml:2:1: found a tab character where indentation is expected"),
    ("tab before a key", "\ta: 1\n", "f.yaml:1:1: found a tab character where indentation is expected"),
    ("colon in plain value", "a: b: c\n", "f.yaml:1:5: unexpected ':'; check the indentation, or quote a value that contains ': '"),
    ("key without colon", "a: 1\nb\n", "f.yaml:2:2: expected ':' after a key; check the indentation"),
    ("unclosed quote", "a: 'x\n", "f.yaml:1:6: unexpected end of the file (while scanning a quoted scalar at line 1)"),
    ("unclosed flow list", "a: [1, 2\n", "f.yaml:1:9: expected ',' or ']', but found the end of the file (while parsing a flow sequence at line 1)"),
    ("outdented item", "a:\n  - 1\n - 2\n", ("f.yaml:3:2: indented 1 space, but line 2 above it, in the same block, 2: the lines of a block "
      "line up (this file indents by 2); check the indentation")),
    ("list then key", "a:\n  b: 1\n c: 2\n", ("f.yaml:3:2: indented 1 space, but line 2 above it, in the same block, 2: the lines of a block "
      "line up (this file indents by 2); check the indentation")),
    ("reserved character", "a: @x\n", "f.yaml:1:4: unexpected character '@'; quote the value if it starts with '@'"),
    ("bad escape", 'a: "\\q"\n', "f.yaml:1:6: found unknown escape character 'q' (while scanning a double-quoted scalar at line 1)"),
    ("undefined alias", "a: *q\n", "f.yaml:1:4: undefined alias 'q'"),
    ("duplicate anchor", "a: &x 1\nb: &x 2\n", "f.yaml:2:4: duplicate anchor 'x' (first at line 1)"),
    ("two documents", "a: 1\n---\nb: 2\n", "f.yaml:2:1: expected a single document; found a second one"),
    ("control character", "a: 1\nb: x\x07\n", "f.yaml:2:5: control character U+0007 is not allowed in YAML text"),
    # shape of the document
    ("empty", "", "f.yaml:1:1: empty file; expected a mapping"),
    ("blank", "  \n\n", "f.yaml:1:1: empty file; expected a mapping"),
    ("comments only", "# nothing\n", "f.yaml:1:1: empty file; expected a mapping"),
    ("top-level list", "- 1\n", "f.yaml:1:1: expected a mapping at the top level, found a list"),
    ("top-level scalar", "hello\n", "f.yaml:1:1: expected a mapping at the top level, found the value 'hello'"),
    ("top-level null", "--- ~\n", "f.yaml:1:5: expected a mapping at the top level, found an empty value"),
    # keys
    ("duplicate key", "seat: 1\ncard: 7D\nseat: 2\n", "f.yaml:3:1: duplicate key 'seat' (first at line 1)"),
    ("duplicate int key", "hands:\n  1: [5H]\n  1: [AC]\n", "f.yaml:3:3: duplicate key 1 (first at line 2)"),
    ("duplicate key in flow", "a: {b: 1, b: 2}\n", "f.yaml:1:11: duplicate key 'b' (first at line 1)"),
    ("list as key", "? [a]\n: 1\n", "f.yaml:1:3: a key must be a string or an integer, found a list"),
    ("mapping as key", "? {a: 1}\n: 1\n", "f.yaml:1:3: a key must be a string or an integer, found a mapping"),
    ("null key", "~: 1\n", "f.yaml:1:1: a key must be a string or an integer, found an empty value"),
    ("bool key", "true: 1\n", "f.yaml:1:1: a key must be a string or an integer, found the value 'true'"),
    ("float key", "1.5: 1\n", "f.yaml:1:1: a key must be a string or an integer, found the value '1.5'"),
    ("merge key", "a: &x {b: 1}\nc:\n  <<: *x\n", "f.yaml:3:3: merge keys ('<<') are not supported; write the keys out"),
    # values
    ("19-digit integer", "a: 1234567890123456789\n", "f.yaml:1:4: integer with more than 18 digits: 1234567890123456789"),
    ("negative huge integer", "a: -99999999999999999999\n", "f.yaml:1:4: integer with more than 18 digits: -99999999999999999999"),
    ("huge hex", "a: 0xFFFFFFFFFFFFFFFFFF\n", "f.yaml:1:4: integer with more than 18 digits: 0xFFFFFFFFFFFFFFFFFF"),
    ("enormous integer", "a: " + "9" * 5000 + "\n", "f.yaml:1:4: integer with more than 18 digits: 999999999999999999999999999..."),
    ("custom tag", "a: !include x.yaml\n", "f.yaml:1:4: unsupported tag '!include'; tags are not allowed"),
    ("python tag", "a: !!python/object/apply:os.system [ls]\n", "f.yaml:1:4: unsupported tag '!!python/object/apply:os.system'; tags are not allowed"),
    ("binary tag", "a: !!binary aGk=\n", "f.yaml:1:4: unsupported tag '!!binary'; tags are not allowed"),
    ("set tag", "a: !!set {x}\n", "f.yaml:1:4: unsupported tag '!!set'; tags are not allowed"),
    ("bad int tag", "a: !!int 'x'\n", "f.yaml:1:5: invalid value 'x' for tag '!!int'"),
    ("bad bool tag", "a: !!bool yes\n", "f.yaml:1:4: invalid value 'yes' for tag '!!bool'"),
    ("recursive alias", "a: &x [1, *x]\n", "f.yaml:1:4: recursive alias: this node contains an alias to itself"),
]


@pytest.mark.parametrize("source, headline", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_refused(source, headline):
    with pytest.raises(RulespecError) as info:
        load(source, F)
    assert info.value.headline() == headline
    assert info.value.others == []


BYTE_ERRORS = [
    ("invalid byte", b"a: 1\nb: x\xffy\n", "f.yaml:2:5: not UTF-8 text: invalid byte 0xff at line 2 column 5"),
    ("column counts characters", "a: èé".encode() + b"\xfe\n", "f.yaml:1:6: not UTF-8 text: invalid byte 0xfe at line 1 column 6"),
    ("latin-1 file", "a: città\n".encode("latin-1"), "f.yaml:1:8: not UTF-8 text: invalid byte 0xe0 at line 1 column 8"),
    ("after a BOM", b"\xef\xbb\xbf\xff: 1\n", "f.yaml:1:1: not UTF-8 text: invalid byte 0xff at line 1 column 1"),
    ("UTF-16", "a: 1\n".encode("utf-16"), "f.yaml:1:1: not UTF-8 text: invalid byte 0xff at line 1 column 1"),
]


@pytest.mark.parametrize("source, headline", [e[1:] for e in BYTE_ERRORS], ids=[e[0] for e in BYTE_ERRORS])
def test_refused_bytes(source, headline):
    with pytest.raises(RulespecError) as info:
        load(source, F)
    assert info.value.headline() == headline


def test_file_over_two_mib_refused():
    big = b"a: 1\n" + b"#" * (2 * 1024 * 1024)
    with pytest.raises(RulespecError) as info:
        load(big, F)
    assert info.value.headline() == "f.yaml:1:1: file too large: 2097157 bytes; the limit is 2 MiB"
    with pytest.raises(RulespecError) as info:
        load("a: '" + "è" * (1024 * 1024) + "'\n", F)  # 1 Mi characters, 2 MiB and more of UTF-8
    assert info.value.message == "file too large: 2097158 bytes; the limit is 2 MiB"


def test_file_of_exactly_two_mib_is_read():
    text = "a: 1\n" + "#" * (2 * 1024 * 1024 - 6) + "\n"
    assert load(text, F) == {"a": 1}


# ---------------------------------------------------------------- hostile inputs, bounded work


def _refusal_calls(source, message_start: str) -> int:
    """The function calls it takes to refuse `source` (tests/work.py: work counted, not timed)."""
    error, calls = count_calls(load, source, F)
    assert isinstance(error, RulespecError), error
    assert error.message.startswith(message_start), error.message
    return calls


def _bomb(levels: int, width: int, leaf: str = "[x, x, x, x, x, x, x, x, x, x]") -> str:
    lines = [f"l0: &l0 {leaf}"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "source",
    [
        _bomb(9, 10),  # the classic "billion laughs"
        _bomb(30, 2),  # narrow but deep: 2**30
        _bomb(9, 10, leaf="{a: x, b: [y, z]}"),
        "a: &a [" + ", ".join(["x"] * 1000) + "]\nb: [" + ", ".join(["*a"] * 200) + "]\n",
    ],
    ids=["billion-laughs", "binary", "mapping-leaves", "wide"],
)
def test_alias_bomb_refused_quickly(source):
    # About 14,000 to 210,000 calls today; expanding the aliases would take billions.
    assert _refusal_calls(source, "too many nodes: more than 100000 after expanding aliases") < 1_000_000


def test_alias_bomb_located_where_the_budget_runs_out():
    with pytest.raises(RulespecError) as info:
        load(_bomb(9, 10), F)
    assert info.value.headline() == "f.yaml:5:5: too many nodes: more than 100000 after expanding aliases"


def test_alias_within_budget_is_expanded():
    doc = load(_bomb(4, 10), F)  # 10_000 leaves
    assert len(doc["l3"]) == 10 and len(doc["l3"][9][9][9]) == 10


def test_nesting_limit():
    ok = "a: " + "[" * 63 + "]" * 63 + "\n"  # the root mapping is level 1
    load(ok, F)
    with pytest.raises(RulespecError) as info:
        load("a: " + "[" * 64 + "]" * 64 + "\n", F)
    assert info.value.headline() == "f.yaml:1:67: nesting deeper than 64 levels"


def test_block_nesting_limit():
    text = "".join("  " * i + f"k{i}:\n" for i in range(70)) + "  " * 70 + "x\n"
    with pytest.raises(RulespecError) as info:
        load(text, F)
    assert info.value.headline() == "f.yaml:65:129: nesting deeper than 64 levels"


def test_nesting_through_aliases():
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    with pytest.raises(RulespecError) as info:
        load(text, F)
    assert info.value.message == "nesting deeper than 64 levels (after expanding aliases)"


def test_million_brackets_refused_without_recursion_error():
    # About 36,000 calls today: refused at the 65th bracket, not after reading a million.
    assert _refusal_calls("a: " + "[" * 1_000_000, "nesting deeper than 64 levels") < 500_000


def test_too_many_plain_nodes_refused_early(monkeypatch):
    # A smaller budget keeps this fast; the mechanism is the same. The syntax
    # error after the budget is never reached: counting stops the composer
    # there rather than after the whole file.
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1000)
    source = "a: [" + ",".join(["1"] * 1001) + "]]]\n"
    with pytest.raises(RulespecError) as info:
        load(source, F)
    assert info.value.headline() == "f.yaml:1:1999: too many nodes: more than 1000"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{},&*!'\"#|>?\n\t 01~.") + ["è", "\x00"]), max_size=60))
def test_any_text_loads_or_is_one_located_error(text):
    try:
        doc = load(text, "fuzz.yaml")
    except RulespecError as err:
        assert err.span is not None and err.span.file == "fuzz.yaml" and err.span.line >= 1 and err.span.column >= 1
    else:
        assert isinstance(doc, LocDict)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_load_or_are_one_located_error(data):
    try:
        load(data, "fuzz.yaml")
    except RulespecError as err:
        assert err.span is not None


def test_surrogate_in_text_refused():
    with pytest.raises(RulespecError) as info:
        load("a: x\ud800\n", F)
    assert info.value.headline() == "f.yaml:1:5: character U+D800 is not allowed in YAML text"
