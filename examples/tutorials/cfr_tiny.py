"""Tutorial: solve a tiny fishing game exactly with OpenSpiel's CFR+ and watch NashConv fall.

    python examples/tutorials/cfr_tiny.py [--iterations 30] [--every 10] [--ruleset scopa-tiny]

`scopa-tiny` (rulesets/scopa-tiny.yaml) is Scopa's capture and scoring on
five cards (A to 5 of coins): two each and one on the table. Its whole game
tree, the deal card by card included (OpenSpiel's explicit chance), is a few
thousand states, so OpenSpiel's counterfactual regret minimisation (CFR+, its
C++ solver over the rulespec game) visits every one at every iteration.
NashConv, the sum of what each player could gain by a best response to the
average policy, goes to 0 as the policy approaches a Nash equilibrium.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(argv=None) -> list[tuple[int, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="scopa-tiny")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--every", type=int, default=10, help="measure NashConv every this many iterations")
    args = parser.parse_args(argv)

    import pyspiel

    import rulespec.interop.openspiel  # noqa: F401 - registers the game "rulespec"
    game = pyspiel.load_game("rulespec", {"ruleset": args.ruleset, "seats": 2})
    solver = pyspiel.CFRPlusSolver(game)
    curve = []
    start = time.perf_counter()
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i % args.every == 0 or i == args.iterations:
            nash_conv = pyspiel.nash_conv(game, solver.average_policy())
            curve.append((i, nash_conv))
            print(f"iteration {i:4d}: NashConv {nash_conv:.5f}  ({time.perf_counter() - start:.1f} s)")
    return curve


if __name__ == "__main__":
    main()
