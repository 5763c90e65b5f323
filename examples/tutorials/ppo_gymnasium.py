"""Tutorial: MaskablePPO (sb3-contrib) on the Gymnasium environment, then the agent saved as a policy file.

    pip install 'rulespec[rl,tutorials]'      # sb3-contrib and a CPU build of torch
    python examples/tutorials/ppo_gymnasium.py [--ruleset cirulla] [--timesteps 100000] [--eval-hands 400] \
        [--vector 64] [--net 256,256] [--save agent.npz]

The environment is rulespec's Gymnasium adapter (rulespec/interop/gymnasium.py)
through `FlatObservation` (the observation array alone; the action mask comes
from `action_masks()`, which MaskablePPO asks the environment for). The agent
plays a random seat against rulespec's random bot, the dealer drawn at every
hand, its reward the hand's margin over the target (`reward="scaled"`).

`--vector N` trains on N hands at once in the native vector environment
(rulespec/interop/vector.py: the same observations, actions and random
opponent, the agent's seat fixed and the dealer passing from hand to hand)
through `Vectorised` below, many times faster than one hand at a time; the
evaluation is the same either way.

After training, it plays `--eval-hands` fresh hands greedily against the same
bot through the Gymnasium adapter (the result in points per hand, with its
95% interval), and `--save FILE.npz` writes its actor as a rulespec policy file
(rulespec/interop/policies.py), to play as `make_bot("policy:FILE")` or enter
`rulespec.bots.leaderboard.cross_play` from Python (rulespec/interop/mlp.py reads it).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def vectorised(ruleset: str, num_envs: int, seed: int):
    """The native vector environment of `num_envs` 2-seat hands seen as a Stable-Baselines3 VecEnv."""
    import numpy as np
    from stable_baselines3.common.vec_env import VecEnv

    from rulespec.interop.vector import VectorEnv

    class Vectorised(VecEnv):
        """SB3's VecEnv over rulespec's VectorEnv: observation arrays, `action_masks` for MaskablePPO, the reward
        scaled by the target. VectorEnv resets as Gymnasium's NEXT_STEP does: the step after a hand's end
        returns the next hand's first observation, its action ignored; SB3 records that step as one more (an
        all-zero mask, reward 0, after an episode's end), which teaches nothing to the actor (every logit is
        masked) and costs one step in about twenty."""

        def __init__(self):
            self.venv = VectorEnv(ruleset, num_envs=num_envs, seats=2)
            self.scale = self.venv.stake or 1.0
            self._seed, self._mask, self._actions = seed, None, None
            super().__init__(num_envs, self.venv.single_observation_space["observation"],
                             self.venv.single_action_space)

        def reset(self):
            obs, _ = self.venv.reset(seed=self._seed)
            self._seed += 1
            self._mask = obs["action_mask"].astype(bool)
            return obs["observation"]

        def step_async(self, actions):
            self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

        def step_wait(self):
            obs, reward, terminated, truncated, _ = self.venv.step(self._actions)
            self._mask = obs["action_mask"].astype(bool)
            return (obs["observation"], reward / self.scale, terminated | truncated,
                    [{} for _ in range(self.num_envs)])

        def env_method(self, method_name, *args, indices=None, **kwargs):
            if method_name != "action_masks":
                raise AttributeError(method_name)
            return list(self._mask)

        def has_attr(self, attr_name):
            return attr_name == "action_masks"

        def get_attr(self, attr_name, indices=None):
            if attr_name != "render_mode":
                raise AttributeError(attr_name)
            return [None] * self.num_envs           # nothing to render

        def set_attr(self, attr_name, value, indices=None):
            raise AttributeError(attr_name)

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * self.num_envs

        def close(self):
            self.venv.close()

    return Vectorised()


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="cirulla")
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--eval-hands", type=int, default=400)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--vector", type=int, default=0, metavar="N",
                        help="train on N hands at once in the native vector environment (against random)")
    parser.add_argument("--n-steps", type=int, default=1024, help="PPO's rollout length (per environment)")
    parser.add_argument("--batch-size", type=int, default=64, help="PPO's minibatch (at most a rollout)")
    parser.add_argument("--epochs", type=int, default=10, help="PPO's passes over each rollout")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--ent-coef", type=float, default=0.0)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--net", default="64,64", help="the hidden layers' widths, of the actor and the critic")
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
    if args.vector:
        if args.opponent != "random":
            parser.error("--vector trains against the random bot only")
        env = vectorised(args.ruleset, args.vector, args.seed)
    else:
        env = make(reward="scaled")
    rollout = args.n_steps * env.num_envs if args.vector else args.n_steps
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=min(args.batch_size, rollout),
                        n_epochs=args.epochs, learning_rate=args.learning_rate, ent_coef=args.ent_coef,
                        gamma=args.gamma, policy_kwargs={"net_arch": [int(w) for w in args.net.split(",")]},
                        seed=args.seed, verbose=0)
    started = time.process_time()
    model.learn(total_timesteps=args.timesteps)
    cpu = time.process_time() - started
    env.close()

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
    print(f"MaskablePPO after {model.num_timesteps} steps ({cpu / 60:.1f} CPU-minutes) against {args.opponent}: "
          f"{mean:+.2f} ± {half:.2f} points per hand over {n} hands")
    if args.save:
        export_sb3(model, args.save, ruleset=evaluation.unwrapped.rules.module.RULESET_ID, seats=2)
        print(f"wrote {args.save}")
    return {"mean": mean, "half_width": half, "hands": n, "model": model}


if __name__ == "__main__":
    main()
