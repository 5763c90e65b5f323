"""Type checking: the type of every form, and every misuse as an exact located message."""
import pytest

from rulespec.lang.decks import BRESCIANE52, FRENCH40
from rulespec.errors import RulespecError, Span
from rulespec.lang.expressions import Call, Name, parse, walk
from rulespec.lang.typecheck import (
    BOOL, BUILTINS, CARD, CARDS, INT, LIST_CARD, LIST_INT, LIST_STR, MAP, STR, Context, Type, accepts, check,
)

ORIGIN = Span("rules.yaml", 7, 13)  # column c of the text is 12 + c

NAMES = {"table": CARDS, "pile": CARDS, "cards": CARDS, "captured": CARDS, "played": CARD,
         "previous": CARDS, "last_play": BOOL, "side": INT, "round": INT, "label": STR}
OPTIONS = {"target": 51, "piccola7": False, "special": "D", "bonus_rank": "Z"}

CONTEXTS = {
    "french": Context(FRENCH40, NAMES, wild=FRENCH40.index("7H"), options=OPTIONS),
    "scoring": Context(FRENCH40, NAMES, wild=FRENCH40.index("7H"), options=OPTIONS, allow_most=True),
    "brescia": Context(BRESCIANE52, {"pile": CARDS, "played": CARD}),
    "bare": Context(FRENCH40, {"table": CARDS}),
}


def typed(text, ctx="french", expected=None):
    return check(parse(text, ORIGIN), CONTEXTS[ctx], expected)


# (expression, context, type)
TYPES = [
    ("1", "french", INT),
    ("-1 + 2 * 3 // 4 % 5", "french", INT),
    ("true", "french", BOOL),
    ("'D'", "french", STR),
    ("7D", "french", CARD),
    ("10D", "brescia", CARD),
    ("[AD, 2D]", "french", LIST_CARD),
    ("[1, 2]", "french", LIST_INT),
    ("['J', 'Q']", "french", LIST_STR),
    ("[]", "french", LIST_CARD),
    ("{'7': 21, 'A': 16}", "french", MAP),
    ("table", "french", CARDS),
    ("played", "french", CARD),
    ("deck", "french", CARDS),
    ("wild", "french", CARD),
    ("options.target", "french", INT),
    ("options.piccola7", "french", BOOL),
    ("options.special", "french", STR),
    ("count(table, rank == \"A\") >= 2", "french", BOOL),
    ("can_total(table, 15)", "french", BOOL),
    ("total(cards) <= 9", "french", BOOL),
    ("same_value(cards)", "french", BOOL),
    ("not empty(captured) and empty(table) and not last_play", "french", BOOL),
    ("1 if most(count(pile)) else 0", "scoring", INT),
    ("1 if most(count(pile, suit == \"D\")) else 0", "scoring", INT),
    ("1 if holds(pile, 7D) else 0", "french", INT),
    ("5 if holds_all(pile, [JD, QD, KD]) else 0", "french", INT),
    ("run(pile, [AD, 2D, 3D, 4D, 5D, 6D]) if holds_all(pile, [AD, 2D, 3D]) else 0", "french", INT),
    ("1 if most(best_per_suit(pile, {\"7\": 21, \"6\": 18, \"A\": 16, \"5\": 15, \"4\": 14, \"3\": 13, "
     "\"2\": 12, \"J\": 10, \"Q\": 10, \"K\": 10})) else 0", "scoring", INT),
    ("count(pile, suit == \"D\") == count(deck, suit == \"D\")", "french", BOOL),
    ("count(captured) >= 3", "french", BOOL),
    ("same_suit(captured | played)", "french", BOOL),
    ("not empty(captured & previous) and rank(played) == rank(previous)", "french", BOOL),
    ("count(captured, suit != suit(played)) == 0", "french", BOOL),
    ("select(table, rank in [\"J\", \"Q\", \"K\"])", "french", CARDS),
    ("select(table, rank not in [\"J\", \"Q\", \"K\"])", "french", CARDS),
    ("count(table, numbered and value > 5 and card != 7D)", "french", INT),
    ("count(pile, rank == 'F')", "brescia", INT),
    ("table - captured", "french", CARDS),
    ("played | 7D", "french", CARDS),
    ("[AD, 2D] & table", "french", CARDS),
    ("played in table", "french", BOOL),
    ("played in [AD, 2D]", "french", BOOL),
    ("3 in [1, 2, 3]", "french", BOOL),
    ("min(1, 2, 3) + max(round, 0) + abs(-4)", "french", INT),
    ("max_same_rank(cards)", "french", INT),
    ("same_rank(cards) or same_suit(cards)", "french", BOOL),
    ("value(played) + value(previous)", "french", INT),
    ("table if last_play else [AD]", "french", CARDS),
    ("[AD] if last_play else [2D]", "french", LIST_CARD),
    ("played == 7D", "french", BOOL),
    ("label == 'anything'", "french", BOOL),
    ("suit(played) == options.special", "french", BOOL),
    ("count(table, count(pile, rank == rank) > 0)", "french", INT),
]


