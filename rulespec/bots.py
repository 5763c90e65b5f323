"""Bots that choose moves from what a seat may know: its legal moves and its own bonuses."""
from __future__ import annotations

import random

from .engine import Declaration, Hand


def best_declarations(hand: Hand, seat: int) -> list[Declaration]:
    """A set of bonus declarations worth the most points (disjoint cards, one wild-card rank)."""
    options = hand.bonus_options(seat)
    if not options:
        return []
    rules = hand.rules
    options.sort(key=lambda d: -rules.HAND_BONUSES[d.bonus].points)
    chosen: list[Declaration] = []
    used = 0
    wild_rank = None
    for d in options:
        spec = rules.HAND_BONUSES[d.bonus]
        shares = all(o.bonus in spec.shares_cards_with for o in chosen if o.cards & d.cards)
        if d.cards & used and not shares:
            continue
        if d.wild_rank is not None and wild_rank not in (None, d.wild_rank):
            continue
        if rules.PER_TURN == "one" and chosen:
            break
        chosen.append(d)
        used |= d.cards
        wild_rank = d.wild_rank if d.wild_rank is not None else wild_rank
    return chosen


class RandomBot:
    """Plays a uniformly random legal move; declares the bonuses it holds."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls = best_declarations(hand, seat) if hand.declares_with_play else []
        if decls:
            probe = hand.clone()
            probe._apply_declarations(seat, decls, with_card=True)
            moves = probe.legal_moves()
        else:
            moves = hand.legal_moves()
        card, capture = moves[self.rng.randrange(len(moves))]
        return decls, card, capture


class GreedyBot:
    """Takes the move with the most immediate points, then the most cards captured."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls = best_declarations(hand, seat) if hand.declares_with_play else []
        base = hand.clone()
        if decls:
            base._apply_declarations(seat, decls, with_card=True)
        best, best_key = None, None
        for card, capture in base.legal_moves():
            probe = base.clone()
            events = probe._play_card(seat, card, capture)
            key = (sum(e.points for e in events), capture.bit_count(), self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = (card, capture), key
        return decls, best[0], best[1]


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def knocks(hand: Hand) -> list[tuple[int, list[Declaration]]]:
    """Card-less declarations due now (rulesets whose bonuses are declared apart from a play)."""
    if hand.declares_with_play or hand.is_over:
        return []
    done = []
    for j in range(hand.n):
        seat = (hand.dealer + 1 + j) % hand.n
        decls = best_declarations(hand, seat)
        if decls:
            hand.declare(seat, decls)
            done.append((seat, decls))
    return done


def play_out(hand: Hand, bots: list, on_play=None) -> None:
    """Let the bots finish the hand (`on_play(seat, decls, card, capture, events)` sees each move)."""
    while not hand.is_over:
        for seat, decls in knocks(hand):
            if on_play:
                on_play(seat, decls, None, 0, [e for e in hand.events if e.play == hand.plays + 1
                                               and e.seat == seat])
        seat = hand.current_seat
        decls, card, capture = bots[seat].choose(hand, seat)
        events = hand.play(seat, card, capture, decls)
        if on_play:
            on_play(seat, decls, card, capture, events)
