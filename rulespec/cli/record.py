"""`rulespec record RULESET --seed N [-o FILE]`: a bot-played hand written as a (recorded) transcript."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named
from rulespec.cli.pages import add_html_argument, record_page
from rulespec.errors import RulespecError


def register(sub) -> None:
    rec = sub.add_parser("record", help="record a bot-played hand as a transcript")
    rec.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    rec.add_argument("--seed", type=int, default=0, help="the hand's seed (default 0)")
    rec.add_argument("--seats", type=int, help="the number of players (default: the ruleset's)")
    rec.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    rec.add_argument("--bots", "--bot", dest="bots", default="random", metavar="BOT[,BOT...]",
                     help="random, greedy, ismcts[:BUDGET] or policy:FILE (a trained agent's file): one for all, "
                     "one per side or one per seat "
                          "(default random)")
    add_option_argument(rec)
    rec.add_argument("-o", "--output", metavar="FILE",
                     help="the transcript file (default: standard output); a ruleset file is named relative to it")
    rec.add_argument("--force", action="store_true", help="overwrite the -o FILE if it exists")
    add_html_argument(rec, "the recorded hand")
    add_root_argument(rec)
    rec.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.transcripts.record import record, ruleset_reference
    if args.output and Path(args.output).exists() and not args.force:
        raise RulespecError(f"{args.output} already exists; choose another -o FILE, or --force to overwrite it")
    c = compile_named(args.ruleset, args.option, args.root)
    cmd = "rulespec " + " ".join(args.argv)
    # The transcript names its ruleset relative to where it is written (the current folder for stdout).
    folder = Path(args.output).parent if args.output else Path.cwd()
    text = record(c, seed=args.seed, seats=args.seats, dealer=args.dealer, bots=args.bots, command=cmd,
                  ruleset=ruleset_reference(args.ruleset, folder))
    if args.output:
        from rulespec.source.writes import write_file
        write_file(args.output, text)
        print(f"wrote {args.output}", file=out)
    else:
        out.write(text)
    if args.html is not None:
        record_page(text, c, args.html, err if not args.output else out, args.output)
    return 0
