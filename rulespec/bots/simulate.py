"""Simulate many hands or games with bots per seat (in parallel when the run is long), and summarise them.

Every hand (or game) `i` of a run draws its cards and its bots' choices from
random streams derived from (seed, i) alone (rulespec/run/stream.py, the scheme the native engine
draws from too: a hand: one stream, its deal first, then every seat's choices in the order they are
made; a game: one stream for its deals, one per seat for the bots), and the statistics are integer
sums, so a run gives the same figures whatever the number of workers or the
backend (local processes, or Ray with `backend="ray"`).
"""
from __future__ import annotations

import gc
import math
import os

from rulespec.bots.games import MAX_HANDS_PER_GAME, endless as _endless
from rulespec.bots.registry import parse_bots
from rulespec.bots.stats import PlayoutResult, Stats, half_width95, wilson  # noqa: F401 - the API simulate has had
from rulespec.errors import RulespecError
from rulespec.run.stream import Stream

# The Python engine (run/engine.py, bots/policy.py, the bots) is imported by the functions that play on it:
# a native run counts its hands in Stats and prints them with the functions here, without loading it.


def _stats_for(rules, seats: int) -> Stats:
    return Stats(rules.SIDES[seats], seats, tuple(rules.CATEGORIES) + ("total", "margin"), events=rules.EVENTS)


def _hand_bots(job: dict, game: int, rng: Stream | None = None, rollouts=None) -> list:
    """The bots of a hand on `rng` (its one stream), else of game `game`, one stream per seat;
    `rollouts`: a loaded native engine the ISMCTS bots play their rollouts on."""
    from rulespec.bots.registry import make_bot
    if rng is not None:
        bots = [make_bot(spec, rng) for spec in job["bots"]]
    else:
        bots = [make_bot(spec, rng) for spec, rng in zip(job["bots"], _bot_rngs(job, game))]
    if rollouts is not None:
        for bot in bots:
            if hasattr(bot, "native"):
                bot.native = rollouts
    return bots


# Bots the generated playouts play as the bots themselves would (same moves from the same streams).
PLAYOUT_BOTS = {"random": 0, "greedy": 1}


def _playout_job(job: dict, compiled):
    """The playout function and per-seat policies for a job whose every bot a playout can play, else None."""
    if not job.get("playout", True) or any(spec not in PLAYOUT_BOTS for spec in job["bots"]):
        return None
    fn = getattr(compiled, "_playout", None)     # loaded already (a disk cache hit): nothing to import
    if fn is None:
        from rulespec.compiler.playout import playout_for
        fn = playout_for(compiled)
        if fn is None:                           # a construct the playout refuses (compiler/support.py)
            return None
    return fn, [PLAYOUT_BOTS[spec] for spec in job["bots"]], compiled


def _located(exc: Exception, compiled) -> Exception:
    """A rule's failure inside a playout as the located RuleFailed `Hand` would raise; else `exc` itself."""
    from rulespec.compiler.playout import failure_span
    from rulespec.run.engine import RuleFailed, rule_failure
    failure = rule_failure(exc, compiled.module)         # in one of the compiled module's functions
    if failure is not exc:
        return failure
    span = failure_span(compiled, exc)                  # in a rule the playout evaluates inline
    if span is None:
        return exc
    reason = "division by zero" if isinstance(exc, ZeroDivisionError) else f"{type(exc).__name__}: {exc}"
    return RuleFailed(f"this rule failed: {reason}", span)


def _bot_rngs(job: dict, game: int) -> list:
    """The bots' random streams through game `game`, one per seat."""
    return [Stream.for_game_bot(job["seed"], game, seat) for seat in range(len(job["bots"]))]


def _game(rules, n: int, seed: int, i: int) -> Game:
    """Game i of a run: its deals from its own stream, the dealer rotating from seat i % n."""
    from rulespec.run.engine import Game
    game = Game(rules, n, seed=0, dealer=i % n)
    game.rng = Stream.for_game(seed, i)      # Game's own stream is random.Random(seed): this run's is a Stream
    return game


