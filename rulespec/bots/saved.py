"""Trained agents saved to a file and played as bots: `--bots policy:FILE` (play, simulate, leaderboard).

A policy file comes from whoever trained it, perhaps a stranger: it is data,
never code. No pickle; two formats, each read whole, checked field by field,
any fault reported as one RulespecError naming the file and what was wrong:

- **JSON, kind `tabular`** (`write_tabular`): an afterstate table. For each
  legal move the bot looks at what it does (MOVE_KEY: the points it scores at
  once for the seat's side less the others', the cards it takes, whether it
  clears the table, the cards it leaves there, whether it lays its card)
  and plays the move whose key has the best mean result in the table (a key
  not in the table counts `default`). `train_tabular` fills one by
  every-visit Monte Carlo against a bot.
- **NumPy `.npz`, kind `mlp`** (`write_mlp`, read with allow_pickle=False):
  a multilayer perceptron from the seat's observation array
  (rulespec/interop/observation.py) to one logit per action
  (rulespec/interop/decisions.py), the legal action with the highest logit
  taken at every decision: the shape of a Stable-Baselines3 MlpPolicy's
  actor (rulespec/interop/policies.py exports one). Read and played by
  rulespec/interop/mlp.py (numpy, the `rl` extra).

Either file names the ruleset and seat count it was trained for; playing it
elsewhere is refused, as is an observation or action size that does not
match. Declarations: the bot declares as the other bots do (the most points:
bots/policy.py); a knock is the bots' too.
"""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

from rulespec.bots.policy import declared_moves
from rulespec.errors import RulespecError

FORMAT = "rulespec-policy"
VERSION = 1
MAX_BYTES = 64 << 20            # a policy file bigger than this is refused unread
MAX_ENTRIES = 1_000_000         # table rows
MOVE_KEY = ("points", "takes", "sweeps", "left", "lays")
ACTIVATIONS = ("tanh", "relu")


def _fail(path, what: str) -> RulespecError:
    return RulespecError(f"{path}: {what}")


