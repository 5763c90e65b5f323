"""Simulation on the native engine: random bots (declaring their best bonuses) in generated C, many hands per call.

`choose_engine` decides between the Python and the native engine for a run
(`python`, `native` or `auto`) and says why when it cannot use the native
one; `simulate_native` plays the hands and returns the same `Stats` as
bots/simulate.py. Hand i of a native run draws its deal and its bots' choices
from the stream of hand i (rulespec/run/stream.py, implemented in the generated C), as the Python
engine does: the same seed plays the same hands on both.
"""
from __future__ import annotations

from rulespec.bots.simulate import Stats
from rulespec.errors import RulespecError, printable

ENGINES = ("python", "native", "auto")
BATCH = 20_000           # hands per native call (progress is reported between calls)


def native_obstacle(compiled, *, bots: list[str], games: int | None, backend: str) -> str | None:
    """Why this run cannot use the native engine (a construct, the run's settings), or None if it can."""
    if games is not None:
        return "the native engine plays independent hands (--hands), not whole games (--games)"
    if any(b != "random" for b in bots):
        return "the native engine plays random bots only (--bots random)"
    if backend != "local":
        return f"the native engine runs in this process (--backend {backend} is for the Python engine)"
    return None


def choose_engine(engine: str, compiled, *, bots: list[str], games: int | None, backend: str, err=None,
                  ref=None, options=None, root=None, progress=None):
    """The loaded native playouts when the run should use them, else None (auto: said once on `err`).

    `engine="native"` raises a RulespecError naming the obstacle (no compiler, an unsupported
    construct with its file:line, a failed build, or the run's settings); `auto` falls back to Python
    instead, whatever went wrong building or loading the library. `progress()` is called while the C compiles.
    """
    if engine not in ENGINES:
        raise RulespecError(f"unknown engine '{engine}' ({', '.join(ENGINES)})")
    if engine == "python":
        return None
    from rulespec.compiler import native
    why = native_obstacle(compiled, bots=bots, games=games, backend=backend)
    try:
        if why is not None:
            raise RulespecError(why)
        return native.load(compiled, ref, options, root, progress=progress)
    except (RulespecError, OSError, AttributeError) as error:
        # OSError: a library the loader refuses; AttributeError: one without a function this version calls
        if not isinstance(error, RulespecError):
            error = native.NativeUnavailable(f"the native library does not load: {error}")
        if engine == "native":
            raise error from None
        if err is not None:
            first = error.all[0]
            # one line: a compiler's messages (the lines after the first) are --engine native's to show
            reason = printable(f"{first.span}: " if first.span else "") + printable(first.message.split("\n")[0]) \
                + (f" (and {len(error.others)} more)" if error.others else "")
            print(f"rulespec: using the Python engine: {reason}", file=err)
        return None


def from_manifest(args, options):
    """(native playouts, seats, bots) for a command line the cache's manifest can serve, else (None, None, None).

    Anything unusual (games, other bots, a bad seat count, a changed file) takes the ordinary path,
    which compiles the ruleset and reports problems with their place.
    """
    from rulespec.bots.registry import parse_bots
    from rulespec.compiler import native
    if args.games is not None or args.backend != "local":
        return None, None, None
    nat = native.quick_load(args.ruleset, options, args.root)
    if nat is None:
        return None, None, None
    meta = nat.meta
    n = args.seats if args.seats is not None else meta.default_players
    if n not in meta.player_counts:
        return None, None, None
    try:
        bots = parse_bots(args.bots, n, meta.sides[n])
    except RulespecError:
        return None, None, None
    if native_obstacle(None, bots=bots, games=None, backend=args.backend) is not None:
        return None, None, None
    return nat, n, bots


def simulate_native(nat, *, hands: int, seed: int = 0, seats: int | None = None, progress=None,
                    distributions: bool = False) -> Stats:
    """Play `hands` hands on the native engine; the statistics of bots/simulate.py.

    `distributions`: also count the hand lengths, totals and categories scored that the stats page
    (--html) draws, from every hand's row (slower: a row per hand comes back to Python); without it
    they stay empty, and only the sums, squares, wins and counts the tables print are filled.
    """
    meta = nat.meta
    n = seats if seats is not None else meta.default_players
    if n not in meta.player_counts:
        raise RulespecError(f"{meta.id} is played by {', '.join(map(str, meta.player_counts))} players, not {n}")
    if hands < 1:
        raise RulespecError("the number of hands or games must be at least 1")
    stats = Stats(meta.sides[n], n, tuple(meta.categories) + ("total", "margin"), events=tuple(meta.fired))
    scores = {name: scoring for name, _kind, scoring in meta.fired}     # as Stats counts a playout's record
    done = 0
    while done < hands:
        count = min(BATCH, hands - done)
        b = nat.run(seed, done, count, n, per_hand=distributions, events=True)
        if distributions:
            _count_distributions(stats, b.per_hand, meta.categories)
        stats.hands += b.hands
        stats.plays += b.plays
        stats.decisions += b.decisions
        stats.legal_moves += b.legal_moves
        for name, k in b.outcomes.items():
            stats.outcomes[name] = stats.outcomes.get(name, 0) + k
        for key, v in b.sums.items():
            stats.sums[key] = stats.sums.get(key, 0) + v
        for key, v in b.squares.items():
            stats.squares[key] = stats.squares.get(key, 0) + v
        stats.hand_wins = [a + w for a, w in zip(stats.hand_wins, b.hand_wins)]
        for key, v in b.fired.items():
            stats.fired[key] = stats.fired.get(key, 0) + v
            stats.fired_hands[key] = stats.fired_hands.get(key, 0) + b.fired_hands.get(key, 0)
            stats.fired_points[key] = stats.fired_points.get(key, 0) + \
                (b.fired_points.get(key, 0) if scores.get(key[1]) else 0)
        for mine, theirs in ((stats.captures, b.captures), (stats.sweeps, b.sweeps)):
            for key, v in theirs.items():
                mine[key] = mine.get(key, 0) + v
        done += count
        if progress:
            progress(count)
    return stats


def _count_distributions(stats: Stats, rows: list[dict], categories: list[str]) -> None:
    """Add native hands' rows to the distributions as Stats.add_hand counts them: every hand's length;
    for a hand with plays, each side's total and the categories in which it scored (not 0)."""
    for row in rows:
        plays = row["plays"]
        stats.lengths[plays] = stats.lengths.get(plays, 0) + 1
        if plays == 0:
            continue
        for side, scores in enumerate(row["scores"]):
            key = (side, scores["total"])
            stats.totals[key] = stats.totals.get(key, 0) + 1
            for cat in categories:
                if scores[cat]:
                    stats.scored[(side, cat)] = stats.scored.get((side, cat), 0) + 1