def _play_fast(fast, rules, n: int, dealer: int, rng: Stream, rngs: list, stats: Stats) -> PlayoutResult:
    fn, policies, _compiled = fast
    order = list(range(rules.N_CARDS))
    rng.shuffle(order)                    # the order shuffled_source() deals from this stream
    record = [] if stats.events is not None else None     # the moves and events, counted per event
    try:
        result = PlayoutResult(rules, fn(n, dealer, order, rng, policies, rngs, True, record), record)
    except RulespecError:
        raise
    except Exception as exc:                 # a rule failed: located at its YAML as Hand locates it
        failure = _located(exc, fast[2])
        if failure is exc:
            raise
        raise failure from exc
    stats.decisions += result.turns
    stats.legal_moves += result.moves
    stats.add_hand(result)
    return result


def _play(hand, bots: list, stats: Stats) -> None:
    from rulespec.bots.policy import play_out
    captures = [0]

    def on_turn(h, seat):
        stats.decisions += 1
        # counted without the list where it is refused (Hand.count_moves; none where not even counted)
        stats.legal_moves += h.count_moves() or 0

    def on_play(seat, decls, card, capture, events):
        captures[0] += capture != 0
    play_out(hand, bots, on_play=on_play, on_turn=on_turn)
    stats.add_hand(hand, captures[0])


# The cyclic garbage collector's youngest generation is collected every this many allocations (not 700)
# while hands are played: a hand allocates thousands of short-lived objects that reference counting
# frees, and at the default threshold the collector took about 4% of a run's CPU finding no cycle
# (bench/README.md, "Issue 12, third pass"). Cycles are still collected, later.
GC_GENERATION0 = 10_000


class _fewer_collections:  # noqa: N801 - used as a function; a class needs no contextlib at start-up
    """Raise the collector's first threshold to GC_GENERATION0 (if lower) for a block, then put it back."""

    def __enter__(self) -> None:
        self.old = old = gc.get_threshold()
        gc.set_threshold(max(old[0], GC_GENERATION0), *old[1:])

    def __exit__(self, *exc) -> None:
        gc.set_threshold(*self.old)


def run_chunk(job: dict, start: int, stop: int) -> Stats:
    """Play hands (or games) start..stop-1 of a job; the unit of work of every backend."""
    with _fewer_collections():
        return _play_chunk(job, start, stop)


def _play_chunk(job: dict, start: int, stop: int) -> Stats:
    from rulespec.compiler.build import compile_ruleset
    from rulespec.run.engine import Hand, shuffled_source
    compiled = compile_ruleset(job["ref"], job["options"], root=job.get("root"), disk=True)
    rules = compiled.module
    n = job["seats"]
    if job.get("native"):
        return _native_chunk(job, compiled, start, stop)
    rollouts = None
    if job.get("rollouts"):
        from rulespec.compiler import native
        rollouts = native.load(compiled)
    stats = _stats_for(rules, n)
    fast = _playout_job(job, compiled)
    for i in range(start, stop):
        if fast is not None:
            if job["games"]:
                game = _game(rules, n, job["seed"], i)
                rngs = _bot_rngs(job, i)
                while not game.is_over:
                    if game.hands_played >= MAX_HANDS_PER_GAME:
                        raise _endless(i, rules)
                    game.hand = _play_fast(fast, rules, n, game.dealer, game.rng, rngs, stats)
                    game.finish_hand()
                stats.add_game(game)
            else:
                rng = Stream.for_hand(job["seed"], i)
                _play_fast(fast, rules, n, i % n, rng, [rng] * n, stats)
        elif job["games"]:
            game = _game(rules, n, job["seed"], i)
            bots = _hand_bots(job, i, rollouts=rollouts)
            while not game.is_over:
                if game.hands_played >= MAX_HANDS_PER_GAME:
                    raise _endless(i, rules)
                _play(game.new_hand(), bots, stats)
                game.finish_hand()
            stats.add_game(game)
        else:
            rng = Stream.for_hand(job["seed"], i)
            _play(Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng)), _hand_bots(job, i, rng, rollouts),
                  stats)
    return stats


def _native_chunk(job: dict, compiled, start: int, stop: int) -> Stats:
    """Hands (or games) start..stop-1 of a job on the native engine, its library loaded from the cache (built
    there by the process that started the run): the figures of the same units played in one process."""
    from rulespec.bots.native_sim import simulate_native
    from rulespec.compiler import native
    nat = native.load(compiled)
    count = {"games" if job["games"] else "hands": stop - start}
    return simulate_native(nat, first=start, seed=job["seed"], seats=job["seats"], bots=job["bots"],
                           distributions=job.get("distributions", False), **count)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                  # not on Linux
        return os.cpu_count() or 1