def _read_bytes(path: str | Path) -> bytes:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise _fail(path, f"a policy file is at most {MAX_BYTES >> 20} MB, this one is {size >> 20} MB")
        with open(p, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _fail(path, f"cannot read the policy file ({exc.strerror or exc})") from None


def move_key(base, seat: int, card: int, capture: int, made: int) -> tuple:
    """MOVE_KEY of a move of `seat` in `base` (its declarations made), `made` the events before it."""
    child = base.child((card, capture))
    side = seat % base.k
    points = sum(e.points if e.side == side else -e.points for e in child.events[made:] if e.side is not None)
    left = (base.table & ~capture).bit_count() + (not capture)
    return (max(-5, min(points, 5)), min(capture.bit_count(), 6), int(bool(capture) and capture == base.table),
            min(left, 6), int(not capture))


class TabularBot:
    """Plays the legal move whose afterstate key has the best value in a table (see the module docstring)."""

    name = "tabular"

    def __init__(self, table: dict, ruleset: str, seats: int, default: float = 0.0, rng=None, epsilon: float = 0.0):
        self.table, self.ruleset, self.seats, self.default = table, ruleset, seats, default
        self.rng = rng or random.Random(0)
        self.epsilon = epsilon
        self.recording = False
        self.trace: list[tuple] = []       # keys played while training (recording)

    def choose(self, hand, seat: int):
        check_fits(self, hand)
        decls, moves = declared_moves(hand, seat)
        if len(moves) == 1:
            return decls, moves[0][0], moves[0][1]
        base = hand.with_declarations(seat, decls) if decls else hand
        made = len(base.events)
        keys = [move_key(base, seat, card, capture, made) for card, capture in moves]
        if self.epsilon and self.rng.random() < self.epsilon:
            best = self.rng.randrange(len(moves))
        else:
            values = [self._value(k) for k in keys]
            top = max(values)
            best = values.index(top)
        if self.recording:
            self.trace.append(keys[best])
        return decls, moves[best][0], moves[best][1]

    def _value(self, key: tuple) -> float:
        got = self.table.get(key)
        return got[0] / got[1] if got else self.default


def check_fits(bot, hand) -> None:
    """The bot's file was trained for this ruleset and seat count; a RulespecError otherwise."""
    check_trained_for(bot, hand.rules.RULESET_ID, hand.n)


def check_trained_for(bot, ruleset: str, seats: int, name: str = "the policy") -> None:
    """The bot's file names `ruleset` at `seats`; a RulespecError (calling it `name`) otherwise."""
    if (bot.ruleset, bot.seats) != (ruleset, seats):
        raise RulespecError(f"{name} was trained for {bot.ruleset} at {bot.seats} seats, not {ruleset} "
                            f"at {seats}")


def train_tabular(rules, seats: int, hands: int, rng: random.Random, opponent=None,
                  epsilon: float = 0.2) -> TabularBot:
    """A TabularBot trained by every-visit Monte Carlo for `hands` hands against `opponent` (a function of a
    random stream giving a bot; default the random bot), exploring with probability `epsilon`, its seat and
    the dealer alternating."""
    from rulespec.bots.ismcts import result_for
    from rulespec.bots.policy import play_out
    from rulespec.bots.random_bot import RandomBot
    from rulespec.run.engine import Hand, shuffled_source
    make_opponent = opponent or RandomBot
    module = rules.module if hasattr(rules, "module") else rules
    agent = TabularBot({}, module.RULESET_ID, seats, rng=rng, epsilon=epsilon)
    agent.recording = True
    k = module.SIDES[seats]
    for i in range(hands):
        me = i % seats
        bots = [agent if s % k == me % k else make_opponent(rng) for s in range(seats)]
        hand = Hand(module, seats, (i // seats) % seats, shuffled_source(module.N_CARDS, rng))
        agent.trace = []
        play_out(hand, bots)
        result = result_for(hand, me % k)
        for key in agent.trace:
            row = agent.table.setdefault(key, [0.0, 0])
            row[0] += result
            row[1] += 1
    agent.epsilon, agent.trace, agent.recording = 0.0, [], False
    return agent


def write_tabular(bot: TabularBot, path: str | Path) -> None:
    """Save a TabularBot as a JSON policy file (through source/writes.py: never through a link)."""
    from rulespec.source.writes import write_file
    data = {"format": FORMAT, "version": VERSION, "kind": "tabular", "ruleset": bot.ruleset, "seats": bot.seats,
            "key": list(MOVE_KEY), "default": bot.default,
            "table": [[list(key), row[0], row[1]] for key, row in sorted(bot.table.items())]}
    write_file(path, json.dumps(data, indent=None, separators=(",", ":")) + "\n")


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _number(x) -> bool:
    return (_is_int(x) or isinstance(x, float)) and math.isfinite(x)


def _header(data, path) -> tuple[str, int]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(path, f'not a rulespec policy file (expected "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise _fail(path, f"policy file version {data.get('version')!r} (this rulespec reads version {VERSION})")
    ruleset, seats = data.get("ruleset"), data.get("seats")
    if not isinstance(ruleset, str) or not ruleset or len(ruleset) > 200:
        raise _fail(path, f'"ruleset" must name a ruleset, found {ruleset!r:.60}')
    if not _is_int(seats) or not 1 <= seats <= 64:
        raise _fail(path, f'"seats" must be a seat count, found {seats!r:.60}')
    return ruleset, seats


def _load_tabular(raw: bytes, path) -> TabularBot:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _fail(path, f"not valid JSON ({exc})") from None
    ruleset, seats = _header(data, path)
    if data.get("kind") != "tabular":
        raise _fail(path, f'a JSON policy file is of kind "tabular", found {data.get("kind")!r:.60}')
    if data.get("key") != list(MOVE_KEY):
        raise _fail(path, f'"key" must be {list(MOVE_KEY)} (the afterstate key this rulespec computes)')
    default = data.get("default", 0.0)
    if not _number(default):
        raise _fail(path, f'"default" must be a number, found {default!r:.60}')
    rows = data.get("table")
    if not isinstance(rows, list) or len(rows) > MAX_ENTRIES:
        raise _fail(path, f'"table" must be a list of at most {MAX_ENTRIES} rows')
    table = {}
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], list)
                and len(row[0]) == len(MOVE_KEY) and all(_is_int(x) for x in row[0])
                and _number(row[1]) and _is_int(row[2]) and row[2] > 0):
            raise _fail(path, f'"table" row {i}: expected [[{", ".join(MOVE_KEY)}] (integers), sum of results, '
                              f'count (> 0)], found {json.dumps(row)[:80]}')
        table[tuple(row[0])] = [float(row[1]), row[2]]
    return TabularBot(table, ruleset, seats, float(default))


# Readers by suffix. The perceptron's (.npz) lives with the adapters' encoders it plays through
# (rulespec/interop/mlp.py, which adds itself here when imported): the command line imports it when its
# --bots names an .npz file (cli/options.py policy_readers); from Python, import it.
LOADERS = {".json": lambda raw, path: _load_tabular(raw, path)}


def load_policy(path: str | Path):
    """The bot saved in a policy file (.json: tabular; .npz: mlp)."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".npz"):
        raise _fail(path, "a policy file is .json (a tabular agent) or .npz (a perceptron)")
    if suffix not in LOADERS:
        raise _fail(path, "an .npz policy plays through the game-AI adapters: import rulespec.interop.mlp first "
                          "(pip install 'rulespec[rl]'; the command line imports it itself)")
    return LOADERS[suffix](_read_bytes(path), path)
