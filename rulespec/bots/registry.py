"""Bots by name: `random`, `greedy`, `ismcts[:BUDGET]`, `policy:FILE` (a trained agent's file: bots/saved.py)
or `policy:NAME` (a policy shipped in rulespec/policies: bots/shipped.py), one per seat or side from a command
line's `--bots`."""
from __future__ import annotations

from rulespec.errors import RulespecError
from rulespec.source.option_pairs import ascii_digits

# name -> (module, class): imported when a bot is made, so that naming bots (a native run's --bots
# random) never imports the Python engine the bots play on.
BOTS = {"random": ("rulespec.bots.random_bot", "RandomBot"), "greedy": ("rulespec.bots.greedy", "GreedyBot"),
        "ismcts": ("rulespec.bots.ismcts", "ISMCTSBot")}
MAX_BUDGET = 1_000_000   # rollouts per decision: beyond it a single move takes hours


def check_spec(spec: str) -> tuple[str, int | None]:
    """(name, budget or None) of a bot spec such as `ismcts:200` or `policy:FILE`; a RulespecError for a bad
    one (a policy file is read, and checked, by `make_bot`)."""
    name, _, arg = spec.partition(":")
    if name == "policy":
        if not arg:
            raise RulespecError("bot 'policy' names its file: policy:FILE (a .json or .npz policy file) or "
                                "policy:NAME (a shipped policy)")
        return name, None
    if name not in BOTS:
        raise RulespecError(f"unknown bot '{name}' (bots: {', '.join(BOTS)}, policy:FILE)")
    if not arg:
        return name, None
    # ASCII digits only: str.isdigit() accepts '²' and other digits int() refuses.
    if name != "ismcts" or not ascii_digits(arg, len(str(MAX_BUDGET))) \
            or not 1 <= int(arg) <= MAX_BUDGET:
        raise RulespecError(f"bot '{spec}': only ismcts takes a budget, a number of rollouts from 1 to "
                            f"{MAX_BUDGET} (ismcts:200)")
    return name, int(arg)


def make_bot(spec: str, rng):
    """A bot from its name, with an optional budget after a colon (`ismcts:200`), or `policy:FILE` or
    `policy:NAME` (a file of that name first, else a shipped policy: bots/shipped.py)."""
    import importlib
    name, budget = check_spec(spec)
    if name == "policy":
        return _policy(spec.partition(":")[2])
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
        # reports an unknown name, or a policy file that cannot be played, before any work starts
        if check_spec(spec)[0] == "policy":
            _policy(spec.partition(":")[2])
    return specs


_loaded: dict = {}      # (path, size, mtime) -> the bot read from it: a file is read once per process


def _policy(path: str):
    """The bot of a policy file (bots/saved.py), or else of the shipped policy so named, read once per version
    of the file."""
    import os

    from rulespec.bots.saved import _fail, load_policy
    from rulespec.bots.shipped import is_name, shipped_path
    if is_name(path) and not os.path.lexists(path):
        path = shipped_path(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _fail(path, f"cannot read the policy file ({exc.strerror or exc})") from None
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if key not in _loaded:
        _loaded[key] = load_policy(path)
    return _loaded[key]
