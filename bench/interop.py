"""Benchmark: a random agent through the PettingZoo environment against the bare engine, in one process.

    python -m bench.interop [--ruleset cirulla] [--seats 4] [--hands 400] [--rounds 6] [--seed 1] [--json FILE]

Every side plays whole hands of the same ruleset, choosing uniformly at
random among what is legal (the env's agent takes a declaration slot when its
random pick lands on one):

- bare engine: `hand.legal_moves()`, a random (card, capture), `hand.play()`,
  never a declaration;
- bare engine with rulespec's random bot: as above, but the bot also asks
  for its bonus options every turn and declares them (what the env must do
  too, to offer declarations as actions);
- PettingZoo: the usual AEC loop, `for agent in env.agent_iter(): obs, ... =
  env.last()` (the observation array and the action mask are built at every
  step), a random action among the mask's ones, `env.step(action)`;
- PettingZoo, mask only: the same loop with `env.last(observe=False)`, the
  mask read from the agent's info (a random agent needs no observation).

A hand through the env takes more steps than plays (a capture with a choice
is built card by card, declarations are steps), so the unit of comparison is
the play: seconds per card played, env / bare, is the adapter's overhead.
The two sides alternate in `--rounds` rounds (ABBA) so that drift in the
machine's speed hits both alike.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import rulespec  # noqa: E402
from rulespec.bots.policy import knocks  # noqa: E402
from rulespec.bots.random_bot import RandomBot  # noqa: E402
from rulespec.interop.pettingzoo import env as make_env  # noqa: E402


def bare_hands(rules, seats: int, count: int, seed: int, declare: bool = False) -> tuple[float, int, int]:
    """Seconds, plays and steps (= plays) for `count` random hands on the engine.

    With `declare`, each seat is rulespec's random bot (RandomBot: it asks for its bonus options
    every turn and declares them); without, a random (card, capture) and no declarations.
    """
    rng = random.Random(f"bare:{seed}")
    bot = RandomBot(rng)
    plays = 0
    t0 = time.perf_counter()
    for i in range(count):
        hand = rules.new_hand(seats=seats, dealer=i % seats, seed=rng.getrandbits(64))
        while not hand.is_over:
            if declare:
                knocks(hand)                       # card-less declarations, where the ruleset has them
                seat = hand.current_seat
                decls, card, capture = bot.choose(hand, seat)
                hand.play(seat, card, capture, decls)
                continue
            moves = hand.legal_moves()
            card, capture = moves[rng.randrange(len(moves))]
            hand.play(hand.current_seat, card, capture)
        plays += hand.plays
    return time.perf_counter() - t0, plays, plays


def env_hands(env, count: int, seed: int, observe: bool = True) -> tuple[float, int, int]:
    """Seconds, plays and env steps for `count` random hands through the AEC loop.

    With `observe`, every step builds the observation (array and mask), as a learning agent needs;
    without, the agent reads only the mask from its info (`env.last(observe=False)`).
    """
    rng = random.Random(f"env:{seed}")
    plays = steps = 0
    t0 = time.perf_counter()
    for i in range(count):
        env.reset(seed=rng.getrandbits(64), options={"dealer": i % env.seats})
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            legal = (obs if observe else info)["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        plays += env.hand.plays
    return time.perf_counter() - t0, plays, steps


def run(ruleset: str, seats: int | None, hands: int, rounds: int, seed: int) -> dict:
    rules = rulespec.compile(ruleset)
    env = make_env(rules, seats)
    seats = env.seats
    bare_hands(rules, seats, 30, seed)          # warm-up: caches, imports
    env_hands(env, 30, seed)
    sides = {"bare": lambda s: bare_hands(rules, seats, hands, s),
             "bare_random_bot": lambda s: bare_hands(rules, seats, hands, s, declare=True),
             "env": lambda s: env_hands(env, hands, s),
             "env_mask_only": lambda s: env_hands(env, hands, s, observe=False)}
    per = {side: [0.0, 0, 0] for side in sides}
    for r in range(rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for side in order:
            took = sides[side](seed + r)
            for j in range(3):
                per[side][j] += took[j]
    out = {"ruleset": ruleset, "seats": seats, "hands_per_side": hands * rounds,
           "python": platform.python_version()}
    for side, (secs, plays, steps) in per.items():
        out[side] = {"seconds": round(secs, 3), "plays": plays, "steps": steps,
                     "plays_per_s": round(plays / secs), "steps_per_s": round(steps / secs),
                     "us_per_play": round(1e6 * secs / plays, 2)}
    for env_side in ("env", "env_mask_only"):
        for bare_side in ("bare", "bare_random_bot"):
            out[f"{env_side}/{bare_side}"] = round(out[env_side]["us_per_play"] / out[bare_side]["us_per_play"], 2)
    out["env_steps_per_play"] = round(per["env"][2] / per["env"][1], 2)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="cirulla")
    ap.add_argument("--seats", type=int, default=None)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    out = run(args.ruleset, args.seats, args.hands, args.rounds, args.seed)
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
