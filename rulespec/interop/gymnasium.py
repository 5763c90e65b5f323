"""A Gymnasium single-agent environment: one seat is the agent, the others are played by named bots.

    from rulespec.interop.gymnasium import RulespecEnv
    env = RulespecEnv("cirulla", seats=2, bots="random")     # or "greedy", "ismcts:50", one per other seat

Observations and actions are the PettingZoo environment's
(rulespec/interop/pettingzoo.py): a dict with the `observation` array and the
`action_mask`; `action_masks()` returns the mask alone (for maskable
policies). One episode is one hand; the reward, at the end, is the agent's
side's total minus the best other side's (± the target for a game-ending
outcome). An action outside the mask ends the episode with
`illegal_reward` (default: minus the game's target; -1 in a game of a
fixed number of hands, which has none) and
`info["illegal_action"] = True`, the state unchanged (and the episode
over: the next step needs a reset()). An action that is no
integer (a float, a bool, None: numpy integers are integers) raises
TypeError; a step before reset() or after the episode's end raises
gymnasium.error.ResetNeeded.

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from rulespec.api import Rules, compile as compile_rules
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.interop.decisions import ActionLayout, Decisions, as_int
from rulespec.interop.observation import Observer, action_mask
from rulespec.interop.pettingzoo import MAX_EMPTY_DEALS
from rulespec.run.engine import Hand, shuffled_source, stake


class RulespecEnv(gym.Env):
    """One hand of a ruleset, seen by one seat; the other seats are bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | Rules, seats: int | None = None, *, seat: int = 0,
                 bots: str = "random", illegal_reward: float | None = None, render_mode: str | None = None,
                 **options):
        rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset, **options)
        self.rules = rules
        module = rules.module
        self.seats = module.DEFAULT_SEATS if seats is None else as_int(seats, "seats")
        seat = as_int(seat, "seat")
        if self.seats not in module.SEATS_ALLOWED:
            Hand(module, self.seats, 0, shuffled_source(module.N_CARDS, random.Random(0)))  # raises the message
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat must be from 0 to {self.seats - 1}, found {seat}")
        self.seat = seat
        self.bot_specs = parse_bots(bots, self.seats, module.SIDES[self.seats])
        self.illegal_reward = -float(stake(module) or 1) if illegal_reward is None else float(illegal_reward)
        self.layout = ActionLayout(module, self.seats)
        self.observer = Observer(module, self.seats)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self.observer.low, self.observer.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.layout.size)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self._rng = random.Random()
        self.decisions: Decisions | None = None
        self.bots: list = []
        self._ended = False                 # the last step ended the episode (the hand's end or an illegal action)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = as_int((options or {}).get("dealer", 0), "options['dealer']")
        module = self.rules.module
        self.bots = [make_bot(spec, random.Random(self._rng.getrandbits(64))) for spec in self.bot_specs]
        for _ in range(MAX_EMPTY_DEALS):
            hand = Hand(module, self.seats, dealer, shuffled_source(module.N_CARDS, self._rng))
            self.decisions = Decisions(hand, self.layout)
            self._bots_play()
            if not hand.is_over:
                break
        else:
            raise RuntimeError(f"{MAX_EMPTY_DEALS} deals in a row ended the hand before the agent's turn")
        self._ended = False
        return self._observation(), {}

    def _bots_play(self) -> None:
        d = self.decisions
        while not d.is_over and d.current_seat != self.seat:
            d.apply_bot(self.bots[d.current_seat])

    def _observation(self) -> dict:
        return {"observation": self.observer.array(self.decisions, self.seat), "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now, as 0/1 over the action space."""
        if self.decisions is None:
            raise ResetNeeded("call reset() before action_masks()")
        if self.decisions.current_seat == self.seat:
            return action_mask(self.decisions, self.layout.size)
        return np.zeros(self.layout.size, np.int8)

    def step(self, action):
        d = self.decisions
        if d is None:
            raise ResetNeeded("call reset() before step()")
        if self._ended or d.is_over:
            raise ResetNeeded("the episode is over: call reset() before step()")
        action = self.layout.checked(action)
        if action not in d.legal_actions():
            self._ended = True
            return self._observation(), self.illegal_reward, True, False, {"illegal_action": True}
        d.apply(action)
        self._bots_play()
        reward = d.returns()[self.seat] if d.is_over else 0.0
        self._ended = d.is_over
        return self._observation(), reward, d.is_over, False, {}

    def render(self):
        if self.render_mode != "ansi":
            return None
        hand = self.decisions.hand
        names = self.rules.module.card_names
        return f"round {hand.round}, table: {names(hand.visible_table())}, hand: {names(hand.hands[self.seat])}"
