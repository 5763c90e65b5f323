"""The greedy bot: the move with the most immediate points, then the most cards captured."""
from __future__ import annotations

import random

from rulespec.bots.policy import best_declarations
from rulespec.run.engine import Hand


class GreedyBot:
    """Takes the move with the most immediate points, then the most cards captured."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls = best_declarations(hand, seat) if hand.declares_with_play else []
        base = hand.with_declarations(seat, decls) if decls else hand
        best, best_key = None, None
        made = len(base.events)
        for card, capture in base.legal_moves():
            events = base.child((card, capture)).events[made:]     # what this play scores
            key = (sum(e.points for e in events), capture.bit_count(), self.rng.random())
            if best_key is None or key > best_key:
                best, best_key = (card, capture), key
        return decls, best[0], best[1]
