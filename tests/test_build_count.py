"""The build moves and captures counted without listing (run/build_count.py) are exactly the ones listed, and
Hand.random_move past the bound draws each legal move at one index of a uniform draw: its entries, enumerated
index by index, are legal_moves() with no move twice and none missing."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulespec.compiler.build import compile_ruleset
from rulespec.run import build_count, builds
from rulespec.run.builds import Config, build_options
from rulespec.run.engine import Hand, TooManyMoves, shuffled_source
from rulespec.run.runtime import combine_alone
from tests.test_builds import _ruleset
from tests.test_builds_listing import BUILD_RULES, _bits, _random_position

SHIPPED = ["casino", "casino-royal", "seep", "zwicker"]


def _compiled(tmp_path_factory, spec):
    if spec in SHIPPED:
        return compile_ruleset(f"rulesets/{spec}.yaml").module
    return compile_ruleset(_ruleset(tmp_path_factory.mktemp("b"), spec)).module


_CACHE: dict = {}


def _rules(tmp_path_factory, spec):
    if spec not in _CACHE:
        _CACHE[spec] = _compiled(tmp_path_factory, spec)
    return _CACHE[spec]


def _position(rng, cfg, n_cards, most):
    """A card, the rest of its hand, up to `most` loose cards and up to three builds, at random."""
    return _random_position(rng, cfg, n_cards, cards_drawn=(6, most + 5), most_builds=3)


@pytest.mark.parametrize("spec", BUILD_RULES + SHIPPED)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_counted_builds_unranked_are_the_listed_builds(tmp_path_factory, spec, seed):
    rules = _rules(tmp_path_factory, spec)
    cfg, rng, n = Config(rules.BUILDS), random.Random(seed), rules.N_CARDS
    card, rest, loose, table_builds = _position(rng, cfg, n, 14)
    values = sorted({v for c in _bits(rest) for v in cfg.hand_values[c] if cfg.allowed(v)})
    partners = [b for b in table_builds if rng.random() < 0.5]
    listed = build_options(cfg, card, rest, loose, table_builds, n, partners=partners)
    blocks = build_count.Counter(cfg, loose, table_builds).blocks(card, values, partners)
    # every index of every block is one move: the count is the list's length, no move twice, none missing
    assert sum(b.count for b in blocks) == len(listed)
    assert sorted(b.move(r, n) for b in blocks for r in range(b.count)) == listed


@pytest.mark.parametrize("spec", ["casino", "casino-royal", "zwicker"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_counted_captures_unranked_are_the_combined_captures(tmp_path_factory, spec, seed):
    rules = _rules(tmp_path_factory, spec)
    cfg, rng, n = Config(rules.BUILDS), random.Random(seed), rules.N_CARDS
    cards = rng.sample(range(n), rng.randint(4, 16))
    card, loose = cards[0], sum(1 << c for c in cards[1:])
    offered = rules.offered(1 << card, loose, 1, 1, 1)
    block = build_count.Counter(cfg, loose, []).captures(card, offered, [0])
    if block is None:            # sets that differ within a kind are not counted (the caller proposes instead)
        return
    want = combine_alone(offered, "union")
    assert block.count == len(want)
    assert sorted(block.move(r) for r in range(block.count)) == want


def _crowd(hand, rng, loose):
    """The hand with `loose` more cards moved from the stock or the other hands onto the table (a constructed
    state: a crowded table the deal would rarely make)."""
    others = [c for c in range(hand.rules.N_CARDS)
              if not hand.table >> c & 1 and not hand.hands[hand.turn] >> c & 1
              and not any(b.cards >> c & 1 for b in hand.builds)]
    for c in rng.sample(others, min(loose, len(others))):
        for s in range(hand.n):
            hand.hands[s] &= ~(1 << c)
        hand.table |= 1 << c
    return hand


def _enumerated(hand):
    """Every move counted_moves' entries stand for, index by index."""
    entries, total = hand.counted_moves()
    out = []
    for kind, c, what, w in entries:
        assert kind != "propose"
        for r in range(w):
            out.append((c, what[r] if kind == "plain" else what.move(r, hand.rules.N_CARDS) if kind == "build"
                        else what.move(r)))
    assert len(out) == total
    return out


def over_random_states(examples: int, most_plays: int, most_more: int):
    """The decorators of a test over random_listed_state's arguments: the built games and seats, then drawn by
    hypothesis a seed, the random plays and the cards laid on the table besides."""
    def decorate(test):
        test = given(seed=st.integers(0, 2**32 - 1), plays=st.integers(0, most_plays),
                     more=st.integers(0, most_more))(test)
        test = settings(max_examples=examples, deadline=None,
                        suppress_health_check=[HealthCheck.function_scoped_fixture])(test)
        return pytest.mark.parametrize("game,seats", [("casino", 2), ("casino-royal", 4), ("seep", 4),
                                                      ("zwicker", 2)])(test)
    return decorate