@pytest.mark.parametrize("text, ctx, typ", TYPES, ids=[t for t, _, _ in TYPES])
def test_types(text, ctx, typ):
    assert typed(text, ctx) == typ


def test_every_node_is_annotated():
    e = parse("1 if most(count(pile, suit == \"D\" and card in [7D, 7C])) else 0", ORIGIN)
    check(e, CONTEXTS["scoring"])
    assert all(isinstance(n.type, Type) for n in walk(e))


def test_names_record_what_they_refer_to():
    e = parse("count(table, card in select(pile, rank == rank(played)) and suit == 'D')", ORIGIN)
    check(e, CONTEXTS["french"])
    names = {(n.id, n.ref, n.depth) for n in walk(e) if isinstance(n, Name)}
    assert names == {("table", "local", 0), ("card", "candidate", 0), ("pile", "local", 0),
                     ("rank", "candidate", 1), ("played", "local", 0), ("suit", "candidate", 0)}


def test_card_literals_resolve_to_deck_indices():
    e = parse("[AH, 7H, KS]", ORIGIN)
    check(e, CONTEXTS["french"])
    assert [i.index for i in e.items] == [0, 6, 39]


@pytest.mark.parametrize("expected, actual, ok", [
    (CARDS, CARD, True), (CARDS, LIST_CARD, True), (CARDS, CARDS, True), (CARD, CARDS, False),
    (LIST_CARD, CARDS, False), (INT, BOOL, False), (BOOL, INT, False), (LIST_INT, LIST_STR, False),
])
def test_accepts(expected, actual, ok):
    assert accepts(expected, actual) is ok


