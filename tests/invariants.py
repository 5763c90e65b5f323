"""Invariants of a hand in play, checked after every step (tests/test_invariants.py, bench/soak.py, tests/fuzz.py).

`check_hand(compiled, hand)` returns the list of what is broken (empty when
all holds); `play_checked(compiled, hand, rng)` plays a hand out with random
bots (declarations and knocks included), checking after every step. Nothing
here knows a particular game: every rule comes from the compiled module and
the checked ruleset.
"""
from __future__ import annotations

import random

from rulespec.bots.policy import knocks
from rulespec.bots.random_bot import RandomBot
from rulespec.checks.check import SCORE_NAMES, context
from rulespec.errors import RulespecError
from rulespec.lang.constant import value_of
from rulespec.lang.expressions import BoolOp, Call, IfElse
from rulespec.lang.model import Expression
from rulespec.run.bid import BID_MOVE
from rulespec.run.engine import Hand, shuffled_source
from rulespec.run.runtime import bits as _bits


class InvariantError(AssertionError):
    """An invariant that does not hold; the message says which and where."""


def majority_categories(ruleset) -> list[str]:
    """Categories that by the form of their points score for one side at most: a majority.

    `N if most(X) else 0` is one (most() may be and-ed with other conditions, and an option may
    choose between such forms); a category that merely mentions most() need not be: `1 if
    most(X) else 1` gives every side its point, `1 if not most(X) else 0` every side but the
    leader. Checking those would blame the engine for what the rules say.
    """
    ctx = context(ruleset, SCORE_NAMES, allow_most=True)
    return [name for name, cat in ruleset.categories.items()
            if isinstance(cat.points, Expression) and _constant(cat.points.tree, ctx) is _VARIES
            and _one_side_at_most(cat.points.tree, ctx)]


_VARIES = object()


def _constant(node, ctx):
    """The node's value if it is the same for every side and hand (options, literals), else _VARIES."""
    try:
        return value_of(node, ctx)
    except RulespecError:   # NotConstant: it reads the pile, the side or most()
        return _VARIES


def _one_side_at_most(node, ctx) -> bool:
    """Whether the points `node` are nonzero for one side at most, whatever the piles."""
    known = _constant(node, ctx)
    if known is not _VARIES:
        return known == 0
    if isinstance(node, IfElse):
        cond = _constant(node.cond, ctx)
        if cond is not _VARIES:     # chosen by an option: the chosen branch decides
            return _one_side_at_most(node.then if cond else node.other, ctx)
        return _needs_most(node.cond) and _constant(node.other, ctx) == 0
    return False


def _needs_most(cond) -> bool:
    """Whether the condition holds only where a most() holds (for one side at most)."""
    if isinstance(cond, Call):
        return cond.func == "most"
    if isinstance(cond, BoolOp) and cond.op == "and":
        return _needs_most(cond.left) or _needs_most(cond.right)
    return False


def stock(hand: Hand) -> int:
    """The cards not dealt yet (a deck-order hand; an explicit deal has none left to know)."""
    src = hand.source
    if src.order is None:
        return 0
    mask = 0
    for c in src.order[src.pos:]:
        mask |= 1 << c
    return mask


