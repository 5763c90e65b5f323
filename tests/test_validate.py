"""Validate stage: jsonschema errors as located, human messages (exact headlines asserted)."""
from __future__ import annotations

import pytest

from rulespec.errors import RulespecError
from rulespec.source.validate import describe_path, load_schema, validate
from rulespec.source.yamlsafe import load

F = "v.yaml"

SEAT = {"type": "integer", "minimum": 0}

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "seats": {"type": "integer", "minimum": 2, "maximum": 6},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "step": {"type": "integer", "multipleOf": 5},
        "flag": {"type": "boolean"},
        "mode": {"enum": ["cappotto", "capotun", "misdeal"]},
        "fixed": {"const": 40},
        "id": {"type": "string", "minLength": 3, "maxLength": 8, "pattern": "^[a-z]+$"},
        "either": {"type": ["integer", "string"]},
        "cards": {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": True, "items": {"type": "string"}},
        "pair": {"type": "array", "minItems": 2, "items": {"type": "string"}},
        "table": {"type": "object", "minProperties": 1, "maxProperties": 2},
        "winner": {"oneOf": [SEAT, {"type": "array", "items": SEAT}]},
        "deck": {
            "oneOf": [
                {"enum": ["french40", "latin40"]},
                {"type": "object", "required": ["ranks"], "properties": {"ranks": {"type": "array"}}},
            ]
        },
        "hands": {
            "type": "object",
            "propertyNames": {"type": ["integer", "string"], "minimum": 0, "pattern": "^[0-9]+$"},
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "card": {"type": "string", "x-message": "expected a card such as '7D', found {found}"},
        "count": {
            "type": "integer",
            "minimum": 1,
            "x-message": {"minimum": "a count is at least 1, found {found}"},
        },
        "gone": False,
        "plays": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["seat"],
                "properties": {
                    "seat": SEAT,
                    "card": {"type": "string"},
                    "capture": {"type": "array"},
                    "declare": {
                        "type": "array",
                        "items": {"type": "object", "additionalProperties": False, "properties": {"bonus": {"type": "string"}}},
                    },
                },
                "dependentRequired": {"capture": ["card"]},
            },
        },
        "a": {}, "b": {}, "c": {}, "d": {},
        "pick": {
            "type": "object",
            "properties": {"x": {}, "y": {}},
            "allOf": [
                {"not": {"required": ["x", "y"]}, "x-message": "give 'x' or 'y', not both", "x-at": "y"},
            ],
        },
    },
}


def check(text: str, schema=SCHEMA, what: str = "thing") -> list[str]:
    """The headlines validate reports for a document (empty when valid)."""
    doc = load(text, F)
    try:
        validate(doc, schema, what=what)
    except RulespecError as err:
        return [e.headline() for e in err.all]
    return []


