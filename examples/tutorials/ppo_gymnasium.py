"""Tutorial: MaskablePPO (sb3-contrib) on the Gymnasium environment, then the agent saved as a policy file.

    pip install 'rulespec[rl,tutorials]'      # sb3-contrib and a CPU build of torch
    python examples/tutorials/ppo_gymnasium.py [--ruleset cirulla] [--timesteps 100000] [--eval-hands 400] \
        [--save agent.npz]

The environment is rulespec's Gymnasium adapter (rulespec/interop/gymnasium.py)
through `FlatObservation` (the observation array alone; the action mask comes
from `action_masks()`, which MaskablePPO asks the environment for). The agent
plays a random seat against rulespec's random bot, the dealer drawn at every
hand, its reward the hand's margin over the target (`reward="scaled"`).
After training, it plays `--eval-hands` fresh hands greedily against the same
bot (the result in points per hand, with its 95% interval), and
`--save FILE.npz` writes its actor as a rulespec policy file
(rulespec/interop/policies.py), to play as `make_bot("policy:FILE")` or enter
`rulespec.bots.leaderboard.cross_play` from Python (rulespec/interop/mlp.py reads it).
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
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--eval-hands", type=int, default=400)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--n-steps", type=int, default=1024, help="PPO's rollout length")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the trained actor as a policy file (.npz)")
    args = parser.parse_args(argv)

    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    from rulespec.interop.gymnasium import RulespecEnv
    from rulespec.interop.policies import FlatObservation, export_sb3
    torch.set_num_threads(1)

    def make(**kw):
        return FlatObservation(RulespecEnv(args.ruleset, seats=2, seat="random", dealer="random",
                                           bots=args.opponent, **kw))
    env = make(reward="scaled")
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=min(64, args.n_steps), seed=args.seed,
                        verbose=0)
    model.learn(total_timesteps=args.timesteps)

    evaluation = make()
    margins = []
    obs, _ = evaluation.reset(seed=10_000)
    for _ in range(args.eval_hands):
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=evaluation.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = evaluation.step(int(action))
            done = terminated or truncated
        margins.append(reward)
        obs, _ = evaluation.reset()
    n = len(margins)
    mean = float(np.mean(margins))
    half = 1.96 * float(np.std(margins, ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    print(f"MaskablePPO after {args.timesteps} steps against {args.opponent}: {mean:+.2f} ± {half:.2f} points "
          f"per hand over {n} hands")
    if args.save:
        export_sb3(model, args.save, ruleset=evaluation.unwrapped.rules.module.RULESET_ID, seats=2)
        print(f"wrote {args.save}")
    return {"mean": mean, "half_width": half, "hands": n}


if __name__ == "__main__":
    main()
