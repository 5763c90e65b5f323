"""The `rulespec` command: validate, compile, replay, record, simulate, list, explain, diff, test, new, schema."""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from rulespec.errors import RulespecError


def _compile(ref, options=None):
    from rulespec.compiler.build import compile_ruleset
    return compile_ruleset(ref, options)


def _parse_options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise RulespecError(f"--option takes NAME=VALUE, found '{pair}'")
        name, value = pair.split("=", 1)
        if value in ("true", "false"):
            out[name] = value == "true"
        elif re.fullmatch(r"-?[0-9]{1,18}", value):  # not isdigit(): int() refuses '²', '--5', 5000 digits
            out[name] = int(value)
        else:
            out[name] = value
    return out


def cmd_validate(args, out, err) -> int:
    from rulespec.transcripts.testrun import file_kind
    from rulespec.transcripts.transcript import read_transcript
    failed = 0
    for f in args.files:
        try:
            if Path(f).is_file() and file_kind(Path(f)) == "transcript":
                read_transcript(f)
                print(f"ok   {f} (transcript)", file=out)
                continue
            c = _compile(f)
        except RulespecError as e:
            print(e.render(), file=err)
            failed += 1
            continue
        _warn(c, err)
        n = len(c.ruleset.warnings)
        print(f"ok   {f} (ruleset {c.id}{f', {n} warning' + 's' * (n != 1) if n else ''})", file=out)
    return 2 if failed else 0


def _warn(compiled, err) -> None:
    """Lint's warnings (rulespec/lint.py), located like errors; they do not fail the command."""
    for w in compiled.ruleset.warnings:
        print(w.render(), file=err)


def cmd_compile(args, out, err) -> int:
    t0 = time.perf_counter()
    c = _compile(args.ruleset, _parse_options(args.option))
    dt = (time.perf_counter() - t0) * 1000
    _warn(c, err)
    if args.emit:
        out.write(c.source)
    else:
        print(f"compiled {c.id}: {len(c.source.splitlines())} lines of Python in {dt:.1f} ms "
              f"(use --emit to print them)", file=out)
    return 0


def cmd_replay(args, out, err) -> int:
    from rulespec.transcripts.replay import replay
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
    from rulespec.transcripts.record import record
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
    from rulespec.bots.simulate import command
    return command(args, out, err)


def _play_command(sub) -> None:
    """play: a game in the terminal against bots (rulespec/play.py)."""
    pl = sub.add_parser("play", help="play in the terminal against bots")
    pl.add_argument("ruleset")
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    pl.add_argument("--seed", type=int, help="the game's seed (default: a random one, printed)")
    pl.add_argument("--seats", type=int)
    pl.add_argument("--bots", default="greedy", metavar="BOT[,BOT...]",
                    help="the other seats: one bot for all, one per side or one per seat (yours is ignored)")
    pl.add_argument("--hands", type=int, help="stop after this many hands (default: play the game out)")
    pl.add_argument("--option", action="append", metavar="NAME=VALUE")
    pl.set_defaults(func=cmd_play)


def cmd_play(args, out, err) -> int:
    from rulespec.cli.play import command
    return command(args, sys.stdin, out, err)


def cmd_list(args, out, err) -> int:
    from rulespec.lang import model
    from rulespec.source.rulesets import shipped_ids
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
    many = s.add_mutually_exclusive_group()
    many.add_argument("--hands", type=int, help="independent hands to play (default 1000)")
    many.add_argument("--games", type=int, help="whole games to play to the target")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--seats", type=int)
    s.add_argument("--bots", "--bot", dest="bots", default="random", metavar="BOT[,BOT...]",
                   help="one bot for every seat or one per seat: random, greedy, ismcts[:BUDGET]")
    s.add_argument("--workers", type=int, help="processes (default: every core)")
    s.add_argument("--backend", choices=["local", "ray"], default="local")
    s.add_argument("--address", help="the Ray cluster's address (--backend ray; default: a local Ray)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_simulate)
    ls = sub.add_parser("list", help="list the shipped rulesets")
    ls.set_defaults(func=cmd_list)
    _play_command(sub)
    _authoring_commands(sub)
    return p


def _authoring_commands(sub) -> None:
    """explain, diff, test, new, schema: writing and checking variants (their code lives in their modules)."""
    from rulespec.authoring import diff
    from rulespec.authoring import explain
    from rulespec.authoring import scaffold
    from rulespec.transcripts import testrun
    e = sub.add_parser("explain", help="the ruleset as a readable rulebook (Markdown, or --format html)")
    e.add_argument("ruleset")
    e.add_argument("--format", choices=["markdown", "html"], default="markdown")
    e.add_argument("--option", action="append", metavar="NAME=VALUE")
    e.set_defaults(func=explain.command)
    d = sub.add_parser("diff", help="the differences between two rulesets after inheritance, in words")
    d.add_argument("a")
    d.add_argument("b")
    d.set_defaults(func=diff.command)
    t = sub.add_parser("test", help="replay golden transcripts (default: the shipped ones); --update refreshes "
                                    "recorded ones")
    t.add_argument("paths", nargs="*")
    t.add_argument("--update", action="store_true",
                   help="rewrite the expectations of failing recorded transcripts from the engine")
    t.set_defaults(func=testrun.command)
    n = sub.add_parser("new", help="write a starter variant file")
    n.add_argument("name")
    n.add_argument("--extends", required=True, metavar="BASE")
    n.add_argument("-o", "--output", metavar="FILE")
    n.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    n.set_defaults(func=scaffold.command)
    sc = sub.add_parser("schema", help="print the JSON Schema of rulesets or transcripts (for editors)")
    sc.add_argument("kind", nargs="?", choices=["ruleset", "transcript"], default="ruleset")
    sc.set_defaults(func=cmd_schema)


def cmd_schema(args, out, err) -> int:
    from rulespec.source.validate import load_schema
    print(json.dumps(load_schema(args.kind), indent=2, ensure_ascii=False), file=out)
    return 0


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
