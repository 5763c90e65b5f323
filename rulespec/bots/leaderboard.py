"""A leaderboard: bots and trained agents cross-played per game, each pair on the same deals, with 95% intervals.

Every pair of entrants (A, B) plays `hands` deals, each twice: A on the
seats of side 0 and B on side 1's, then swapped, from the same deck order and
dealer (duplicate play: the luck of the cards cancels out of the pair's
difference). A deal's sample is A's mean result over its two hands (its
side's total minus the other's, ± the target for an outcome that ends the
game: bots/ismcts.py result_for), so a pair's mean and its 95% interval
(normal approximation over the deals) say by how many points A beats B per
hand; the share of hands A won (more points) comes with its Wilson interval.
An entrant's score is the mean of its pairs' means (each interval the
pairs', combined as independent), and the board is sorted by it.

Deal `i` of a pair draws its cards from the seed, the pair's names and `i`
alone, and every bot has its own stream per (deal, seat): the same command
prints the same board. Entrants are bot specs (`random`, `greedy`,
`ismcts:BUDGET`, `policy:FILE` or a shipped `policy:NAME`); a game with two sides at the seat count
played (the default: the ruleset's, or the fewest seats with two sides).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from itertools import combinations

from rulespec.bots.ismcts import result_for
from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot
from rulespec.bots.saved import check_trained_for
from rulespec.bots.simulate import half_width95, wilson
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, shuffled_source

DEFAULT_ENTRANTS = ("random", "greedy", "ismcts:20", "ismcts:80")
MAX_HANDS = 1_000_000


@dataclass
class Pair:
    """Integer sums over the deals of A against B (each deal: A's results in its two hands)."""

    a: str
    b: str
    deals: int = 0
    total: int = 0          # sum over deals of (A's result as side 0 + A's result as side 1)
    squares: int = 0
    wins: int = 0           # hands A won outright
    hands: int = 0

    def mean(self) -> float:
        """A's mean result per hand against B."""
        return self.total / (2 * self.deals) if self.deals else 0.0

    def half_width(self) -> float:
        return half_width95(self.deals, self.total, self.squares) / 2

    def win_rate(self) -> tuple[float, float, float]:
        return (self.wins / self.hands, *wilson(self.wins, self.hands)) if self.hands else (0.0, 0.0, 1.0)


@dataclass
class Board:
    """The cross-play of a game: every pair's sums, the entrants in the order given."""

    ruleset: str
    seats: int
    hands: int
    seed: int
    entrants: list[str]
    pairs: dict = field(default_factory=dict)        # (a, b), a before b in `entrants` -> Pair

    def versus(self, a: str, b: str) -> tuple[float, float]:
        """a's mean result per hand against b and its 95% half-width (from either side of the pair)."""
        if (a, b) in self.pairs:
            p = self.pairs[(a, b)]
            return p.mean(), p.half_width()
        p = self.pairs[(b, a)]
        return -p.mean(), p.half_width()

    def score(self, a: str) -> tuple[float, float]:
        """a's mean over its opponents of its mean result per hand, and the 95% half-width of that mean."""
        got = [self.versus(a, b) for b in self.entrants if b != a]
        if not got:
            return 0.0, math.inf
        return sum(m for m, _ in got) / len(got), math.sqrt(sum(h * h for _, h in got)) / len(got)

    def ranking(self) -> list[str]:
        """The entrants, best score first (ties: in the order given)."""
        return sorted(self.entrants, key=lambda a: (-self.score(a)[0], self.entrants.index(a)))

    def to_dict(self) -> dict:
        def figure(x: float):
            return None if math.isinf(x) or math.isnan(x) else round(x, 4)
        rows = []
        for a in self.ranking():
            mean, hw = self.score(a)
            rows.append({"entrant": a, "score": figure(mean), "half_width": figure(hw),
                         "versus": {b: {"mean": figure(self.versus(a, b)[0]), "half_width": figure(self.versus(a, b)[1])}
                                    for b in self.entrants if b != a}})
        pairs = []
        for (a, b), p in self.pairs.items():
            rate, low, high = p.win_rate()
            pairs.append({"a": a, "b": b, "deals": p.deals, "hands": p.hands, "mean": figure(p.mean()),
                          "half_width": figure(p.half_width()), "a_won": p.wins,
                          "a_win_rate": [figure(rate), figure(low), figure(high)]})
        return {"ruleset": self.ruleset, "seats": self.seats, "hands_per_pair": 2 * self.hands, "seed": self.seed,
                "unit": "points per hand", "interval": "95%", "ranking": rows, "pairs": pairs}


def board_seats(rules, seats: int | None) -> int:
    """The seat count to play: `seats`, else the ruleset's, else the fewest with two sides; it must have two."""
    if seats is None:
        seats = rules.DEFAULT_SEATS
        if rules.SIDES.get(seats) != 2:
            seats = min((s for s in rules.SEATS_ALLOWED if rules.SIDES.get(s) == 2), default=seats)
    if seats not in rules.SEATS_ALLOWED:
        raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} players, "
                            f"not {seats}")
    if rules.SIDES[seats] != 2:
        raise RulespecError(f"a leaderboard pits two entrants, side against side: {rules.RULESET_ID} at {seats} "
                            f"seats has {rules.SIDES[seats]} sides (give --seats with two)")
    return seats


