"""A Stable-Baselines3 policy saved as a rulespec policy file (bots/saved.py, kind mlp), to play as `policy:FILE`.

    from rulespec.interop.policies import export_sb3
    export_sb3(model, "agent.npz", ruleset="cirulla", seats=2)    # a MaskablePPO (or PPO) with an MlpPolicy

The model must have been trained on the observation array alone (a Box, as
`FlatObservation` gives it) with the default shared flatten features
extractor: the file holds the actor's layers (mlp_extractor.policy_net, then
action_net) and their activation, nothing else (no value network, no
optimiser, no pickle), so the agent plays by the argmax of its logits over the
legal actions.
"""
from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np

from rulespec.bots.saved import ACTIVATIONS
from rulespec.interop.mlp import write_mlp


class FlatObservation(gym.ObservationWrapper):
    """A rulespec Gymnasium environment seen through its observation array alone; `action_masks()` still
    gives the mask (for sb3-contrib's MaskablePPO, which asks the environment for it)."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation):
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def export_sb3(model, path: str | Path, *, ruleset: str, seats: int) -> None:
    """Write the actor of an SB3 model with an MLP policy as an .npz policy file for `ruleset` at `seats`."""
    import torch.nn as nn
    policy = model.policy
    layers, activation = [], None
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append((module.weight.detach().cpu().numpy(), module.bias.detach().cpu().numpy()))
        else:
            name = type(module).__name__.lower()
            if name not in ACTIVATIONS or activation not in (None, name):
                raise ValueError(f"the policy network's layers are Linear with one activation of "
                                 f"{', '.join(ACTIVATIONS)}, found {type(module).__name__}")
            activation = name
    head = policy.action_net
    layers.append((head.weight.detach().cpu().numpy(), head.bias.detach().cpu().numpy()))
    write_mlp(layers, path, ruleset=ruleset, seats=seats, activation=activation or "tanh")
