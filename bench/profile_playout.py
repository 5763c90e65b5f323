"""Where the compiled engine spends a random playout: self and inclusive time per function.

    python -m bench.profile_playout [--hands 3000] [--top 20]              # cProfile
    py-spy record -r 500 -f raw -o spy.txt -- python -m bench.profile_playout --plain
    python -m bench.profile_playout --summarise spy.txt                      # py-spy's samples

Percentages are of the time inside the playout loop (imports and compiling
excluded), so the numbers of the two profilers compare. cProfile's overhead
per call inflates small, frequently called functions; py-spy samples
without it.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench import rulespec_playout  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402


def playouts(hands: int) -> None:
    rules = compile_ruleset("cirulla").module
    for i in range(hands):
        rulespec_playout(rules, random.Random(f"bench:1:{i}"), i % 4)


def _label(filename: str, line: int, name: str) -> str:
    return f"{name} ({Path(filename).name if not filename.startswith('<') else filename}:{line})"


def cprofile(hands: int, top: int) -> None:
    compile_ruleset("cirulla")
    prof = cProfile.Profile()
    prof.runcall(playouts, hands)
    stats = pstats.Stats(prof).stats
    whole = max(ct for (_f, _l, name), (_cc, _nc, _tt, ct, _callers) in stats.items() if name == "playouts")
    rows = [(_label(f, line, name), nc, tt, ct) for (f, line, name), (_cc, nc, tt, ct, _callers) in stats.items()]
    print(f"cProfile: {hands} random hands, {whole:.2f} s in the playout loop (profiler overhead included)")
    for title, key in (("self time", 2), ("inclusive time", 3)):
        print(f"\nby {title}\n  {'%':>5} {'calls':>8}  function")
        for row in sorted(rows, key=lambda r: -r[key])[:top]:
            print(f"  {row[key] / whole * 100:5.1f} {row[1]:8}  {row[0]}")


def summarise(raw: Path, top: int) -> None:
    """Self and inclusive shares of py-spy's raw (collapsed-stack) samples under rulespec_playout."""
    own, incl, total = Counter(), Counter(), 0
    for line in raw.read_text().splitlines():
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")
        names = [f.split(" (")[0] + " (" + f.split(" (")[1].split(":")[0].rsplit("/", 1)[-1] + ")" if " (" in f
                 else f for f in frames]
        if not any(n.startswith("rulespec_playout ") for n in names):
            continue
        names = names[[n.startswith("rulespec_playout ") for n in names].index(True):]
        total += int(count)
        own[names[-1]] += int(count)
        for name in set(names):
            incl[name] += int(count)
    print(f"py-spy: {total} samples inside rulespec_playout")
    for title, counter in (("self time", own), ("inclusive time", incl)):
        print(f"\nby {title}")
        for name, n in counter.most_common(top):
            print(f"  {n / total * 100:5.1f}  {name}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=3000)
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--plain", action="store_true", help="run the playouts without a profiler (for py-spy)")
    p.add_argument("--summarise", metavar="RAW", type=Path, help="summarise a py-spy raw output instead")
    args = p.parse_args(argv)
    if args.summarise:
        summarise(args.summarise, args.top)
    elif args.plain:
        playouts(args.hands)
    else:
        cprofile(args.hands, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
