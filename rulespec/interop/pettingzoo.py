"""A PettingZoo AEC environment for any ruleset: `env("cicera", seats=4)`.

One episode is one hand. Agents are `player_0 .. player_{n-1}` (seat numbers).
Each agent's observation is a dict: `observation`, a float32 array of fixed
size per (ruleset, seats) (rulespec/interop/observation.py), and
`action_mask`, an int8 array over the actions (rulespec/interop/decisions.py:
a card, DONE, or a declaration slot); the agent to act also finds its mask
in `infos[agent]["action_mask"]`, for agents that skip the observation
(`env.last(observe=False)`). `observe_dict(agent)` gives the same
view in readable form. The reward, given when the hand ends, is the agent's
side's total minus the best other side's (± the target for an outcome that
ends the game). An illegal action raises IllegalMove, one that is no integer
(a float, a bool; None but for an agent whose episode is over) TypeError,
a step or an observation before reset() RuntimeError.

A deal that ends the game by itself (a dealer's win, the misdeal limit)
leaves no decision to any agent: reset() deals again from the same stream.

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulespec.api import Rules, compile as compile_rules
from rulespec.interop.decisions import ActionLayout, Decisions, as_int
from rulespec.interop.observation import Observer, action_mask
from rulespec.run.engine import Hand, shuffled_source

# A guard: deals that end the game before any play, in a row, before reset() gives up.
MAX_EMPTY_DEALS = 1000


def env(ruleset: str | Rules, seats: int | None = None, *, render_mode: str | None = None,
        **options) -> "RulespecAEC":
    """The AEC environment of a ruleset (an id, a path, or a compiled `Rules`) with option values."""
    return RulespecAEC(ruleset, seats, render_mode=render_mode, **options)


class RulespecAEC(AECEnv):
    """One hand of a ruleset as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulespec_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | Rules, seats: int | None = None, *,
                 render_mode: str | None = None, **options):
        super().__init__()
        rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset, **options)
        self.rules = rules
        module = rules.module
        self.seats = module.DEFAULT_SEATS if seats is None else as_int(seats, "seats")
        if self.seats not in module.SEATS_ALLOWED:
            Hand(module, self.seats, 0, shuffled_source(module.N_CARDS, random.Random(0)))  # raises the message
        self.layout = ActionLayout(module, self.seats)
        self.observer = Observer(module, self.seats)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.observer.low, self.observer.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._rng = random.Random()
        self.dealer = 0
        self.decisions: Decisions | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- episode -------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new hand (the dealer is options["dealer"], default 0)."""
        if seed is not None:
            self._rng = random.Random(as_int(seed, "seed"))
        self.dealer = as_int((options or {}).get("dealer", 0), "options['dealer']")
        module = self.rules.module
        for _ in range(MAX_EMPTY_DEALS):
            hand = Hand(module, self.seats, self.dealer, shuffled_source(module.N_CARDS, self._rng))
            if not hand.is_over:
                break
        else:
            raise RuntimeError(f"{MAX_EMPTY_DEALS} deals in a row ended the game before any play")
        self.decisions = Decisions(hand, self.layout)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.decisions.current_seat]
        self._offer_mask()

    @property
    def hand(self) -> Hand:
        """The engine's hand being played (full state: for tools, not for agents)."""
        return self.decisions.hand

    def _started(self) -> Decisions:
        """The hand being played; RuntimeError before the first reset()."""
        if self.decisions is None:
            raise RuntimeError("no hand is dealt yet: call reset() first")
        return self.decisions

    def observe(self, agent):
        seat = self._seat[agent]
        d = self._started()
        if d.current_seat == seat:
            mask = self.infos[agent]["action_mask"].copy()      # the agent's own: editing it changes nothing here
        else:
            mask = np.zeros(self.layout.size, np.int8)
        return {"observation": self.observer.array(d, seat), "action_mask": mask}

    def _offer_mask(self) -> None:
        """The agent to act finds its action mask in its info too (for agents that skip the observation)."""
        d = self.decisions
        if d.current_seat is None:
            return
        self.infos[self.agent_selection] = {"action_mask": action_mask(d, self.layout.size)}

    def observe_dict(self, agent) -> dict:
        """The agent's view as a readable dict (cards as indices; rules.card_names names them)."""
        return self.observer.dict(self._started(), self._seat[agent])

    def step(self, action) -> None:
        d = self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"an action is an integer from 0 to {self.layout.size - 1}, found None "
                            f"(None only for an agent whose episode is over, to leave)")
        d.apply(action)
        self._cumulative_rewards[agent] = 0.0
        if d.is_over:
            returns = d.returns()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = True
            self._accumulate_rewards()
            self.infos[agent] = {}
            # Every agent steps once more, with None, to leave (PettingZoo's dead step).
            self.agent_selection = agent
            self.agent_selection = self._deads_step_first()
        else:
            self._clear_rewards()
            self.infos[agent] = {}
            self.agent_selection = self.possible_agents[d.current_seat]
            self._offer_mask()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        hand = self.decisions.hand
        names = self.rules.module.card_names
        lines = [f"round {hand.round}, table: {names(hand.visible_table())}"]
        for s in range(self.seats):
            lines.append(f"  seat {s}: {names(hand.hands[s])}")
        if hand.is_over:
            lines.append(f"  over: {[row['total'] for row in hand.score()]}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
