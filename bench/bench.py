"""Benchmark: compiled `cirulla` vs the hand-written baseline, compile times, golden replay time.

    python -m bench.bench [--hands 4000] [--rounds 5] [--seed 1] [--skip-compile] [--json FILE]

Random playout: each engine deals and plays the same number of hands,
choosing uniformly among the legal (card, capture) moves, with no hand-bonus
declarations on either side (bench/README.md). The two engines alternate in
`--rounds` rounds (ABBA order) in one process, so drift in the machine's
speed hits both alike. Compile times are measured per shipped ruleset in a
fresh interpreter (cold: the first compile, grammar and schema loading
included; warm: a second full compile with the module cache cleared; cached:
a cache hit). Replay: every transcript under tests/golden, in a fresh
interpreter (compiles included), and once more with the modules cached.
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import baseline_cirulla  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402
from rulespec.run.engine import Hand, shuffled_source  # noqa: E402


def rulespec_playout(rules, rng: random.Random, dealer: int) -> list[dict]:
    """One random hand of the compiled ruleset, chosen exactly as the baseline's random_playout chooses."""
    hand = Hand(rules, 4, dealer, shuffled_source(rules.N_CARDS, rng))
    while not hand.is_over:
        moves = hand.legal_moves()
        card, capture = moves[rng.randrange(len(moves))]
        hand.play(hand.current_seat, card, capture)
    return hand.score()


def baseline_playout(rng: random.Random, dealer: int) -> list[dict]:
    return baseline_cirulla.random_playout(rng, dealer, 4)


def time_hands(play, first: int, count: int, seed: int) -> tuple[float, list[float]]:
    """Seconds to play hands first..first+count-1, and the summed totals per side (a sanity check)."""
    totals = [0.0, 0.0]
    t0 = time.perf_counter()
    for i in range(first, first + count):
        rows = play(random.Random(f"bench:{seed}:{i}"), i % 4)
        totals[0] += rows[0]["total"]
        totals[1] += rows[1]["total"]
    return time.perf_counter() - t0, totals


def playout_benchmark(hands: int, rounds: int, seed: int) -> dict:
    rules = compile_ruleset("cirulla").module
    engines = {"rulespec": lambda rng, d: rulespec_playout(rules, rng, d), "baseline": baseline_playout}
    secs = {name: 0.0 for name in engines}
    sums = {name: [0.0, 0.0] for name in engines}
    for name, play in engines.items():                       # warm-up: caches, allocator
        time_hands(play, -50, 50, seed)
    per_round = hands // rounds
    for r in range(rounds):
        order = list(engines) if r % 2 == 0 else list(engines)[::-1]
        for name in order:
            dt, totals = time_hands(engines[name], r * per_round, per_round, seed)
            secs[name] += dt
            sums[name] = [a + b for a, b in zip(sums[name], totals)]
    n = per_round * rounds
    out = {"hands_per_engine": n, "rounds": rounds}
    for name in engines:
        out[name] = {"seconds": round(secs[name], 3), "hands_per_second": round(n / secs[name], 1),
                     "mean_total_per_side": [round(s / n, 3) for s in sums[name]]}
    out["baseline_over_rulespec"] = round(out["baseline"]["hands_per_second"] /
                                          out["rulespec"]["hands_per_second"], 2)
    return out


_COMPILE_PROBE = """
import json, sys, time
t0 = time.perf_counter()
import rulespec.compiler.build as build
t1 = time.perf_counter()
build.compile_ruleset(sys.argv[1])
t2 = time.perf_counter()
build._CACHE.clear()
build._BY_FILE.clear()
build.compile_ruleset(sys.argv[1])
t3 = time.perf_counter()
build.compile_ruleset(sys.argv[1])
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "cold": t2 - t1, "warm": t3 - t2, "cached": t4 - t3}))
"""

_REPLAY_PROBE = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from rulespec.transcripts.replay import replay
files = sorted(Path(sys.argv[1]).rglob("*.yaml"))
t1 = time.perf_counter()
ok = all(replay(f).ok for f in files)
t2 = time.perf_counter()
ok = all(replay(f).ok for f in files) and ok
t3 = time.perf_counter()
print(json.dumps({"files": len(files), "ok": ok, "import": t1 - t0, "first": t2 - t1, "cached": t3 - t2}))
"""


def _probe(script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def compile_benchmark() -> dict:
    from rulespec.source.rulesets import shipped_ids
    rows = {rid: _probe(_COMPILE_PROBE, rid) for rid in shipped_ids()}
    return {rid: {k: round(v * 1000, 1) for k, v in row.items()} for rid, row in rows.items()}


def replay_benchmark() -> dict:
    row = _probe(_REPLAY_PROBE, str(ROOT / "tests" / "golden"))
    return {k: (round(v * 1000, 1) if isinstance(v, float) else v) for k, v in row.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=4000, help="random hands per engine")
    p.add_argument("--rounds", type=int, default=5, help="alternations of the two engines")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skip-compile", action="store_true", help="only the playout benchmark")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = p.parse_args(argv)

    results = {"python": platform.python_version(), "machine": platform.machine(),
               "command": "python -m bench.bench " + " ".join(argv if argv is not None else sys.argv[1:])}
    play = playout_benchmark(args.hands, args.rounds, args.seed)
    results["playout"] = play
    print(f"random playout, standard 4-player cirulla, {play['hands_per_engine']} hands per engine "
          f"in {play['rounds']} alternating rounds")
    for name in ("rulespec", "baseline"):
        r = play[name]
        print(f"  {name:9} {r['hands_per_second']:8.1f} hands/s  ({r['seconds']:.2f} s; mean total per side "
              f"{r['mean_total_per_side'][0]:.2f} / {r['mean_total_per_side'][1]:.2f})")
    print(f"  baseline / rulespec = {play['baseline_over_rulespec']:.2f}x")
    if not args.skip_compile:
        comp = compile_benchmark()
        results["compile_ms"] = comp
        print("\ncompile time per shipped ruleset, ms (fresh interpreter each)")
        print(f"  {'ruleset':30} {'import':>7} {'cold':>7} {'warm':>7} {'cached':>7}")
        for rid, row in comp.items():
            print(f"  {rid:30} {row['import']:7.1f} {row['cold']:7.1f} {row['warm']:7.1f} {row['cached']:7.1f}")
        cold = sorted(r["cold"] for r in comp.values())
        warm = sorted(r["warm"] for r in comp.values())
        print(f"  median cold {cold[len(cold) // 2]:.1f} ms (max {cold[-1]:.1f}), "
              f"median warm {warm[len(warm) // 2]:.1f} ms (max {warm[-1]:.1f})")
        rep = replay_benchmark()
        results["replay_ms"] = rep
        print(f"\nreplay of tests/golden ({rep['files']} transcripts, all ok: {rep['ok']}): "
              f"{rep['first']:.1f} ms in a fresh interpreter (compiles included, imports {rep['import']:.1f} ms "
              f"more), {rep['cached']:.1f} ms again with the modules cached")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
