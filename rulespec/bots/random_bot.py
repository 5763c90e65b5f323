"""The random bot: a uniformly random legal move, declaring the bonuses it holds."""
from __future__ import annotations

import random

from rulespec.bots.policy import declared_moves
from rulespec.run.engine import Hand


class RandomBot:
    """Plays a uniformly random legal move; declares the bonuses it holds."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls, moves = declared_moves(hand, seat)
        card, capture = moves[self.rng.randrange(len(moves))]
        return decls, card, capture
