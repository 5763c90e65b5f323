"""An information-set Monte Carlo bot: sample the hidden cards, roll out at random, keep the best mean.

The bot sees what its seat may see (`Hand.observation(seat)`: its own hand,
the table, every captured pile, the declared cards still in hand, the hand
sizes) and nothing else. For each determinisation it deals the unseen cards
at random to the other seats' hidden hands and to the stock (`determinise`),
then tries every legal move in it and finishes the hand with uniformly random
play; the move with the best mean result for its side (its total minus the
best other side's, ± the target for an outcome that ends the game) wins.
Every move is tried on the same determinisations (common random numbers),
which makes the comparison between moves far less noisy than the budget
alone suggests. This is the root-only ("flat") form of ISMCTS: the
statistics are kept per move of the information set at the root, not in a
tree below it.

A determinisation's redeals and every rollout draw from a `Stream` (rulespec/run/stream.py) seeded
with 64 bits of the bot's own stream: the scheme the native engine implements too.

Rollouts play no hand-bonus declarations (they would cost a search over the
hand's triples at every first turn, and a bonus's points hardly depend on the
move being judged); the bot itself declares its bonuses as the other bots do.

Given a loaded native engine (`native=`), the bot plays its rollouts in C
(compiler/native_rollouts.py, drawing from the same `Stream` as the Python
rollouts; the determinisations stay here) and makes the same decisions as with
Python rollouts.
"""
from __future__ import annotations

import random

from rulespec.bots.policy import sensible_bid
from rulespec.run.engine import Hand, score_located, stake
from rulespec.run.stream import Stream


def _mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def unseen_cards(obs: dict, n_cards: int) -> list[int]:
    """The cards a seat cannot see, lowest first: other seats' undeclared cards and the stock."""
    seen = _mask(obs["hand"]) | _mask(obs["table"])
    for pile in obs["captured"]:
        seen |= _mask(pile)
    for shown in obs["shown"]:
        seen |= _mask(shown)
    return [c for c in range(n_cards) if not seen >> c & 1]


def stock_size(hand: Hand) -> int:
    """How many cards the rounds still to be dealt will give (Hand.stock_size)."""
    return hand.stock_size()


def hidden_layout(hand: Hand, seat: int) -> tuple[list[int], list[tuple[int, int, int]], int]:
    """What a redraw for `seat` deals: the cards it cannot see (lowest first), per other seat (the seat, its
    shown cards, how many hidden cards it holds), and how many cards lie face down in the piles. Only
    `hand.observation(seat)` and public facts (the deal schedule) decide them."""
    obs = hand.observation(seat)
    unseen = unseen_cards(obs, hand.rules.N_CARDS)
    seats = [(s, _mask(obs["shown"][s]), obs["hand_sizes"][s] - len(obs["shown"][s])) for s in range(hand.n) if s != seat]
    down = obs.get("face_down", 0)          # a pile's face-down cards: unseen, redrawn like the rest
    stock = len(unseen) - sum(need for _s, _shown, need in seats) - down
    if stock != hand.stock_size():
        raise AssertionError(f"determinise: {stock} unseen cards left for a stock of {hand.stock_size()}")
    return unseen, seats, down


def redraw(layout: tuple[list[int], list[tuple[int, int, int]], int], rng) -> tuple[dict[int, int], list[int], list[int]]:
    """The hidden cards of a `hidden_layout` dealt anew: (the other seats' hands, the face-down cards, the
    stock's order); each seat keeps its shown cards and its number of cards."""
    unseen, seats, down = layout
    unseen = list(unseen)
    rng.shuffle(unseen)
    hidden, at = {}, 0
    for s, shown, need in seats:
        hidden[s] = shown | _mask(unseen[at:at + need])
        at += need
    return hidden, unseen[at:at + down], unseen[at + down:]


