"""Benchmark: what a hand costs the playout when its tables are new, and when they were met before.

    python -m bench.newhands [--ruleset cirulla] [--seats 4] [--hands 4000]

One process, the playout loaded as `rulespec simulate` loads it (disk cache,
its shuffle, its collector threshold), each hand seeded, shuffled, played
and scored as simulate does. Rounds of `--hands` hands each:

- `new A`, `new B`, `new C`: hands never played before (the memos fill);
- `replay A`: A's hands again: every table and row met before;
- `replay A, table memo cleared`: A's hands again after emptying the
  table-mask memo (`_ROWS`, `_TBS`; the rows by class stay): each table is
  looked up and its row found again, what a new table costs;
- `replay A again`: back to the known-table cost.

CPU µs per hand, and the number of tables in the memo after each round.
Then the working set: the first `--hot` hands of A (default 50, 400 and
4,000) replayed over and over, 8,000 hands each, the playout and
ref_cirulla.py alternated: what a hand costs when every memo is hot and
small enough for the processor's caches, against the reference on the same
hands.
Issue 12 asks for 1.5x ref_cirulla.py; the replay shows the floor of the
memoised design (bench/README.md, "fifth pass").
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.playouts import DEFAULT_REF, load_ref, playout_engine, ref_engine  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="cirulla")
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--hot", default="50,400,4000", help="working sets to replay (hands of A; '' for none)")
    p.add_argument("--ref", type=Path, default=DEFAULT_REF, help="the folder of ref_cirulla.py")
    args = p.parse_args(argv)
    compiled = compile_ruleset(args.ruleset, disk=True)
    play = playout_engine(compiled)                 # as bench.playouts plays (and simulate): its shuffle, its GC
    memo = compiled._playout.__globals__
    n = args.seats

    def run(tag: str) -> float:
        t0 = time.process_time()
        play([f"newhands:{tag}:{i}" for i in range(args.hands)], n)
        return (time.process_time() - t0) / args.hands * 1e6

    print(f"{args.ruleset}, {n} seats, {args.hands} hands a round: CPU µs per hand (tables in the memo after)")
    for label, tag, clear in (("new A", "A", False), ("new B", "B", False), ("new C", "C", False),
                              ("replay A", "A", False), ("replay A, table memo cleared", "A", True),
                              ("replay A again", "A", False)):
        if clear:
            memo["_ROWS"].clear()
            memo["_TBS"].clear()
        us = run(tag)
        print(f"  {label:30} {us:7.1f}   ({len(memo['_ROWS'])})")
    hot = [int(x) for x in args.hot.split(",") if x]
    if hot:
        ref = ref_engine(load_ref(args.ref))
        print("working set: the first N hands of A replayed, 8,000 hands each (µs per hand; ref_cirulla.py alike)")
        for size in hot:
            seeds = [f"newhands:A:{i}" for i in range(size)]
            spent = {}
            for name, engine in (("playout", play), ("ref", ref), ("ref", ref), ("playout", play)):   # ABBA
                t0 = time.process_time()
                for _ in range(max(1, 8000 // size)):
                    engine(seeds, n)
                spent[name] = spent.get(name, 0.0) + time.process_time() - t0
            total = 2 * max(1, 8000 // size) * size
            mine, theirs = spent["playout"] / total * 1e6, spent["ref"] / total * 1e6
            print(f"  {size:6} hands   playout {mine:7.1f}   ref {theirs:7.1f}   ref/playout {theirs / mine:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
