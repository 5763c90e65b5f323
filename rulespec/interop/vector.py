"""Many hands at once, one agent seat in each: a Gymnasium vector environment on the native engine.

    from rulespec.interop.vector import VectorEnv
    envs = VectorEnv("cirulla", num_envs=1024, seats=2)          # seat 0 is the agent's, the others random
    obs, infos = envs.reset(seed=1)
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Observations and actions are the Gymnasium adapter's (rulespec/interop/gymnasium.py), batched: `obs` is
a dict of `observation` (float32, num_envs × Observer.size: rulespec/interop/observation.py) and
`action_mask` (int8, num_envs × the action count: rulespec/interop/decisions.py); `actions` any
integer array of num_envs; `rewards` float32, `terminations` and `truncations` bool (truncations always
False), each of num_envs. One episode is one hand; the reward, at its end, is the agent's side's
total minus the best other side's (± the target for an outcome that ends the game), else 0.

- The agent decides a card, then its capture card by card with DONE, as in the adapter; its
  declarations are made for it (`declarations="auto"`: the most points, as the built-in bots declare),
  so the declaration slots are never in its mask. `declarations="agent"` leaves them to the agent, as
  the adapter does: then the Python engine plays (below) for a ruleset with hand bonuses.
- The other seats are the random bot of the native engine: its best declarations, then a uniform
  choice among its legal moves drawn from the hand's generator. `seat="all"` makes every seat an
  agent's instead (self-play, as pgx's batches): each step is the decision of the seat to act in each
  env, `obs` that seat's view (the hand's last decider's once it ends), `infos["seat"]` (int32,
  num_envs) which seat it is, and `rewards` float32 num_envs × seats, every seat's at the hand's end
  (an illegal action's reward to the seat that made it).
- Autoreset: Gymnasium's NEXT_STEP. The step that ends an env's hand returns its final observation
  (an all-zero mask), its reward and terminations[i] = True; that env's next step ignores its action
  and returns the first observation of its next hand (reward 0, not terminated).
- Env i plays hands i, i + num_envs, i + 2 num_envs, ... of the run `seed` (reset(seed=...)), each
  dealt and played by the generator run/stream.py's Stream.for_hand(seed, hand), the dealer hand % seats; a deal
  that ends the hand before the agent decides is skipped for the env's next hand.
- An action outside the mask ends that env's episode with `illegal_reward` (default: minus the target,
  as the adapter), infos["illegal_action"][i] = True and the state unchanged (observation and mask
  those of before).

Engines: `engine="native"` steps every env in one C call per batch step (compiler/emit_vector.py),
`"python"` loops over `Decisions` of `Hand`s with the same generator, deals, moves, observations and
rewards, and `"auto"` (the default) takes the native engine unless it cannot run the ruleset (no C
compiler, a construct the C back end lacks, declarations="agent" with hand bonuses), then warns once
and plays Python; `env.engine` says which, `env.fallback_reason` why. The arrays returned are the
env's own buffers, overwritten by the next step, unless copy=True (the default). A hand that passes one of
the C's fixed lists (native.NativeLimit, located) or another error of play stops the step with that error;
the envs then need reset().

`workers=N` (native engine only) splits the envs over N processes, one C array of a contiguous shard
each, writing into arrays shared with this process (rulespec/interop/vector_workers.py): the figures
are those of workers=1 for the same seed, at up to N cores' speed. `context` is the multiprocessing
start method ("fork", "spawn", "forkserver"; the platform's default if None); under spawn or forkserver
the script needs the usual `if __name__ == "__main__":` guard. close() stops the workers.

Needs the `rl` extra: `pip install 'rulespec[rl]'`.
"""
from __future__ import annotations

import secrets
import warnings

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from rulespec.api import Rules, compile as compile_rules
from rulespec.compiler import native as native_mod
from rulespec.errors import RulespecError
from rulespec.interop.decisions import DECLARE, ActionLayout, Decisions, as_int
from rulespec.interop.observation import Observer, action_mask
from rulespec.interop.vector_native import EMPTY_DEALS, NativeBatch, compiled_of as _compiled_of
from rulespec.run.engine import DealSource, Hand, stake
from rulespec.run.stream import MASK64, Stream

ENGINES = ("auto", "native", "python")
DECLARATIONS = ("auto", "agent")
MAX_ENVS = 1 << 20                 # emit_vector.py VE_MAX_ENVS


