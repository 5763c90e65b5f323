"""The ISMCTS bot: determinisations keep the seat's view, hidden cards never steer it, it beats random play."""
import random

import pytest

from rulespec.bots.greedy import GreedyBot
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.bots.ismcts import ISMCTSBot, determinise, unseen_cards
from tests.conftest import seeded_hand


def midgame(rules, seed: int, plays: int):
    """A seeded 4-player hand after `plays` random plays (declarations included)."""
    hand = seeded_hand(rules, seed, dealer=seed % 4)
    bots = [RandomBot(random.Random(seed * 7 + s)) for s in range(4)]
    while not hand.is_over and hand.plays < plays:
        seat = hand.current_seat
        decls, card, capture = bots[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
    return hand


def hidden_from(hand, seat):
    """The cards `seat` cannot see, as the engine knows them: other seats' undeclared cards and the stock."""
    out = set(hand.source.order[hand.source.pos:])
    for s in range(hand.n):
        if s != seat:
            out |= {c for c in range(hand.rules.N_CARDS) if (hand.hands[s] & ~hand.shown[s]) >> c & 1}
    return out


def permuted(hand, seat, rng):
    """The same public state with the hidden cards dealt differently among the other hands and the stock."""
    other = hand.clone()
    hidden = sorted(hidden_from(hand, seat))
    rng.shuffle(hidden)
    for s in range(hand.n):
        if s == seat:
            continue
        need = (hand.hands[s] & ~hand.shown[s]).bit_count()
        other.hands[s] = hand.shown[s] & hand.hands[s] | sum(1 << c for c in hidden[:need])
        other.round_dealt[s] = other.hands[s]
        hidden = hidden[need:]
    other.source.order[other.source.pos:] = hidden
    return other


POSITIONS = [(seed, plays) for seed in range(6) for plays in (0, 5, 14, 27)]


@pytest.mark.parametrize("seed,plays", POSITIONS)
def test_determinisation_keeps_what_the_seat_sees(cirulla, seed, plays):
    rules = cirulla.module
    hand = midgame(rules, seed, plays)
    seat = hand.current_seat
    d = determinise(hand, seat, random.Random(seed))
    assert d.observation(seat) == hand.observation(seat)
    assert sorted(unseen_cards(d.observation(seat), rules.N_CARDS)) == sorted(hidden_from(hand, seat))
    assert sorted(hidden_from(d, seat)) == sorted(hidden_from(hand, seat))
    rest = d.clone()
    play_out(rest, [RandomBot(random.Random(s)) for s in range(4)])
    assert rest.is_over
    everything = rest.table | rest.final_table
    for p in rest.piles:
        everything |= p
    assert everything == (1 << rules.N_CARDS) - 1      # every card dealt once: the stock was the rest


@pytest.mark.parametrize("seed,plays", POSITIONS)
def test_choice_ignores_the_hidden_cards(cirulla, seed, plays):
    # The bot's choice is the same whichever way the cards it cannot see are dealt.
    rules = cirulla.module
    hand = midgame(rules, seed, plays)
    seat = hand.current_seat
    assert len(hand.legal_moves()) > 1        # a real choice
    twins = [permuted(hand, seat, random.Random(k)) for k in range(2)]
    assert any(t.hands != hand.hands or t.source.order != hand.source.order for t in twins)
    choices = {repr(ISMCTSBot(random.Random(99), budget=12).choose(h, seat)) for h in [hand] + twins}
    assert len(choices) == 1


def test_the_choice_is_a_legal_move_with_the_best_bonus(cirulla):
    rules = cirulla.module
    hand = midgame(rules, 3, 0)
    seat = hand.current_seat
    decls, card, capture = ISMCTSBot(random.Random(1), budget=8).choose(hand, seat)
    hand.play(seat, card, capture, decls)      # raises if illegal


def margin_against(rules, opponent, hands: int, budget: int) -> float:
    total = 0
    for i in range(hands):
        hand = seeded_hand(rules, 1000 + i, dealer=i % 4)
        bots = [ISMCTSBot(random.Random(i), budget), opponent(random.Random(i + 1)),
                ISMCTSBot(random.Random(i + 2), budget), opponent(random.Random(i + 3))]
        play_out(hand, bots)
        rows = hand.score()
        total += rows[0]["total"] - rows[1]["total"]
    return total / hands


def test_a_small_ismcts_beats_random_play(cirulla):
    # A tiny version of bench/README.md's measurement (1,000 hands there).
    assert margin_against(cirulla.module, RandomBot, hands=16, budget=16) > 0


def test_ismcts_plays_every_player_count(cirulla):
    rules = cirulla.module
    for seats in (2, 3):
        hand = seeded_hand(rules, 5, seats=seats)
        play_out(hand, [ISMCTSBot(random.Random(s), budget=4) if s == 0 else GreedyBot(random.Random(s))
                        for s in range(seats)])
        assert hand.is_over


def test_ismcts_plays_every_shipped_ruleset():
    # Determinisation follows each ruleset's deck, deal schedule and declaration timing.
    from rulespec.compiler.build import compile_ruleset
    from rulespec.source.rulesets import shipped_ids
    for rid in shipped_ids():
        rules = compile_ruleset(rid).module
        n = rules.DEFAULT_SEATS
        hand = seeded_hand(rules, 7, seats=n)
        bots = [ISMCTSBot(random.Random(s), budget=1) if s % 2 == 0 else RandomBot(random.Random(s))
                for s in range(n)]
        play_out(hand, bots)
        assert hand.is_over, rid