def check_workers(workers: int | None) -> None:
    """Refuse a number of processes below one (None: chosen by run_chunks)."""
    if workers is not None and workers < 1:
        raise RulespecError(f"--workers must be at least 1, not {workers}")


def _chunks(total: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, -(-total // (workers * 16)))      # exact: a float quotient overflows past 10**308
    return [(a, min(a + size, total)) for a in range(0, total, size)]


# A run left to choose its processes (no `workers`) starts in this one and spreads what is left over
# every core only when that is predicted to take more CPU time than this. Worker processes never save
# CPU: they cost 10-20% more of it (fork, pool, pickled results, two cores contending; measured
# +0.2 s on 4000 hands of random bots, +0.4 s on 20,000: bench/README.md, "Issue 12, third pass").
# They save wall time, which is worth that on a long run only.
PARALLEL_SECONDS = 5.0


def worth_spreading(done: int, seconds: float, left: int, cores: int) -> bool:
    """Whether `left` more units (hands or games), after `done` took `seconds` of CPU here, should go to
    `cores` processes: only when there is more than one core and the rest would take over PARALLEL_SECONDS."""
    if cores < 2 or left < 2 or done < 1:
        return False
    return seconds / done * left > PARALLEL_SECONDS


def _cpu_seconds() -> float:
    """This process's CPU time (user and system) so far."""
    import time
    return time.process_time()


class Replayed:
    """A progress callback for a run that may be played again from its start (auto's fallback to the Python
    engine after a hand passed one of the C's fixed lists): after `again()`, the units the first run
    already reported are not reported a second time, so that a bar counts every unit once."""

    def __init__(self, progress) -> None:
        self.progress, self.reported, self.owed = progress, 0, 0

    def __call__(self, k: int) -> None:
        skip = min(k, self.owed)
        self.owed -= skip
        if k > skip:
            self.reported += k - skip
            self.progress(k - skip)

    def again(self) -> None:
        """The run starts again: its first units, as many as were reported, were counted already."""
        self.owed = self.reported


def replayed(progress) -> Replayed | None:
    """`progress` wrapped in a Replayed (None stays None)."""
    return Replayed(progress) if progress is not None else None


def run_chunks(job: dict, chunks: list[tuple[int, int]], workers: int | None, progress, work=None) -> tuple[list, int]:
    """Run `work(job, a, b)` (default: run_chunk) for every chunk; (the parts in chunk order, processes used).

    `workers` given: that many processes (1: this one). None: this process plays the first chunk, then
    the rest in this process too unless `worth_spreading` says the rest deserves every core. The parts
    are the same either way (every unit draws from its own streams; they are merged in chunk order).
    """
    work = work or run_chunk
    parts: list = []

    def here(a: int, b: int) -> None:
        parts.append(work(job, a, b))
        if progress:
            progress(b - a)

    if workers is None:
        cores = default_workers()
        start = _cpu_seconds()
        here(*chunks[0])
        done, left = chunks[0][1] - chunks[0][0], chunks[-1][1] - chunks[0][1]
        if not worth_spreading(done, _cpu_seconds() - start, left, cores):
            for a, b in chunks[1:]:
                here(a, b)
            return parts, 1
        return parts + _run_processes(job, chunks[1:], cores, progress, work), min(cores, len(chunks) - 1)
    if workers == 1 or len(chunks) == 1:
        for a, b in chunks:
            here(a, b)
        return parts, 1
    return _run_processes(job, chunks, workers, progress, work), min(workers, len(chunks))


def simulate(ref, *, options: dict | None = None, hands: int | None = None, games: int | None = None,
             seed: int = 0, seats: int | None = None, bots: str = "random", workers: int | None = None,
             backend: str = "local", address: str | None = None, progress=None, playout: bool = True,
             root: str | None = None, native: bool = False, distributions: bool = False) -> Stats:
    """Play `hands` hands or `games` games of a ruleset (an id, a path or a Compiled); reproducible per seed.

    Random and greedy bots are played by the ruleset's generated whole-hand playout (compiler/playout.py),
    which makes the same moves as the bots on `Hand` from the same streams; `playout=False` plays every
    hand through `Hand` and the bot objects instead (the figures are the same).

    `bots`: one bot for every seat or one per seat (`random,greedy,random,ismcts:200`).
    `workers`: processes; by default one, or every core when the run is long enough to gain from them
    (`run_chunks`); `backend="ray"` sends the work to a Ray cluster at `address` (None: a local one).
    `progress(units)` is called as hands or games finish. The statistics' `workers` says how many
    processes played.
    `root`: every ruleset file read must lie under this folder (rulesets from strangers).
    `native`: play on the native engine (bots/native_sim.py; random and greedy bots), each worker or Ray task
    loading the library this process builds (or finds) in the cache; with ISMCTS bots, the hands are played
    here and the ISMCTS bots' rollouts in C (the same moves). `distributions` as simulate_native's.
    """
    from rulespec.compiler.build import Compiled, compile_ruleset
    if isinstance(ref, Compiled):
        options = options if options is not None else (dict(ref.ruleset.option_values) or None)
        ref = str(ref.ruleset.files[0])
    compiled = compile_ruleset(ref, options, root=root, disk=True)
    rules = compiled.module
    n = seats if seats is not None else rules.DEFAULT_SEATS
    if n not in rules.SEATS_ALLOWED:
        raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} "
                            f"players, not {n}")
    if (hands is None) == (games is None):
        raise RulespecError("give a number of hands or a number of games")
    total = games if games is not None else hands
    if total < 1:
        raise RulespecError("the number of hands or games must be at least 1")
    check_workers(workers)
    job = {"ref": str(ref), "options": options, "seats": n, "bots": parse_bots(bots, n, rules.SIDES[n]), "seed": seed,
           "games": games is not None, "playout": playout, "root": None if root is None else str(root),
           "native": False, "rollouts": False, "distributions": distributions}
    if native:
        from rulespec.bots.native_sim import NATIVE_BOTS, native_obstacle
        from rulespec.compiler import native as native_engine
        why = native_obstacle(compiled, bots=job["bots"])
        if why is not None:
            raise RulespecError(why)
        native_engine.load(compiled)      # built here once, before the workers load it from the cache
        job["native" if all(b in NATIVE_BOTS for b in job["bots"]) else "rollouts"] = True
    chunks = _chunks(total, workers or default_workers())
    if backend == "ray":
        parts, used = _run_ray(job, chunks, address, progress), workers or default_workers()
    elif backend != "local":
        raise RulespecError(f"unknown backend '{backend}' (local, ray)")
    else:
        parts, used = run_chunks(job, chunks, workers, progress)
    stats = _stats_for(rules, n)
    for part in parts:
        stats.merge(part)
    stats.workers = used
    return stats


