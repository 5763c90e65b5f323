"""Simulation on the native engine: random and greedy bots (declaring their best bonuses) in generated C, many
hands or games per call.

`choose_engine` decides between the Python and the native engine for a run
(`python`, `native` or `auto`) and says why when it cannot use the native
one; `simulate_native` plays the hands or games and returns the same `Stats`
as bots/simulate.py. Hand i of a native run draws its deal and its bots' choices
from the stream of hand i, game i its deals from the game's stream and each seat's
bot from its own (rulespec/run/stream.py, implemented in the generated C), as the
Python engine does: the same seed plays the same hands on both.
"""
from __future__ import annotations

from rulespec.bots.stats import Stats, add_counts
from rulespec.errors import RulespecError, printable

ENGINES = ("python", "native", "auto")
BATCH = 20_000           # hands per native call (progress is reported between calls)
GAME_BATCH = 2_000       # games per native call (a few hands each; at most native.MAX_BATCH // 1000)
NATIVE_BOTS = ("random", "greedy")


def native_obstacle(compiled, *, bots: list[str]) -> str | None:
    """Why this run cannot use the native engine (a construct, the run's settings), or None if it can.
    ISMCTS bots can: their hands are played by the Python engine, their rollouts in C."""
    if any(b not in NATIVE_BOTS and b.partition(":")[0] != "ismcts" for b in bots):
        return f"the native engine plays {', '.join(NATIVE_BOTS)} and ismcts bots only"
    return None


def choose_engine(engine: str, compiled, *, bots: list[str], err=None,
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
    why = native_obstacle(compiled, bots=bots)
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
    if args.backend != "local":
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
    if native_obstacle(None, bots=bots) is not None:
        return None, None, None
    return nat, n, bots


def simulate_native(nat, *, hands: int | None = None, games: int | None = None, first: int = 0, seed: int = 0,
                    seats: int | None = None, bots: list[str] | None = None, progress=None,
                    distributions: bool = False) -> Stats:
    """Play `hands` hands or `games` games on the native engine, `bots` per seat (random or greedy; None:
    random), from unit `first` of the run on; the statistics of bots/simulate.py. `progress(units)` as
    hands or games finish.

    `distributions`: also count the hand lengths, totals and categories scored that the stats page
    (--html) draws, from every hand's row (slower: a row per hand comes back to Python); without it
    they stay empty, and only the sums, squares, wins and counts the tables print are filled.
    """
    from rulespec.compiler.native import NativeEndless
    meta = nat.meta
    n = seats if seats is not None else meta.default_players
    if n not in meta.player_counts:
        raise RulespecError(f"{meta.id} is played by {', '.join(map(str, meta.player_counts))} players, not {n}")
    if (hands is None) == (games is None):
        raise RulespecError("give a number of hands or a number of games")
    total = games if games is not None else hands
    if total < 1:
        raise RulespecError("the number of hands or games must be at least 1")
    stats = Stats(meta.sides[n], n, tuple(meta.categories) + ("total", "margin"), events=tuple(meta.fired))
    scores = {name: scoring for name, _kind, scoring in meta.fired}     # as Stats counts a playout's record
    done = 0
    while done < total:
        count = min(GAME_BATCH if games is not None else BATCH, total - done)
        try:
            b = nat.run(seed, first + done, count, n, per_hand=distributions, events=True, bots=bots,
                        games=games is not None)
        except NativeEndless as error:
            from rulespec.bots.games import endless
            raise endless(error.game, nat.compiled.module) from None
        if distributions:
            _count_distributions(stats, b.per_hand, meta.categories)
        stats.hands += b.hands
        stats.plays += b.plays
        stats.decisions += b.decisions
        stats.legal_moves += b.legal_moves
        for mine, theirs in ((stats.outcomes, b.outcomes), (stats.sums, b.sums), (stats.squares, b.squares),
                             (stats.captures, b.captures), (stats.sweeps, b.sweeps)):
            add_counts(mine, theirs)
        stats.hand_wins = [a + w for a, w in zip(stats.hand_wins, b.hand_wins)]
        for key, v in b.fired.items():
            stats.fired[key] = stats.fired.get(key, 0) + v
            stats.fired_hands[key] = stats.fired_hands.get(key, 0) + b.fired_hands.get(key, 0)
            stats.fired_points[key] = stats.fired_points.get(key, 0) + \
                (b.fired_points.get(key, 0) if scores.get(key[1]) else 0)
        if games is not None:
            stats.games += b.games
            stats.game_hands += b.game_hands
            stats.game_wins = [a + w for a, w in zip(stats.game_wins, b.game_wins)]
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
