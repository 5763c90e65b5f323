"""Instruction counts per random hand of compiled playouts (callgrind), cold and warm.

    python -m bench.playout_instructions [--rulesets cirulla,cirullone] [--hands 300] [--warm 300] [--root DIR]

Wall-clock figures on the shared machine swing with the load; callgrind counts
instructions, which repeat run after run. Each figure is the difference of two
runs under callgrind, so start-up, imports and compiling cancel out:
- warm: `--warm` + `--hands` hands against `--warm` hands (the memos filled by
  the first `--warm` hands; what a long `simulate` pays per hand);
- cold: `--hands` hands against none (the first hands of a new process, every
  memo empty; what a short `simulate` pays).
The hands are random hands (the ruleset's default seat count: 4 for Cirulla and Cirullone) through the generated playout, random bots
declaring (as `rulespec simulate` and bench/playouts.py play them), scored.
`--root` measures another checkout's code (e.g. ../main) with this script.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_SCRIPT = """
import random, sys
sys.path.insert(0, {root!r})
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.playout import playout_for
compiled = compile_ruleset(sys.argv[1])
rules, fn = compiled.module, playout_for(compiled)
N = rules.DEFAULT_SEATS
def play(seed, dealer):
    rng = random.Random(seed)
    order = list(range(rules.N_CARDS))
    rng.shuffle(order)
    plays, _o, piles, points, _t, _m = fn(N, dealer % N, order, rng, [0] * N, [rng] * N, True)
    if plays:
        rules.score(piles, points)
for i in range(int(sys.argv[2])):
    play(f"warm:{{i}}", i % 4)
for i in range(int(sys.argv[3])):
    play(f"bench:{{i}}", i % 4)
"""


def count(script: Path, ruleset: str, warm: int, hands: int) -> int:
    """Instructions executed by one run of the script."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              sys.executable, str(script), ruleset, str(warm), str(hands)],
                             capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the playouts failed under callgrind:\n{out.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rulesets", default="cirulla,cirullone")
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--warm", type=int, default=300)
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is measured")
    args = p.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    print(f"instructions per random hand ({args.hands} hands; warm: after {args.warm}), "
          f"code of {args.root.resolve()}")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "playouts.py"
        script.write_text(_SCRIPT.format(root=str(args.root.resolve())), encoding="utf-8")
        for rid in args.rulesets.split(","):
            cold = count(script, rid, 0, args.hands) - count(script, rid, 0, 0)
            warm = count(script, rid, args.warm, args.hands) - count(script, rid, args.warm, 0)
            print(f"  {rid:24} cold {cold / args.hands / 1e6:7.3f} M   warm {warm / args.hands / 1e6:7.3f} M",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
