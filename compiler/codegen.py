"""The compile stage: a checked ruleset becomes the source of a Python module.

The module is plain functions and tuples: capture enumeration specialised to
the ruleset's capture kinds, one function per deal check, bonus, event,
scoring category and outcome, with every expression emitted as Python (no
expression tree is walked at run time). The compiler first decides (plan.py),
then one emitter per construct writes its part (emit_*.py), each line with
the span of the YAML that wrote it (writer.py); each emitted expression is
also preceded by a `# file:line` comment for the reader. Only identifiers the
compiler makes up and `repr()` literals reach the source.
"""
from __future__ import annotations

from rulespec.lang.model import Ruleset

from .emit_bonuses import emit_hand_bonuses
from .emit_bid import emit_bid
from .emit_builds import emit_builds
from .emit_captures import emit_captures
from .emit_deal import emit_deal
from .emit_events import emit_events
from .emit_header import emit_header
from .emit_pile import emit_pile
from .emit_scoring import emit_outcomes, emit_scoring
from .plan import build_plan
from .writer import Generated, Writer

# The constructs of a module, in the order they are written.
EMITTERS = (emit_header, emit_deal, emit_hand_bonuses, emit_captures, emit_events, emit_scoring, emit_outcomes, emit_pile,
            emit_builds, emit_bid)


def generate_module(rs: Ruleset) -> Generated:
    """The compiled module of a checked ruleset: its source and its line map."""
    plan = build_plan(rs)
    w = Writer()
    for emit in EMITTERS:
        emit(w, rs, plan)
    return w.result()


def generate(rs: Ruleset) -> str:
    """Python source of the compiled module for a checked ruleset."""
    return generate_module(rs).source
