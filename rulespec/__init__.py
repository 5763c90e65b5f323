"""rulespec: rule specifications for the Italian fishing card games, compiled into fast engines.

The public API (imported on first use, so `import rulespec` stays cheap):

- `rulespec.compile(ruleset, **options)` -> `Rules` (`new_hand()`, `new_game()`)
- `rulespec.Hand`, `rulespec.Game`, `rulespec.Declaration`, `rulespec.Event`, `rulespec.DealSource`,
  `rulespec.ExplicitRound` (a round dealt as given, for `DealSource(rounds=[...])`), `rulespec.GameState`
  (the game around a hand: the totals before it, the points carried into it)
- `rulespec.RulespecError`, `rulespec.IllegalMove`
- `rulespec.CompiledRules`: the typed Protocol of a compiled ruleset module
"""
TYPE_CHECKING = False            # typing's flag, without importing typing (a type checker takes it as True)

__version__ = "0.1.0"

# name -> module that defines it
_LAZY = {
    "compile": "rulespec.api",
    "Rules": "rulespec.api",
    "Hand": "rulespec.run.engine",
    "Game": "rulespec.run.engine",
    "Declaration": "rulespec.run.engine",
    "Event": "rulespec.run.engine",
    "DealSource": "rulespec.run.engine",
    "ExplicitRound": "rulespec.run.engine",
    "GameState": "rulespec.run.engine",
    "IllegalMove": "rulespec.run.engine",
    "RulespecError": "rulespec.errors",
    "CompiledRules": "rulespec.run.protocol",
}

__all__ = sorted(_LAZY)

if TYPE_CHECKING:
    from rulespec.api import Rules, compile  # noqa: A004
    from rulespec.errors import RulespecError
    from rulespec.run.engine import DealSource, Declaration, Event, ExplicitRound, Game, GameState, Hand, IllegalMove
    from rulespec.run.protocol import CompiledRules

del TYPE_CHECKING                     # not a public name (dir(rulespec) lists the API)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rulespec' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value          # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    """The public API and the module's dunders (not its subpackages, nor names set by import machinery)."""
    return sorted({name for name in globals() if name.startswith("__")} | set(_LAZY))
