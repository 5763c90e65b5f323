"""Adapters to the game-AI frameworks: PettingZoo, Gymnasium, OpenSpiel (the `rl` extra)."""
