"""Declarations in `Hand`: found once per dealt hand, made with no copy of the state (run/declarations.py)."""
import copy

import pytest

from rulespec.run.declarations import declarer
from rulespec.run.engine import Declaration, Hand, IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of


def _state(hand: Hand) -> dict:
    # The options cache is keyed by (table, wild rank): a refused play may fill it, never falsify it.
    return {k: copy.deepcopy(v) for k, v in hand.__dict__.items()
            if k not in ("rules", "source", "_options_key", "_options", "_legal")}


def _barsega_hand(r):
    # Seat 1 holds 7H 3C 4D: a barsega with the matta declared as an ace.
    return explicit_hand(r, 0, ["2S", "5C", "6C", "QC"],
                         {1: ["7H", "3C", "4D"], 2: ["3D", "2C", "JH"], 3: ["QD", "4C", "5D"], 0: ["6S", "6H", "QH"]})


def test_a_declaring_play_copies_nothing(cirulla, monkeypatch):
    r = cirulla.module
    h = _barsega_hand(r)
    monkeypatch.setattr(Hand, "clone", lambda self: pytest.fail("a declaring play cloned the hand"))
    decls = h.best_declarations(1)
    assert [(d.bonus, d.wild_rank) for d in decls] == [("barsega", r.RANK_NAMES.index("A"))]
    moves = h.legal_moves_after(decls)
    assert (card_of(r, "7H"), mask_of(r, "2S", "5C", "6C", "QC")) in moves    # the matta as an ace sweeps
    events = h.play(1, card_of(r, "7H"), mask_of(r, "2S", "5C", "6C", "QC"), decls)
    assert [e.name for e in events] == ["barsega", "scopa"]


def test_a_refused_card_after_good_declarations_leaves_the_hand_as_it_was(cirulla):
    r = cirulla.module
    h = _barsega_hand(r)
    before = _state(h)
    decl = Declaration("barsega", mask_of(r, "7H", "3C", "4D"), r.RANK_NAMES.index("A"))
    with pytest.raises(IllegalMove):
        h.play(1, card_of(r, "3C"), mask_of(r, "QC"), [decl])          # 3C cannot take QC
    assert _state(h) == before
    with pytest.raises(IllegalMove):
        h.declare(1, [decl])                                             # first_turn: with a play only
    assert _state(h) == before


def test_the_best_declarations_are_searched_once_per_dealt_hand(cirulla):
    r = cirulla.module
    found = declarer(r)
    h = _barsega_hand(r)
    first = h.best_declarations(1)
    calls = []
    real = found._find
    found._find = lambda *a: calls.append(a) or real(*a)
    try:
        again = _barsega_hand(r).best_declarations(1)       # another hand object, the same cards
    finally:
        del found._find
    assert again == first and calls == []
