"""What the Gymnasium and PettingZoo adapters share: their arguments checked (`setup`), opponents, rewards,
afterstate features.

Opponents (`as_opponent`) play a seat's whole move; each is one of:

- a bot's name, as `--bots` takes it: `random`, `greedy`, `ismcts:200`;
- a rulespec bot: an object with `choose(hand, seat)` (rulespec/bots);
- a policy with `predict(observation, action_masks=..., deterministic=...)`
  returning `(action, state)`, as Stable-Baselines3's models and policies do
  (sb3-contrib's MaskablePPO, or its `.policy`);
- a callable `f(observation) -> action`, given the seat's observation dict
  (`observation`, `action_mask`, and `afterstate` when the environment shows it).

The last two decide one action at a time, as the agent does, through the
same observation; an action outside the mask is a bug of the opponent and
raises ValueError naming it. `snapshot(policy)` freezes a copy of a policy
as it is now (self-play against earlier selves): the copy plays on unchanged
while the original trains.

Rewards (`REWARDS`): `margin`, the hand's result as Decisions.returns gives
it (the side's total minus the best other side's, ± the target for an
outcome that ends the game); `scaled`, the margin divided by the game's target
(by 1 in a game of a number of hands); `win`, +1, -1 or 0 by who won: the
hand (more points than every other side) or, with full games as episodes,
the game.

Afterstate features (`afterstate`): for each action of the card phase (a
card of the hand), what playing it would do, found by playing each of its
captures on a copy of the hand; rows of the other actions, and every row
outside the seat's own card phase, are zero. The columns are AFTERSTATE_FEATURES.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces

from rulespec.api import Rules, compile as compile_rules
from rulespec.interop.decisions import CARD, ActionLayout, Decisions, as_int
from rulespec.interop.observation import Observer
from rulespec.run.engine import Hand, shuffled_source, stake

REWARDS = ("margin", "scaled", "win")
EPISODES = ("hand", "game")

AFTERSTATE_FEATURES = (
    "legal",            # 1 for a card the seat may play now
    "captures",         # how many ways it may be played (1: it is laid, or it has a single capture)
    "takes",            # the most cards its captures take (0: laid on the table)
    "points",           # the most points its plays score at once for the seat's side, less the others'
    "sweeps",           # 1 if one of its captures clears the table
    "left",             # the fewest cards it leaves on the table
)


def check_choice(value, choices: tuple, what: str) -> str:
    """`value` if it is one of `choices`; ValueError naming them otherwise."""
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def seat_or_random(value, what: str) -> int | None:
    """A seat number (any integer, numpy's too), or None for the word "random"; a float TypeError (as_int),
    another word ValueError."""
    if isinstance(value, str):
        if value != "random":
            raise ValueError(f'{what} is an integer or "random", found {value!r}')
        return None
    return as_int(value, what)


@dataclass
class Setup:
    """What the Gymnasium and PettingZoo adapters read alike from their arguments, checked (`setup`)."""

    rules: Rules
    seats: int
    dealer: int | None          # None: drawn at every reset ("random")
    episode: str                # one of EPISODES
    reward: str                 # one of REWARDS
    scale: float                # what `scaled` divides by: the target, or 1
    layout: ActionLayout
    observer: Observer

    def spaces(self, afterstate: bool) -> dict:
        """The observation dict's spaces: `observation`, `action_mask`, and `afterstate` when shown."""
        out = {
            "observation": spaces.Box(self.observer.low, self.observer.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        }
        if afterstate:
            out["afterstate"] = spaces.Box(-np.inf, np.inf, (self.layout.size, len(AFTERSTATE_FEATURES)),
                                           dtype=np.float32)
        return out


def setup(ruleset: str | Rules, seats, *, dealer, episode: str, reward: str, wild_ranks: bool,
          options: dict) -> Setup:
    """The ruleset compiled with `options` (unless given compiled), the seat count (the ruleset's default for
    None; one it is not played by raises the engine's message), the dealer (a seat or "random"), the episode
    and reward kinds, and the action layout and observer for them; ValueError or TypeError for a bad one."""
    rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset, **options)
    module = rules.module
    n = module.DEFAULT_SEATS if seats is None else as_int(seats, "seats")
    if n not in module.SEATS_ALLOWED:
        Hand(module, n, 0, shuffled_source(module.N_CARDS, random.Random(0)))   # raises the message
    dealer = seat_or_random(dealer, "dealer")
    if dealer is not None and not 0 <= dealer < n:
        raise ValueError(f"dealer must be from 0 to {n - 1}, found {dealer}")
    return Setup(rules, n, dealer, check_choice(episode, EPISODES, "episode"),
                 check_choice(reward, REWARDS, "reward"), float(stake(module) or 1),
                 ActionLayout(module, n, wild_ranks=wild_ranks), Observer(module, n))


def hand_reward(d: Decisions, seat: int, kind: str, scale: float) -> float:
    """The reward of a finished hand for `seat` (see the module docstring)."""
    result = d.returns()[seat]
    if kind == "margin":
        return result
    if kind == "scaled":
        return result / scale
    return float((result > 0) - (result < 0))


class Opponent:
    """One seat's player: plays the seat's whole move in a Decisions (see the module docstring)."""

    def __init__(self, player, observe):
        self.player = player
        self.observe = observe          # (decisions, seat) -> the seat's observation dict
        self._bot = hasattr(player, "choose")

    def move(self, d: Decisions) -> None:
        """Play the current seat's whole move: its declarations and its play."""
        seat = d.current_seat
        if self._bot:
            d.apply_bot(self.player)
            return
        plays = d.hand.plays
        while not d.is_over and d.current_seat == seat and d.hand.plays == plays:
            knocks = len(d.log)
            obs = self.observe(d, seat)
            action = self._decide(obs)
            try:
                action = as_int(action, f"the opponent at seat {seat}'s action")
            except TypeError as err:
                raise ValueError(str(err)) from None
            if not (0 <= action < obs["action_mask"].size and obs["action_mask"][action]):
                raise ValueError(f"the opponent at seat {seat} chose action {action}, which is not legal "
                                 f"(legal: {np.flatnonzero(obs['action_mask']).tolist()})")
            d.apply(action)
            if len(d.log) != knocks and d.log[-1][0] == "knock":
                return                  # a knock is a move of its own (its seat plays later)

    def _decide(self, obs: dict):
        if hasattr(self.player, "predict"):
            action, _ = self.player.predict(obs, action_masks=obs["action_mask"], deterministic=True)
            return np.asarray(action).reshape(-1)[0].item()
        return self.player(obs)


def snapshot(policy):
    """A frozen copy of `policy` (a callable, or a model or policy with `predict`) to play as an opponent."""
    if not (callable(policy) or hasattr(policy, "predict") or hasattr(policy, "choose")):
        raise TypeError(f"a snapshot is taken of a policy (a callable, or an object with predict or choose), "
                        f"not {type(policy).__name__}")
    return copy.deepcopy(policy)


def afterstate(d: Decisions, seat: int, size: int) -> np.ndarray:
    """The afterstate features of every action for `seat`: float32, (size, len(AFTERSTATE_FEATURES))."""
    out = np.zeros((size, len(AFTERSTATE_FEATURES)), np.float32)
    if d.is_over or d.current_seat != seat or d.phase != CARD:
        return out
    hand = d.hand
    base = hand.with_declarations(seat, d.decls) if d.decls else hand
    side, k = seat % hand.k, hand.k
    made = len(base.events)
    for card, captures in d._moves.items():
        row = out[card]
        row[0], row[1] = 1.0, len(captures)
        best_points, fewest_left = None, None
        for capture in captures:
            child = base.child((card, capture))
            points = sum(e.points if e.side == side else -e.points
                         for e in child.events[made:] if e.side is not None and 0 <= e.side < k)
            best_points = points if best_points is None else max(best_points, points)
            # What the play leaves, before any later deal or the hand's end moves the table.
            left = (base.table & ~capture).bit_count() + (not capture)
            fewest_left = left if fewest_left is None else min(fewest_left, left)
            row[2] = max(row[2], capture.bit_count())
            if capture and capture == base.table:
                row[4] = 1.0
        row[3], row[5] = best_points, fewest_left
    return out
