"""The `rulespec` command: validate, compile, replay, record, simulate, list."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .errors import RulespecError


def _compile(ref, options=None):
    from compiler.build import compile_ruleset
    return compile_ruleset(ref, options)


def _parse_options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise RulespecError(f"--option takes NAME=VALUE, found '{pair}'")
        name, value = pair.split("=", 1)
        if value in ("true", "false"):
            out[name] = value == "true"
        elif value.lstrip("-").isdigit():
            out[name] = int(value)
        else:
            out[name] = value
    return out


def cmd_validate(args, out, err) -> int:
    from .transcript import read_transcript
    for f in args.files:
        text = Path(f).read_text(encoding="utf-8", errors="replace") if Path(f).is_file() else ""
        if Path(f).is_file() and any(line.startswith(("plays:", "deal:", "deck:")) for line in text.splitlines()):
            read_transcript(f)
            print(f"ok   {f} (transcript)", file=out)
        else:
            c = _compile(f)
            print(f"ok   {f} (ruleset {c.id})", file=out)
    return 0


def cmd_compile(args, out, err) -> int:
    t0 = time.perf_counter()
    c = _compile(args.ruleset, _parse_options(args.option))
    dt = (time.perf_counter() - t0) * 1000
    if args.emit:
        out.write(c.source)
    else:
        print(f"compiled {c.id}: {len(c.source.splitlines())} lines of Python in {dt:.1f} ms "
              f"(use --emit to print them)", file=out)
    return 0


def cmd_replay(args, out, err) -> int:
    from .replay import replay
    files = []
    for f in args.files:
        p = Path(f)
        files += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    failed = 0
    for f in files:
        try:
            result = replay(f)
        except RulespecError as e:
            print(f"FAIL {f}\n  {e.render()}", file=out)
            failed += 1
            continue
        print(result.summary(), file=out)
        failed += not result.ok
    print(f"{len(files) - failed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def cmd_record(args, out, err) -> int:
    from .record import record
    c = _compile(args.ruleset, _parse_options(args.option))
    cmd = "rulespec " + " ".join(args.argv)
    text = record(c, seed=args.seed, seats=args.seats, dealer=args.dealer, bots=args.bot, command=cmd)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=out)
    else:
        out.write(text)
    return 0


def cmd_simulate(args, out, err) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .simulate import simulate
    c = _compile(args.ruleset, _parse_options(args.option))
    console = Console(file=out, width=120)
    t0 = time.perf_counter()
    if args.json or not out.isatty():
        stats = simulate(c, hands=args.hands, seed=args.seed, seats=args.seats, bots=args.bot)
    else:
        with Progress(console=Console(file=err), transient=True) as bar:
            task = bar.add_task(f"simulating {c.id}", total=args.hands)
            stats = simulate(c, hands=args.hands, seed=args.seed, seats=args.seats, bots=args.bot,
                             progress=lambda: bar.advance(task))
    dt = time.perf_counter() - t0
    if args.json:
        doc = {"ruleset": c.id, "hands": stats.hands, "seconds": round(dt, 3),
               "hands_per_second": round(stats.hands / dt, 1) if dt else None,
               "mean": {str(s): {cat: round(stats.mean(s, cat), 4) for cat in stats.categories}
                        for s in range(stats.sides)},
               "ci95": {str(s): {cat: round(stats.ci95(s, cat), 4) for cat in stats.categories}
                        for s in range(stats.sides)},
               "hand_wins": stats.hand_wins, "outcomes": stats.outcomes,
               "mean_plays": stats.plays / stats.hands if stats.hands else 0}
        print(json.dumps(doc, indent=2), file=out)
        return 0
    table = Table(title=f"{c.id}: mean points per hand over {stats.hands} hands ({args.bot} bots, seed {args.seed})")
    table.add_column("category")
    for s in range(stats.sides):
        table.add_column(f"side {s}", justify="right")
    for cat in stats.categories:
        table.add_row(cat, *[f"{stats.mean(s, cat):.3f} ± {stats.ci95(s, cat):.3f}" for s in range(stats.sides)])
    table.add_row("hands won", *[str(w) for w in stats.hand_wins])
    console.print(table)
    if stats.outcomes:
        console.print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.outcomes.items())))
    console.print(f"{stats.hands} hands in {dt:.2f} s ({stats.hands / dt:.0f} hands/second)")
    return 0


def cmd_list(args, out, err) -> int:
    from . import model
    from .rulesets import shipped_ids
    for rid in shipped_ids():
        rs = model.load(rid)
        base = rs.base or "-"
        print(f"{rid:32} {base:16} {rs.source:22} {rs.description}", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulespec", description="Rule specifications for Italian fishing card games.")
    sub = p.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check rulesets or transcripts")
    v.add_argument("files", nargs="+")
    v.set_defaults(func=cmd_validate)
    c = sub.add_parser("compile", help="compile a ruleset (--emit prints the generated Python)")
    c.add_argument("ruleset")
    c.add_argument("--emit", action="store_true")
    c.add_argument("--option", action="append", metavar="NAME=VALUE")
    c.set_defaults(func=cmd_compile)
    r = sub.add_parser("replay", help="replay golden transcripts (files or folders)")
    r.add_argument("files", nargs="+")
    r.set_defaults(func=cmd_replay)
    rec = sub.add_parser("record", help="record a bot-played hand as a transcript")
    rec.add_argument("ruleset")
    rec.add_argument("--seed", type=int, default=0)
    rec.add_argument("--seats", type=int)
    rec.add_argument("--dealer", type=int, default=0)
    rec.add_argument("--bot", choices=["random", "greedy"], default="random")
    rec.add_argument("--option", action="append", metavar="NAME=VALUE")
    rec.add_argument("-o", "--output")
    rec.set_defaults(func=cmd_record)
    s = sub.add_parser("simulate", help="simulate hands with bots and show statistics")
    s.add_argument("ruleset")
    s.add_argument("--hands", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--seats", type=int)
    s.add_argument("--bot", choices=["random", "greedy"], default="random")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_simulate)
    ls = sub.add_parser("list", help="list the shipped rulesets")
    ls.set_defaults(func=cmd_list)
    return p


def run(argv: list[str], out=None, err=None) -> int:
    """Run one command; returns the exit code (2 for a located error, never a traceback)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    args.argv = argv
    try:
        return args.func(args, out, err)
    except RulespecError as e:
        print(e.render(), file=err)
        return 2
    except OSError as e:
        print(f"rulespec: {e.filename or ''}: {e.strerror}", file=err)
        return 2
    except KeyboardInterrupt:
        return 130


def main() -> None:
    """Console entry point."""
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
