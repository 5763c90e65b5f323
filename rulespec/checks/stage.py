"""The check stage's one driver: check.py (options, types, schedules), then lint.py; errors sorted once."""
from __future__ import annotations

from dataclasses import replace

from rulespec.errors import Span, collect, in_order
from rulespec.lang.model import Ruleset
from rulespec.source.rulesets import note_inherited

from .check import MAX_ERRORS, apply_switches, bonus_search, check_types, guards, target_span, with_options  # noqa: F401 - target_span for the compiler
from .lint import lint


def check(rs: Ruleset, options: dict | None = None, options_span: Span | None = None) -> Ruleset:
    """The checked ruleset: a new, frozen one; `rs` is left as it was.

    Every expression is typed and the cross references checked; independent problems are
    all reported, in file and line order (errors in a base file say which ruleset inherited
    them). Lint's warnings are in `.warnings`. Disabled rules are checked too, then dropped.
    """
    typed = with_options(rs, options, options_span)
    errors, schedules = check_types(typed)
    typed = replace(typed, schedules=schedules)
    lint_errors, warnings = lint(typed)
    collect(note_inherited(in_order(errors + lint_errors, rs.files, MAX_ERRORS), rs.files))
    checked = apply_switches(replace(typed, warnings=tuple(warnings)))
    # What would loop until the engine's guards stop it (a deal check that always redeals, a target
    # nothing brings closer), refused here when it is plain; a declaration search too long to finish.
    collect(note_inherited(guards(checked) + bonus_search(checked), rs.files))
    return checked


def errors_beside_syntax(rs: Ruleset, options: dict | None = None) -> list:
    """The type errors of the expressions that parsed, in a ruleset some of whose expressions did not
    (model.build's `parsed_beside`): reported with the syntax errors, so that fixing one typo does not
    reveal the next problem only on the following run. Option values that do not resolve: none."""
    from rulespec.errors import RulespecError
    try:
        typed = with_options(rs, options)
    except RulespecError:
        return []
    return check_types(typed)[0]
