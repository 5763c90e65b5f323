"""For authors: the rulebook (explain), differences between rulesets (diff), starter variants (scaffold)."""