def _run_processes(job: dict, chunks, workers: int, progress, work=None) -> list:
    """Run `work(job, a, b)` (default: run_chunk) for each chunk in a local process pool, in chunk order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    work = work or run_chunk
    # fork (where there is one) shares the compiled ruleset with the workers; the caller's progress
    # display must not run a thread of its own across the fork (cli.py refreshes it by hand).
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    parts: list = [None] * len(chunks)
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=ctx) as pool:
        futures = {pool.submit(work, job, a, b): k for k, (a, b) in enumerate(chunks)}
        for fut in as_completed(futures):
            k = futures[fut]
            parts[k] = fut.result()
            if progress:
                progress(chunks[k][1] - chunks[k][0])
    return parts


def _run_ray(job: dict, chunks, address: str | None, progress) -> list[Stats]:
    try:
        import ray
    except ImportError:
        raise RulespecError("--backend ray needs Ray: pip install 'rulespec[ray]' (in a rulespec checkout: "
                            "pip install '.[ray]')") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        remote = ray.remote(run_chunk)
        pending = {remote.remote(job, a, b): k for k, (a, b) in enumerate(chunks)}
        parts: list[Stats | None] = [None] * len(chunks)
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                k = pending[ref]
                parts[k] = ray.get(ref)
                if progress:
                    progress(chunks[k][1] - chunks[k][0])
        return parts
    finally:
        if started:
            ray.shutdown()


# -- output ----------------------------------------------------------------------
def json_figure(x: float) -> float:
    """A figure for --json: 4 decimals, or 4 significant digits where that keeps more (a rare category's
    mean of 0.000037 is not 0.0)."""
    if x == 0 or not math.isfinite(x):
        return x
    return round(x, max(4, 3 - math.floor(math.log10(abs(x)))))


def to_dict(stats: Stats, **head) -> dict:
    """The statistics as JSON-ready data (`head` first: ruleset, seed, bots, timing...)."""
    r4 = json_figure
    # JSON has no infinity: an interval that cannot be estimated (one hand) is null.
    ci = lambda x: None if math.isinf(x) else r4(x)  # noqa: E731
    doc = dict(head)
    doc.update({
        "hands": stats.hands,
        "games": stats.games or None,
        "mean": {str(s): {c: r4(stats.mean(s, c)) for c in stats.categories} for s in range(stats.sides)},
        "ci95": {str(s): {c: ci(stats.ci95(s, c)) for c in stats.categories} for s in range(stats.sides)},
        "win_rate": {"by": "games" if stats.games else "hands",
                     "side": {str(s): r4(stats.win_rate(s)[0]) for s in range(stats.sides)},
                     "side_interval95": {str(s): [r4(x) for x in stats.win_rate(s)[1:]] for s in range(stats.sides)},
                     "seat": {str(s): r4(stats.win_rate(s % stats.sides)[0]) for s in range(stats.seats)}},
        "hand_wins": stats.hand_wins,
        "game_wins": stats.game_wins if stats.games else None,
        "mean_hands_per_game": r4(stats.game_hands / stats.games) if stats.games else None,
        "mean_plays_per_hand": r4(stats.mean_plays),
        "mean_legal_moves": r4(stats.mean_legal_moves),
        "outcomes": dict(sorted(stats.outcomes.items())),
    })
    doc["captures_per_hand"] = ({str(k): v for k, v in sorted(stats.captures.items())}
                                if stats.captures else None)
    doc["play_events_per_hand"] = {str(k): v for k, v in sorted(stats.sweeps.items())}
    doc["events"] = {name: {"kind": kind, "scores": scoring, "side": {str(s): {
        "fired": stats.fired.get((s, name), 0), "hands": stats.fired_hands.get((s, name), 0),
        "points": stats.fired_points.get((s, name), 0), "per_hand": r4(stats.fires(s, name)[0]),
        "share_of_hands": r4(stats.fires(s, name)[1]), "points_per_hand": r4(stats.fires(s, name)[2])}
        for s in range(stats.sides)}} for name, kind, scoring in stats.events}
    return doc


def _event_table(stats: Stats) -> tuple | None:
    """Per event and bonus, per side: times it fired per hand, share of hands it fired in, points per hand."""
    if not stats.events:
        return None
    rows = []
    for name, kind, scoring in stats.events:
        for s in range(stats.sides):
            per_hand, share, points = stats.fires(s, name)
            rows.append([name if s == 0 else "", kind if s == 0 else "", str(s), f"{per_hand:.3f}",
                         f"{100 * share:.1f}%", f"{points:.3f}" if scoring else "-"])
    return ("events and bonuses per hand", ["event or bonus", "kind", "side", "times", "hands", "points"],
            ["left", "left", "right", "right", "right", "right"], rows)


def _rate(p: float, low: float, high: float, digits: int = 1) -> str:
    """A win rate with its (asymmetric) Wilson interval: `45.0% (41.2-48.9)`."""
    return f"{100 * p:.{digits}f}% ({100 * low:.{digits}f}-{100 * high:.{digits}f})"


def _tables(stats: Stats, *, title: str, bots: list[str]) -> tuple[list, list[str]]:
    """What `render` shows: tables as (title, headers, justify, rows), then lines of text."""
    headers = ["mean points per hand"]
    for s in range(stats.sides):
        members = [f"{seat}:{bots[seat]}" for seat in range(stats.seats) if seat % stats.sides == s]
        headers.append(f"side {s}\n{' '.join(members)}")
    # Three sides or more: shorter cells, so that the table still fits 80 columns.
    wide = stats.sides <= 2
    rows = [[cat, *[f"{stats.mean(s, cat):.3f} ± {stats.ci95(s, cat):.3f}" if wide else
                    f"{stats.mean(s, cat):.2f}±{stats.ci95(s, cat):.2f}" for s in range(stats.sides)]]
            for cat in stats.categories]
    what = "games won" if stats.games else "hands won"
    rows.append([what, *[_rate(*stats.win_rate(s), digits=1 if wide else 0) for s in range(stats.sides)]])
    points = (title, headers, ["left"] + ["right"] * stats.sides, rows)
    seats = (f"{what} per seat", ["seat", "bot", "side", "win rate"], ["left", "left", "left", "right"],
             [[str(seat), bots[seat], str(seat % stats.sides), _rate(*stats.win_rate(seat % stats.sides))]
              for seat in range(stats.seats)])
    events = _event_table(stats)
    line = (f"{stats.hands} hands; {stats.mean_plays:.1f} plays per hand; "
            f"{stats.mean_legal_moves:.2f} legal moves per turn on average")
    if stats.games:
        line += f"; {stats.games} games, {stats.game_hands / stats.games:.2f} hands per game"
    lines = [line]
    if stats.outcomes:
        lines.append("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.outcomes.items())))
    if events is not None:
        lines.append("times: fired per hand; hands: the share it fired in; points: per hand")
    return [points, seats] + ([events] if events is not None else []), lines


def render(stats: Stats, console, *, title: str, bots: list[str]) -> None:
    """The statistics as rich tables: points per category and side, then win rates per side and seat."""
    from rich.table import Table
    tables, lines = _tables(stats, title=title, bots=bots)
    for caption, headers, justify, rows in tables:
        table = Table(title=caption)
        for header, how in zip(headers, justify):
            table.add_column(header, justify=how)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    for line in lines:
        console.print(line)


def render_text(stats: Stats, *, title: str, bots: list[str], width: int = 80) -> str | None:
    """What `render` prints on a console of `width` columns that is not a terminal, drawn without rich (whose
    import costs a short run a third of its start-up); None where only rich draws it right (a table wider
    than `width` or narrower than its title, text rich would read as markup or emoji, wide characters).
    tests/test_simulate.py compares the two on every shipped ruleset."""
    tables, lines = _tables(stats, title=title, bots=bots)
    out = []
    for table in tables:
        drawn = _box_table(*table, width=width)
        if drawn is None:
            return None
        out += drawn
    for line in lines:
        if not _plain(line) or len(line) > width:
            return None
        out.append(line)
    return "\n".join(out) + "\n"


def _plain(text: str) -> bool:
    """Text that rich prints as it is, one column per character: printable ASCII (and ±), no markup (`[`) and
    no emoji code (two colons with no space between), what rich reads as either; by str methods, so that a
    native run's table imports no `re`."""
    if not all(" " <= ch <= "~" or ch == "±" for ch in text) or "[" in text:
        return False
    parts = text.split(":")[1:-1]        # the texts between two colons in a row
    return all(" " in part for part in parts)