CASES = [
    # keys
    ("unknown key", "name: x\nseatz: 4\n",
     "v.yaml:2:1: unknown key 'seatz' in thing; expected one of: a, b, c, card, cards, count, d, deck, either, fixed, flag, gone, hands, id, mode, name, pair, pick, plays, ratio, seats, step, table, winner; did you mean 'seats'?"),
    ("unknown nested key", "name: x\nplays:\n  - seat: 1\n    crad: 7D\n",
     "v.yaml:4:5: unknown key 'crad' in plays[0]; expected one of: capture, card, declare, seat; did you mean 'card'?"),
    ("unknown key, nothing close", "name: x\nplays:\n  - {seat: 1, zzz: 1}\n",
     "v.yaml:3:15: unknown key 'zzz' in plays[0]; expected one of: capture, card, declare, seat"),
    ("unknown key deeper", "name: x\nplays:\n  - seat: 1\n  - seat: 2\n    declare: [{bonus: x, matta: 2}]\n",
     "v.yaml:5:26: unknown key 'matta' in plays[1].declare[0]; expected one of: bonus"),
    ("missing key", "seats: 4\n", "v.yaml:1:1: missing key 'name' in thing"),
    ("missing nested key", "name: x\nplays:\n  - card: 7D\n", "v.yaml:3:5: missing key 'seat' in plays[0]"),
    ("dependent key", "name: x\nplays:\n  - seat: 1\n    capture: []\n", "v.yaml:4:5: key 'capture' needs key 'card' in plays[0]"),
    ("false subschema", "name: x\ngone: 1\n", "v.yaml:2:1: key 'gone' is not allowed in thing"),
    # types
    ("integer", "name: x\nseats: abc\n", "v.yaml:2:8: expected an integer, found 'abc'"),
    ("integer, not a float", "name: x\nseats: 4.0\n", "v.yaml:2:8: expected an integer, found 4.0"),
    ("integer, not a bool", "name: x\nseats: true\n", "v.yaml:2:8: expected an integer, found true"),
    ("integer, not empty", "name: x\nseats:\n", "v.yaml:2:7: expected an integer, found an empty value"),
    ("string", "name: 7\n", "v.yaml:1:7: expected a string, found 7"),
    ("boolean", "name: x\nflag: yes\n", "v.yaml:2:7: expected true or false, found 'yes'"),
    ("list", "name: x\ncards: {a: 1}\n", "v.yaml:2:8: expected a list, found a mapping"),
    ("mapping", "name: x\ntable: [1]\n", "v.yaml:2:8: expected a mapping, found a list"),
    ("number", "name: x\nratio: half\n", "v.yaml:2:8: expected a number, found 'half'"),
    ("several types", "name: x\neither: [1]\n", "v.yaml:2:9: expected an integer or a string, found a list"),
    ("item type", "name: x\ncards: [7D, 8]\n", "v.yaml:2:13: expected a string, found 8"),
    ("long string shortened", "name: " + "x" * 60 + "\nseats: " + "y" * 60 + "\n",
     "v.yaml:2:8: expected an integer, found 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...'"),
    # values
    ("enum", "name: x\nmode: cappoto\n",
     "v.yaml:2:7: unknown value 'cappoto'; expected one of: cappotto, capotun, misdeal; did you mean 'cappotto'?"),
    ("enum, nothing close", "name: x\nmode: 3\n", "v.yaml:2:7: unknown value 3; expected one of: cappotto, capotun, misdeal"),
    ("enum, left empty", "name: x\nmode:\n", "v.yaml:2:6: expected one of: cappotto, capotun, misdeal, found an empty value"),
    ("enum, a list", "name: x\nmode: [cappotto]\n", "v.yaml:2:7: expected one of: cappotto, capotun, misdeal, found a list"),
    ("const", "name: x\nfixed: 52\n", "v.yaml:2:8: expected 40, found 52"),
    ("minimum", "name: x\nseats: 1\n", "v.yaml:2:8: expected at least 2, found 1"),
    ("maximum", "name: x\nseats: 9\n", "v.yaml:2:8: expected at most 6, found 9"),
    ("exclusive minimum", "name: x\nratio: 0\n", "v.yaml:2:8: expected more than 0, found 0"),
    ("exclusive maximum", "name: x\nratio: 1.0\n", "v.yaml:2:8: expected less than 1, found 1.0"),
    ("multiple of", "name: x\nstep: 7\n", "v.yaml:2:7: expected a multiple of 5, found 7"),
    ("empty list", "name: x\ncards: []\n", "v.yaml:2:8: expected a non-empty list"),
    ("too few items", "name: x\npair: [a]\n", "v.yaml:2:7: expected at least 2 items, found 1"),
    ("too many items", "name: x\ncards: [a, b, c, d]\n", "v.yaml:2:8: expected at most 3 items, found 4"),
    ("repeated item", "name: x\ncards: [7D, 7D]\n", "v.yaml:2:8: repeated item '7D' in cards"),
    ("empty string", "name: ''\n", "v.yaml:1:8: expected a non-empty string"),
    ("short string", "name: x\nid: ab\n", "v.yaml:2:5: expected at least 3 characters, found 'ab'"),
    ("long string", "name: x\nid: abcdefghij\n", "v.yaml:2:5: expected at most 8 characters, found 'abcdefghij'"),
    ("pattern", "name: x\nid: Abcd\n", "v.yaml:2:5: invalid value 'Abcd'; expected text matching ^[a-z]+$"),
    ("empty mapping", "name: x\ntable: {}\n", "v.yaml:2:8: expected a non-empty mapping"),
    ("too many keys", "name: x\ntable: {a: 1, b: 2, c: 3}\n", "v.yaml:2:8: expected at most 2 keys, found 3"),
    # oneOf / anyOf: one sensible message
    ("oneOf, wrong type for every branch", "name: x\nwinner: first\n", "v.yaml:2:9: expected an integer or a list, found 'first'"),
    ("oneOf, deeper error wins", "name: x\nwinner: [0, two]\n", "v.yaml:2:13: expected an integer, found 'two'"),
    ("oneOf, branch of the right type", "name: x\nwinner: -1\n", "v.yaml:2:9: expected at least 0, found -1"),
    ("oneOf, enum branch for a string", "name: x\ndeck: french4\n",
     "v.yaml:2:7: unknown value 'french4'; expected one of: french40, latin40; did you mean 'french40'?"),
    ("oneOf, object branch for a mapping", "name: x\ndeck: {ranks: 3}\n", "v.yaml:2:15: expected a list, found 3"),
    # keys by schema (integer keys are allowed by propertyNames)
    ("property name", "name: x\nhands:\n  1: [a]\n  x: [b]\n", "v.yaml:4:3: invalid key 'x' in hands: invalid value 'x'; expected text matching ^[0-9]+$"),
    ("property name, negative", "name: x\nhands: {-1: [a]}\n", "v.yaml:2:9: invalid key '-1' in hands: invalid value '-1'; expected text matching ^[0-9]+$"),
    ("value under an integer key", "name: x\nhands:\n  1: [a, 2]\n", "v.yaml:3:10: expected a string, found 2"),
    # x-message
    ("x-message", "name: x\ncard: 7\n", "v.yaml:2:7: expected a card such as '7D', found 7"),
    ("x-message by keyword", "name: x\ncount: 0\n", "v.yaml:2:8: a count is at least 1, found 0"),
    ("x-message by keyword, other keyword", "name: x\ncount: many\n", "v.yaml:2:8: expected an integer, found 'many'"),
    ("x-at", "name: x\npick:\n  x: 1\n  y: 2\n", "v.yaml:4:3: give 'x' or 'y', not both"),
]