# (expression, context, expected type or None, exact error)
ERRORS = [
    # the expected type of the whole expression
    ("count(table)", "french", BOOL, "rules.yaml:7:13: expected bool, found int"),
    ("total(cards) <= 9", "french", INT, "rules.yaml:7:13: expected int, found bool"),
    ("table", "french", CARD, "rules.yaml:7:13: expected card, found cards"),
    # names
    ("count(tabel)", "french", None, "rules.yaml:7:19: unknown name 'tabel'; did you mean 'table'?"),
    ("cont", "french", None, "rules.yaml:7:13: unknown name 'cont'; did you mean 'count'?"),
    ("zzz", "french", None, "rules.yaml:7:13: unknown name 'zzz'"),
    ("_rt", "french", None, "rules.yaml:7:13: invalid name '_rt': names may not start with '_'"),
    ("__import__", "french", None, "rules.yaml:7:13: invalid name '__import__': names may not start with '_'"),
    ("wild", "brescia", None, "rules.yaml:7:13: 'wild' is not defined: this ruleset has no wild card"),
    ("options", "french", None, "rules.yaml:7:13: 'options' needs a name: options.<name>"),
    ("rank == 'A'", "french", None,
     "rules.yaml:7:13: 'rank' names the candidate card only inside a filter, such as count(pile, rank == ...); "
     "use rank(card) for a given card"),
    ("count(table, suite == 'D')", "french", None, "rules.yaml:7:26: unknown name 'suite'; did you mean 'suit'?"),
    ("options.tagret", "french", None, "rules.yaml:7:13: unknown option 'tagret'; did you mean 'target'?"),
    ("options.target", "bare", None, "rules.yaml:7:13: unknown option 'target' (this ruleset declares no options)"),
    ("table.size", "french", None, "rules.yaml:7:13: 'table' has no attributes: only options.<name> does"),
    # cards
    ("holds(table, 8D)", "french", None,
     "rules.yaml:7:26: unknown card '8D' in deck french40: unknown rank '8' (ranks: A 2 3 4 5 6 7 J Q K)"),
    ("holds(pile, KD)", "brescia", None,
     "rules.yaml:7:25: unknown card 'KD' in deck bresciane52: unknown rank 'K' (ranks: A 2 3 4 5 6 7 8 9 10 F C R)"),
    ("holds(pile, 11D)", "brescia", None,
     "rules.yaml:7:25: unknown card '11D' in deck bresciane52: unknown rank '11' (ranks: A 2 3 4 5 6 7 8 9 10 F C R); "
     "did you mean '10D'?"),
    ("holds(table, 7h)", "french", None,
     "rules.yaml:7:26: unknown card '7h' in deck french40: card symbols are case-sensitive; did you mean '7H'?"),
    ("holds(table, Kd)", "french", None,
     "rules.yaml:7:26: unknown card 'Kd' in deck french40: card symbols are case-sensitive; did you mean 'KD'?"),
    ("holds(table, kd)", "french", None, "rules.yaml:7:26: unknown name 'kd'; did you mean the card 'KD'?"),
    ("holds(table, 7X)", "french", None,
     "rules.yaml:7:26: unknown card '7X' in deck french40: unknown suit 'X' (suits: H D C S)"),
    ("Table", "french", None,
     "rules.yaml:7:13: 'Table' is neither a name (names are lowercase) nor a card of deck french40"),
    ("[AD, 2D, AD]", "french", None, "rules.yaml:7:22: card 'AD' appears twice in the list"),
    # ranks and suits compared with strings
    ("count(table, rank == \"Z\")", "french", None,
     "rules.yaml:7:34: unknown rank 'Z' in deck french40 (ranks: A 2 3 4 5 6 7 J Q K)"),
    ("count(table, \"a\" == rank)", "french", None,
     "rules.yaml:7:26: unknown rank 'a' in deck french40 (ranks: A 2 3 4 5 6 7 J Q K); did you mean 'A'?"),
    ("count(table, suit == \"X\")", "french", None,
     "rules.yaml:7:34: unknown suit 'X' in deck french40 (suits: H D C S)"),
    ("count(pile, rank in ['F', 'K'])", "brescia", None,
     "rules.yaml:7:39: unknown rank 'K' in deck bresciane52 (ranks: A 2 3 4 5 6 7 8 9 10 F C R)"),
    ("rank(played) == 'J'", "brescia", None,
     "rules.yaml:7:29: unknown rank 'J' in deck bresciane52 (ranks: A 2 3 4 5 6 7 8 9 10 F C R)"),
    ("rank(played) == options.bonus_rank", "french", None,
     "rules.yaml:7:29: unknown rank 'Z' in deck french40 (ranks: A 2 3 4 5 6 7 J Q K)"),
    ("best_per_suit(pile, {\"7\": 21, \"8\": 20})", "french", None,
     "rules.yaml:7:43: unknown rank '8' in deck french40 (ranks: A 2 3 4 5 6 7 J Q K)"),
    # calls
    ("cnt(table)", "french", None, "rules.yaml:7:13: unknown function 'cnt'; did you mean 'count'?"),
    ("table(1)", "french", None, "rules.yaml:7:13: 'table' is not a function"),
    ("count(3)", "french", None, "rules.yaml:7:19: count() argument 1 must be cards, found int"),
    ("count(table, 3)", "french", None, "rules.yaml:7:26: count() argument 2 must be bool, found int"),
    ("count()", "french", None, "rules.yaml:7:13: count() takes 1 or 2 arguments, found 0"),
    ("count(table, true, 3)", "french", None, "rules.yaml:7:13: count() takes 1 or 2 arguments, found 3"),
    ("empty(table, pile)", "french", None, "rules.yaml:7:13: empty() takes 1 argument, found 2"),
    ("holds(table)", "french", None, "rules.yaml:7:13: holds() takes 2 arguments, found 1"),
    ("min(3)", "french", None, "rules.yaml:7:13: min() takes at least 2 arguments, found 1"),
    ("holds(table, pile)", "french", None, "rules.yaml:7:26: holds() argument 2 must be card, found cards"),
    ("run(pile, pile)", "french", None, "rules.yaml:7:23: run() argument 2 must be list[card], found cards"),
    ("best_per_suit(pile, [1, 2])", "french", None,
     "rules.yaml:7:33: best_per_suit() argument 2 must be map, found list[int]"),
    ("can_total(table, true)", "french", None, "rules.yaml:7:30: can_total() argument 2 must be int, found bool"),
    ("max(1, 2, true)", "french", None, "rules.yaml:7:23: max() argument 3 must be int, found bool"),
    ("most(count(pile))", "french", None, "rules.yaml:7:13: most() is only allowed in scoring expressions"),
    ("most(count(pile, most(1) and true))", "scoring", None, "rules.yaml:7:30: most() cannot be nested"),
    ("count(pile, most(1))", "scoring", None, "rules.yaml:7:25: most() cannot be used inside a filter"),
    ("most(true)", "scoring", None, "rules.yaml:7:18: most() argument 1 must be int, found bool"),
    # operators
    ("1 + table", "french", None, "rules.yaml:7:17: '+' needs ints, found int and cards"),
    ("1 - table", "french", None, "rules.yaml:7:15: '-' needs two ints or two card sets, found int and cards"),
    ("1 | table", "french", None, "rules.yaml:7:13: '|' needs card sets, found int"),
    ("table & 'D'", "french", None, "rules.yaml:7:21: '&' needs card sets, found str"),
    ("-table", "french", None, "rules.yaml:7:14: the operand of unary '-' must be int, found cards"),
    ("not 1", "french", None, "rules.yaml:7:17: the operand of 'not' must be bool, found int"),
    ("last_play and 1", "french", None, "rules.yaml:7:27: the right operand of 'and' must be bool, found int"),
    ("count(table) or true", "french", None, "rules.yaml:7:13: the left operand of 'or' must be bool, found int"),
    ("1 == true", "french", None, "rules.yaml:7:15: cannot compare int with bool"),
    ("table == 3", "french", None, "rules.yaml:7:19: cannot compare cards with int"),
    ("'a' < 'b'", "french", None, "rules.yaml:7:17: '<' needs ints, found str and str"),
    ("table in pile", "french", None,
     "rules.yaml:7:19: 'in' needs a card and a card set, or a value and a list of its kind; found cards and cards"),
    ("'A' in [1, 2]", "french", None,
     "rules.yaml:7:17: 'in' needs a card and a card set, or a value and a list of its kind; found str and list[int]"),
    ("1 if 2 else 3", "french", None, "rules.yaml:7:18: the condition of 'if' must be bool, found int"),
    ("1 if last_play else true", "french", None,
     "rules.yaml:7:13: the two results of 'if' differ in type: int and bool"),
    # literals
    ("[AD, 2]", "french", None, "rules.yaml:7:18: list item 2 must be card like item 1, found int"),
    ("[true]", "french", None, "rules.yaml:7:14: a list holds cards, ints or strings, found bool"),
    ("{\"7\": true}", "french", None, "rules.yaml:7:19: the value for key '7' must be int, found bool"),
    ("{\"7\": 1, \"7\": 2}", "french", None, "rules.yaml:7:22: key '7' appears twice in the map"),
]


