"""ISMCTS with rollouts in C against rollouts in Python: one 4-player hand, every seat `ismcts:BUDGET`.

    python bench/ismcts_native.py [--ruleset cirulla] [--budget 100] [--hands 1] [--seed 0] [--base CHECKOUT]

Each variant plays the same hands (seeds 0..hands-1 from --seed) in its own child process and reports the
CPU seconds (time.process_time) of the hands alone, the native library built and loaded before the clock
starts:

- `python`: bots/ismcts.py's rollouts by the generated Python playout (the default without a native engine);
- `native`: the same bot with `native=` a loaded native engine: determinisations in Python, every move's
  rollouts of a determinisation in one rs_rollouts call;
- `base` (with --base CHECKOUT, another version's checkout first on PYTHONPATH): that version's ISMCTS.

It prints the seconds per hand, the ratio python / native (the speed-up), and whether the two played the
same moves (they must: the rollouts draw from one stream scheme).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import json, random, sys, time
from rulespec.bots.ismcts import ISMCTSBot
from rulespec.bots.policy import play_out
from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import Hand, shuffled_source
how, rid, budget, hands, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
compiled = compile_ruleset(rid)
rules = compiled.module
extra = {}
if how == "native":
    from rulespec.compiler import native
    extra["native"] = native.load(compiled)
moves, start = [], time.process_time()
for i in range(seed, seed + hands):
    rng = random.Random(f"bench:{i}")
    hand = Hand(rules, 4, i % 4, shuffled_source(rules.N_CARDS, rng))
    bots = [ISMCTSBot(random.Random(i * 10 + s), budget, **extra) for s in range(4)]
    play_out(hand, bots, on_play=lambda seat, d, card, cap, ev: moves.append((seat, card, cap)))
print(json.dumps({"seconds": time.process_time() - start, "moves": moves}))
"""


def run(how: str, args, pythonpath: str) -> dict:
    env = dict(os.environ, PYTHONPATH=pythonpath)
    done = subprocess.run([sys.executable, "-c", _CHILD, how, args.ruleset, str(args.budget), str(args.hands),
                           str(args.seed)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"the {how} run failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="cirulla")
    parser.add_argument("--budget", type=int, default=100)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--base", help="another checkout: its ISMCTS (Python rollouts) measured too")
    args = parser.parse_args()
    here = str(HERE.parent)
    run("native", args, here)                 # builds the library (kept in the cache) before any clock
    results = {"python": run("python", args, here), "native": run("native", args, here)}
    if args.base:
        results["base"] = run("python", args, str(Path(args.base).resolve()))
    per = {k: v["seconds"] / args.hands for k, v in results.items()}
    print(f"{args.ruleset}, 4 seats of ismcts:{args.budget}, {args.hands} hand(s): CPU seconds per hand")
    for k, v in per.items():
        print(f"  {k:7s} {v:8.3f}")
    print(f"  python / native: {per['python'] / per['native']:.1f}x")
    if "base" in per:
        print(f"  base / native:   {per['base'] / per['native']:.1f}x")
    same = results["python"]["moves"] == results["native"]["moves"]
    print(f"  the same moves with C and Python rollouts: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
