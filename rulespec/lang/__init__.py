"""The language: decks, the expression parser and type checker, the typed ruleset model, expressions in words."""
