"""Instructions per random hand of a ruleset's generated playout (callgrind), steady whatever the load.

    python -m bench.playout_instructions --ruleset cicera [--hands 100] [--warmup 300] [--root ../main]

Random 4-player bots declaring their best bonuses, every hand scored (as
bench.playouts plays them). The playout is run under callgrind twice, for
`--warmup` hands and for `--warmup + --hands` hands, so that the difference
is the cost of `--hands` hands after the warm-up (start-up, imports,
compiling and filling the memos cancel out). `--root` runs another
checkout's code (its rulespec, compiler and runtime) the same way, for a
before/after figure. Python's string hashing is seeded per process, so a
figure moves by about 0.5% between runs; the seeds of the hands do not.
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
sys.path.insert(0, sys.argv[1])
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.playout import playout_for
rid, warm, hands = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
compiled = compile_ruleset(rid)
rules, fn = compiled.module, playout_for(compiled)
for tag, count in (("warm", warm), ("hand", hands)):
    for i in range(count):
        rng = random.Random(f"instructions:{tag}:{i}")
        order = list(range(rules.N_CARDS))
        rng.shuffle(order)
        plays, _outcome, piles, points, _turns, _moves = fn(4, i % 4, order, rng, [0] * 4, [rng] * 4, True)
        if plays:
            rules.score(piles, points)
"""


def count(script: Path, root: Path, rid: str, warm: int, hands: int) -> int:
    """Instructions executed by one run of the script."""
    with tempfile.TemporaryDirectory() as tmp:
        # the venv's interpreter as it is (its real path would lose the venv's packages)
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              sys.executable, str(script), str(root), rid, str(warm), str(hands)],
                             capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the playouts failed under callgrind:\n{out.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="cirulla")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is run")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "playouts.py"
        script.write_text(_SCRIPT, encoding="utf-8")
        root = args.root.resolve()
        per = (count(script, root, args.ruleset, args.warmup, args.hands)
               - count(script, root, args.ruleset, args.warmup, 0)) / args.hands
    print(f"{args.ruleset} ({root}): {per / 1e6:.3f} M instructions per hand "
          f"({args.hands} hands after {args.warmup} of warm-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