class VectorEnv(GymVectorEnv):
    """`num_envs` hands of a ruleset stepped together, one agent seat in each (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, ruleset: str | Rules, num_envs: int, seats: int | None = None, *, seat: int | str = 0,
                 engine: str = "auto", declarations: str = "auto", illegal_reward: float | None = None,
                 copy: bool = True, workers: int = 1, context=None, **options):
        rules = ruleset if isinstance(ruleset, Rules) else compile_rules(ruleset, **options)
        self.rules = rules
        module = rules.module
        self.num_envs = as_int(num_envs, "num_envs")
        if not 1 <= self.num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be from 1 to {MAX_ENVS}, found {self.num_envs}")
        self.seats = module.DEFAULT_SEATS if seats is None else as_int(seats, "seats")
        if self.seats not in module.SEATS_ALLOWED:
            allowed = ", ".join(map(str, module.SEATS_ALLOWED))
            raise ValueError(f"{rules.id} is played by {allowed} players, not {self.seats}")
        self.all_seats = seat == "all"
        self.seat = -1 if self.all_seats else as_int(seat, "seat")
        if not self.all_seats and not 0 <= self.seat < self.seats:
            raise ValueError(f"seat must be from 0 to {self.seats - 1} or 'all', found {self.seat}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, found {engine!r}")
        if declarations not in DECLARATIONS:
            raise ValueError(f"declarations must be one of {', '.join(DECLARATIONS)}, found {declarations!r}")
        self.declarations = declarations
        self.stake = float(stake(module))
        self.illegal_reward = -float(stake(module) or 1) if illegal_reward is None else float(illegal_reward)
        self.copy = bool(copy)
        self.layout = ActionLayout(module, self.seats)
        self.observer = Observer(module, self.seats)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(self.observer.low, self.observer.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(self.layout.size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self.fallback_reason: str | None = None
        self._obs = np.zeros((self.num_envs, self.observer.size), np.float32)
        self._mask = np.zeros((self.num_envs, self.layout.size), np.int8)
        self._reward = np.zeros((self.num_envs, self.seats) if self.all_seats else self.num_envs, np.float32)
        self._seat_now = np.zeros(self.num_envs, np.int32)          # the seat whose observation each env's is
        self._term = np.zeros(self.num_envs, np.bool_)
        self._illegal = np.zeros(self.num_envs, np.bool_)
        self._trunc = np.zeros(self.num_envs, np.bool_)
        self.workers = as_int(workers, "workers")
        if self.workers < 1:
            raise ValueError(f"workers must be 1 or more, found {self.workers}")
        self._batch = self._engine(engine, min(self.workers, self.num_envs), context)
        self.engine = "python" if isinstance(self._batch, _PythonBatch) else "native"
        self._started = False

    def _engine(self, engine: str, workers: int, context):
        """The native batch (split over `workers` processes), or the Python one (engine="python", or "auto"
        where native cannot run)."""
        if engine == "python":
            return _PythonBatch(self)
        try:
            if self.declarations == "agent" and self.rules.module.HAND_BONUSES:
                raise native_mod.NativeUnavailable("the native vector environment makes the agent's declarations "
                                                   "for it (declarations='auto'); this ruleset has hand bonuses")
            batch = NativeBatch(self)            # builds (or finds) the library, checks its layout
            if workers == 1:
                return batch
            batch.close()
            from rulespec.interop.vector_workers import ShardedBatch
            return ShardedBatch(self, workers, context)
        except native_mod.NativeUnavailable as err:
            if engine == "native":
                raise
            self.fallback_reason = str(err)
            warnings.warn(f"rulespec VectorEnv plays {self.rules.id} on the Python engine: {err}", RuntimeWarning,
                          stacklevel=3)
            return _PythonBatch(self)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal every env's first hand of the run `seed` (a random one if None); (obs, infos)."""
        if options:
            raise ValueError(f"VectorEnv.reset takes no options, found {sorted(options)}")
        if seed is None:
            seed = secrets.randbits(64)
        seed = as_int(seed, "seed") & native_mod.MASK64
        self._batch.reset(seed)
        self._started = True
        return self._out(), self._seat_info() if self.all_seats else {}

    def _seat_info(self) -> dict:
        """infos["seat"]: the seat whose observation each env's is (every seat an agent's)."""
        return {"seat": self._seat_now.copy(), "_seat": np.ones(self.num_envs, np.bool_)}

    def step(self, actions):
        """One action per env (NEXT_STEP autoreset: see the module docstring)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not (np.issubdtype(acts.dtype, np.integer) and acts.dtype != np.bool_):
            raise TypeError(f"actions are {self.num_envs} integers, found an array of shape {acts.shape} "
                            f"and type {acts.dtype}")
        try:
            self._batch.step(np.ascontiguousarray(acts, np.int64))
        except RulespecError:
            self._started = False           # the batch stopped part way: every env starts again at reset()
            raise
        infos = {}
        if self._illegal.any():
            infos = {"illegal_action": self._illegal.copy(), "_illegal_action": self._illegal.copy()}
        if self.all_seats:
            infos.update(self._seat_info())
        if self.copy:
            return self._out(), self._reward.copy(), self._term.copy(), self._trunc.copy(), infos
        return self._out(), self._reward, self._term, self._trunc, infos

    def _out(self) -> dict:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def action_masks(self) -> np.ndarray:
        """The agents' masks now (num_envs × actions, int8), for maskable policies."""
        return self._mask.copy()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per env (int64), the same on both engines: drawn from env i's own
        generator, Stream.for_hand(~seed, i) (run/stream.py), among its legal actions in ascending order; 0 where
        the episode is over (the next step ignores it)."""
        if not self._started:
            raise RuntimeError("call reset() before sample_actions()")
        return self._batch.sample()

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        """Each env's hand now: its number in the run (int64, num_envs) and its deck order as last shuffled
        (uint8, num_envs × cards): `Hand(rules, seats, number % seats, DealSource(order=...))` deals it again."""
        if not self._started:
            raise RuntimeError("call reset() before deals()")
        return self._batch.deals()

    def close_extras(self, **kwargs):
        self._batch.close()


class _PythonBatch:
    """The same environments on the Python engine: a loop over `Decisions`, the streams of run/stream.py."""

    def __init__(self, env: VectorEnv):
        self.env = env
        self.module = env.rules.module
        self.games: list[Decisions | None] = [None] * env.num_envs
        self.rngs: list = [None] * env.num_envs
        self.agent_rngs: list = [None] * env.num_envs
        self.index = [0] * env.num_envs
        self.ended = [False] * env.num_envs
        self.deciding = [0] * env.num_envs          # the seat whose observation each env's is
        self.seed = 0

    def reset(self, seed: int) -> None:
        env = self.env
        self.seed = seed
        for i in range(env.num_envs):
            self.index[i] = i
            self.agent_rngs[i] = Stream.for_hand(seed ^ MASK64, i)
            self._new_hand(i)
            self._write(i)
        env._reward[:] = 0
        env._term[:] = False
        env._illegal[:] = False

    def _new_hand(self, i: int) -> None:
        """Deal env i's hand (its next one while a deal ends the hand before the agent decides)."""
        env = self.env
        for _ in range(EMPTY_DEALS):
            index = self.index[i]
            self.deciding[i] = max(env.seat, 0)
            rng = Stream.for_hand(self.seed, index)
            order = list(range(self.module.N_CARDS))
            rng.shuffle(order)
            hand = Hand(self.module, env.seats, index % env.seats, DealSource(order=order, rng=rng))
            d = Decisions(hand, env.layout)
            self.games[i], self.rngs[i], self.ended[i] = d, rng, False
            self._advance(i)
            if not d.is_over:
                return
            self.index[i] += env.num_envs
        raise RulespecError(f"{EMPTY_DEALS} deals in a row ended the hand before the agent's turn")

    def _advance(self, i: int) -> None:
        """The other seats play and the agent's declarations are made, up to the agent's card or the end."""
        env, d = self.env, self.games[i]
        bot = _StreamBot(self.rngs[i])
        while not d.is_over:
            seat = d.current_seat
            if seat != env.seat and not env.all_seats:
                d.apply_bot(bot)
            elif d.phase == DECLARE and env.declarations == "auto":
                if d._knocks:
                    d.apply_bot(bot)                  # a knock: the best declarations, no move drawn
                else:
                    d.pending = d.hand.best_declarations(seat)
                    d._end_declarations()
            else:
                self.deciding[i] = seat
                return

    def _write(self, i: int) -> None:
        env, d = self.env, self.games[i]
        me = self.deciding[i]
        env._obs[i] = env.observer.array(d, me)
        env._seat_now[i] = me
        if not d.is_over and d.current_seat == me:
            env._mask[i] = action_mask(d, env.layout.size)
        else:
            env._mask[i] = 0

    def step(self, actions: np.ndarray) -> None:
        env = self.env
        env._reward[:] = 0
        env._term[:] = False
        env._illegal[:] = False
        for i in range(env.num_envs):
            d = self.games[i]
            if self.ended[i] or d.is_over:
                self.index[i] += env.num_envs
                self._new_hand(i)
            else:
                action = int(actions[i])
                if action not in d.legal_actions():
                    self.ended[i] = True
                    env._illegal[i] = True
                    env._term[i] = True
                    if env.all_seats:
                        env._reward[i, self.deciding[i]] = env.illegal_reward
                    else:
                        env._reward[i] = env.illegal_reward
                else:
                    d.apply(action)
                    self._advance(i)
                    if d.is_over:
                        returns = d.returns()
                        env._reward[i] = returns if env.all_seats else returns[env.seat]
                        env._term[i] = True
            self._write(i)

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        index = np.array(self.index, np.int64)
        order = np.array([d.hand.source.order for d in self.games], np.uint8)
        return index, order

    def sample(self) -> np.ndarray:
        out = np.zeros(self.env.num_envs, np.int64)
        for i, d in enumerate(self.games):
            if self.ended[i] or d.is_over:
                continue
            legal = d.legal_actions()
            out[i] = legal[self.agent_rngs[i].below(len(legal))]
        return out

    def close(self) -> None:
        self.games = []


class _StreamBot:
    """The native random bot in Python: its best declarations, then a uniform draw among the sorted legal
    moves from the hand's generator (as rs_simulate and emit_vector.py's other seats draw)."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, hand: Hand, seat: int):
        decls = hand.best_declarations(seat) if hand.declares_with_play else []
        moves = sorted(hand.legal_moves_after(decls))
        card, capture = moves[self.rng.below(len(moves))]
        return decls, card, capture
