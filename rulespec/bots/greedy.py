"""The greedy bot: the move with the most immediate points, then the most cards captured, then (with
capture.builds) the build that joins the most table cards, which a card kept in hand takes later."""
from __future__ import annotations

import random

from rulespec.bots.policy import best_declarations, sensible_bid
from rulespec.run.engine import Hand


class GreedyBot:
    """Takes the move with the most immediate points, then the most cards captured, then the biggest build."""

    name = "greedy"
    DRAWS = 16            # uniform draws beside the largest moves where the moves are too many to list

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        if hand.bid_pending:             # a bid scores nothing now: the value most held on the cards bid on
            return [], *sensible_bid(hand)
        decls = best_declarations(hand, seat) if hand.declares_with_play else []
        base = hand.with_declarations(seat, decls) if decls else hand
        best, best_key = None, None
        made = len(base.events)
        n_cards = hand.rules.N_CARDS
        # Hand.sample_moves: the list; past the bound (too many builds or captures to list), every listed
        # trail and capture, the move taking or joining the most cards of each counted block (the ones the
        # key below ranks first among a block's) and a few uniform draws
        for card, capture in base.sample_moves(self.rng, self.DRAWS):
            events = base.child((card, capture)).events[made:]     # what this play scores
            # A build's mask holds its value above the deck's bits: it takes nothing now, but the cards it
            # joins are the player's to take with the card it keeps, so it comes before laying a card.
            taken, built = (0, (capture & ((1 << n_cards) - 1)).bit_count() + 1) if capture >> n_cards \
                else (capture.bit_count(), 0)
            key = (sum(e.points for e in events), taken, built, self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = (card, capture), key
        return decls, best[0], best[1]