def parse_entrants(text: str | None) -> list[str]:
    """Entrant specs from `random,greedy,ismcts:50,policy:FILE` (default DEFAULT_ENTRANTS); each checked."""
    specs = list(DEFAULT_ENTRANTS) if text is None else [s.strip() for s in text.split(",")]
    if len(specs) < 2:
        raise RulespecError(f"a leaderboard needs two entrants at least, found {len(specs)} ({text!r})")
    if len(set(specs)) != len(specs):
        twice = sorted({s for s in specs if specs.count(s) > 1})
        raise RulespecError(f"an entrant is named twice: {', '.join(twice)}")
    for spec in specs:
        make_bot(spec, random.Random(0))       # an unknown name or a bad file is reported before any play
    return specs


def cross_play(rules, entrants: list[str], *, hands: int, seed: int = 0, seats: int | None = None,
               progress=None) -> Board:
    """Play every pair of entrants on `hands` duplicate deals (see the module docstring)."""
    if not 1 <= hands <= MAX_HANDS:
        raise RulespecError(f"--hands is the deals per pair, from 1 to {MAX_HANDS}, found {hands}")
    n = board_seats(rules, seats)
    for spec in entrants:
        # a policy trained for another game is refused before any pair plays, not midway through the board
        if spec.startswith("policy:"):
            check_trained_for(make_bot(spec, random.Random(0)), rules.RULESET_ID, n, spec)
    board = Board(rules.RULESET_ID, n, hands, seed, list(entrants))
    for a, b in combinations(entrants, 2):
        pair = Pair(a, b)
        for i in range(hands):
            results = []
            for a_side in (0, 1):
                key = f"rulespec-board:{seed}:{a}:{b}:{i}"
                deck = random.Random(key)
                specs = [a if s % 2 == a_side else b for s in range(n)]
                bots = [make_bot(spec, random.Random(f"{key}:{a_side}:{s}")) for s, spec in enumerate(specs)]
                hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, deck))
                play_out(hand, bots)
                result = result_for(hand, a_side)
                results.append(result)
                pair.hands += 1
                pair.wins += _won(hand, a_side)
            x = int(sum(results))
            pair.deals += 1
            pair.total += x
            pair.squares += x * x
            if progress is not None:
                progress(1)
        board.pairs[(a, b)] = pair
    return board


def _won(hand: Hand, side: int) -> bool:
    """Whether `side` won the hand outright: an outcome for it, or more points than the other side."""
    if hand.outcome is not None:
        return side in hand.outcome[1]
    totals = [row["total"] for row in hand.score()] if hand.plays else [0, 0]
    return totals[side] > totals[1 - side]


def render_text(board: Board) -> str:
    """The board as a plain table: rank, entrant, score ± half-width, then its result against each entrant."""
    order = board.ranking()
    short = {a: f"#{i + 1}" for i, a in enumerate(order)}

    def cell(m: float, hw: float) -> str:
        return f"{m:+.2f} ± {'∞' if math.isinf(hw) else f'{hw:.2f}'}"
    headers = ["#", "entrant", "score"] + [short[b] for b in order]
    rows = []
    for i, a in enumerate(order):
        rows.append([str(i + 1), a, cell(*board.score(a))]
                    + ["—" if b == a else cell(*board.versus(a, b)) for b in order])
    widths = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(headers)]
    lines = [f"{board.ruleset}, {board.seats} seats: points per hand against each entrant, 95% intervals "
             f"({2 * board.hands} hands per pair on {board.hands} duplicate deals, seed {board.seed})", ""]
    lines.append("  ".join(h.ljust(w) if j == 1 else h.rjust(w) for j, (h, w) in enumerate(zip(headers, widths))))
    for r in rows:
        lines.append("  ".join(c.ljust(w) if j == 1 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths))))
    lines.append("")
    lines.append("score: the mean of the entrant's results against the others; a cell: the row's entrant's "
                 "points per hand against the column's (#k: the k-th of the board)")
    return "\n".join(lines)
