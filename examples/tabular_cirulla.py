"""A tabular agent for 2-player Cirulla, trained against the random bot for a few minutes.

    python examples/tabular_cirulla.py [--minutes 3] [--eval-hands 2000] [--seed 1] [--save FILE]

The agent learns the value of *afterstates*: for each legal move it looks at
what the move does (found by playing it on a copy of the hand, `hand.clone()`)
and sums that up in a small key: the points the move scores at once, the
cards it takes (how many, how many coins, the seven of coins, sevens), what
it leaves on the table (how many cards, their total up to 11, since a table
worth 10 or less invites a sweep) and, for a card laid down, whether it is a
seven or a coin. Every key keeps the mean final result of the hands in which
a move with that key was played (every-visit Monte Carlo); the agent plays
the move whose key has the best mean, exploring at random with probability
epsilon (decaying) while it trains. The result of a hand is the agent's
total minus the opponent's (Cirulla's points: sweeps, cards, coins, seven of
coins, primiera, grande, piccola, declared bonuses).

It declares its hand bonuses as the bots do (the most points), so the
comparison with the random bot is about the play alone. Training and
evaluation hands alternate the dealer. The evaluation plays fresh deals with
epsilon 0 and reports the mean result per hand and the share of hands won
(more points than the opponent), each with a 95% confidence interval; the
same deals are also played by the random bot in the agent's seat as a
control.
"""
from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulespec  # noqa: E402
from rulespec.bots.greedy import GreedyBot  # noqa: E402
from rulespec.bots.policy import declared_moves  # noqa: E402
from rulespec.bots.random_bot import RandomBot  # noqa: E402


class TabularAgent:
    """Afterstate values in a table: key -> [sum of results, count]."""

    def __init__(self, rules, rng: random.Random):
        module = rules.module
        self.rng = rng
        self.epsilon = 0.0
        self.table: dict[tuple, list[float]] = {}
        names = module.CARD_NAMES
        # Cirulla's capture values follow the rank order: A..7 are 1..7, J Q K are 8 9 10.
        self.value = [module.RANK_NAMES.index(n[:-1]) + 1 for n in names]
        self.coin = [n.endswith("D") for n in names]
        self.seven = [n[:-1] == "7" for n in names]
        self.settebello = names.index("7D")
        self.trace: list[tuple] = []

    def key(self, hand, seat, decls, card, capture) -> tuple:
        probe = hand.clone()
        events = probe.play(seat, card, capture, decls)
        points = sum(e.points for e in events if e.seat == seat and e.name not in probe.rules.HAND_BONUSES)
        taken = capture | (1 << card) if capture else 0
        cards = [c for c in range(len(self.coin)) if taken >> c & 1]
        table = [c for c in range(len(self.coin)) if probe.table >> c & 1]
        laid = 0 if capture else 1 + 2 * self.seven[card] + self.coin[card]
        return (points, min(len(cards), 5), min(sum(self.coin[c] for c in cards), 3),
                taken >> self.settebello & 1, min(sum(self.seven[c] for c in cards), 2),
                min(len(table), 4), min(sum(self.value[c] for c in table), 11), laid)

    def choose(self, hand, seat):
        decls, moves = declared_moves(hand, seat)
        if len(moves) == 1:
            card, capture = moves[0]
            return decls, card, capture
        keys = [self.key(hand, seat, decls, card, capture) for card, capture in moves]
        if self.rng.random() < self.epsilon:
            i = self.rng.randrange(len(moves))
        else:
            def mean(k):
                s = self.table.get(k)
                return s[0] / s[1] if s else 0.0
            best = max(mean(k) for k in keys)
            i = self.rng.choice([j for j, k in enumerate(keys) if mean(k) == best])
        self.trace.append(keys[i])
        card, capture = moves[i]
        return decls, card, capture

    def learn(self, result: float) -> None:
        for k in self.trace:
            s = self.table.setdefault(k, [0.0, 0])
            s[0] += result
            s[1] += 1
        self.trace = []


def play_hand(rules, bots, seed: int, dealer: int) -> list[float]:
    """One hand; per seat its total minus the other's."""
    hand = rules.new_hand(seats=2, dealer=dealer, seed=seed)
    while not hand.is_over:
        seat = hand.current_seat
        decls, card, capture = bots[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
    totals = [row["total"] for row in hand.score()]
    return [totals[0] - totals[1], totals[1] - totals[0]]


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def evaluate(rules, player, hands: int, seed: int) -> dict:
    """`player` in seat 0 or 1 (alternating, the dealer too) against the random bot, on fixed deals."""
    diffs, wins = [], []
    opponent = RandomBot(random.Random(f"opponent:{seed}"))
    for i in range(hands):
        seat = i % 2
        bots = [opponent, opponent]
        bots[seat] = player
        result = play_hand(rules, bots, seed=hash((seed, i)) & 0xFFFFFFFF, dealer=(i // 2) % 2)[seat]
        diffs.append(result)
        wins.append(1.0 if result > 0 else 0.5 if result == 0 else 0.0)
        if hasattr(player, "trace"):
            player.trace = []
    mean, half = interval(diffs)
    rate, rate_half = interval(wins)
    return {"hands": hands, "mean_diff": mean, "mean_diff_95": half, "win_rate": rate, "win_rate_95": rate_half}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--eval-hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", help="write the learned table here (pickle)")
    args = ap.parse_args(argv)
    rules = rulespec.compile("cirulla")
    rng = random.Random(args.seed)
    agent = TabularAgent(rules, rng)
    opponent = RandomBot(random.Random(args.seed + 1))
    deadline = time.perf_counter() + 60 * args.minutes
    trained = 0
    while time.perf_counter() < deadline:
        agent.epsilon = max(0.02, 0.3 * (1 - (time.perf_counter() - deadline + 60 * args.minutes)
                                         / (60 * args.minutes)))
        seat = trained % 2
        bots = [opponent, opponent]
        bots[seat] = agent
        result = play_hand(rules, bots, seed=rng.getrandbits(32), dealer=(trained // 2) % 2)[seat]
        agent.learn(result)
        trained += 1
    agent.epsilon = 0.0
    print(f"trained on {trained} hands in {args.minutes:g} minutes; {len(agent.table)} keys")
    eval_seed = args.seed + 1000
    for name, player in (("tabular agent", agent), ("random bot (control)", RandomBot(random.Random(7))),
                         ("greedy bot (reference)", GreedyBot(random.Random(7)))):
        r = evaluate(rules, player, args.eval_hands, eval_seed)
        print(f"{name:23s} vs random, {r['hands']} hands: mean result {r['mean_diff']:+.2f} "
              f"± {r['mean_diff_95']:.2f} points per hand, hands won {100 * r['win_rate']:.1f}% "
              f"± {100 * r['win_rate_95']:.1f}%")
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(agent.table))


if __name__ == "__main__":
    main()
