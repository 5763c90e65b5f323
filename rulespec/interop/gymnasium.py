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

Self-play and training options (rulespec/interop/selfplay.py says more):

- `opponents`: instead of `bots`, one player per other seat (or one for
  all): a bot's name, a rulespec bot, a policy with `predict` (SB3), a
  callable on the seat's observation, or a `snapshot(policy)`;
  `set_opponents()` changes them between episodes.
- `seat="random"`, `dealer="random"`: drawn afresh at every reset (from the
  environment's seeded stream); `reset(options={"dealer": d})` still names one.
- `episode="game"`: one episode is a whole game, hands until the target (the
  dealer passing on); a reward at each hand's end; the observation gains
  `game`, the sides' totals so far (the agent's side first). The array's
  `game_totals` block shows them in every episode (observation.py): there
  as the hand's rules see them, a finished hand's points joining them when
  the next hand is dealt.
- `team=True`: the agent plays every seat of its side (2 vs 2 in a
  four-seat partnership game); the observation is that of the seat acting,
  and `info["seat"]` names it.
- `reward`: `margin` (the default: the points above), `scaled` (divided by
  the target) or `win` (+1/-1/0 by who won the hand, or the game).
- `wild_ranks=True`: the wild card's declared rank is the agent's choice
  (rulespec/interop/decisions.py: R more actions, one per rank).
- `afterstate=True`: the observation gains `afterstate`, per action what
  playing it would do (AFTERSTATE_FEATURES).

Registered ids: importing this module registers `rulespec/<id>-v0` for every
shipped ruleset and `rulespec/Rulespec-v0` (give `ruleset=`); every keyword
above, and the ruleset's options, pass through `gymnasium.make`:

    gymnasium.make("rulespec.interop.gymnasium:rulespec/cirulla-v0", seats=2, target=21, reward="win")

Vector environments: Gymnasium's default autoreset mode, NEXT_STEP, returns
the final observation of an episode with an all-zero action mask (no action
is legal once the episode is over), and takes the next step's action for
that sub-environment as no move: it resets instead, whatever the action.
A maskable policy that samples from the mask must give that step some
action of its own (any: it is ignored), never sample from the zero mask.
`gymnasium.vector.SyncVectorEnv(..., autoreset_mode=AutoresetMode.SAME_STEP)`
avoids the extra step (the final observation is then in `info["final_obs"]`).

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from rulespec.api import Rules
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.bots.simulate import MAX_HANDS_PER_GAME
from rulespec.interop.decisions import Decisions, as_int
from rulespec.interop.observation import action_mask
from rulespec.interop.pettingzoo import MAX_EMPTY_DEALS
from rulespec.interop.selfplay import Opponent, afterstate, hand_reward, seat_or_random, setup, snapshot
from rulespec.run.engine import Game, Hand, shuffled_source, stake
from rulespec.source.rulesets import shipped_ids

__all__ = ["RulespecEnv", "register_envs", "snapshot"]


