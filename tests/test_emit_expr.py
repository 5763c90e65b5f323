"""Emitting expressions as Python: values worked out by hand, folding, exact source, and safety."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from rulespec.compiler.emit_expr import EMITTERS, emit
from rulespec.run import runtime
from rulespec.lang.decks import BRESCIANE52, FRENCH40
from rulespec.errors import RulespecError, Span
from rulespec.lang.expressions import Name, parse
from rulespec.lang.typecheck import BOOL, BUILTINS, CARD, CARDS, INT, STR, Context, check

ORIGIN = Span("rules.yaml", 3, 9)
NAMES = {"table": CARDS, "pile": CARDS, "cards": CARDS, "captured": CARDS, "played": CARD,
         "previous": CARDS, "last_play": BOOL, "side": INT, "round": INT, "label": STR}
OPTIONS = {"target": 51, "piccola7": False, "special": "D"}
CONTEXTS = {
    # cirulla: french40 with the matta 7H
    "fr": Context(FRENCH40, NAMES, wild=FRENCH40.index("7H"), options=OPTIONS, allow_most=True),
    "fr7": Context(FRENCH40, NAMES, wild=FRENCH40.index("7H"), options={**OPTIONS, "piccola7": True},
                   allow_most=True),
    # cicera: bresciane52, no wild card
    "br": Context(BRESCIANE52, NAMES, allow_most=True),
}
# Python builtins emitted code may call; evaluating with only these proves it needs no others.
SAFE_BUILTINS = {"min": min, "max": max, "abs": abs, "tuple": tuple}


def mask(deck, wild, text):
    """A card-set mask from names; `7H=A` is the wild card declared as an ace (a virtual card)."""
    m = 0
    for name in text.split():
        if "=" in name:
            assert wild is not None
            m |= 1 << (deck.size + deck.ranks.index(name.split("=")[1]))
        else:
            m |= 1 << deck.index(name)
    return m


def compiled(text, ctx_name="fr"):
    ctx = CONTEXTS[ctx_name]
    tree = parse(text, ORIGIN)
    check(tree, ctx)
    return emit(tree, ctx)


def evaluate(text, ctx_name="fr", **bindings):
    """Emit, then eval the code the way a generated module would run it."""
    ctx = CONTEXTS[ctx_name]
    code = compiled(text, ctx_name)
    env = {"__builtins__": SAFE_BUILTINS, "_rt": runtime, **runtime.tables(ctx.deck, ctx.wild)}
    for name, value in bindings.items():
        if name == "piles":
            env[name] = [mask(ctx.deck, ctx.wild, p) for p in value]
        elif NAMES.get(name) in (CARD, CARDS):
            env[name] = mask(ctx.deck, ctx.wild, value)
        else:
            env[name] = value
    return eval(code, env)


PICCOLA = "run(pile, [AD, 2D, 3D, 4D, 5D, 6D]) if holds_all(pile, [AD, 2D, 3D]) else 0"
PRIMIERA_TABLE = ('{"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}')
PRIMIERA = f"1 if most(best_per_suit(pile, {PRIMIERA_TABLE})) else 0"
NAPOLA = ("run(pile, [AS, 2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, FS, CS, RS]) "
          "if holds_all(pile, [AS, 2S, 3S]) else 0")
SCOPA = "not empty(captured) and empty(table) and not last_play"
PICADA = "not empty(captured & previous) and rank(played) == rank(previous)"

# (what it checks, expression, context, bindings, value worked out by hand)
VALUES = [
    # redeal: two or more aces on the table; the matta 7H is a 7 here
    ("redeal two aces", "count(table, rank == \"A\") >= 2", "fr", {"table": "AH AD 3C 4S"}, True),
    ("redeal matta is no ace", "count(table, rank == \"A\") >= 2", "fr", {"table": "AH 7H 3C 4S"}, False),
    ("redeal four aces", "count(table, rank == \"A\") >= 2", "fr", {"table": "AH AD AC AS"}, True),
    # dealer bonus: the matta counts as any value 1..10
    ("15 with 7H as 2", "can_total(table, 15)", "fr", {"table": "4C 7H 3C 6D"}, True),
    ("30 without wild", "can_total(table, 30)", "fr", {"table": "6S QS KD 5C"}, True),
    ("30 out of reach", "can_total(table, 30)", "fr", {"table": "4C 7H 3C 6D"}, False),
    ("7H as 7", "can_total(table, 20)", "fr", {"table": "4C 7H 3C 6D"}, True),
    ("7H as 1", "can_total(table, 11)", "fr", {"table": "AC 7H 3C 6D"}, True),
    ("7H cannot be 0", "can_total(table, 10)", "fr", {"table": "AC 7H 3C 6D"}, False),
    ("7H cannot be 11", "can_total(table, 21)", "fr", {"table": "AC 7H 3C 6D"}, False),
    ("plain 15", "can_total(table, 15)", "fr", {"table": "AC 4H 3C 7D"}, True),
    ("plain 16", "can_total(table, 15)", "fr", {"table": "2C 4H 3C 7D"}, False),
    ("declared matta is fixed", "can_total(cards, 15)", "fr", {"cards": "7H=2 4C 3C 6D"}, True),
    ("declared matta is fixed (2)", "can_total(cards, 14)", "fr", {"cards": "7H=2 4C 3C 6D"}, False),
    ("no wild in bresciane", "can_total(table, 15)", "br", {"table": "FC 10D 5S"}, True),
    # hand bonuses
    ("barsega 9", "total(cards) <= 9", "fr", {"cards": "AD 2C 6S"}, True),
    ("barsega 10", "total(cards) <= 9", "fr", {"cards": "AD 2C 7S"}, False),
    ("declared matta value", "total(cards)", "fr", {"cards": "7H=A 2C 3D"}, 6),
    ("courts count 0", "total(cards)", "br", {"cards": "FC 10D 2S"}, 12),
    ("decino", "same_value(cards)", "fr", {"cards": "QS QD QC"}, True),
    ("no decino", "same_value(cards)", "fr", {"cards": "QS QD KC"}, False),
    ("decino with the matta", "same_value(cards)", "fr", {"cards": "QS QD 7H=Q"}, True),
    ("same_value of nothing", "same_value(cards)", "fr", {"cards": ""}, False),
    ("valueless never match", "same_value(cards)", "br", {"cards": "FC FD"}, False),
    ("same_rank courts", "same_rank(cards)", "br", {"cards": "FC FD"}, True),
    ("same_suit", "same_suit(cards)", "br", {"cards": "2D 7D FD"}, True),
    ("same_suit one card", "same_suit(cards)", "br", {"cards": "7D"}, True),
    ("same_suit of nothing", "same_suit(cards)", "br", {"cards": ""}, False),
    ("same_suit the highest differs", "same_suit(cards)", "br", {"cards": "2D 7D FS"}, False),
    ("same_suit the lowest differs", "same_suit(cards)", "br", {"cards": "2C 7D FD"}, False),
    ("max_same_rank", "max_same_rank(cards)", "fr", {"cards": "2C 2D 2S 5H"}, 3),
    ("max_same_rank matta", "max_same_rank(cards)", "fr", {"cards": "2C 2D 2S 7H=2"}, 4),
    ("max_same_rank empty", "max_same_rank(cards)", "fr", {"cards": ""}, 0),
    # scopa
    ("scopa", SCOPA, "fr", {"captured": "5C", "table": "", "last_play": False}, True),
    ("no scopa on the last card", SCOPA, "fr", {"captured": "5C", "table": "", "last_play": True}, False),
    ("table not emptied", SCOPA, "fr", {"captured": "5C", "table": "2D", "last_play": False}, False),
    ("no capture", SCOPA, "fr", {"captured": "", "table": "", "last_play": False}, False),
    # scoring categories (most: strictly more than every other side)
    ("carte", "1 if most(count(pile)) else 0", "fr", {"piles": ["AD 2D 3D", "AC 2C"], "side": 0}, 1),
    ("carte loser", "1 if most(count(pile)) else 0", "fr", {"piles": ["AD 2D 3D", "AC 2C"], "side": 1}, 0),
    ("carte tie", "1 if most(count(pile)) else 0", "fr", {"piles": ["AD", "AC"], "side": 0}, 0),
    ("carte tie at the top of 3", "1 if most(count(pile)) else 0", "fr",
     {"piles": ["AD 2D", "AC 2C", "AS"], "side": 1}, 0),
    ("denari", "1 if most(count(pile, suit == \"D\")) else 0", "fr",
     {"piles": ["AC 2C 3C KD", "AD 2D"], "side": 1}, 1),
    ("settebello", "1 if holds(pile, 7D) else 0", "fr", {"pile": "7D AC"}, 1),
    ("no settebello", "1 if holds(pile, 7D) else 0", "fr", {"pile": "7H 7C"}, 0),
    ("grande", "5 if holds_all(pile, [JD, QD, KD]) else 0", "fr", {"pile": "JD QD KD 2C"}, 5),
    ("no grande", "5 if holds_all(pile, [JD, QD, KD]) else 0", "fr", {"pile": "JD QD 2C"}, 0),
    ("piccola A-4 (6 missing 5)", PICCOLA, "fr", {"pile": "AD 2D 3D 4D 6D"}, 4),
    ("piccola A-6", PICCOLA, "fr", {"pile": "AD 2D 3D 4D 5D 6D KC"}, 6),
    ("piccola A 2 3 5 6", PICCOLA, "fr", {"pile": "AD 2D 3D 5D 6D"}, 3),
    ("no piccola without 3D", PICCOLA, "fr", {"pile": "AD 2D 4D 5D 6D"}, 0),
    ("primiera 70 beats 69", PRIMIERA, "fr", {"piles": ["QH 7D 7C 6S", "7H 7S 5D 2C"], "side": 0}, 1),
    ("primiera 69 loses to 70", PRIMIERA, "fr", {"piles": ["QH 7D 7C 6S", "7H 7S 5D 2C"], "side": 1}, 0),
    ("primiera 68 loses to 69", PRIMIERA, "fr", {"piles": ["QH 7D 7C AS", "7H 7S 5D 2C"], "side": 0}, 0),
    ("primiera 69 beats 68", PRIMIERA, "fr", {"piles": ["QH 7D 7C AS", "7H 7S 5D 2C"], "side": 1}, 1),
    ("primiera Q-7-7-6", f"best_per_suit(pile, {PRIMIERA_TABLE})", "fr", {"pile": "QH 7D 7C 6S"}, 70),
    ("primiera Q-7-7-A", f"best_per_suit(pile, {PRIMIERA_TABLE})", "fr", {"pile": "QH 7D 7C AS"}, 68),
    ("primiera best of each suit", f"best_per_suit(pile, {PRIMIERA_TABLE})", "fr",
     {"pile": "QH 7H 2H 7D 7C 6S KS AS 5S"}, 21 + 21 + 21 + 18),
    ("primiera missing a suit", f"best_per_suit(pile, {PRIMIERA_TABLE})", "fr", {"pile": "7D 7C 7S"}, 0),
    ("primiera unmapped ranks score 0", "best_per_suit(pile, {\"7\": 21})", "fr", {"pile": "7D 7C 7S AH"}, 63),
    ("cappotto", "count(pile, suit == \"D\") == count(deck, suit == \"D\")", "fr",
     {"pile": "AD 2D 3D 4D 5D 6D 7D JD QD KD 2C"}, True),
    ("no cappotto", "count(pile, suit == \"D\") == count(deck, suit == \"D\")", "fr",
     {"pile": "AD 2D 3D 4D 5D 6D 7D JD QD 2C"}, False),
    ("target", "options.target", "fr", {}, 51),
    ("piccola up to 7", "run(pile, [AD, 2D, 3D, 4D, 5D, 6D, 7D] if options.piccola7 else [AD, 2D, 3D])",
     "fr7", {"pile": "AD 2D 3D 4D 5D 6D 7D"}, 7),
    ("piccola option off", "run(pile, [AD, 2D, 3D, 4D, 5D, 6D, 7D] if options.piccola7 else [AD, 2D, 3D])",
     "fr", {"pile": "AD 2D 3D 4D 5D 6D 7D"}, 3),
    # cicera
    ("quadriglia", "count(captured) >= 3", "br", {"captured": "2D 3D 4D"}, True),
    ("simili", "same_suit(captured | played)", "br", {"captured": "2D 3D 4D", "played": "9D"}, True),
    ("not simili", "same_suit(captured | played)", "br", {"captured": "2D 3C", "played": "5D"}, False),
    ("simili by filter", "count(captured, suit != suit(played)) == 0", "br",
     {"captured": "2D 3D", "played": "5D"}, True),
    ("not simili by filter", "count(captured, suit != suit(played)) == 0", "br",
     {"captured": "2D 3C", "played": "5D"}, False),
    ("picada", PICADA, "br", {"captured": "5C", "previous": "5C", "played": "5B"}, True),
    ("no previous card", PICADA, "br", {"captured": "5C", "previous": "", "played": "5B"}, False),
    ("previous not taken", PICADA, "br", {"captured": "2D", "previous": "5C", "played": "5B"}, False),
    ("court picada", PICADA, "br", {"captured": "RC", "previous": "RC", "played": "RS"}, True),
    ("napola A-6 and 8", NAPOLA, "br", {"pile": "AS 2S 3S 4S 5S 6S 8S"}, 6),
    ("napola through the courts", NAPOLA, "br",
     {"pile": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S FS CS RS"}, 13),
    ("no napola", NAPOLA, "br", {"pile": "AS 2S 4S 5S"}, 0),
    ("numbered", "count(table, numbered)", "br", {"table": "FC 2D RS 10B"}, 2),
    ("court cards", "select(table, not numbered) == [FC, RS]", "br", {"table": "FC 2D RS 10B"}, True),
    # other builtins and operators
    ("select courts", "select(table, rank in [\"J\", \"Q\", \"K\"])", "fr", {"table": "JD 2C KS QH 7D"},
     mask(FRENCH40, 6, "JD KS QH")),
    ("rank not in", "count(table, rank not in [\"J\", \"Q\", \"K\"])", "fr", {"table": "JD 2C KS QH 7D"}, 2),
    ("value filter", "count(table, value >= 6 and card != 7D)", "fr", {"table": "JD 2C KS 6H 7D"}, 3),
    ("runtime filter", "count(table, value > value(played))", "fr", {"table": "JD 2C KS 6H", "played": "6D"}, 2),
    ("card in a set", "count(table, card in captured)", "fr", {"table": "JD 2C KS", "captured": "KS 2C 3C"}, 2),
    ("difference", "count(table - captured | played)", "fr",
     {"table": "JD 2C KS", "captured": "KS", "played": "5H"}, 3),
    ("difference of a union", "count(table - (captured | played))", "fr",
     {"table": "JD 2C KS", "captured": "KS", "played": "JD"}, 1),
    ("intersection", "count(table & [JD, KS, AH])", "fr", {"table": "JD 2C KS"}, 2),
    ("played in table", "played in table", "fr", {"played": "2C", "table": "JD 2C KS"}, True),
    ("played not in table", "played not in table", "fr", {"played": "2C", "table": "JD 2C KS"}, False),
    ("holds_any", "holds_any(table, [AD, 2C])", "fr", {"table": "JD 2C KS"}, True),
    ("holds_all runtime", "holds_all(table, captured)", "fr", {"table": "JD 2C KS", "captured": "2C KS"}, True),
    ("holds_all runtime fails", "holds_all(table, captured)", "fr", {"table": "JD 2C", "captured": "2C KS"}, False),
    ("rank of a card", "rank(played)", "fr", {"played": "QH"}, "Q"),
    ("suit of a card", "suit(played)", "fr", {"played": "QH"}, "H"),
    ("value of a court", "value(played)", "br", {"played": "CC"}, 0),
    ("value of an empty set", "value(previous)", "fr", {"previous": ""}, 0),
    ("rank of a declared matta", "rank(cards)", "fr", {"cards": "7H=K"}, "K"),
    ("suit of a declared matta", "suit(cards)", "fr", {"cards": "7H=K"}, "H"),
    ("arithmetic", "(round + 3) * 2 - round // 2 % 3 - -1", "fr", {"round": 5}, (5 + 3) * 2 - 5 // 2 % 3 + 1),
    ("min max abs", "min(round, 3, 9) + max(round, 3) + abs(1 - round)", "fr", {"round": 5}, 3 + 5 + 4),
    ("ternary chain", "1 if round < 2 else 2 if round < 4 else 3", "fr", {"round": 3}, 2),
    ("bool ops", "last_play or round == 2 and not last_play", "fr", {"last_play": False, "round": 2}, True),
    ("str compare", "label == 'x' or label != 'y'", "fr", {"label": "y"}, False),
    ("card sets from if", "count(table if last_play else [AD, 2D])", "fr", {"table": "KS", "last_play": False}, 2),
    ("most of a sum", "most(count(pile) + count(pile, suit == 'D'))", "fr",
     {"piles": ["AD", "AC 2C"], "side": 0}, False),
    ("nested filters", "count(table, count(select(pile, rank == 'K'), suit == 'D') > 0)", "fr",
     {"table": "2C 3C", "pile": "KD"}, 2),
]


@pytest.mark.parametrize("what, text, ctx, bindings, expected", VALUES, ids=[v[0] for v in VALUES])
def test_values(what, text, ctx, bindings, expected):
    assert evaluate(text, ctx, **bindings) == expected


# (expression, context, exact emitted source): folding and readable output
SOURCES = [
    ("count(table, rank == \"A\") >= 2", "fr", "(table & 0x10040100401).bit_count() >= 2"),
    ("count(pile, suit == \"D\")", "fr", "(pile & 0xffc00).bit_count()"),
    ("count(pile)", "fr", "pile.bit_count()"),
    ("count(deck, suit == \"D\")", "fr", "10"),
    ("count(deck)", "br", "52"),
    ("count(table, true)", "fr", "table.bit_count()"),
    ("count(table, false)", "fr", "0"),
    ("count(7D | 7H)", "fr", "2"),
    ("can_total(table, 15)", "fr", "_rt.can_total(table, 15, _VALUE, _WILD)"),
    ("total(cards) <= 9", "fr", "_rt.total(cards, _VALUE) <= 9"),
    ("same_value(cards)", "fr", "_rt.same_value(cards, _VALUE)"),
    ("same_suit(captured | played)", "fr", "_rt.same(captured | played, _SUIT)"),
    ("1 if holds(pile, 7D) else 0", "fr", "1 if (pile & 0x10000) != 0 else 0"),
    ("5 if holds_all(pile, [JD, QD, KD]) else 0", "fr", "5 if (pile & 0xe0000) == 0xe0000 else 0"),
    ("holds_all(pile, captured)", "fr", "_rt.holds_all(pile, captured)"),
    (PICCOLA, "fr",
     "_rt.run(pile, (0x400, 0x800, 0x1000, 0x2000, 0x4000, 0x8000)) if (pile & 0x1c00) == 0x1c00 else 0"),
    (SCOPA, "fr", "captured != 0 and table == 0 and not last_play"),
    (PICADA, "fr", "(captured & previous) != 0 and _RANK[_rt.idx(played)] == _rt.first(previous, _RANK, '')"),
    ("1 if most(count(pile)) else 0", "fr", "1 if _rt.most([pile.bit_count() for pile in piles], side) else 0"),
    ("count(captured, suit != suit(played)) == 0", "fr",
     "_rt.select(captured, lambda _c: _SUIT[_c] != _SUIT[_rt.idx(played)]).bit_count() == 0"),
    ("count(table, count(pile, rank == rank) > 0)", "fr",
     "_rt.select(table, lambda _c: pile.bit_count() > 0).bit_count()"),
    ("count(table, card in captured)", "fr", "_rt.select(table, lambda _c: (captured & (1 << _c)) != 0).bit_count()"),
    ("select(table, rank in [\"F\", \"C\", \"R\"])", "br", "table & 0xe007003801c00"),
    ("options.target * 2 - 1", "fr", "101"),
    ("min(3, options.target) + abs(-2)", "fr", "5"),
    ("options.special", "fr", "'D'"),
    ("1 if options.piccola7 else 2", "fr", "2"),
    ("true and last_play", "fr", "last_play"),
    ("last_play and false", "fr", "False"),
    ("last_play or true", "fr", "True"),
    ("false or last_play", "fr", "last_play"),
    ("rank(7D)", "fr", "'7'"),
    ("value(wild)", "fr", "7"),
    ("holds(table, wild)", "fr", "(table & 0x40) != 0"),
    ("table - captured | played", "fr", "table & ~captured | played"),
    ("table - (captured | played)", "fr", "table & ~(captured | played)"),
    ("(1 + round) * 2", "fr", "(1 + round) * 2"),
    ("1 - (round - 2)", "fr", "1 - (round - 2)"),
    ("-(round + 1)", "fr", "-(round + 1)"),
    ("not (round < 2)", "fr", "round >= 2"),
    ("not last_play", "fr", "not last_play"),
    ("(round if last_play else 1) + 1", "fr", "(round if last_play else 1) + 1"),
    ("(round == 1) == last_play", "fr", "(round == 1) == last_play"),
    ("table == [AD, 2D]", "fr", "table == 0xc00"),
    ("played in [AD, 2D]", "fr", "(0xc00 & played) != 0"),
    ("label in ['a', 'b']", "fr", "label in ('a', 'b')"),
    ("round in [3]", "fr", "round in (3,)"),
]


@pytest.mark.parametrize("text, ctx, source", SOURCES, ids=[s[0] for s in SOURCES])
def test_emitted_source(text, ctx, source):
    assert compiled(text, ctx) == source


def test_primiera_scores_are_ranked_per_suit_at_compile_time():
    code = compiled(f"best_per_suit(pile, {PRIMIERA_TABLE})")
    prefix = "_rt.best_per_suit_ranked(pile, "
    assert code.startswith(prefix) and code.endswith(")")
    suits = ast.literal_eval(code[len(prefix):-1])
    # hearts include the virtual matta cards (indices 40-49, one per rank)
    assert [mask for mask, _ranked in suits] == [0x3ff00000003ff, 0xffc00, 0x3ff00000, 0xffc0000000]
    scores = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
    for mask, ranked in suits:
        indices = [i for i in range(50) if mask >> i & 1]
        # every card of the suit once, best score first, then the lowest index
        assert ranked == tuple(sorted(((1 << i, scores[i % 10]) for i in indices),
                                      key=lambda bs: (-bs[1], bs[0])))


def test_division_by_zero_in_constants_is_a_located_error():
    with pytest.raises(RulespecError) as info:
        compiled("options.target // (2 - 2)")
    assert str(info.value) == "rules.yaml:3:9: division by zero"


def test_options_only_expressions_fold_to_literals():
    # The check stage evaluates these with no builtins and only _rt.
    for text, value in [("options.target + 1", 52), ("min(options.target, 40) * 2", 80),
                        ("options.piccola7 or options.target > 50", True), ("count(deck, rank == 'A')", 4),
                        ("7 if options.piccola7 else 6", 6), ("options.special == 'D'", True)]:
        code = compiled(text)
        assert eval(code, {"__builtins__": {}, "_rt": runtime}) == value, text


def test_builtin_tables_agree():
    assert set(EMITTERS) == set(BUILTINS)


def test_a_list_of_cards_checked_as_cards_is_emitted_as_a_mask():
    ctx = CONTEXTS["fr"]
    tree = parse("[AD, 2D]", ORIGIN)
    check(tree, ctx, CARDS)
    assert emit(tree, ctx) == "0xc00"
    tree = parse("[AD, 2D]", ORIGIN)
    check(tree, ctx)
    assert emit(tree, ctx) == "(0x400, 0x800)"


def test_empty_list_takes_its_kind_from_the_left_of_in():
    assert evaluate("label in []", label="x") is False
    assert evaluate("round not in []", round=1) is True


def test_emit_requires_a_checked_tree():
    with pytest.raises(ValueError):
        emit(parse("count(table)", ORIGIN), CONTEXTS["fr"])


# ------------------------------------------------------------------ safety

ALLOWED_NAMES = {"_rt", "_VALUE", "_RANK", "_SUIT", "_WILD", "min", "max", "abs", "tuple", "piles", "side", "pile",
                 "_c", "_c1", "r", *NAMES}


@pytest.mark.parametrize("text, ctx", [(v[1], v[2]) for v in VALUES] + [(s[0], s[1]) for s in SOURCES])
def test_emitted_code_names_only_known_names(text, ctx):
    tree = ast.parse(compiled(text, ctx), mode="eval")
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert names <= ALLOWED_NAMES
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert attributes <= {"bit_count", "get"} | {f for f in dir(runtime) if not f.startswith("_")}


HOSTILE = [
    "'); __import__('os').system('echo owned') #",
    '"); __import__("os").system("echo owned") #',
    "line1\nline2\r\n__import__('os')",
    "\\' + __import__('os') + \\'",
    "{__import__('os')}",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_string_literals_are_emitted_only_through_repr(value):
    literal = repr(value)  # a valid expression-language string literal too: same quoting and escapes
    code = compiled(f"label == {literal}")
    assert code == f"label == {value!r}"
    tree = ast.parse(code, mode="eval")
    assert [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)] == [value]
    assert not any(isinstance(n, ast.Call) for n in ast.walk(tree))
    assert evaluate(f"label == {literal}", label=value) is True


@pytest.mark.parametrize("value", HOSTILE)
def test_option_strings_are_emitted_only_through_repr(value):
    ctx = Context(FRENCH40, {"label": STR}, options={"name": value})
    tree = parse("label != options.name", ORIGIN)
    check(tree, ctx)
    code = emit(tree, ctx)
    assert code == f"label != {value!r}"


def test_a_name_that_is_not_a_safe_identifier_is_never_emitted():
    node = Name(ORIGIN, "__import__('os')", ref="local")
    node.type = CARDS
    with pytest.raises(ValueError):
        emit(node, CONTEXTS["fr"])


def test_emission_is_deterministic_across_processes():
    text = f"{PRIMIERA} + count(pile, rank in ['J', 'Q'] or suit == 'D')"
    script = (
        "from rulespec.lang.decks import FRENCH40\n"
        "from rulespec.lang.expressions import parse\n"
        "from rulespec.errors import Span\n"
        "from rulespec.lang.typecheck import Context, check, CARDS, INT\n"
        "from rulespec.compiler.emit_expr import emit\n"
        "ctx = Context(FRENCH40, {'pile': CARDS, 'side': INT}, wild=6, allow_most=True)\n"
        f"t = parse({text!r}, Span('r', 1, 1)); check(t, ctx); print(emit(t, ctx))\n"
    )
    root = Path(__file__).resolve().parent.parent
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        outputs.add(subprocess.run([sys.executable, "-c", script], env=env, cwd=root, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(outputs) == 1


# ------------------------------------------------------------ properties

FR_TABLES = runtime.tables(FRENCH40, 6)
N_FR = len(FR_TABLES["_RANK"])
# filter -> the same test in plain Python over a card index
FILTERS = {
    "rank == 'A'": lambda i: FR_TABLES["_RANK"][i] == "A",
    "suit == 'D'": lambda i: FR_TABLES["_SUIT"][i] == "D",
    "value > 5": lambda i: FR_TABLES["_VALUE"][i] > 5,
    "rank in ['J', 'Q', 'K']": lambda i: FR_TABLES["_RANK"][i] in "JQK",
    "card == 7D": lambda i: i == FRENCH40.index("7D"),
    "not (suit == 'H' or value < 3)": lambda i: not (FR_TABLES["_SUIT"][i] == "H" or FR_TABLES["_VALUE"][i] < 3),
    "numbered and value % 2 == 0": lambda i: FR_TABLES["_VALUE"][i] % 2 == 0,
}


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << N_FR) - 1), st.sampled_from(sorted(FILTERS)))
def test_folded_filters_match_a_direct_loop(table, pred):
    expected = sum(1 for i in runtime.bits(table) if FILTERS[pred](i))
    code = compiled(f"count(table, {pred})")
    assert "lambda" not in code
    env = {"__builtins__": SAFE_BUILTINS, "_rt": runtime, **FR_TABLES, "table": table}
    assert eval(code, env) == expected
    # The same filter made runtime-dependent (so emitted as a loop) agrees too.
    loop = compiled(f"count(table, ({pred}) and not last_play)")
    assert "lambda" in loop
    assert eval(loop, {**env, "last_play": False}) == expected


@settings(max_examples=80, deadline=None)
@given(st.sets(st.sampled_from(FRENCH40.names), min_size=1, max_size=6), st.integers(min_value=1, max_value=70))
def test_can_total_matches_trying_every_wild_value(names, target):
    cards = " ".join(sorted(names))
    values = [FRENCH40.value_of(FRENCH40.index(n)) for n in names if n != "7H"]
    choices = range(1, 11) if "7H" in names else [0]
    expected = any(sum(values) + v == target for v in choices)
    assert evaluate(f"can_total(table, {target})", table=cards) is expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2 ** 40 - 1), min_size=1, max_size=4))
def test_the_hoisted_top_side_is_the_side_most_is_true_for(piles):
    """most() hoisted (`side == _rt.top(values)`) agrees with most() per side, ties included."""
    for values in ([p.bit_count() for p in piles], [(p & 0xffc00).bit_count() for p in piles]):
        assert [s == runtime.top(values) for s in range(len(values))] == \
            [runtime.most(values, s) for s in range(len(values))]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 40 - 1))
def test_ranked_best_per_suit_is_best_per_suit(pile):
    """The compile-time ranking per suit gives best_per_suit's sum (a missing suit: 0)."""
    code = compiled(f"best_per_suit(pile, {PRIMIERA_TABLE})")
    suits = ast.literal_eval(code[len("_rt.best_per_suit_ranked(pile, "):-1])
    scores = tuple((16, 12, 13, 14, 15, 18, 21, 10, 10, 10)[i % 10] for i in range(50))
    assert runtime.best_per_suit_ranked(pile, suits) == \
        runtime.best_per_suit(pile, tuple(mask for mask, _r in suits), scores)