@pytest.mark.parametrize("text, headline", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_message(text, headline):
    assert check(text) == [headline]


def test_valid_document_passes():
    assert check("name: x\nseats: 4\nwinner: [0, 1]\ndeck: latin40\nhands: {0: [a], '1': [b]}\nplays:\n  - {seat: 0, card: 7D, capture: []}\n") == []


def test_missing_keys_are_merged():
    schema = {"type": "object", "required": ["a", "b", "c"], "properties": {"plays": {"items": {"required": ["seat", "card"]}}}}
    assert check("x: 1\n", schema) == ["v.yaml:1:1: missing keys 'a', 'b' and 'c' in thing"]
    assert check("a: 1\nc: 2\nplays:\n  - {foo: 1}\n", schema) == [
        "v.yaml:1:1: missing key 'b' in thing",
        "v.yaml:4:5: missing keys 'seat' and 'card' in plays[0]",
    ]


def test_all_errors_sorted_by_position():
    text = "flag: 1\nseats: x\nname: 3\nzz: 1\nplays:\n  - {seat: -1}\n"
    assert check(text, what="ruleset") == [
        "v.yaml:1:7: expected true or false, found 1",
        "v.yaml:2:8: expected an integer, found 'x'",
        "v.yaml:3:7: expected a string, found 3",
        "v.yaml:4:1: unknown key 'zz' in ruleset; expected one of: a, b, c, card, cards, count, d, deck, either, fixed, flag, gone, hands, id, mode, name, pair, pick, plays, ratio, seats, step, table, winner",
        "v.yaml:6:12: expected at least 0, found -1",
    ]


def test_one_error_per_place():
    # minLength and pattern both fail on the same value: only one message there.
    assert check("name: x\nid: A\n") == ["v.yaml:2:5: expected at least 3 characters, found 'A'"]


def test_at_most_twenty_errors():
    text = "name: x\nplays:\n" + "".join(f"  - {{seat: s{i}}}\n" for i in range(50))
    headlines = check(text)
    assert len(headlines) == 20
    assert headlines[0] == "v.yaml:3:12: expected an integer, found 's0'"
    assert headlines[-1] == "v.yaml:22:12: expected an integer, found 's19'"


def test_error_object_carries_others_and_renders():
    doc = load("name: 3\nseats: 1\n", "render.yaml")
    with pytest.raises(RulespecError) as info:
        validate(doc, SCHEMA, what="thing")
    err = info.value
    assert err.headline() == "render.yaml:1:7: expected a string, found 3"
    assert [o.headline() for o in err.others] == ["render.yaml:2:8: expected at least 2, found 1"]
    assert err.render() == (
        "render.yaml:1:7: expected a string, found 3\n    name: 3\n          ^\n"
        "render.yaml:2:8: expected at least 2, found 1\n    seats: 1\n           ^"
    )


def test_a_long_line_is_quoted_around_its_column():
    # A stranger's file may hold a line of thousands of characters: the message quotes QUOTE_WIDTH of them
    # around the column, marked where cut, with the caret still under the column.
    from rulespec.errors import QUOTE_WIDTH
    with pytest.raises(RulespecError) as info:
        validate(load("seats: 2\nname: 3   # " + "x" * 1000 + "\n", "long.yaml"), SCHEMA, what="thing")
    headline, quoted, caret = info.value.render().splitlines()[:3]
    assert headline == "long.yaml:2:7: expected a string, found 3"
    assert quoted.startswith("    name: 3   # x") and quoted.endswith("x…") and len(quoted) == 4 + QUOTE_WIDTH + 1
    assert caret == "    " + " " * 6 + "^"
    line = '{name: "' + "x" * 300 + '", seats: 1}'
    with pytest.raises(RulespecError) as info:
        validate(load(line + "\n", "long.yaml"), SCHEMA, what="thing")
    headline, quoted, caret = info.value.render().splitlines()[:3]
    column = int(headline.split(":")[2])
    assert line[column - 1] == "1" and quoted.startswith("    …") and quoted.endswith("seats: 1}")
    assert quoted[len(caret) - 1] == "1"           # the caret under the column in the cut line


def test_plain_data_without_spans():
    with pytest.raises(RulespecError) as info:
        validate({"name": 3, "extra": 1}, SCHEMA, what="thing")
    assert [e.headline() for e in info.value.all] == [
        "expected a string, found 3",
        "unknown key 'extra' in thing; expected one of: a, b, c, card, cards, count, d, deck, either, fixed, flag, gone, hands, id, mode, name, pair, pick, plays, ratio, seats, step, table, winner",
    ]


def test_packaged_schema_by_name():
    schema = load_schema("transcript")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert load_schema("transcript.schema.json") is not None
    doc = load("ruleset: cirulla\ndealer: 0\ndeck: [AH]\nexpect: {scoer: 1}\n", F)
    with pytest.raises(RulespecError) as info:
        validate(doc, "transcript", what="transcript")
    assert info.value.headline() == (
        "v.yaml:4:10: unknown key 'scoer' in expect; expected one of: dealer_events, events, outcome, score, table, winner; did you mean 'score'?"
    )


@pytest.mark.parametrize(
    "path, expected",
    [
        ([], "thing"),
        (["plays"], "plays"),
        (["plays", 2], "plays[2]"),
        (["plays", 0, "declare", 1], "plays[0].declare[1]"),
        (["hands", 1], "hands.1"),
        (["hands", 1, 0], "hands.1[0]"),
    ],
)
def test_describe_path(path, expected):
    doc = load("plays:\n  - {declare: [1, 2]}\nhands: {1: [a]}\n", F)
    assert describe_path(doc, path, "thing") == expected


# ---------------------------------------------------------------- the transcript schema

TRANSCRIPT_VALID = [
    ("minimal deck", "ruleset: cirulla\ndealer: 0\ndeck: [AH, 2H]\n"),
    ("minimal deal", "ruleset: cirulla\ndealer: 3\ndeal:\n  - hands: {0: [AH]}\n"),
    ("table-only round", "ruleset: x\ndealer: 0\ndeal:\n  - table: [AH]\n"),
    ("redeal round", "ruleset: x\ndealer: 0\ndeal:\n  - {table: [AH, AD, AS, AC], hands: {1: [2H]}, redeal: true}\n  - hands: {1: [3H]}\n"),
    ("options of every scalar type", "ruleset: x\noptions: {a: 1, b: 1.5, c: fast, d: false}\ndealer: 0\ndeck: [AH]\n"),
    ("knock", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 3, declare: [{bonus: decino}], events: [decino]}\n"),
    ("refused knock", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 3, declare: [{bonus: decino}], error: too late}\n"),
    ("declare with cards", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - seat: 1\n    declare: [{bonus: decino, cards: [QS, QD, QC]}, {bonus: barsega, matta: 2}]\n    card: AH\n"),
    # transcripts.md: `declare` is optional, a list of claims: [] with a card claims nothing (as `capture: []`)
    ("declare empty with a card", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, declare: [], card: AH}\n"),
    ("capture absent or empty", "ruleset: x\ndealer: 0\ndeck: [AH, 2H]\nplays:\n  - {seat: 1, card: AH}\n  - {seat: 2, card: 2H, capture: []}\n"),
    ("legal with empty set", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, card: AH, legal: [[], [KD, 2S]]}\n"),
    ("empty plays and expect", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays: []\nexpect: {}\n"),
    ("game-ending deal", "ruleset: x\ndealer: 0\ndeal:\n  - table: [7D, 7H, 7C, 7S]\nexpect: {dealer_events: [poker], outcome: table_win, winner: 0}\n"),
    ("several winners", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect: {outcome: capotun, winner: [1, 2]}\n"),
    # docs/resolutions.md: in a complete hand, `winner: []` says nobody has won the game yet
    ("winner empty list", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect: {winner: []}\n"),
    ("expect with string side keys", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect:\n  events: {'0': [scopa], '1': []}\n  score: {'0': {total: 3}, 1: {total: -1}}\n"),
    ("JSON transcript", '{"ruleset": "cirulla", "seats": 2, "dealer": 1, "deal": [{"table": ["AH"], "hands": {"0": ["2H"], "1": ["3H"]}}], '
                        '"plays": [{"seat": 0, "card": "2H"}], "expect": {"table": ["AH", "2H"], "events": {"0": [], "1": []}}}'),
]


@pytest.mark.parametrize("text", [c[1] for c in TRANSCRIPT_VALID], ids=[c[0] for c in TRANSCRIPT_VALID])
def test_transcript_schema_accepts(text):
    assert check(text, "transcript", "transcript") == []


TRANSCRIPT_INVALID = [
    ("card as an int", "ruleset: x\ndealer: 0\ndeck: [AH, 7]\n", "v.yaml:3:12: expected a card such as '7D', found 7"),
    ("options nested", "ruleset: x\noptions: {a: {b: 1}}\ndealer: 0\ndeck: [AH]\n",
     "v.yaml:2:14: expected an option value (a number, a string, true or false), found a mapping"),
    ("options null", "ruleset: x\noptions: {a: ~}\ndealer: 0\ndeck: [AH]\n",
     "v.yaml:2:14: expected an option value (a number, a string, true or false), found an empty value"),
    ("empty deal", "ruleset: x\ndealer: 0\ndeal: []\n", "v.yaml:3:7: expected a non-empty list"),
    ("empty round", "ruleset: x\ndealer: 0\ndeal:\n  - redeal: true\n", "v.yaml:4:5: a deal round needs 'hands' or 'table'"),
    ("hands as list", "ruleset: x\ndealer: 0\ndeal:\n  - hands: [[AH]]\n", "v.yaml:4:12: expected a mapping, found a list"),
    ("side key", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect:\n  events: {first: []}\n", "v.yaml:5:12: expected a side number as key, found 'first'"),
    ("score category not int", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect:\n  score: {0: {total: 1.5}}\n", "v.yaml:5:22: expected an integer, found 1.5"),
    ("outcome not string", "ruleset: x\ndealer: 0\ndeck: [AH]\nexpect: {outcome: [cappotto]}\n", "v.yaml:4:19: expected a string, found a list"),
    ("knock declaring nothing", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, declare: []}\n", "v.yaml:5:24: expected a non-empty list"),
    ("declaration without bonus", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, declare: [{matta: '2'}], card: AH}\n",
     "v.yaml:5:25: missing key 'bonus' in plays[0].declare[0]"),
    ("legal without card", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, declare: [{bonus: x}], legal: [[]]}\n",
     "v.yaml:5:38: key 'legal' needs key 'card' in plays[0]"),
    ("error not string", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, card: AH, error: true}\n", "v.yaml:5:32: expected a string, found true"),
    ("play without seat", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {card: AH}\n", "v.yaml:5:5: missing key 'seat' in plays[0]"),
    ("plays as mapping", "ruleset: x\ndealer: 0\ndeck: [AH]\nplays: {seat: 1}\n", "v.yaml:4:8: expected a list, found a mapping"),
    ("empty ruleset", "ruleset: ''\ndealer: 0\ndeck: [AH]\n", "v.yaml:1:11: expected a non-empty string"),
]


@pytest.mark.parametrize("text, headline", [c[1:] for c in TRANSCRIPT_INVALID], ids=[c[0] for c in TRANSCRIPT_INVALID])
def test_transcript_schema_refuses(text, headline):
    assert check(text, "transcript", "transcript") == [headline]


def test_seat_key_with_many_digits_is_refused_not_crashed():
    text = 'ruleset: x\ndealer: 0\ndeal:\n  - hands:\n      ? "' + "9" * 5000 + '"\n      : [AH]\n'
    assert check(text, "transcript", "transcript") == [
        "v.yaml:5:10: expected a seat number as key, found '9999999999999999999999999999999999999...'"
    ]


def test_integer_keys_meet_pattern_properties():
    # The schema sees JSON, where keys are strings: no TypeError from re.
    schema = {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "string"}}, "additionalProperties": False}
    assert check("1: a\n2: 3\nx: b\n", schema) == [
        "v.yaml:2:4: expected a string, found 3",
        "v.yaml:3:1: unknown key 'x' in thing",
    ]


def test_false_subschema_names_the_right_key_through_ref():
    schema = {"$defs": {"p": {"properties": {"gone": False, "ok": {}}}}, "properties": {"x": {"$ref": "#/$defs/p"}}}
    # `ok` has the same value as `gone`: the key is found by the schema, not the value alone.
    assert check("x:\n  ok: 1\n  gone: 1\n", schema) == ["v.yaml:3:3: key 'gone' is not allowed in x"]


def test_a_section_key_written_nested_hints_the_top_level_key(tmp_path):
    # `deal: {checks: ...}` for `deal_checks:`: no key of deal is near 'checks', the top level has it.
    from rulespec.compiler.build import compile_ruleset
    path = tmp_path / "nested.yaml"
    path.write_text("id: nested\nextends: cirulla\ndeal:\n  checks: []\n", encoding="utf-8")
    with pytest.raises(RulespecError) as info:
        compile_ruleset(path)
    assert info.value.headline().endswith(
        "nested.yaml:4:3: unknown key 'checks' in deal; expected one of: bury, packet, repeat_last, rounds, short_last; "
        "did you mean the top-level key 'deal_checks'?")


def test_every_problem_in_the_one_branch_whose_type_fits_is_said(tmp_path):
    # `capture.builds` is `true/false` or a mapping: a mapping with three wrong entries said only the first
    # (jsonschema's best match descends into one error of a oneOf); each is now said, located.
    from rulespec.compiler.build import compile_ruleset
    path = tmp_path / "houses.yaml"
    path.write_text("id: houses\nextends: casino\ncapture:\n  builds:\n    raise: yes please\n"
                    "    values: [0]\n    owner_must_act: 3\n", encoding="utf-8")
    with pytest.raises(RulespecError) as info:
        compile_ruleset(path)
    said = [e.headline().split("houses.yaml:")[-1] for e in [info.value, *info.value.others]]
    assert said == ["5:12: expected true or false, found 'yes please'", "6:14: expected at least 1, found 0",
                    "7:21: expected true or false, found 3"]


def test_a_value_of_a_type_no_branch_takes_is_one_problem(tmp_path):
    from rulespec.compiler.build import compile_ruleset
    path = tmp_path / "houses.yaml"
    path.write_text("id: houses\nextends: casino\ncapture:\n  builds: 3\n", encoding="utf-8")
    with pytest.raises(RulespecError) as info:
        compile_ruleset(path)
    assert info.value.headline().endswith("houses.yaml:4:11: expected true or false or a mapping, found 3")
    assert not info.value.others
