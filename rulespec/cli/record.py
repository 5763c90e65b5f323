"""`rulespec record RULESET --seed N [-o FILE]`: a bot-played hand written as a (recorded) transcript."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_option_argument, compile_named
from rulespec.cli.pages import add_html_argument, record_page


def register(sub) -> None:
    rec = sub.add_parser("record", help="record a bot-played hand as a transcript")
    rec.add_argument("ruleset")
    rec.add_argument("--seed", type=int, default=0)
    rec.add_argument("--seats", type=int)
    rec.add_argument("--dealer", type=int, default=0)
    rec.add_argument("--bot", choices=["random", "greedy"], default="random")
    add_option_argument(rec)
    rec.add_argument("-o", "--output", metavar="FILE",
                     help="the transcript file (default: standard output); a ruleset file is named relative to it")
    add_html_argument(rec, "the recorded hand")
    rec.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.transcripts.record import record, ruleset_reference
    c = compile_named(args.ruleset, args.option)
    cmd = "rulespec " + " ".join(args.argv)
    # The transcript names its ruleset relative to where it is written (the current folder for stdout).
    folder = Path(args.output).parent if args.output else Path.cwd()
    text = record(c, seed=args.seed, seats=args.seats, dealer=args.dealer, bots=args.bot, command=cmd,
                  ruleset=ruleset_reference(args.ruleset, folder))
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=out)
    else:
        out.write(text)
    if args.html:
        record_page(text, c, args.html, err if not args.output else out, args.output)
    return 0
