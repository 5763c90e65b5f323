"""Bots by name: `random`, `greedy`, `ismcts[:BUDGET]`, one per seat or side from a command line's `--bots`."""
from __future__ import annotations

import random
import re

from rulespec.errors import RulespecError

# name -> (module, class): imported when a bot is made, so that naming bots (a native run's --bots
# random) never imports the Python engine the bots play on.
BOTS = {"random": ("rulespec.bots.random_bot", "RandomBot"), "greedy": ("rulespec.bots.greedy", "GreedyBot"),
        "ismcts": ("rulespec.bots.ismcts", "ISMCTSBot")}
MAX_BUDGET = 1_000_000   # rollouts per decision: beyond it a single move takes hours


def check_spec(spec: str) -> tuple[str, int | None]:
    """(name, budget or None) of a bot spec such as `ismcts:200`; a RulespecError for a bad one."""
    name, _, arg = spec.partition(":")
    if name not in BOTS:
        raise RulespecError(f"unknown bot '{name}' (bots: {', '.join(BOTS)})")
    if not arg:
        return name, None
    # ASCII digits only: str.isdigit() accepts '²' and other digits int() refuses.
    if name != "ismcts" or not re.fullmatch(r"[0-9]{1,%d}" % len(str(MAX_BUDGET)), arg) \
            or not 1 <= int(arg) <= MAX_BUDGET:
        raise RulespecError(f"bot '{spec}': only ismcts takes a budget, a number of rollouts from 1 to "
                            f"{MAX_BUDGET} (ismcts:200)")
    return name, int(arg)


def make_bot(spec: str, rng: random.Random):
    """A bot from its name, with an optional budget after a colon (`ismcts:200`)."""
    import importlib
    name, budget = check_spec(spec)
    module, cls = BOTS[name]
    bot = getattr(importlib.import_module(module), cls)
    return bot(rng) if budget is None else bot(rng, budget)


def parse_bots(text: str, seats: int, sides: int | None = None, person: int | None = None) -> list[str]:
    """Bot specs per seat from `random` (every seat), `random,greedy,random,ismcts` (one per seat) or,
    with `sides` given, one per side (`ismcts,random`: seat i gets the bot of side i mod sides).

    With `person` (the seat a person plays), one per other seat in seat order is accepted too; the
    person's seat gets the first of them (a stand-in, never asked to play)."""
    specs = [s.strip() for s in text.split(",")]
    if len(specs) == 1 or (sides and len(specs) == sides):
        specs = [specs[seat % len(specs)] for seat in range(seats)]
    elif person is not None and len(specs) == seats - 1:
        specs.insert(person, specs[0])
    if len(specs) != seats:
        per_side = f", one per side ({sides})" if sides and sides != seats else ""
        others = f", one per other seat ({seats - 1})" if person is not None else ""
        raise RulespecError(f"--bots names {len(specs)} bots for {seats} seats (give one{per_side}{others}, "
                            f"or one per seat)")
    for spec in specs:
        check_spec(spec)                           # reports an unknown name before any work starts
    return specs
