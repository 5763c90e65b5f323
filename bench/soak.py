"""Soak: many random hands across every shipped ruleset, the invariants checked after every play.

    python bench/soak.py --hands 20000 [--workers 2] [--seed 1] [--every-seat]

Hands go round the shipped rulesets; each is dealt from its own seed (seats
and dealer drawn from it) and played by random bots that declare the
bonuses they hold (tests/invariants.play_checked). After every play: each
card in exactly one place, legal moves while the hand goes on, observations
that hide the other hands and the stock (the seat to play's; --every-seat:
all seats, slower); at the end, totals and majorities. Work is spread over
processes (default: every core). Prints hands played, plays, failures and
time; exits 1 on any failure, with the ruleset and seed to replay it.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.invariants import new_hand, play_checked  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402
from rulespec.source.rulesets import shipped_ids  # noqa: E402

_COMPILED: dict = {}


def _compiled(rid: str):
    if rid not in _COMPILED:
        _COMPILED[rid] = compile_ruleset(rid)
    return _COMPILED[rid]


def play_chunk(task) -> tuple[int, int, list[str], float]:
    """Play hands `first`..`first + count - 1` of the run; (hands, plays, failures, seconds)."""
    seed, first, count, ids, every_seat = task
    started = time.perf_counter()
    plays, failures = 0, []
    for i in range(first, first + count):
        rid = ids[i % len(ids)]
        key = f"{seed}:{i}"
        try:
            compiled = _compiled(rid)
            plays += play_checked(compiled, new_hand(compiled, key), random.Random(key), every_seat=every_seat)
        except Exception as err:  # noqa: BLE001 - a soak reports whatever breaks, and goes on
            where = traceback.extract_tb(err.__traceback__)[-1]
            failures.append(f"{rid} hand {key}: {type(err).__name__}: {str(err)[:400]} "
                            f"({Path(where.filename).name}:{where.lineno})")
    return count, plays, failures, time.perf_counter() - started


def soak(hands: int, *, workers: int | None = None, seed: int = 1, chunk: int = 100, every_seat: bool = False,
         log=None) -> dict:
    """Play `hands` checked hands over `workers` processes; the totals."""
    ids = shipped_ids()
    workers = workers or os.cpu_count() or 1
    tasks = [(seed, first, min(chunk, hands - first), ids, every_seat) for first in range(0, hands, chunk)]
    started = time.perf_counter()
    done = plays = 0
    failures: list[str] = []
    last = started
    if workers == 1:
        results = map(play_chunk, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap_unordered(play_chunk, tasks)
    interrupted = False
    try:
        for count, got_plays, got_failures, _ in results:
            done += count
            plays += got_plays
            failures += got_failures
            now = time.perf_counter()
            if log and now - last >= 30:
                last = now
                log(f"  {done} hands, {plays} plays, {len(failures)} failures, {now - started:.0f} s "
                    f"({done / (now - started):.0f} hands/s)")
    except KeyboardInterrupt:   # Ctrl-C or SIGTERM: report what was played
        interrupted = True
        if pool is not None:
            pool.terminate()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return {"hands": done, "plays": plays, "failures": failures, "seconds": time.perf_counter() - started,
            "workers": workers, "rulesets": len(ids), "interrupted": interrupted}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk", type=int, default=100, help="hands per task")
    p.add_argument("--every-seat", action="store_true", help="check every seat's observation after every play")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"soak: {args.hands} hands over {len(shipped_ids())} shipped rulesets, seed {args.seed}", flush=True)
    result = soak(args.hands, workers=args.workers, seed=args.seed, chunk=args.chunk, every_seat=args.every_seat,
                  log=lambda line: print(line, flush=True))
    if result["interrupted"]:
        print("interrupted: the figures are for the hands finished so far")
    print(f"hands played: {result['hands']}")
    print(f"plays: {result['plays']}")
    print(f"failures: {len(result['failures'])}")
    print(f"time: {result['seconds']:.1f} s on {result['workers']} workers "
          f"({result['hands'] / result['seconds']:.0f} hands/s, {result['plays'] / result['seconds']:.0f} plays/s)")
    for line in result["failures"][:20]:
        print(f"  {line}")
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
