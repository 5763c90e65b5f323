"""Where the compiled engine spends a random playout: self and inclusive time per function.

    python -m bench.profile_playout [--hands 3000] [--top 20] [--engine playout|hand] [--warm N] [--ruleset R]
    py-spy record -r 500 -f raw -o spy.txt -- python -m bench.profile_playout --plain
    python -m bench.profile_playout --summarise spy.txt                      # py-spy's samples

Percentages are of the time inside the playout loop (imports and compiling
excluded), so the numbers of the two profilers compare. cProfile's overhead
per call inflates small, frequently called functions; py-spy samples
without it. `--engine playout` (the default) profiles the generated playout
with declaring random bots, as `rulespec simulate` runs it; `--warm N` plays
N other hands first, so that its memos are as full as in a long run;
`--ruleset` picks the ruleset (4 players; default cirulla).
`--engine hand` profiles `Hand` without declarations (section 2's figures).
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


ENGINE = {"name": "playout", "warm": 0, "ruleset": "cirulla"}


def rulespec_playout_generated(fn, rules, rng: random.Random, dealer: int) -> None:
    """One random 4-player hand through the generated playout, the random bots declaring (as simulate runs)."""
    order = list(range(rules.N_CARDS))
    rng.shuffle(order)
    plays, _outcome, piles, points, _turns, _moves = fn(4, dealer, order, rng, [0] * 4, [rng] * 4, True)
    if plays:
        rules.score(piles, points)


def playouts(hands: int) -> None:
    compiled = compile_ruleset(ENGINE["ruleset"])
    rules = compiled.module
    if ENGINE["name"] == "hand":
        for i in range(hands):
            rulespec_playout(rules, random.Random(f"bench:1:{i}"), i % 4)
        return
    from rulespec.compiler.playout import playout_for
    fn = playout_for(compiled)
    for i in range(hands):
        rulespec_playout_generated(fn, rules, random.Random(f"bench:1:{i}"), i % 4)


def warm_up() -> None:
    """Fresh hands (other seeds) played first, so that the profile shows the playouts' memos warm."""
    compiled = compile_ruleset(ENGINE["ruleset"])
    if ENGINE["name"] == "playout" and ENGINE["warm"]:
        from rulespec.compiler.playout import playout_for
        fn = playout_for(compiled)
        for i in range(ENGINE["warm"]):
            rulespec_playout_generated(fn, compiled.module, random.Random(f"warm:{i}"), i % 4)


def _label(filename: str, line: int, name: str) -> str:
    return f"{name} ({Path(filename).name if not filename.startswith('<') else filename}:{line})"


def cprofile(hands: int, top: int) -> None:
    compile_ruleset(ENGINE["ruleset"])
    warm_up()
    prof = cProfile.Profile()
    prof.runcall(playouts, hands)
    stats = pstats.Stats(prof).stats
    whole = max(ct for (_f, _l, name), (_cc, _nc, _tt, ct, _callers) in stats.items() if name == "playouts")
    rows = [(_label(f, line, name), nc, tt, ct) for (f, line, name), (_cc, nc, tt, ct, _callers) in stats.items()]
    print(f"cProfile: {hands} random hands ({ENGINE['name']}, {ENGINE['warm']} hands of warm-up), {whole:.2f} s "
          f"in the playout loop (profiler overhead included)")
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
        if not any(n.startswith("rulespec_playout") for n in names):
            continue
        names = names[[n.startswith("rulespec_playout") for n in names].index(True):]
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
    p.add_argument("--engine", choices=["playout", "hand"], default="playout",
                   help="the generated playout with declaring random bots (what simulate runs), or Hand "
                        "without declarations (the figures of section 2)")
    p.add_argument("--warm", type=int, default=0, help="fresh hands played before profiling (playout memos)")
    p.add_argument("--ruleset", default="cirulla", help="the ruleset played (4 players; --engine playout)")
    p.add_argument("--summarise", metavar="RAW", type=Path, help="summarise a py-spy raw output instead")
    args = p.parse_args(argv)
    ENGINE.update(name=args.engine, warm=args.warm, ruleset=args.ruleset)
    if args.summarise:
        summarise(args.summarise, args.top)
    elif args.plain:
        warm_up()
        playouts(args.hands)
    else:
        cprofile(args.hands, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