class RulespecEnv(gym.Env):
    """One hand (or game) of a ruleset, seen by one seat (or side); the other seats are bots or policies."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | Rules, seats: int | None = None, *, seat: int | str = 0,
                 bots: str = "random", illegal_reward: float | None = None, render_mode: str | None = None,
                 opponents=None, dealer: int | str = 0, episode: str = "hand", team: bool = False,
                 reward: str = "margin", wild_ranks: bool = False, afterstate: bool = False,
                 **options):
        cfg = setup(ruleset, seats, dealer=dealer, episode=episode, reward=reward, wild_ranks=wild_ranks,
                    options=options)
        self.rules, self.seats, self.layout, self.observer = cfg.rules, cfg.seats, cfg.layout, cfg.observer
        module = self.rules.module
        seat = seat_or_random(seat, "seat")
        self.random_seat = seat is None
        seat = 0 if seat is None else seat
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat must be from 0 to {self.seats - 1}, found {seat}")
        self.seat = seat
        self.random_dealer = cfg.dealer is None
        self.dealer = 0 if cfg.dealer is None else cfg.dealer
        self.episode, self.reward_kind, self.scale = cfg.episode, cfg.reward, cfg.scale
        self.team = bool(team)
        self.show_afterstate = bool(afterstate)
        self.sides = module.SIDES[self.seats]
        self.bot_specs = parse_bots(bots, self.seats, self.sides)
        self._opponents: list | None = None
        self.illegal_reward = -float(stake(module) or 1) if illegal_reward is None else float(illegal_reward)
        obs_spaces = cfg.spaces(self.show_afterstate)
        if self.episode == "game":
            obs_spaces["game"] = spaces.Box(-np.inf, np.inf, (self.sides,), dtype=np.float32)
        self.observation_space = spaces.Dict(obs_spaces)
        self.action_space = spaces.Discrete(self.layout.size)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self._rng = random.Random()
        self.decisions: Decisions | None = None
        self.game: Game | None = None
        self.bots: list = []
        self._ended = False                 # the last step ended the episode (the hand's end or an illegal action)
        if opponents is not None:
            self.set_opponents(opponents)

    # -- opponents ------------------------------------------------------------
    def set_opponents(self, opponents) -> None:
        """The players of the other seats from the next reset() on: one for all, or one per seat not the
        agent's (in seat order; with a random seat or a team, one per seat, the agent's entries unused);
        None goes back to `bots`. Each is a bot's name, a rulespec bot, a policy with `predict`, or a
        callable on the observation (rulespec/interop/selfplay.py)."""
        if opponents is None:
            self._opponents = None
            return
        players = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents]
        fixed_others = [s for s in range(self.seats) if not self._agent_seat(s)] \
            if not self.random_seat else None
        if len(players) == 1:
            players = players * self.seats
        elif fixed_others is not None and len(players) == len(fixed_others):
            by_seat = dict(zip(fixed_others, players))
            players = [by_seat.get(s, players[0]) for s in range(self.seats)]
        elif len(players) != self.seats:
            others = f" or one per other seat ({len(fixed_others)})" if fixed_others is not None else ""
            raise ValueError(f"opponents: give one for all seats, one per seat ({self.seats}){others}, "
                             f"found {len(players)}")
        for p in players:
            if not (isinstance(p, str) or callable(p) or hasattr(p, "predict") or hasattr(p, "choose")):
                raise TypeError(f"an opponent is a bot's name, a bot (choose), a policy (predict) or a callable, "
                                f"not {type(p).__name__}")
            if isinstance(p, str):
                make_bot(p, random.Random(0))       # an unknown name is reported now, not at the next reset
        self._opponents = players

    def _agent_seat(self, seat: int) -> bool:
        """Whether the agent plays `seat` (its own, or one of its side's with team=True)."""
        return seat == self.seat or (self.team and seat % self.sides == self.seat % self.sides)

    def _players(self) -> list:
        """This episode's player per seat (the agent's seats get one too, never asked to move)."""
        out = []
        for s in range(self.seats):
            spec = self.bot_specs[s] if self._opponents is None else self._opponents[s]
            player = make_bot(spec, random.Random(self._rng.getrandbits(64))) if isinstance(spec, str) else spec
            out.append(Opponent(player, self._observe_for))
        return out

    def _observe_for(self, d: Decisions, seat: int) -> dict:
        obs = {"observation": self.observer.array(d, seat), "action_mask": action_mask(d, self.layout.size)}
        if self.show_afterstate:
            obs["afterstate"] = afterstate(d, seat, self.layout.size)
        if self.episode == "game":
            obs["game"] = self._game_totals(seat)
        return obs

    # -- episodes ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        if self.random_seat:
            self.seat = self._rng.randrange(self.seats)
        options = options or {}
        if "dealer" in options:
            dealer = as_int(options["dealer"], "options['dealer']")
        else:
            dealer = self._rng.randrange(self.seats) if self.random_dealer else self.dealer
        module = self.rules.module
        self.bots = self._players()
        for _ in range(MAX_EMPTY_DEALS):
            if self.episode == "game":
                self.game = Game(module, self.seats, seed=self._rng.getrandbits(64), dealer=dealer)
                self._next_hand()
                if not self.game.is_over:
                    break
                continue
            hand = Hand(module, self.seats, dealer, shuffled_source(module.N_CARDS, self._rng))
            self.decisions = Decisions(hand, self.layout)
            self._bots_play()
            if not hand.is_over:
                break
        else:
            raise RuntimeError(f"{MAX_EMPTY_DEALS} deals in a row ended the "
                               f"{'game' if self.episode == 'game' else 'hand'} before the agent's turn")
        self._ended = False
        return self._observation(), self._info()

    def _next_hand(self) -> float:
        """Game episodes: deal hands until the agent has a decision or the game is over; the rewards of the
        hands that ended on the way (by the bots' plays, or by the deal itself)."""
        game, total = self.game, 0.0
        while True:
            hand = game.new_hand()
            self.decisions = Decisions(hand, self.layout)
            self._bots_play()
            if not hand.is_over:
                return total
            total += self._hand_over()
            if game.is_over:
                return total

    def _hand_over(self) -> float:
        """The reward of the hand just over (game episodes: the hand counted into the game first)."""
        d = self.decisions
        if self.episode == "hand":
            return hand_reward(d, self.seat, self.reward_kind, self.scale)
        game = self.game
        game.finish_hand()
        if not game.is_over and game.hands_played >= MAX_HANDS_PER_GAME:
            raise RuntimeError(f"the game has not ended after {MAX_HANDS_PER_GAME} hands, the most a game may last")
        if self.reward_kind == "win":
            return 0.0 if not game.is_over else 1.0 if self.seat % self.sides in game.winners else -1.0
        return hand_reward(d, self.seat, self.reward_kind, self.scale)

    def _game_totals(self, seat: int) -> np.ndarray:
        """The sides' game totals so far, `seat`'s side first."""
        totals = self.game.totals if self.game is not None else [0] * self.sides
        me = seat % self.sides
        return np.array([totals[(me + j) % self.sides] for j in range(self.sides)], np.float32)

    def _bots_play(self) -> None:
        d = self.decisions
        while not d.is_over and not self._agent_seat(d.current_seat):
            self.bots[d.current_seat].move(d)

    @property
    def acting_seat(self) -> int:
        """The seat the agent acts for now (its own but with team=True; its own once the episode is over)."""
        d = self.decisions
        if d is not None and not d.is_over and self._agent_seat(d.current_seat):
            return d.current_seat
        return self.seat

    def _info(self) -> dict:
        return {"seat": self.acting_seat} if self.team or self.random_seat else {}

    def _observation(self) -> dict:
        seat = self.acting_seat
        obs = {"observation": self.observer.array(self.decisions, seat), "action_mask": self.action_masks()}
        if self.show_afterstate:
            obs["afterstate"] = afterstate(self.decisions, seat, self.layout.size)
        if self.episode == "game":
            obs["game"] = self._game_totals(seat)
        return obs

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now, as 0/1 over the action space."""
        if self.decisions is None:
            raise ResetNeeded("call reset() before action_masks()")
        if self._ended:
            return np.zeros(self.layout.size, np.int8)
        d = self.decisions
        if not d.is_over and self._agent_seat(d.current_seat):
            return action_mask(d, self.layout.size)
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
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        d.apply(action)
        self._bots_play()
        reward, over = 0.0, d.is_over
        if over:
            reward = self._hand_over()
            if self.episode == "game" and not self.game.is_over:
                reward += self._next_hand()
                over = self.game.is_over
        self._ended = over
        return self._observation(), reward, over, False, self._info()

    def render(self):
        if self.render_mode != "ansi":
            return None
        hand = self.decisions.hand
        names = self.rules.module.card_names
        return f"round {hand.round}, table: {names(hand.visible_table())}, hand: {names(hand.hands[self.acting_seat])}"


def register_envs() -> None:
    """Register `rulespec/<id>-v0` for every shipped ruleset, and `rulespec/Rulespec-v0` (ruleset= given)."""
    entry = "rulespec.interop.gymnasium:RulespecEnv"
    if "rulespec/Rulespec-v0" not in gym.registry:
        gym.register("rulespec/Rulespec-v0", entry_point=entry, disable_env_checker=True)
    for ruleset in shipped_ids():
        env_id = f"rulespec/{ruleset}-v0"
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=entry, kwargs={"ruleset": ruleset}, disable_env_checker=True)


register_envs()