@pytest.mark.parametrize("text, ctx, expected, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(text, ctx, expected, message):
    with pytest.raises(RulespecError) as info:
        typed(text, ctx, expected)
    assert str(info.value) == message


def test_option_of_unsupported_type():
    ctx = Context(FRENCH40, {}, options={"weights": [1, 2]})
    with pytest.raises(RulespecError) as info:
        check(parse("options.weights", ORIGIN), ctx)
    assert str(info.value) == ("rules.yaml:7:13: option 'weights' has a value of type list; "
                               "expressions use only bool, int or str options")


@pytest.mark.parametrize("name", ["Table", "_table", "2x", "deck", "wild", "options", "min", "max", "abs",
                                  "tuple", "piles", "lambda", "not", "a-b", ""])
def test_context_names_must_be_safe_identifiers(name):
    with pytest.raises(ValueError):
        Context(FRENCH40, {name: CARDS})


def test_context_names_need_a_type():
    with pytest.raises(ValueError):
        Context(FRENCH40, {"table": "cards"})


def test_candidate_names_shadow_context_names_inside_a_filter():
    ctx = Context(FRENCH40, {"value": INT, "table": CARDS})
    assert check(parse("value + count(table, value > 3)", ORIGIN), ctx) == INT
    e = parse("count(table, value > 3)", ORIGIN)
    check(e, ctx)
    assert e.args[1].left.ref == "candidate"


def test_pile_is_bound_inside_most_even_without_a_pile_name():
    ctx = Context(FRENCH40, {"side": INT}, allow_most=True)
    assert check(parse("most(count(pile))", ORIGIN), ctx) == BOOL
    with pytest.raises(RulespecError, match="unknown name 'pile'"):
        check(parse("count(pile)", ORIGIN), ctx)


def test_filter_arguments_record_their_depth():
    e = parse("count(table, count(pile, rank == 'A') > 0)", ORIGIN)
    check(e, CONTEXTS["french"])
    calls = [n for n in walk(e) if isinstance(n, Call)]
    assert [(c.func, c.pred_depth) for c in calls] == [("count", 0), ("count", 1)]


def test_builtin_table_signatures():
    assert set(BUILTINS) == {
        "count", "select", "total", "can_total", "subset_total", "empty", "holds", "holds_all", "holds_any", "run",
        "best_per_suit", "max_same_rank", "same_value", "same_rank", "same_suit", "rank", "suit", "value",
        "min", "max", "abs", "most", "sharing", "tied", "made", "rivals_made", "fewest_made", "round_up", "round_down",
    }
    assert BUILTINS["count"].result == INT and BUILTINS["select"].result == CARDS
