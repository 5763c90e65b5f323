"""Pickling and deep-copying states that hold a compiled ruleset module.

A module cannot be pickled, so a Hand or a Game stores how to compile its
ruleset again instead: the ruleset's reference (a shipped id, or an absolute
path) and its option values, which compiler/build.py writes on every module
as `__rulespec_ref__`, and the digest of the ruleset's content, written as
`__rulespec_content__` (the SHA-256 of every file of its `extends:` chain).
Loading compiles it again, which hits the compile cache when the same
process compiled it before, so a deep copy shares the original's module.
A reference leads to whatever its path holds now: if that is not the
content the state was made with (the file was edited, say to a 20-card
deck), the state would offer moves the rules refuse, so loading it is an
error that says so.
"""
from __future__ import annotations

TYPE_CHECKING = False            # typing's flag without importing typing (rulespec/run/records.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.errors import RulespecError


class RulesRef(NamedTuple):
    """A compiled ruleset as a pickle stores it: reference, option values and the digest of its content
    (None in a pickle made before rulespec stored it: such a state is loaded unchecked)."""

    ref: str
    options: dict
    content: str | None = None

    def load(self):
        """The compiled module (from the compile cache when possible); RulespecError if the ruleset's files
        no longer hold the content the state was made with."""
        # Imported here: the engine runs compiled modules and never needs the compiler otherwise.
        from rulespec.compiler.build import compile_ruleset
        module = compile_ruleset(self.ref, self.options or None).module
        check_content(module, self.content, self.ref)
        return module


def check_content(module, content: str | None, ref) -> None:
    """RulespecError unless `module` was compiled from the content a pickled state recorded (None: not
    recorded, nothing to check)."""
    now = getattr(module, "__rulespec_content__", None)
    if content is not None and now != content:
        raise RulespecError(f"cannot load this pickled state: it was made with ruleset {ref} as its files were "
                            f"then (content {content[:12]}), and they hold other rules now (content "
                            f"{str(now)[:12]}); its moves and scores would not be these rules'")


def rules_ref(rules) -> RulesRef:
    """How to compile `rules` again; RulespecError for a module not made by the compiler."""
    try:
        ref, options = rules.__rulespec_ref__
    except AttributeError:
        raise RulespecError(f"cannot pickle a state of ruleset module {getattr(rules, '__name__', rules)!r}: "
                            f"it was not made by rulespec's compiler") from None
    return RulesRef(ref, dict(options), getattr(rules, "__rulespec_content__", None))


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
