"""Bots that choose moves from what a seat may know: random, greedy, and ISMCTS (rulespec/ismcts.py)."""
from __future__ import annotations

import random

from rulespec.run.engine import Declaration, Hand
from rulespec.errors import RulespecError


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


def declared_moves(hand: Hand, seat: int) -> tuple[list[Declaration], list[tuple[int, int]]]:
    """The declarations a bot makes with its play (the most points), and the legal moves after them."""
    decls = best_declarations(hand, seat) if hand.declares_with_play else []
    moves = (hand.with_declarations(seat, decls) if decls else hand).legal_moves()
    return decls, moves


class RandomBot:
    """Plays a uniformly random legal move; declares the bonuses it holds."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls, moves = declared_moves(hand, seat)
        card, capture = moves[self.rng.randrange(len(moves))]
        return decls, card, capture


class GreedyBot:
    """Takes the move with the most immediate points, then the most cards captured."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls = best_declarations(hand, seat) if hand.declares_with_play else []
        base = hand.with_declarations(seat, decls) if decls else hand.clone()
        best, best_key = None, None
        for card, capture in base.legal_moves():
            probe = base.clone()
            events = probe._play_card(seat, card, capture)
            key = (sum(e.points for e in events), capture.bit_count(), self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = (card, capture), key
        return decls, best[0], best[1]


def _ismcts(rng: random.Random, budget: int | None = None):
    from rulespec.bots.ismcts import ISMCTSBot      # imported late: ismcts builds on this module
    return ISMCTSBot(rng) if budget is None else ISMCTSBot(rng, budget)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "ismcts": _ismcts}


def make_bot(spec: str, rng: random.Random):
    """A bot from its name, with an optional budget after a colon (`ismcts:200`)."""
    name, _, arg = spec.partition(":")
    if name not in BOTS:
        raise RulespecError(f"unknown bot '{name}' (bots: {', '.join(BOTS)})")
    if not arg:
        return BOTS[name](rng)
    if name != "ismcts" or not arg.isdigit() or int(arg) < 1:
        raise RulespecError(f"bot '{spec}': only ismcts takes a budget, a positive number of rollouts "
                            f"(ismcts:200)")
    return BOTS[name](rng, int(arg))


def parse_bots(text: str, seats: int, sides: int | None = None) -> list[str]:
    """Bot specs per seat from `random` (every seat), `random,greedy,random,ismcts` (one per seat) or,
    with `sides` given, one per side (`ismcts,random`: seat i gets the bot of side i mod sides)."""
    specs = [s.strip() for s in text.split(",")]
    if len(specs) == 1 or (sides and len(specs) == sides):
        specs = [specs[seat % len(specs)] for seat in range(seats)]
    if len(specs) != seats:
        per_side = f", one per side ({sides})" if sides and sides != seats else ""
        raise RulespecError(f"--bots names {len(specs)} bots for {seats} seats (give one{per_side}, "
                            f"or one per seat)")
    for spec in specs:
        make_bot(spec, random.Random(0))           # reports an unknown name before any work starts
    return specs


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


def play_out(hand: Hand, bots: list, on_play=None, on_turn=None) -> None:
    """Let the bots finish the hand (`on_play(seat, decls, card, capture, events)` sees each move,
    `on_turn(hand, seat)` each turn before the bot chooses)."""
    while not hand.is_over:
        for seat, decls in knocks(hand):
            if on_play:
                on_play(seat, decls, None, 0, [e for e in hand.events if e.play == hand.plays + 1
                                               and e.seat == seat])
        seat = hand.current_seat
        if on_turn:
            on_turn(hand, seat)
        decls, card, capture = bots[seat].choose(hand, seat)
        events = hand.play(seat, card, capture, decls)
        if on_play:
            on_play(seat, decls, card, capture, events)
