"""What the generated Python playout (playout.py) cannot play: the constructs it refuses, located.

`Hand` (run/engine.py) is the reference and plays every construct of the language. The playout is an
acceleration kept in lockstep with it; a construct it does not play is listed here as (what, where),
the way codegen_c.unsupported lists the native back end's. A refused ruleset is played by `Hand`
(simulate, ISMCTS rollouts), the same moves from the same streams, only slower.
"""
from __future__ import annotations

from rulespec.checks import running
from rulespec.errors import Span
from rulespec.lang.model import Ruleset

# Each check takes a checked Ruleset and yields (what, span) for every construct it refuses.
# running.constructs: the game's running state (scores so far, points as made, deal-time outcomes, carried
# points, the events, dealer and ties in scoring), which the playout's hand does not keep.
CHECKS: tuple = (running.constructs,)


def playout_unsupported(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every construct of a checked ruleset the Python playout does not play: (what, where)."""
    return [found for check in CHECKS for found in check(rs)]
