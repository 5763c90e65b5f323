"""`rulespec simulate RULESET`: statistics over many hands or games played by bots, on every core for a long run."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument, named_options
from rulespec.cli.pages import add_html_argument


# The command line register() declares, for cli/main.py's quick reading of a plain command line without
# argparse; tests/test_cli_quick.py holds it to register()'s parser. Each option string: its dest and what it
# takes (a conversion, a tuple of choices, "append" for a repeatable value, or "flag" for none).
QUICK = {
    "positionals": ("ruleset",),
    "options": {"--hands": ("hands", int), "--games": ("games", int), "--seed": ("seed", int),
                "--seats": ("seats", int), "--bots": ("bots", str), "--bot": ("bots", str),
                "--workers": ("workers", int), "--oversubscribe": ("oversubscribe", "flag"), "--backend": ("backend", ("local", "ray")), "--address": ("address", str),
                "--engine": ("engine", ("python", "native", "auto")), "--option": ("option", "append"),
                "--root": ("root", str), "--json": ("json", "flag"), "--no-timings": ("no_timings", "flag"),
                "--compare": ("compare", str), "--html": ("html", str)},
    "defaults": {"hands": None, "games": None, "seed": 0, "seats": None, "bots": "random", "workers": None, "oversubscribe": False,
                 "backend": "local", "address": None, "engine": "auto", "option": None, "root": None,
                 "json": False, "no_timings": False, "compare": None, "html": None},
    "exclusive": (("hands", "games"),),
}


def register(sub) -> None:
    s = sub.add_parser("simulate", help="simulate hands with bots and show statistics")
    s.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    many = s.add_mutually_exclusive_group()
    many.add_argument("--hands", type=int, help="independent hands to play (default 1000)")
    many.add_argument("--games", type=int, help="whole games to play to the target")
    s.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed plays the same hands (default 0)")
    s.add_argument("--seats", type=int, help="the number of players (default: the ruleset's)")
    s.add_argument("--bots", "--bot", dest="bots", default="random", metavar="BOT[,BOT...]",
                   help="random, greedy, ismcts[:BUDGET] or policy:FILE (a trained agent's file): one for all, "
                   "one per side or one per seat "
                        "(default random)")
    s.add_argument("--workers", type=int, help="processes (default: one, or every core for a run of more than a "
                                               "few seconds)")
    s.add_argument("--oversubscribe", action="store_true",
                   help="run --workers N local processes even beyond this machine's cores (by default N is capped "
                        "at them: more processes than cores only cost CPU)")
    s.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local processes (default) or a Ray cluster (pip install 'rulespec[ray]')")
    s.add_argument("--address", help="the Ray cluster's address (--backend ray; default: a local Ray)")
    s.add_argument("--engine", choices=["python", "native", "auto"], default="auto",
                   help="auto (default): native where the ruleset, bots and options allow and there is a C "
                        "compiler, else python, saying why on stderr; native: the ruleset compiled to C with "
                        "the system C compiler (random and greedy bots; ismcts plays its rollouts in C); python: "
                        "force the Python engine. Both play the same hands for a seed and print the same figures")
    add_option_argument(s)
    add_root_argument(s)
    s.add_argument("--json", action="store_true", help="the figures as one JSON document")
    s.add_argument("--no-timings", action="store_true",
                   help="leave out what depends on the machine (seconds, hands per second, workers), so the same "
                        "command prints the same bytes")
    s.add_argument("--compare", metavar="BASE", help="play the same seeds under BASE too and show, per category, "
                                                     "event and bonus, the difference with its 95%% interval")
    add_html_argument(s, "the distributions as plots (with --compare: the differences)")
    s.set_defaults(func=run)


def run(args, out, err) -> int:
    """`rulespec simulate`: run, show a progress bar on a terminal, print the tables or JSON."""
    import time

    from rulespec.bots.simulate import (
        check_workers,
        default_workers,
        parse_bots,
        render,
        simulate,
        to_dict,
    )
    check_workers(args.workers)
    if args.workers is not None and args.backend == "local" and not args.oversubscribe \
            and args.workers > default_workers():
        # 8 processes on 2 cores took 25% more CPU than 2 for the same hands (bench/README.md, issue 26)
        print(f"rulespec: --workers {args.workers}: running {default_workers()}, the cores this machine has "
              f"(--oversubscribe runs {args.workers})", file=err)
        args.workers = default_workers()
    options = named_options(args.ruleset, args.option, args.root)
    if args.compare is not None:
        from rulespec.cli.compare import run_compare
        return run_compare(args, options, out, err)
    games = args.games
    hands = None if games is not None else (args.hands if args.hands is not None else 1000)
    total = games if games is not None else hands
    run = dict(options=options, hands=hands, games=games, seed=args.seed, seats=args.seats, bots=args.bots,
               workers=args.workers, backend=args.backend, address=args.address, root=args.root)
    t0 = time.perf_counter()
    nat, compiled = None, None
    import io
    notes = io.StringIO()       # why auto plays Python: written once the run is done (an error stays one line)
    if args.engine != "python":
        # A ruleset built before runs from the cache's manifest: nothing read or compiled again.
        from rulespec.bots.native_sim import from_manifest
        nat, n, bots = from_manifest(args, options)
    if nat is None:
        from rulespec.compiler.build import compile_ruleset
        compiled = compile_ruleset(args.ruleset, options, root=args.root, disk=True)
        rules = compiled.module
        n = args.seats if args.seats is not None else rules.DEFAULT_SEATS
        bots = parse_bots(args.bots, n, rules.SIDES[n]) if n in rules.SEATS_ALLOWED else []
        if args.engine != "python":
            from rulespec.bots.native_sim import choose_engine
            from rulespec.cli.progress import status_line
            # the first run of a ruleset builds its C (a second or so): a line with the time spent, on a terminal
            with status_line(err, f"building the native engine for {compiled.id} (once: kept in the cache)",
                             shown=not args.json) as tick:
                nat = choose_engine(args.engine, compiled, bots=bots, err=notes,
                                    ref=args.ruleset, options=options, root=args.root, progress=tick)
    ruleset_id = nat.meta.id if nat is not None else compiled.id
    engine = "native" if nat is not None else "python"
    if nat is not None:
        from rulespec.bots.native_sim import simulate_native
        on_python = simulate

        def simulate(ref, progress=None, **run):  # noqa: F811 - the native engine stands in
            nonlocal engine
            from rulespec.bots.simulate import replayed
            from rulespec.compiler.native import NativeLimit
            progress = replayed(progress)
            try:
                if (args.workers or 1) > 1 or args.backend == "ray" or any(b.startswith("ismcts") for b in bots):
                    # Batches spread over processes or Ray tasks, each loading the library from the cache.
                    return on_python(ref, progress=progress, native=True, distributions=args.html is not None,
                                     **run)
                return simulate_native(nat, hands=hands, games=games, seed=args.seed, seats=args.seats, bots=bots,
                                       progress=progress, distributions=args.html is not None)
            except NativeLimit as error:
                # A hand passed one of the C's fixed lists: auto plays the whole run on the Python engine.
                if args.engine != "auto":
                    raise
                print(f"rulespec: using the Python engine: {error.headline()}", file=err)
                engine = "python"
                if progress is not None:
                    progress.again()      # the units the native batches reported are not counted twice
                return on_python(ref, progress=progress, **run)
    if args.json or not err.isatty():
        stats = simulate(args.ruleset, **run)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from rulespec.cli.terminal import console, terminal_text
        # No auto-refresh: a refresh thread must not be running when the worker processes fork.
        with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console(err), transient=True, auto_refresh=False) as bar:
            task = bar.add_task(terminal_text(f"simulating {ruleset_id}"), total=total)
            bar.refresh()

            def advance(k):
                bar.advance(task, k)
                bar.refresh()
            stats = simulate(args.ruleset, progress=advance, **run)
    dt = time.perf_counter() - t0
    err.write(notes.getvalue())
    unit = "games" if games is not None else "hands"
    if args.html is not None:
        from rulespec.cli.pages import simulate_page
        simulate_page(stats, compiled or nat.compiled, bots,
                      f"{total} {unit}, seed {args.seed}, bots {','.join(bots)}", args.html, err if args.json else out)
    if args.json:
        timings = {} if args.no_timings else dict(
            workers=getattr(stats, "workers", 1 if engine == "native" else args.workers or default_workers()),
            seconds=round(dt, 3),
            hands_per_second=round(stats.hands / dt, 1) if dt else None)
        from rulespec.run.stream import STREAM_VERSION
        doc = to_dict(stats, ruleset=ruleset_id, options=options or {}, seed=args.seed, stream=STREAM_VERSION,
                      seats=n, bots=bots, backend=args.backend, engine=engine, **timings)
        import json
        print(json.dumps(doc, indent=2), file=out)
        return 0
    title = f"{ruleset_id}: {total} {unit}, seed {args.seed}, bots {','.join(bots)}"
    timing = f"{stats.hands} hands in {dt:.2f} s ({stats.hands / dt:.0f} hands/second)"
    if _unstyled(out):
        from rulespec.bots.simulate import render_text
        text = render_text(stats, title=title, bots=bots)
        if text is not None:          # the bytes rich would write, without importing it
            out.write(text + ("" if args.no_timings else timing + "\n"))
            return 0
    from rulespec.cli.terminal import console
    shown = console(out, width=80)  # a terminal's width or not, the tables fit 80 columns
    render(stats, shown, bots=bots, title=title)
    if not args.no_timings:
        shown.print(timing)
    return 0


def _unstyled(out) -> bool:
    """Whether rich would write to `out` as to a file (no terminal styles, box characters as they are): not a
    terminal, not forced to be one (TTY_COMPATIBLE, FORCE_COLOR), UTF-8, not the Windows console."""
    import os
    import sys
    if "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ or sys.platform == "win32":
        return False
    try:
        if out.isatty():
            return False
    except (AttributeError, ValueError):
        return False
    return (getattr(out, "encoding", None) or "utf-8").lower().startswith("utf")