def determinise(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """A copy of `hand` whose hidden cards are redrawn from what `seat` cannot see.

    Only `hand.observation(seat)` and public facts (the deal schedule, the
    rules) decide the new hidden cards. The copy is a clone whose every
    piece of hidden information is then overwritten: the other seats' hands
    (their shown cards kept), the stock (a fresh deck order of the unseen
    rest), and the record of what was dealt.
    """
    if hand.bid_pending:                    # before the bid nearly everything is unseen (Hand.redrawn_before_bid)
        return hand.redrawn_before_bid(seat, rng)
    hidden, face_down, stock = redraw(hidden_layout(hand, seat), rng)
    return hand.with_hidden(hidden, stock, Stream(rng.getrandbits(64)), face_down)     # the world's redeals


def playout_value(hand: Hand, side: int, rng: random.Random, resume) -> float:
    """`result_for` of the hand finished by uniformly random play, through the ruleset's generated playout.

    The same moves as `rollout(hand, rng)` (one `rng.randrange(moves)` per turn, no declarations),
    without a `Hand` per turn (compiler/playout.py).
    """
    if hand.over:
        return result_for(hand, side)
    src = hand.source
    n = hand.n
    plays, outcome, piles, points, _turns, _moves = resume(
        n, hand.dealer, src.order[src.pos:], hand.hands, hand.table, hand.piles, hand.last_capturer, hand.round,
        hand.turn, hand.played_this_round, hand.declared, hand.shown, hand.knocked_round, hand.round_dealt,
        hand.declared_wild, hand.wild_as, hand.previous, hand.plays, hand.event_points(), [0] * n, [rng] * n, False)
    rules = hand.rules
    totals = [row["total"] for row in score_located(rules, piles, points)] if plays else [0] * hand.k
    value = totals[side] - max(t for s, t in enumerate(totals) if s != side)
    if outcome is not None:
        value += stake(rules) if side in outcome[1] else -stake(rules)
    return value


def rollout(hand: Hand, rng: random.Random) -> None:
    """Finish the hand with uniformly random legal moves and no declarations."""
    while not hand.over:
        card, capture = hand.random_move(rng)     # the list's draw; past the bound, drawn without it
        hand.play(hand.turn, card, capture)


def result_for(hand: Hand, side: int) -> float:
    """A finished hand's value for `side`: its total minus the best other side's, ± the target for an outcome."""
    totals = [row["total"] for row in hand.score()] if hand.plays else [0] * hand.k
    value = totals[side] - max(t for s, t in enumerate(totals) if s != side)
    if hand.outcome is not None:
        value += stake(hand.rules) if side in hand.outcome[1] else -stake(hand.rules)
    return value


class ISMCTSBot:
    """Information-set Monte Carlo: `budget` random rollouts per decision, spread over the legal moves."""

    name = "ismcts"
    SAMPLE = 32           # uniform draws among the moves where they are too many to list

    def __init__(self, rng: random.Random, budget: int = 120, playouts: bool = True, native=None):
        self.rng = rng
        self.budget = budget
        self.playouts = playouts         # rollouts by the generated playout (False: through Hand, same moves)
        self.native = native             # a loaded native engine (compiler/native.py): rollouts in C, same moves

    def choose(self, hand: Hand, seat: int):
        if hand.bid_pending:
            # The bidder has seen only the cards it bids on: a search over this hand's worlds would see the
            # rest of its deal, so it bids as greedy does, from those cards alone.
            return [], *sensible_bid(hand)
        decls = hand.best_declarations(seat) if hand.declares_with_play else []
        # declared_moves' list; past the bound (too many builds or captures to list), a bounded sample of the
        # legal moves (Hand.sample_moves: the listed trails and captures, the largest move of each counted block
        # and SAMPLE uniform draws), the search spread over those
        moves = hand.sample_moves(self.rng, self.SAMPLE, decls)
        if len(moves) == 1:
            return decls, moves[0][0], moves[0][1]
        scores = self.evaluate(hand, seat, decls, moves)
        best = max(range(len(moves)), key=lambda i: (scores[i], -i))
        card, capture = moves[best]
        return decls, card, capture

    def evaluate(self, hand: Hand, seat: int, decls, moves) -> list[float]:
        """Mean rollout result of each move for the seat's side, over shared determinisations."""
        side = hand.side_of(seat)
        rounds = max(1, -(-self.budget // len(moves)))
        sums = [0.0] * len(moves)
        if self.native is not None:
            from rulespec.compiler.native_rollouts import Rollouts
            batch = Rollouts(self.native, hand, seat, decls, moves, stake(hand.rules))
            layout = hidden_layout(hand, seat)          # the same for every determinisation of this decision
            for _ in range(rounds):
                hidden, _face_down, stock = redraw(layout, self.rng)     # no face-down cards: C plays no piles
                self.rng.getrandbits(64)     # determinise's draw for the world's redeals: the same stream after
                batch.add(hidden, stock, self.rng.getrandbits(64), sums)
            return [s / rounds for s in sums]
        resume = _resume(hand.rules) if self.playouts else None
        for _ in range(rounds):
            world = determinise(hand, seat, self.rng)
            stream = self.rng.getrandbits(64)
            for i, (card, capture) in enumerate(moves):
                h = world.clone()
                h.play(seat, card, capture, decls)
                if resume is not None:
                    sums[i] += playout_value(h, side, Stream(stream), resume)
                else:
                    rollout(h, Stream(stream))
                    sums[i] += result_for(h, side)
        return [s / rounds for s in sums]


def _resume(rules):
    """The generated playout's resume() for a compiled module (None if the module is not a compiled ruleset's)."""
    from rulespec.compiler.build import compiled_for
    from rulespec.compiler.playout import resume_for
    compiled = compiled_for(rules)
    return resume_for(compiled) if compiled is not None else None