def check_hand(compiled, hand: Hand, every_seat: bool = True) -> list[str]:
    """Every invariant of this state that does not hold, in words.

    Observations are checked for every seat, or (every_seat=False, cheaper)
    for the seat to play only: over a hand that still reaches every seat.
    """
    rules = compiled.module
    problems: list[str] = []
    full = (1 << rules.N_CARDS) - 1
    names = rules.CARD_NAMES

    # 1. Every card is in exactly one place: a hand, the table, a pile, the stock.
    places = [(f"hand {s}", m) for s, m in enumerate(hand.hands)] + [("table", hand.table)] + \
             [(f"pile {s}", m) for s, m in enumerate(hand.piles)] + [("stock", stock(hand))]
    seen = 0
    for where, mask in places:
        if mask & ~full:
            problems.append(f"{where} holds a card index outside the deck: {_bits(mask & ~full)}")
        twice = seen & mask
        if twice:
            problems.append(f"{where} holds cards that are also elsewhere: {rules.card_names(twice & full)}")
        seen |= mask
    if seen & full != full:
        problems.append(f"cards in no place: {rules.card_names(full & ~seen)}")
    if sum(1 << c for c in hand.table_order) != hand.table or len(hand.table_order) != hand.table.bit_count():
        problems.append(f"table order {hand.table_order} does not match the table {_bits(hand.table)}")

    # 2. Legal moves are never empty while the hand goes on, and each is a real move.
    if not hand.is_over:
        moves = hand.legal_moves()
        if not moves:
            problems.append(f"no legal move for seat {hand.current_seat} while the hand goes on")
        mine = hand.hands[hand.current_seat]
        for card, capture in moves:
            if card == BID_MOVE:            # a bid (bid:): only while one is due, of a value the rules allow
                if not hand.bid_pending or capture not in hand._bid_cfg.values:
                    problems.append(f"legal move bids {capture} while {'a bid is due' if hand.bid_pending else 'none is'}")
                continue
            if not mine >> card & 1:
                problems.append(f"legal move plays {names[card]}, not in seat {hand.current_seat}'s hand")
            if capture >> rules.N_CARDS and getattr(rules, "BUILDS", None) is None:
                problems.append(f"legal move {capture:#x} holds a build's value in a ruleset without builds")
            if capture & full & ~hand.table:       # a build's move holds its value above the deck's bits
                problems.append(f"legal move captures {rules.card_names(capture & full & ~hand.table)}, "
                                f"not on the table")
    elif hand.plays and any(hand.hands):
        problems.append("the hand is over with cards still in hand")
    # Builds (capture.builds) lie on the table (gone with it at the end), each card in one build at most.
    built = 0
    for b in getattr(hand, "builds", ()):
        if b.cards & ~hand.table or b.cards & built:
            problems.append(f"build {rules.card_names(b.cards & full)} is not on the table, or shares a card")
        built |= b.cards

    # 3. Scores: totals are the sums of the categories, events add up, majorities go to one side.
    if hand.is_over and hand.plays:
        rows = hand.score()
        cats = list(compiled.ruleset.categories)
        events = hand.event_points()
        for side, row in enumerate(rows):
            if set(row) != set(cats) | {"total"}:
                problems.append(f"side {side}: score categories {sorted(row)} are not {sorted(cats)} + total")
                continue
            if row["total"] != sum(row[c] for c in cats):
                problems.append(f"side {side}: total {row['total']} is not the sum of its categories {row}")
            for c, cat in compiled.ruleset.categories.items():
                if cat.from_events and row[c] != events[side].get(c, 0):
                    problems.append(f"side {side}: {c} is {row[c]}, its events give {events[side].get(c, 0)}")
        for c in majority_categories(compiled.ruleset):
            winners = [s for s, row in enumerate(rows) if row[c]]
            if len(winners) > 1:
                problems.append(f"majority category {c} scores for sides {winners}")

    # 4. Observations never show another seat's hidden cards, nor the stock.
    undealt = stock(hand)
    hidden = [h & ~shown for h, shown in zip(hand.hands, hand.shown)]
    sizes = [h.bit_count() for h in hand.hands]
    seats = range(hand.n) if every_seat or hand.is_over else [hand.current_seat]
    for seat in seats:
        secret = undealt
        for other in range(hand.n):
            if other != seat:
                secret |= hidden[other]
        obs = hand.observation(seat)
        visible = 0
        for group in [obs["hand"], obs["table"], obs["previous"], *obs["shown"], *obs["captured"]]:
            for c in group:
                visible |= 1 << c
        if visible & secret:
            problems.append(f"seat {seat}'s observation shows hidden cards {rules.card_names(visible & secret)}")
        own = hand.hands[seat] if not hand.bid_pending else hand.bid_cards if seat == hand.bidder else 0
        if sum(1 << c for c in obs["hand"]) != own:       # before a bid: the cards the bidder bids on alone
            problems.append(f"seat {seat}'s observation does not show its own hand")
        if obs["hand_sizes"] != sizes:
            problems.append(f"seat {seat}'s observation has wrong hand sizes")
    return problems


def observation_ignores_hidden(hand: Hand, seat: int, rng: random.Random) -> bool:
    """Whether seat's observation is unchanged when the other seats' hidden cards are dealt among them anew."""
    hidden = {o: hand.hands[o] & ~hand.shown[o] for o in range(hand.n) if o != seat}
    pool = [c for m in hidden.values() for c in _bits(m)]
    rng.shuffle(pool)
    probe = hand.clone()
    for o, m in hidden.items():
        take, pool = pool[:m.bit_count()], pool[m.bit_count():]
        probe.hands[o] = (hand.hands[o] & hand.shown[o]) | sum(1 << c for c in take)
    return probe.observation(seat) == hand.observation(seat)


def new_hand(compiled, seed, seats: int | None = None, dealer: int | None = None) -> Hand:
    """A hand dealt from a shuffle seeded by `seed` (dealer and seats drawn from it when not given)."""
    rules = compiled.module
    rng = random.Random(f"invariants:{seed}")
    seats = seats or rng.choice(rules.SEATS_ALLOWED)
    dealer = rng.randrange(seats) if dealer is None else dealer
    return Hand(rules, seats, dealer, shuffled_source(rules.N_CARDS, rng))


def play_checked(compiled, hand: Hand, rng: random.Random, every_seat: bool = True) -> int:
    """Play the hand out with random bots, checking the invariants after every step; returns the plays.

    Raises InvariantError at the first step where something does not hold.
    """
    def verify(step: str) -> None:
        problems = check_hand(compiled, hand, every_seat)
        if problems:
            raise InvariantError(f"{compiled.id}, {hand.n} seats, dealer {hand.dealer}, {step}: "
                                 + "; ".join(problems))

    verify("after the deal")
    bots = [RandomBot(random.Random(rng.random())) for _ in range(hand.n)]
    while not hand.is_over:
        for seat, _ in knocks(hand):
            verify(f"after seat {seat}'s knock")
        seat = hand.current_seat
        decls, card, capture = bots[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
        verify(f"after play {hand.plays}")
    return hand.plays
