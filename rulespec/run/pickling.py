"""Pickling and deep-copying states that hold a compiled ruleset module.

A module cannot be pickled, so a Hand or a Game stores how to compile its
ruleset again instead: the ruleset's reference (a shipped id, or an absolute
path) and its option values, which compiler/build.py writes on every module
as `__rulespec_ref__`. Loading compiles it again, which hits the compile
cache when the same process compiled it before, so a deep copy shares the
original's module.
"""
from __future__ import annotations

TYPE_CHECKING = False            # typing's flag without importing typing (rulespec/run/records.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.errors import RulespecError


class RulesRef(NamedTuple):
    """A compiled ruleset as a pickle stores it: reference and option values."""

    ref: str
    options: dict

    def load(self):
        """The compiled module (from the compile cache when possible)."""
        # Imported here: the engine runs compiled modules and never needs the compiler otherwise.
        from rulespec.compiler.build import compile_ruleset
        return compile_ruleset(self.ref, self.options or None).module


def rules_ref(rules) -> RulesRef:
    """How to compile `rules` again; RulespecError for a module not made by the compiler."""
    try:
        ref, options = rules.__rulespec_ref__
    except AttributeError:
        raise RulespecError(f"cannot pickle a state of ruleset module {getattr(rules, '__name__', rules)!r}: "
                            f"it was not made by rulespec's compiler") from None
    return RulesRef(ref, dict(options))


def state_without_rules(state: dict) -> dict:
    """A copy of an object's __dict__ with its `rules` module replaced by a RulesRef."""
    out = dict(state)
    out["rules"] = rules_ref(state["rules"])
    return out


def state_with_rules(state: dict) -> dict:
    """The inverse of state_without_rules: the RulesRef compiled back into a module."""
    out = dict(state)
    if isinstance(out.get("rules"), RulesRef):
        out["rules"] = out["rules"].load()
    return out
