"""Bots (random, greedy, ISMCTS) and simulation over many hands."""
