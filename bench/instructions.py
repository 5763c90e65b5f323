"""Instruction counts of random playouts, compiled `cirulla` against the baseline (callgrind).

Wall-clock figures on a shared 2-core machine swing by a factor of two with
the load; callgrind counts instructions, which repeat to the instruction
whatever else runs. Each engine is run twice under callgrind, for `--warmup`
hands and for `--warmup + --hands` hands, so the difference is the cost of
`--hands` hands alone (start-up, imports and compiling cancel out).

    python bench/instructions.py --hands 400
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PLAYOUTS = """
import random, sys
sys.path.insert(0, {root!r})
from bench.bench import rulespec_playout, baseline_playout
from rulespec.compiler.build import compile_ruleset
rules = compile_ruleset("cirulla").module
which, n = sys.argv[1], int(sys.argv[2])
play = (lambda rng, d: rulespec_playout(rules, rng, d)) if which == "rulespec" else baseline_playout
for i in range(n):
    play(random.Random(f"instructions:{{i}}"), i % 4)
"""


def count(script: Path, which: str, hands: int) -> int:
    """Instructions executed by one run of the playout script."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              os.path.realpath(sys.executable), str(script), which, str(hands)],
                             capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "playouts.py"
        script.write_text(_PLAYOUTS.format(root=str(ROOT)), encoding="utf-8")
        per = {}
        for which in ("rulespec", "baseline"):
            per[which] = count(script, which, args.warmup + args.hands) - count(script, which, args.warmup)
            print(f"{which:9} {per[which] / args.hands / 1e6:8.3f} M instructions per hand")
    print(f"baseline / rulespec = {per['baseline'] / per['rulespec']:.2f}x "
          f"(how many times fewer instructions the compiled engine needs per hand)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
