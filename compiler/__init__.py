"""The rulespec compiler: a checked ruleset becomes a Python module of plain functions."""
