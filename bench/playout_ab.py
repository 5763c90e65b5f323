"""Benchmark: this checkout's generated playout against another checkout's, and ref_cirulla.py, in one process.

    python -m bench.playout_ab --against ../main/compiler/playout.py [--ruleset cirulla] [--seats 4]
                               [--hands 3000] [--rounds 6]

For measuring a change to compiler/playout.py: both generators compile the
same ruleset into their own playout function (sharing the compiled module),
and the engines take turns in ABBA rounds after a warm-up, CPU time
(`time.process_time`) per hand, random bots declaring their best bonuses,
every hand scored. Each engine plays its own seeds (`ab:ENGINE:ROUND:i`):
the engines share the compiled module's caches (subset sums, declarations),
so an engine replaying the hands another has just played would find them
warm and look faster than it is.
"""
from __future__ import annotations

import argparse
import importlib.util
import linecache
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rulespec.compiler.playout as this_generator  # noqa: E402
from bench.playouts import DEFAULT_REF, load_ref  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402


def load_generator(path: Path):
    """Another checkout's compiler/playout.py as a module (it imports this checkout's rulespec)."""
    spec = importlib.util.spec_from_file_location("playout_against", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generated_playout(generator, compiled, tag: str):
    """The playout function `generator` makes for the compiled ruleset."""
    source, _spans = generator.generate_with_spans(compiled.ruleset)
    namespace = dict(compiled.module.__dict__)
    namespace["_MODULE"] = compiled.module
    filename = f"<{tag} playout {compiled.ruleset.id}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated from a checked ruleset
    return namespace["playout"]


def playout_engine(fn, rules):
    def run(seeds: list[str], n: int) -> None:
        policies = [0] * n
        for i, seed in enumerate(seeds):
            rng = random.Random(seed)
            order = list(range(rules.N_CARDS))
            rng.shuffle(order)
            plays, _outcome, piles, points, _turns, _moves = fn(n, i % n, order, rng, policies, [rng] * n, True)
            if plays:
                rules.score(piles, points)
    return run


def ref_engine(ref):
    def run(seeds: list[str], n: int) -> None:
        st = ref.Stats()
        for i, seed in enumerate(seeds):
            ref.play_hand(random.Random(seed), i & 3, st)
    return run


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", type=Path, required=True, help="the other checkout's compiler/playout.py")
    p.add_argument("--ruleset", default="cirulla")
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--hands", type=int, default=3000, help="hands per engine")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--ref", type=Path, default=DEFAULT_REF, help="the folder of ref_cirulla.py")
    args = p.parse_args(argv)
    compiled = compile_ruleset(args.ruleset)
    n = args.seats
    engines = {
        "ref": ref_engine(load_ref(args.ref)),
        "against": playout_engine(generated_playout(load_generator(args.against), compiled, "against"),
                                  compiled.module),
        "this": playout_engine(generated_playout(this_generator, compiled, "this"), compiled.module),
    }
    for name, run in engines.items():
        run([f"warm:{name}:{i}" for i in range(300)], n)
    cpu = dict.fromkeys(engines, 0.0)
    per_round = max(1, args.hands // args.rounds)
    for r in range(args.rounds):
        for name in (list(engines) if r % 2 == 0 else list(engines)[::-1]):
            seeds = [f"ab:{name}:{r}:{i}" for i in range(per_round)]
            t0 = time.process_time()
            engines[name](seeds, n)
            cpu[name] += time.process_time() - t0
    us = {name: cpu[name] / (per_round * args.rounds) * 1e6 for name in engines}
    print(f"{args.ruleset}, {n} players, CPU µs per hand: ref {us['ref']:.0f}, against {us['against']:.0f}, "
          f"this {us['this']:.0f}; ref/against {us['ref'] / us['against']:.2f}, ref/this {us['ref'] / us['this']:.2f}, "
          f"against/this {us['against'] / us['this']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
