"""The adapters' actions on a table whose moves are too many to list (Hand.legal_moves raises TooManyMoves):
each step's legal actions are counted (rulespec/interop/counted.py), never listed. The mask is exact: where the
moves can be listed, the counted mask is the listed one at every step; on a constructed crowded table every path
of legal actions ends in a legal move, and every legal move drawn is a path of legal actions."""
from __future__ import annotations

import random

import pytest

from rulespec.interop.counted import CountedMoves
from rulespec.interop.decisions import CAPTURE, CARD, Decisions
from rulespec.run import build_count
from rulespec.run.engine import Hand, TooManyMoves
from tests.test_build_count import _crowded_casino, _rules, over_random_states, random_listed_state


def _played(d: Decisions):
    return next(e for e in reversed(d.log) if e[0] == "play")[2:4]


def _path(d: Decisions, card: int, move: int) -> list[int]:
    """The actions naming (card, move): the card, its table cards lowest first, then DONE or `build v`."""
    n = d.layout.n_cards
    cards, value = move & ((1 << n) - 1), move >> n
    return [card] + [c for c in range(n) if cards >> c & 1] + [d.layout.build_action(value) if value
                                                               else d.layout.done]


def _follow(d: Decisions, path: list[int]) -> None:
    """Take the path's actions, each legal, until the play is made (the cards named may leave one move)."""
    plays = d.hand.plays
    for action in path:
        assert action in d.legal_actions()
        d.apply(action)
        if d.hand.plays > plays:
            return
    raise AssertionError("the path made no play")


@over_random_states(examples=10, most_plays=16, most_more=6)
def test_the_counted_mask_is_the_listed_mask_at_every_step(tmp_path_factory, monkeypatch, game, seats, seed,
                                                           plays, more):
    # under the bound, on states of random play with more cards laid on the table: the same decision driven
    # with its moves listed and with them counted (legal_moves refused) allows the same actions at every step
    # of random paths, and ends in the same play
    monkeypatch.setattr(build_count, "COUNT_FIRST", 0)
    hand = random_listed_state(_rules(tmp_path_factory, game), seats, seed, plays, more)
    if hand is None:
        return
    seat = hand.current_seat
    listed = Decisions.at_turn(hand.clone(), seat)
    listed_twins = [listed.clone() for _ in range(8)]

    def refused(self):
        raise TooManyMoves("refused for the test")
    with monkeypatch.context() as m:
        m.setattr(Hand, "legal_moves", refused)
        counted = Decisions.at_turn(hand.clone(), seat)
        assert counted.phase == CARD and all(isinstance(v, CountedMoves) for v in counted._moves.values())
        for walk, twin in enumerate(listed_twins):
            d, plays_before = counted.clone(), hand.plays
            while d.hand.plays == plays_before:
                assert d.legal_actions() == twin.legal_actions()
                action = random.Random(seed + walk).choice(d.legal_actions()) if walk else max(d.legal_actions())
                d.apply(action)
                twin.apply(action)
            assert twin.hand.plays > plays_before and _played(d) == _played(twin)


def test_every_path_on_a_crowded_table_ends_in_a_legal_move_and_every_drawn_move_is_a_path():
    hand = _crowded_casino()
    with pytest.raises(TooManyMoves):
        hand.legal_moves()
    d = Decisions.at_turn(hand.clone(), 0)
    assert d.phase == CARD and d.legal_actions() == sorted(c for c in range(hand.rules.N_CARDS)
                                                           if hand.hands[0] >> c & 1)
    # too loose: every path of legal actions ends in a move Hand.play accepts (the adapter plays it)
    rng = random.Random(5)
    ends = set()
    for _ in range(40):
        walk = d.clone()
        while walk.hand.plays == hand.plays:
            walk.apply(rng.choice(walk.legal_actions()))
        card, move = _played(walk)
        assert hand._build_move_allowed(card, move)
        hand.clone().play(0, card, move)
        ends.add((card, move))
    assert len(ends) > 30 and any(m >> hand.rules.N_CARDS for _, m in ends)
    # too tight: each move drawn uniformly among the legal ones is a path of legal actions, played as drawn
    drawn = {hand.random_move(random.Random(k)) for k in range(30)}
    for card, move in drawn:
        walk = d.clone()
        _follow(walk, _path(walk, card, move))
        assert _played(walk) == (card, move)
    # a table card skipped cannot be named later, and a build closes only at a value some move gives it
    walk = d.clone()
    walk.apply(d.legal_actions()[0])
    assert walk.phase == CAPTURE
    first = walk.legal_actions()[0]
    walk.apply(first)
    assert all(a > first for a in walk.legal_actions())
