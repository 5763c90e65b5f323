"""Benchmark: the vector environment against the PettingZoo adapter and the bare native engine, in one run.

    python -m bench.vector [--ruleset cirulla] [--seats 2] [--envs 512] [--workers 2] [--seconds 2] [--seed 1]
                           [--json FILE]

Every side plays random moves of the same ruleset and counts its steps (a decision of the seat that acts:
a card, a capture card, DONE, a declaration):

- vector (native): rulespec/interop/vector.py VectorEnv, `--envs` hands stepped in one C call, the
  agent's random legal actions drawn in C (`sample_actions()`), the arrays not copied (copy=False);
  the steps counted are the agent's (the other seats are played inside C);
- vector (native), `--workers` processes: the same env split over worker processes (workers=N: one C
  array of a shard of the envs each, the arrays shared), `--envs` times the workers envs in all;
- vector (native), NumPy agent: the same, the actions chosen in NumPy from the masks (uniform keys
  times the mask, argmax): what a policy written in NumPy pays on top;
- vector (python): the same env on its Python fallback, a few batch steps;
- PettingZoo: the AEC loop of bench/interop.py (observation and mask built at every step), every seat a
  random agent;
- bare native engine: compiler/native.py `run()` (rs_simulate), whole hands of random bots in C; its
  steps are the plays (decisions) of every seat.

Each side runs for about `--seconds` of wall time; steps/s are given per wall second and per CPU
second of this process (time.process_time: on a machine shared with other jobs the CPU figure is the
steadier). The ratios compare the vector env's steps/s with the others'.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import rulespec  # noqa: E402
from bench.interop import env_hands  # noqa: E402
from rulespec.compiler import native  # noqa: E402
from rulespec.interop.pettingzoo import env as make_aec  # noqa: E402
from rulespec.interop.vector import VectorEnv, _compiled_of  # noqa: E402


def timed(run_once, seconds: float) -> tuple[int, float, float]:
    """Call run_once() (it returns its steps) until `seconds` of wall time have passed: (steps, wall, cpu)."""
    steps = 0
    w0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - w0 < seconds:
        steps += run_once()
    return steps, time.perf_counter() - w0, time.process_time() - c0


def vector_side(rules, seats: int, envs: int, seed: int, seconds: float, engine: str, numpy_agent: bool = False,
                workers: int = 1):
    env = VectorEnv(rules, envs, seats, engine=engine, copy=False, workers=workers)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def batch() -> int:
        if numpy_agent:
            actions = (rng.random(env._mask.shape, np.float32) * env._mask).argmax(axis=1)
        else:
            actions = env.sample_actions()
        env.step(actions)
        return envs

    for _ in range(5):                     # warm-up
        batch()
    steps, wall, cpu = timed(lambda: sum(batch() for _ in range(10)), seconds)
    env.close()
    return steps, wall, cpu


def pettingzoo_side(rules, seats: int, seed: int, seconds: float):
    aec = make_aec(rules, seats)
    env_hands(aec, 5, seed)                # warm-up
    counter = iter(range(1 << 62))
    return timed(lambda: env_hands(aec, 5, seed + next(counter))[2], seconds)


def bare_side(rules, seats: int, seed: int, seconds: float):
    nat = native.load(_compiled_of(rules))
    nat.run(seed, 0, 100, seats)           # warm-up
    first = iter(range(0, 1 << 40, 20000))
    return timed(lambda: nat.run(seed, next(first), 20000, seats).decisions, seconds)


def run(ruleset: str, seats: int | None, envs: int, seconds: float, seed: int, workers: int = 2) -> dict:
    rules = rulespec.compile(ruleset)
    seats = seats or rules.default_seats
    sides = {
        "vector_native": lambda: vector_side(rules, seats, envs, seed, seconds, "native"),
        "vector_native_workers": lambda: vector_side(rules, seats, envs * workers, seed, seconds, "native",
                                                     workers=workers),
        "vector_native_numpy_agent": lambda: vector_side(rules, seats, envs, seed, seconds, "native", True),
        "vector_python": lambda: vector_side(rules, seats, min(envs, 64), seed, seconds / 2, "python"),
        "pettingzoo": lambda: pettingzoo_side(rules, seats, seed, seconds),
        "bare_native": lambda: bare_side(rules, seats, seed, seconds),
    }
    out = {"ruleset": ruleset, "seats": seats, "envs": envs, "workers": workers, "python": platform.python_version(),
           "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]}
    for name, side in sides.items():
        steps, wall, cpu = side()
        out[name] = {"steps": steps, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                     "steps_per_wall_s": round(steps / wall), "steps_per_cpu_s": round(steps / max(cpu, 1e-9))}
    for other in ("pettingzoo", "vector_python", "bare_native"):
        for unit in ("wall", "cpu"):
            key = f"steps_per_{unit}_s"
            out[f"vector_native/{other} ({unit})"] = round(out["vector_native"][key] / out[other][key], 2)
    return out


def table(out: dict) -> str:
    """The sides side by side: steps/s per wall second and per CPU second."""
    lines = [f"{out['ruleset']}, {out['seats']} seats, {out['envs']} envs; load average {out['load_average']} "
             f"on {out['cpus']} CPUs", f"{'side':<28}{'steps/s (wall)':>16}{'steps/s (CPU)':>16}"]
    for name in ("vector_native", "vector_native_workers", "vector_native_numpy_agent", "vector_python", "pettingzoo",
                 "bare_native"):
        lines.append(f"{name:<28}{out[name]['steps_per_wall_s']:>16,}{out[name]['steps_per_cpu_s']:>16,}")
    lines.append(f"vector_native_workers ({out['workers']} processes, the parent's CPU only): "
                 f"{out['vector_native_workers']['steps_per_wall_s']:,} steps per wall second")
    lines.append(f"vector_native / pettingzoo: {out['vector_native/pettingzoo (wall)']}x (wall), "
                 f"{out['vector_native/pettingzoo (cpu)']}x (CPU)")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="cirulla")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--envs", type=int, default=512)
    ap.add_argument("--workers", type=int, default=2, help="processes of the vector_native_workers side")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    out = run(args.ruleset, args.seats, args.envs, args.seconds, args.seed, args.workers)
    print(table(out))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