@over_random_states(examples=12, most_plays=20, most_more=5)
def test_the_counted_draw_stands_for_each_listed_move_once(tmp_path_factory, monkeypatch, game, seats, seed,
                                                           plays, more):
    # under the bound, on states of random play with more cards laid on the table: the entries Hand.random_move
    # draws an index over (counting from any number of loose cards) are exactly legal_moves(), each once, so a
    # uniform index is a uniform legal move
    monkeypatch.setattr(build_count, "COUNT_FIRST", 0)
    hand = random_listed_state(_rules(tmp_path_factory, game), seats, seed, plays, more)
    if hand is not None:
        assert sorted(_enumerated(hand)) == hand.legal_moves()


def random_listed_state(rules, seats: int, seed: int, plays: int, more: int) -> Hand | None:
    """A hand after `plays` random moves with up to `more` cards laid on the table too (_crowd), where its moves
    can still be listed; None where the hand ended, waits for a bid, or its moves are too many to list."""
    rng = random.Random(seed)
    hand = Hand(rules, seats, seed % seats, shuffled_source(rules.N_CARDS, rng))
    for _ in range(plays):
        if hand.is_over:
            return None
        moves = hand.legal_moves()
        card, mask = moves[rng.randrange(len(moves))]
        if card < 0:
            hand.make_bid(hand.current_seat, mask)
        else:
            hand.play(hand.current_seat, card, mask)
    if hand.is_over or hand.bid_pending:
        return None
    _crowd(hand, rng, more)
    try:
        hand.legal_moves()
    except TooManyMoves:
        return None
    return hand


def _crowded_casino(seed=3):
    rules = compile_ruleset("rulesets/casino.yaml").module
    hand = Hand(rules, 2, 1, shuffled_source(rules.N_CARDS, random.Random(1)))
    idx = rules.CARD_NAMES.index
    table = random.Random(seed).sample([f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6", "7", "8"]
                                        for s in "HDCS"], 22)
    hand.table = sum(1 << idx(n) for n in table)
    hand.hands = [sum(1 << idx(n) for n in ["10S", "9S", "8S" if "8S" not in table else "10D", "7S"
                                            if "7S" not in table else "9D"]), 0]
    hand.turn = 0
    return hand


def test_a_crowded_table_draws_legal_moves_without_listing_them():
    hand = _crowded_casino()
    assert hand.table.bit_count() == 22
    with pytest.raises(TooManyMoves):
        hand.legal_moves()
    entries, total = hand.counted_moves()
    assert total > builds.MAX_BUILD_MOVES and all(kind != "propose" for kind, *_ in entries)
    drawn = [hand.random_move(random.Random(k)) for k in range(12)]
    assert drawn == [hand.random_move(random.Random(k)) for k in range(12)]       # the same for a seed
    assert len(set(drawn)) > 10
    assert any(m >> hand.rules.N_CARDS for _, m in drawn)                        # builds drawn, as most moves are
    build = next((c, m) for c, m in drawn if m >> hand.rules.N_CARDS)
    assert hand._build_move_allowed(*build) and all(hand._build_move_allowed(c, m) for c, m in drawn[:4])
    hand.clone().play(0, *build)                                                   # legal: played


def test_greedy_chooses_a_legal_move_on_a_crowded_table():
    # past the bound greedy (and ISMCTS) choose among Hand.sample_moves: legal, the same for a seed; greedy's pick
    # captures or builds the most cards it found (the largest of each counted block is among them)
    from rulespec.bots.greedy import GreedyBot
    hand = _crowded_casino()
    sample = hand.sample_moves(random.Random(0), 8)
    assert sample == hand.sample_moves(random.Random(0), 8) and len(sample) >= 8
    assert all(hand._build_move_allowed(c, m) for c, m in sample)
    n = hand.rules.N_CARDS
    size = max((m & ((1 << n) - 1)).bit_count() for _, m in sample)
    picks = [GreedyBot(random.Random(k)).choose(hand, 0) for k in range(2)]
    assert picks[0] == GreedyBot(random.Random(0)).choose(hand, 0)
    for _decls, card, mask in picks:
        assert hand._build_move_allowed(card, mask)
        assert (mask & ((1 << n) - 1)).bit_count() == size      # no points to make: the most cards taken
    assert hand.count_moves() > builds.MAX_BUILD_MOVES
