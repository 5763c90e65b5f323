"""The random bot: a uniformly random legal move, declaring the bonuses it holds."""
from __future__ import annotations

import random

from rulespec.run.engine import Hand


class RandomBot:
    """Plays a uniformly random legal move; declares the bonuses it holds."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        # Hand.random_move: a draw from legal_moves_after's list; from every legal move without the list where
        # the builds on offer are more than a list holds (run/engine.TooManyMoves)
        decls = hand.best_declarations(seat) if hand.declares_with_play else []
        card, capture = hand.random_move(self.rng, decls)
        return decls, card, capture
