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

Self-play options (as the Gymnasium environment's; rulespec/interop/selfplay.py):
`dealer="random"` draws the dealer at every reset (from the seeded stream);
`episode="game"` makes one episode a whole game, hands until the target, the
rewards given at each hand's end and every agent terminated at the game's
end (observe_dict(agent)["game"] holds the sides' totals so far; every
observation's `game_totals` block and observe_dict's `game_totals`, each
agent's side first, show them hand by hand);
`reward` is `margin`, `scaled` or `win`; `wild_ranks=True` makes the wild
card's declared rank the agents' choice; `afterstate=True` adds `afterstate`,
per action what playing it would do, to every observation.

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulespec.api import Rules
from rulespec.interop.decisions import Decisions, as_int
from rulespec.interop.observation import action_mask
from rulespec.interop.selfplay import afterstate, hand_reward, setup
from rulespec.run.engine import Game, Hand, shuffled_source

# A guard: deals that end the game before any play, in a row, before reset() gives up.
MAX_EMPTY_DEALS = 1000
# A guard: a game (episode="game") that has not ended after this many hands is a bug (as simulate's).
MAX_HANDS_PER_GAME = 1000


def env(ruleset: str | Rules, seats: int | None = None, *, render_mode: str | None = None,
        **options) -> "RulespecAEC":
    """The AEC environment of a ruleset (an id, a path, or a compiled `Rules`) with option values (the
    self-play keywords of RulespecAEC among them)."""
    return RulespecAEC(ruleset, seats, render_mode=render_mode, **options)


class RulespecAEC(AECEnv):
    """One hand of a ruleset as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulespec_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str | Rules, seats: int | None = None, *,
                 render_mode: str | None = None, dealer: int | str = 0, episode: str = "hand",
                 reward: str = "margin", wild_ranks: bool = False, afterstate: bool = False, **options):
        super().__init__()
        cfg = setup(ruleset, seats, dealer=dealer, episode=episode, reward=reward, wild_ranks=wild_ranks,
                    options=options)
        self.rules, self.seats, self.layout, self.observer = cfg.rules, cfg.seats, cfg.layout, cfg.observer
        self.random_dealer = cfg.dealer is None
        self.default_dealer = 0 if cfg.dealer is None else cfg.dealer
        self.episode, self.reward_kind, self.scale = cfg.episode, cfg.reward, cfg.scale
        self.show_afterstate = bool(afterstate)
        self.game: Game | None = None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_spaces = cfg.spaces(self.show_afterstate)
        obs_space = spaces.Dict(obs_spaces)
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
        """Deal a new hand, or a game's first (the dealer is options["dealer"], default the `dealer` given)."""
        if seed is not None:
            self._rng = random.Random(as_int(seed, "seed"))
        if "dealer" in (options or {}):
            self.dealer = as_int(options["dealer"], "options['dealer']")
        else:
            self.dealer = self._rng.randrange(self.seats) if self.random_dealer else self.default_dealer
        module = self.rules.module
        for _ in range(MAX_EMPTY_DEALS):
            if self.episode == "game":
                self.game = Game(module, self.seats, seed=self._rng.getrandbits(64), dealer=self.dealer)
                hand = self.game.new_hand()
            else:
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
        obs = {"observation": self.observer.array(d, seat), "action_mask": mask}
        if self.show_afterstate:
            obs["afterstate"] = afterstate(d, seat, self.layout.size)
        return obs

    def _offer_mask(self) -> None:
        """The agent to act finds its action mask in its info too (for agents that skip the observation)."""
        d = self.decisions
        if d.current_seat is None:
            return
        self.infos[self.agent_selection] = {"action_mask": action_mask(d, self.layout.size)}

    def observe_dict(self, agent) -> dict:
        """The agent's view as a readable dict (cards as indices; rules.card_names names them)."""
        view = self.observer.dict(self._started(), self._seat[agent])
        if self.game is not None:
            view["game"] = {"totals": list(self.game.totals), "hands_played": self.game.hands_played}
        return view

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
        if d.is_over and self.episode == "game" and not self._next_hand():
            for a in self.agents:
                self.rewards[a] = self._reward(a)
            self._accumulate_rewards()
            self.infos[agent] = {}
            self.agent_selection = self.possible_agents[self.decisions.current_seat]
            self._offer_mask()
        elif self.decisions.is_over:
            for a in self.agents:
                self.rewards[a] = self._reward(a)
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

    def _next_hand(self) -> bool:
        """Game episodes, a hand just over: count it into the game, remember each agent's reward for it, and
        deal the next (and on, past deals that end by themselves); whether the game is over."""
        game = self.game
        self._hand_rewards = {a: 0.0 for a in self.agents}
        while True:
            game.finish_hand()
            for a in self.agents:
                self._hand_rewards[a] += self._hand_reward(a)
            if game.is_over:
                return True
            if game.hands_played >= MAX_HANDS_PER_GAME:
                raise RuntimeError(f"the game has not ended after {MAX_HANDS_PER_GAME} hands, the most a game may last")
            self.decisions = Decisions(game.new_hand(), self.layout)
            if not self.decisions.is_over:
                return False

    def _hand_reward(self, agent) -> float:
        seat = self._seat[agent]
        if self.episode == "game" and self.reward_kind == "win":
            game = self.game
            return 0.0 if not game.is_over else 1.0 if seat % len(game.totals) in game.winners else -1.0
        return hand_reward(self.decisions, seat, self.reward_kind, self.scale)

    def _reward(self, agent) -> float:
        """The reward of `agent` for the hand(s) just over."""
        if self.episode == "game":
            return self._hand_rewards[agent]
        return self._hand_reward(agent)

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
