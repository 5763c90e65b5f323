"""Benchmark: the bots' best declarations per dealt hand, by classes against the full search.

    python -m bench.declarations [--rulesets cirulla,cirullone] [--hands 4000] [--warm 4000]

The queries are recorded from random playouts (the ruleset's default seat count) (each seat's `best` call
on a dealt hand, as the playout makes it) and replayed into a fresh `Declarer`
twice: "cold" is the first `--hands` hands' queries on empty memos (what a
`simulate` of that many hands pays), "warm" the next `--hands` hands' queries
after `--warm` hands' worth. Each figure is CPU µs per *hand* (all of its seats'
queries), for the search by classes (`by class`) and for the full search over
card combinations × wild ranks (`full`, the class search turned off), in one
process, alternated. The answers of the two are compared, query by query.

    python -m bench.declarations --floor [--rulesets ...] [--hands 3000]

`--floor`: what a ruleset's playout costs once its declarations are free: the
same fresh hands played twice after a warm-up, the second time with every
declaration answered by the memo (and once more with that memo emptied, so
that they are searched again with the plans warm), CPU µs per hand.
"""
from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulespec.compiler.build import compile_ruleset  # noqa: E402
from rulespec.compiler.playout import playout_for  # noqa: E402
from rulespec.run import declarations  # noqa: E402


def record(rid: str, seeds: list[str]) -> list[list[tuple]]:
    """Per hand: the arguments of every `best` call its random playout makes (the default seat count)."""
    compiled = compile_ruleset(rid)
    rules = compiled.module
    fn = playout_for(compiled)
    found = declarations.declarer(rules)
    calls: list = []
    real, real_new = found.best, found.best_new
    found.best = lambda *a, **k: calls.append(a[:4]) or real(*a, **k)
    found.best_new = lambda *a: calls.append(a[:4]) or real_new(*a)      # what the playout asks on a miss
    out = []
    try:
        for i, seed in enumerate(seeds):
            found.best_memo.clear()         # every query reaches `best` (no answers from earlier hands)
            found._candidates.clear()
            rng = random.Random(seed)
            order = list(range(rules.N_CARDS))
            rng.shuffle(order)
            n = rules.DEFAULT_SEATS
            fn(n, i % n, order, rng, [0] * n, [rng] * n, True)
            out.append(calls[:])
            calls.clear()
    finally:
        del found.best, found.best_new
    return out


def replay(rules, by_class: bool, warm: list, hands: list) -> tuple[float, list]:
    """CPU seconds of a fresh Declarer answering `hands`' queries after `warm`'s; and its answers."""
    found = declarations.Declarer(rules)
    if not by_class:
        found._classes = None
    for queries in warm:
        for q in queries:
            found.best(*q)
    answers = []
    t0 = time.process_time()
    for queries in hands:
        for q in queries:
            answers.append(found.best(*q))
    return time.process_time() - t0, answers


_FLOORS = itertools.count()


def floor(rid: str, hands: int) -> None:
    """Print the playout's CPU per hand of fresh hands, then of the same hands with the declarations memoised."""
    compiled = compile_ruleset(rid)
    rules = compiled.module
    fn = playout_for(compiled)
    found = declarations.declarer(rules)
    limit, declarations.MEMO_LIMIT = declarations.MEMO_LIMIT, 10 ** 9     # nothing forgotten mid-run
    n = rules.DEFAULT_SEATS

    def run(seeds: list[str]) -> float:
        t0 = time.process_time()
        for i, seed in enumerate(seeds):
            rng = random.Random(seed)
            order = list(range(rules.N_CARDS))
            rng.shuffle(order)
            plays, _o, piles, points, _t, _m = fn(n, i % n, order, rng, [0] * n, [rng] * n, True)
            if plays:
                rules.score(piles, points)
        return (time.process_time() - t0) / len(seeds) * 1e6

    call = next(_FLOORS)           # hands never played before in this process
    try:
        run([f"floor:{call}:warm:{i}" for i in range(hands)])
        seeds = [f"floor:{call}:{i}" for i in range(hands)]
        first = run(seeds)
        again = run(seeds)
        found.best_memo.clear()
        found._candidates.clear()
        searched = run(seeds)
    finally:
        declarations.MEMO_LIMIT = limit
    print(f"  {rid:24} fresh {first:7.1f}   replayed, declarations memoised {again:7.1f}   "
          f"replayed, searched again {searched:7.1f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rulesets", default="cirulla,cirullone")
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--warm", type=int, default=4000)
    p.add_argument("--repeat", type=int, default=3, help="alternated runs per figure (the least is shown)")
    p.add_argument("--floor", action="store_true", help="the playout's cost with the declarations free")
    args = p.parse_args(argv)
    if args.floor:
        print(f"CPU µs per hand of the playout ({args.hands} hands, after as many others)")
        for rid in args.rulesets.split(","):
            floor(rid, args.hands)
        return 0
    print(f"CPU µs per hand for its seats' best declarations ({args.hands} hands; "
          f"warm = after {args.warm} other hands)")
    print(f"  {'ruleset':24} {'queries/hand':>12} {'cold full':>10} {'cold class':>10} {'warm full':>10} "
          f"{'warm class':>10}")
    for rid in args.rulesets.split(","):
        rules = compile_ruleset(rid).module
        if not rules.HAND_BONUSES:
            continue
        cold = record(rid, [f"decl:cold:{i}" for i in range(args.hands)])
        warm = record(rid, [f"decl:warm:{i}" for i in range(args.warm)])
        after = record(rid, [f"decl:after:{i}" for i in range(args.hands)])
        fig = {}
        for r in range(args.repeat):
            for by_class in ((True, False) if r % 2 == 0 else (False, True)):
                for label, pre, hands in (("cold", [], cold), ("warm", warm, after)):
                    dt, answers = replay(rules, by_class, pre, hands)
                    name = (label, by_class)
                    fig[name] = min(fig.get(name, dt), dt)
                    ref = fig.setdefault((label, "answers"), answers)
                    if answers != ref:
                        raise SystemExit(f"{rid}: the search by classes answers otherwise ({label})")
        per = {k: v / args.hands * 1e6 for k, v in fig.items() if k[1] != "answers"}
        queries = sum(map(len, cold)) / len(cold)
        print(f"  {rid:24} {queries:12.1f} {per['cold', False]:10.1f} {per['cold', True]:10.1f} "
              f"{per['warm', False]:10.1f} {per['warm', True]:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