def test_locals_as_puts_the_compilers_own_text_for_a_runtime_name():
    """emit(locals_as=...): the playout's events read its locals (`capture`, `tab`) and compute the last play
    only where asked; names left out of the mapping, and everything else, are emitted as before."""
    tree = parse('count(captured) > 0 and empty(table) and not last_play and count(previous) < 2', ORIGIN)
    check(tree, CONTEXTS["fr"])
    plain = emit(tree, CONTEXTS["fr"])
    renamed = emit(tree, CONTEXTS["fr"], locals_as={"captured": "capture", "table": "tab",
                                                   "last_play": "(not left and rnd >= nrounds)"})
    assert renamed == plain.replace("captured", "capture").replace("table", "tab").replace(
        "last_play", "(not left and rnd >= nrounds)")
    assert "previous" in renamed
    for left, rnd, want in ((0, 3, False), (1, 3, True), (0, 2, True)):
        got = eval(renamed, {"_rt": runtime, "__builtins__": SAFE_BUILTINS},           # noqa: S307 - our own source
                   {"capture": 1, "tab": 0, "previous": 0, "left": left, "rnd": rnd, "nrounds": 3})
        assert got is want


@given(st.integers(min_value=0, max_value=(1 << 170) - 1))
@settings(max_examples=300, deadline=None)
def test_bits_lists_a_masks_indices_memoised_or_not(mask):
    """runtime.bits (memoised) and bits_of (byte lookups, then a bit at a time past 40) list the set indices."""
    want = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
    assert runtime.bits_of(mask) == want
    assert runtime.bits(mask) == want
    assert runtime.bits(mask) == want          # asked again: from the memo where it was kept


def test_bits_keeps_small_sets_only():
    """runtime.bits memoises sets of at most MEMO_BITS cards (hands, tables, captures that recur); a bigger
    set is listed each time, never kept: a 52-card deck's six-card hands would crowd the memo out."""
    small, big = (1 << 3) | (1 << 17) | (1 << 39), sum(1 << i for i in (0, 5, 11, 23, 40, 51))
    runtime._BITS.pop(small, None)
    runtime._BITS.pop(big, None)
    assert runtime.bits(small) == (3, 17, 39) and runtime._BITS[small] == (3, 17, 39)
    assert runtime.bits(big) == (0, 5, 11, 23, 40, 51) and big not in runtime._BITS
    assert runtime.MEMO_BITS == 3