def _centred(title: str, width: int) -> list[str] | None:
    """A table's title as rich sets it: words wrapped greedily to the table's width, each line centred
    (the odd space on the right); None for what it would fold or space differently."""
    words = title.split(" ")
    if "" in words or any(len(w) > width for w in words):
        return None
    lines, line = [], words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return [" " * ((width - len(t)) // 2) + t + " " * (width - len(t) - (width - len(t)) // 2) for t in lines]


def _box_table(title: str, headers: list[str], justify: list[str], rows: list[list[str]], *,
               width: int) -> list[str] | None:
    """The lines of a rich `Table(title=title)` (heavy head box, padding 1, headers aligned to the bottom,
    title wrapped and centred) whose cells all fit on one line; None if it would not fit `width` or is not
    plain text."""
    heads = [h.split("\n") for h in headers]
    texts = [title, *(x for h in heads for x in h), *(c for r in rows for c in r)]
    if not all(_plain(t) for t in texts):
        return None
    widths = [max([len(x) for x in heads[i]] + [len(r[i]) for r in rows]) for i in range(len(headers))]
    total = sum(widths) + 3 * len(widths) + 1
    if total > width:
        return None
    out = _centred(title, total)
    if out is None:
        return None

    def line(cells, edge, inner):
        return edge + inner.join(f" {c.rjust(w) if how == 'right' else c.ljust(w)} "
                                 for c, w, how in zip(cells, widths, justify)) + edge

    def rule(a, fill, b, c):
        return a + b.join(fill * (w + 2) for w in widths) + c

    out.append(rule("┏", "━", "┳", "┓"))
    height = max(len(h) for h in heads)
    padded = [[""] * (height - len(h)) + h for h in heads]
    out += [line([p[k] for p in padded], "┃", "┃") for k in range(height)]
    out.append(rule("┡", "━", "╇", "┩"))
    out += [line(r, "│", "│") for r in rows]
    out.append(rule("└", "─", "┴", "┘"))
    return out
