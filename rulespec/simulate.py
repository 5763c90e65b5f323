"""Simulate many hands with bots and summarise the points per category and side."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .bots import BOTS, play_out
from .engine import Hand, shuffled_source


@dataclass
class Stats:
    """Running sums of per-category points per side over many hands."""

    sides: int
    categories: tuple[str, ...]
    hands: int = 0
    plays: int = 0
    outcomes: dict = field(default_factory=dict)
    sums: dict = field(default_factory=dict)       # (side, category) -> sum
    squares: dict = field(default_factory=dict)    # (side, category) -> sum of squares
    hand_wins: list = field(default_factory=list)

    def add(self, hand: Hand) -> None:
        self.hands += 1
        self.plays += hand.plays
        if hand.outcome is not None:
            self.outcomes[hand.outcome[0]] = self.outcomes.get(hand.outcome[0], 0) + 1
        if not self.hand_wins:
            self.hand_wins = [0] * self.sides
        if hand.plays == 0:
            return
        rows = hand.score()
        top = max(r["total"] for r in rows)
        leaders = [s for s, r in enumerate(rows) if r["total"] == top]
        if len(leaders) == 1:
            self.hand_wins[leaders[0]] += 1
        for side, row in enumerate(rows):
            for cat, pts in row.items():
                key = (side, cat)
                self.sums[key] = self.sums.get(key, 0) + pts
                self.squares[key] = self.squares.get(key, 0) + pts * pts

    def mean(self, side: int, cat: str) -> float:
        return self.sums.get((side, cat), 0) / self.hands if self.hands else 0.0

    def ci95(self, side: int, cat: str) -> float:
        """Half-width of the 95% confidence interval of the mean."""
        n = self.hands
        if n < 2:
            return 0.0
        m = self.mean(side, cat)
        var = max(self.squares.get((side, cat), 0) / n - m * m, 0.0) * n / (n - 1)
        return 1.96 * math.sqrt(var / n)


def simulate(compiled, *, hands: int, seed: int, seats: int | None = None, bots: str = "random",
             progress=None) -> Stats:
    """Play `hands` independent hands (dealer rotating) and gather statistics; reproducible per seed."""
    rules = compiled.module
    n = seats or rules.DEFAULT_SEATS
    stats = Stats(rules.SIDES[n], tuple(rules.CATEGORIES) + ("total",))
    for i in range(hands):
        rng = random.Random(f"rulespec-sim:{seed}:{i}")
        hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
        play_out(hand, [BOTS[bots](rng) for _ in range(n)])
        stats.add(hand)
        if progress:
            progress()
    return stats
