"""Tutorial: OpenSpiel's information-set MCTS plays a rulespec game against the random bot.

    python examples/tutorials/ismcts_openspiel.py [--ruleset cirulla] [--games 10] [--simulations 100]

OpenSpiel's ISMCTSBot searches the game it is given; for a game of hidden
cards it samples worlds consistent with what its player has seen. The rulespec
game provides `resample_from_infostate`, and `make_resampler` gives the bot a
resampler on its own seeded stream (rulespec/interop/openspiel.py). Its
opponent is rulespec's random bot as a `pyspiel.Bot`
(rulespec/interop/baselines.py); the seats alternate, and the result is the
hand's OpenSpiel return for the ISMCTS side (+1 a win, -1 a loss, 0 a tie).
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="cirulla")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--opponent", default="random", help="a rulespec bot: random, greedy, ismcts:N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from rulespec.interop.baselines import openspiel_bot
    from rulespec.interop.openspiel import make_resampler
    game = pyspiel.load_game("rulespec", {"ruleset": args.ruleset, "seats": 2})
    results = []
    for g in range(args.games):
        stream = np.random.RandomState(args.seed + g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=stream)
        searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                                    random_state=stream)
        searcher.set_resampler(make_resampler(stream))
        me = g % 2
        bots = [None, None]
        bots[me] = searcher
        bots[1 - me] = openspiel_bot(game, 1 - me, args.opponent, seed=args.seed + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(stream.choice(actions, p=probs)))
                continue
            state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[me])
        print(f"game {g + 1}: ISMCTS at seat {me}, return {results[-1]:+.1f}")
    n = len(results)
    mean = sum(results) / n
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / (n - 1)) if n > 1 else math.inf
    half = 1.96 * spread / math.sqrt(n)
    print(f"ISMCTS ({args.simulations} simulations) against {args.opponent}: mean return {mean:+.2f} ± {half:.2f} "
          f"over {n} hands")
    return {"mean": mean, "half_width": half, "hands": n}


if __name__ == "__main__":
    main()
