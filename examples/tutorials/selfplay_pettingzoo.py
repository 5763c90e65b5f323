"""Tutorial: a self-play loop on the PettingZoo environment, against snapshots of the learner's earlier selves.

    python examples/tutorials/selfplay_pettingzoo.py [--ruleset scopa] [--hands 3000] [--eval-hands 400]

The learner is a linear softmax policy over the afterstate features the
environment gives with `afterstate=True` (per card: whether it may be played,
in how many ways, the most cards it takes, the most points it scores at once,
whether it sweeps, the cards it leaves: rulespec/interop/selfplay.py). It
plays one seat; the other seat is a snapshot of its weights taken earlier,
drawn from a pool that grows every `--snapshot-every` hands (fictitious
self-play in its simplest form). After each hand, REINFORCE: the learner's
log-probability gradients times its result (the hand's margin over the
target) less a running baseline. Declarations and the choice among a card's
captures have no features here: both are drawn uniformly among the legal
actions, for the learner and its snapshots alike.

The evaluation plays fresh hands, the learner greedy (the best logit), against
rulespec's random bot as a PettingZoo policy (rulespec/interop/baselines.py),
the seats alternating, and prints the mean margin per hand with its 95% interval.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SCALE = (1.0, 3.0, 5.0, 3.0, 1.0, 10.0)      # each afterstate feature over a typical size


def _logits(np, w, obs):
    return (obs["afterstate"] / np.array(SCALE, np.float32)) @ w


def _act(np, w, obs, rng, greedy=False):
    """An action and, for the learner, the gradient of its log-probability."""
    legal = np.flatnonzero(obs["action_mask"])
    feats = obs["afterstate"][legal] / np.array(SCALE, np.float32)
    if not feats.any():                        # no features (a declaration, a capture's cards): uniform
        return int(legal[rng.randrange(len(legal))]), None
    z = feats @ w
    if greedy:
        i = int(np.argmax(z))
        return int(legal[i]), None
    p = np.exp(z - z.max())
    p /= p.sum()
    i = int(rng.choices(range(len(legal)), weights=p.tolist())[0])
    return int(legal[i]), feats[i] - p @ feats


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="scopa")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--eval-hands", type=int, default=400)
    parser.add_argument("--snapshot-every", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    import numpy as np

    from rulespec.interop.baselines import pettingzoo_policy
    from rulespec.interop.pettingzoo import env as make_env
    from rulespec.interop.selfplay import AFTERSTATE_FEATURES
    rng = random.Random(args.seed)
    env = make_env(args.ruleset, seats=2, afterstate=True, dealer="random", reward="scaled")
    w = np.zeros(len(AFTERSTATE_FEATURES), np.float32)
    pool = [w.copy()]
    baseline = 0.0
    env.reset(seed=args.seed)
    for h in range(args.hands):
        learner = f"player_{h % 2}"
        opponent_w = pool[rng.randrange(len(pool))]
        grads, result = [], 0.0
        if h:
            env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if agent == learner:
                result += reward
            if term or trunc:
                env.step(None)
                continue
            if agent == learner:
                action, grad = _act(np, w, obs, rng)
                if grad is not None:
                    grads.append(grad)
            else:
                action, _ = _act(np, opponent_w, obs, rng)
            env.step(action)
        if grads:
            w += args.lr * (result - baseline) * np.sum(grads, axis=0)
        baseline += 0.01 * (result - baseline)
        if (h + 1) % args.snapshot_every == 0:
            pool.append(w.copy())
    print(f"trained on {args.hands} hands of self-play; {len(pool)} snapshots; weights "
          + ", ".join(f"{n} {x:+.2f}" for n, x in zip(AFTERSTATE_FEATURES, w)))

    margins = []
    scale = env.scale
    evaluator = make_env(args.ruleset, seats=2, afterstate=True)
    opponent = pettingzoo_policy(evaluator, "random", seed=args.seed)
    for h in range(args.eval_hands):
        evaluator.reset(seed=10_000 + h)
        learner = f"player_{h % 2}"
        total = 0.0
        for agent in evaluator.agent_iter():
            obs, reward, term, trunc, _ = evaluator.last()
            if agent == learner:
                total += reward
            if term or trunc:
                evaluator.step(None)
                continue
            evaluator.step(_act(np, w, obs, rng, greedy=True)[0] if agent == learner else opponent(obs, agent))
        margins.append(total)
    n = len(margins)
    mean = sum(margins) / n
    half = 1.96 * math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1) / n) if n > 1 else math.inf
    print(f"learner against the random bot: {mean:+.2f} ± {half:.2f} points per hand over {n} hands "
          f"(the target is {scale:g})")
    return {"weights": w.tolist(), "mean": mean, "half_width": half, "hands": n}


if __name__ == "__main__":
    main()
