"""Benchmark: whole random hands, compiled playouts and `Hand` against ../shared/bench/ref_cirulla.py.

    python -m bench.playouts [--hands 2000] [--rounds 6] [--ref DIR] [--json FILE]

CPU time (`time.process_time`) per hand, in one process, startup and compiling
excluded. The engines take turns in `--rounds` rounds (ABBA order) after a
warm-up of 200 hands each, every round on hands not played before (seeds
`bench:ROUND:i`), so drift in the machine's speed hits all of them alike and
no engine replays a hand it has seen. The first round of each engine is also
reported on its own ("cold"): the playouts memoise capture options and
declarations across hands, and a short run pays for filling those memos.

Engines, each playing uniformly random legal moves:
- `ref`: ref_cirulla.py's `play_hand` (standard 4-player Cirulla, bonuses
  always declared); imported from its folder at run time, never copied here.
- `playout`: the ruleset's generated playout (compiler/playout.py), random
  bots declaring their best bonuses (what `rulespec simulate` runs), loaded
  as simulate loads it: from the disk compile cache, with the memo rows of
  small tables and the bots' best declarations worked out when the entry was
  stored (RULESPEC_CACHE=off: compiled here, nothing worked out ahead); and
  run as simulate runs it: its deck shuffle (the same order as
  `random.shuffle`, without two method calls a card) and the garbage
  collector's first threshold it sets while hands are played.
- `hand`: `Hand` with `RandomBot`s declaring their best bonuses (the state
  API, what the playouts replaced in `simulate`).
Every hand ends with the score (`ref`: its own scoring).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulespec.bots.policy import play_out  # noqa: E402
from rulespec.bots.random_bot import RandomBot  # noqa: E402
from rulespec.bots.simulate import _deck_shuffle, _fewer_collections  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402
from rulespec.compiler.playout import playout_for  # noqa: E402
from rulespec.run.engine import Hand, shuffled_source  # noqa: E402

# ../shared/bench beside the checkout (or beside a folder holding it, as for a git worktree).
DEFAULT_REF = next((p / "shared" / "bench" for p in ROOT.parents if (p / "shared" / "bench" / "ref_cirulla.py").exists()),
                   ROOT.parent / "shared" / "bench")


def load_ref(folder: Path):
    """ref_cirulla.py as a module, loaded from its own folder."""
    spec = importlib.util.spec_from_file_location("ref_cirulla", folder / "ref_cirulla.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ref_engine(ref):
    def run(seeds: list[str], n: int) -> None:
        st = ref.Stats()
        for i, seed in enumerate(seeds):
            ref.play_hand(random.Random(seed), i & 3, st)
    return run


def playout_engine(compiled):
    fn = playout_for(compiled)
    rules = compiled.module

    shuffle = _deck_shuffle()

    def run(seeds: list[str], n: int) -> None:
        policies = [0] * n
        with _fewer_collections():
            for i, seed in enumerate(seeds):
                rng = random.Random(seed)
                order = list(range(rules.N_CARDS))
                shuffle(order, rng)
                plays, _outcome, piles, points, _turns, _moves = fn(n, i % n, order, rng, policies, [rng] * n, True)
                if plays:
                    rules.score(piles, points)
    return run


def hand_engine(compiled):
    rules = compiled.module

    def run(seeds: list[str], n: int) -> None:
        for i, seed in enumerate(seeds):
            rng = random.Random(seed)
            hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
            bot = RandomBot(rng)
            play_out(hand, [bot] * n)
            if hand.plays:
                hand.score()
    return run


def measure(engines: dict, n: int, hands: int, rounds: int) -> dict:
    """Microseconds of CPU per hand per engine: all rounds, and the first round alone (cold memos)."""
    per_round = max(1, hands // rounds)
    cpu = {name: 0.0 for name in engines}
    cold = {}
    for r in range(rounds):
        order = list(engines) if r % 2 == 0 else list(engines)[::-1]
        for name in order:
            seeds = [f"bench:{r}:{i}" for i in range(per_round)]
            t0 = time.process_time()
            engines[name](seeds, n)
            dt = time.process_time() - t0
            cpu[name] += dt
            cold.setdefault(name, dt / per_round * 1e6)
    total = per_round * rounds
    return {name: {"us_per_hand": round(cpu[name] / total * 1e6, 1), "cold_us_per_hand": round(cold[name], 1)}
            for name in engines}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000, help="hands per engine and configuration")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--ref", type=Path, default=DEFAULT_REF, help="the folder of ref_cirulla.py")
    p.add_argument("--rulesets", default="cirulla,cicera,cirullone")
    p.add_argument("--seats", default="2,4")
    p.add_argument("--no-hand", action="store_true", help="leave out the (slow) Hand engine")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    ref = load_ref(args.ref)
    results = {"command": "python -m bench.playouts " + " ".join(argv if argv is not None else sys.argv[1:]),
               "python": sys.version.split()[0], "rows": []}
    print(f"CPU µs per hand ({args.hands} hands per engine in {args.rounds} alternating rounds; "
          f"cold = first round alone)")
    print(f"  {'ruleset':10} {'seats':>5} {'engine':8} {'µs/hand':>9} {'cold':>9} {'ref/engine':>11}")
    for rid in args.rulesets.split(","):
        compiled = compile_ruleset(rid, disk=True)     # as simulate loads it (the disk cache, unless turned off)
        for n in (int(x) for x in args.seats.split(",")):
            if n not in compiled.module.SEATS_ALLOWED:
                continue
            engines = {"ref": ref_engine(ref), "playout": playout_engine(compiled)}
            if not args.no_hand:
                engines["hand"] = hand_engine(compiled)
            for name, run in engines.items():                 # warm-up: imports, allocator, plans
                run([f"warm:{i}" for i in range(200 if name != "hand" else 50)], n)
            row = measure(engines, n, args.hands, args.rounds)
            base = row["ref"]["us_per_hand"]
            for name, fig in row.items():
                print(f"  {rid:10} {n:5} {name:8} {fig['us_per_hand']:9.1f} {fig['cold_us_per_hand']:9.1f} "
                      f"{base / fig['us_per_hand']:10.2f}x")
            results["rows"].append({"ruleset": rid, "seats": n, "engines": row})
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
