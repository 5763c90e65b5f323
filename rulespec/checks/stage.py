"""The check stage's one driver: check.py (options, types, schedules), then lint.py; errors sorted once."""
from __future__ import annotations

from rulespec.errors import Span, collect
from rulespec.lang.model import Ruleset
from rulespec.source.rulesets import note_inherited

from .check import apply_switches, check_types, in_order
from .lint import lint


def check(rs: Ruleset, options: dict | None = None, options_span: Span | None = None) -> Ruleset:
    """Type-check every expression and the ruleset's cross references; returns it annotated.

    Independent problems are all reported, in file and line order (errors in a base file say
    which ruleset inherited them); lint's warnings are left in `rs.warnings`. Disabled rules
    are checked too, then dropped.
    """
    errors = check_types(rs, options, options_span)
    lint_errors, rs.warnings = lint(rs)
    collect(note_inherited(in_order(rs, errors + lint_errors), rs.files))
    apply_switches(rs)
    return rs
