"""Instructions per random hand (callgrind): compiled playouts against ref_cirulla.py, cold and warm.

Wall-clock figures on a shared 2-core machine swing with the load; callgrind
counts instructions, which repeat to the instruction whatever else runs. Each
engine is run twice under callgrind, for `warm` hands and for `warm + hands`
hands, so the difference is the cost of `hands` hands alone (start-up, imports
and compiling cancel out). "cold" is the first `hands` hands of a process (the
playout's memos empty), "warm" the `hands` after `--warm` hands.

Every engine plays hand `i` from `random.Random(f"h{i}")`: the deck shuffled
(the playouts: by simulate's shuffle, the same order as random.shuffle), then
every choice drawn from the same stream (as `rulespec simulate` does), the
hand scored. The reference is always its own 4-player Cirulla.

The playouts are compiled without the disk cache, unless `--cache`: then they
are loaded as `rulespec simulate` loads them, from a cache entry (with the memo
rows of small tables and the bots' best declarations worked out when it was
stored) written beforehand in a folder of the run's own.

    python bench/instructions.py --hands 300 --warm 3000 [--rulesets cirulla:2,cirulla:4,cicera:4] [--cache]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ../shared/bench beside the checkout (or beside a folder holding it, as for a git worktree), as bench.playouts
DEFAULT_REF = next((p / "shared" / "bench" for p in ROOT.parents if (p / "shared" / "bench" / "ref_cirulla.py").exists()),
                   ROOT.parent / "shared" / "bench")

_SCRIPT = """
import random, sys
which, n, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if which == "ref":
    sys.path.insert(0, {ref!r})
    import ref_cirulla as ref
    st = ref.Stats()
    for i in range(total):
        ref.play_hand(random.Random(f"h{{i}}"), i & 3, st)
    raise SystemExit
sys.path.insert(0, {root!r})
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.playout import playout_for
from rulespec.bots.simulate import _deck_shuffle
compiled = compile_ruleset(which, disk=True)     # the disk cache only where the run turns it on
fn, rules = playout_for(compiled), compiled.module
shuffle = _deck_shuffle()                        # simulate's: random.shuffle's order, fewer calls
for i in range(total):
    rng = random.Random(f"h{{i}}")
    order = list(range(rules.N_CARDS))
    shuffle(order, rng)
    result = fn(n, i % n, order, rng, [0] * n, [rng] * n, True)
    if result[0]:
        rules.score(result[2], result[3])
"""


ENV = {**os.environ, "RULESPEC_CACHE": "off"}


def count(script: Path, which: str, n: int, total: int) -> int:
    """Instructions executed by one run of the script."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              sys.executable, str(script), which, str(n), str(total)],
                             capture_output=True, text=True, env=ENV)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode or not found:
        raise SystemExit(f"callgrind run failed ({which} {n} {total}):\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_hand(script: Path, which: str, n: int, warm: int, hands: int) -> float:
    """Millions of instructions per hand for `hands` hands after `warm` hands."""
    return (count(script, which, n, warm + hands) - count(script, which, n, warm)) / hands / 1e6


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--warm", type=int, default=3000)
    parser.add_argument("--rulesets", default="cirulla:2,cirulla:4,cicera:4,cirullone:4",
                        help="RULESET:SEATS, comma-separated")
    parser.add_argument("--ref", default=str(DEFAULT_REF), help="the folder of ref_cirulla.py")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at a time")
    parser.add_argument("--cache", action="store_true", help="load the playouts from a disk cache entry, as simulate")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    rows = [("ref", 4)] + [(r.split(":")[0], int(r.split(":")[1])) for r in args.rulesets.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "hands.py"
        script.write_text(_SCRIPT.format(root=str(ROOT), ref=args.ref), encoding="utf-8")
        if args.cache:
            ENV.update(RULESPEC_CACHE="on", XDG_CACHE_HOME=str(Path(tmp) / "cache"))
            for which, n in rows[1:]:            # each entry written once, outside the counted runs
                subprocess.run([sys.executable, str(script), which, str(n), "0"], env=ENV, check=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            cold = {row: pool.submit(per_hand, script, *row, 0, args.hands) for row in rows}
            warm = {row: pool.submit(per_hand, script, *row, args.warm, args.hands) for row in rows}
            got = {row: (cold[row].result(), warm[row].result()) for row in rows}
    ref_cold, ref_warm = got[("ref", 4)]
    print(f"M instructions per hand ({args.hands} hands; cold: a fresh process's first, warm: after {args.warm})")
    print(f"  {'engine':<12} {'seats':>5} {'cold':>8} {'warm':>8}   ref/engine cold, warm")
    for (which, n), (c, w) in got.items():
        name = "ref_cirulla" if which == "ref" else which
        print(f"  {name:<12} {n:>5} {c:8.3f} {w:8.3f}   {ref_cold / c:5.2f}x {ref_warm / w:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
