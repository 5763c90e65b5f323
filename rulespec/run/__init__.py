"""Run a compiled ruleset: the hand and game state (engine) and the helpers generated code calls (runtime)."""
