"""`rulespec validate FILE...`: check rulesets or transcripts, every problem located."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named, print_warnings
from rulespec.errors import RulespecError


def register(sub) -> None:
    v = sub.add_parser("validate", help="check rulesets or transcripts")
    v.add_argument("files", nargs="+")
    add_option_argument(v, "set an option the rulesets declare, checked and compiled with that value "
                           "(repeatable; a transcript gives its own options)")
    add_root_argument(v)
    v.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.source import yamlsafe
    failed = 0
    for f in args.files:
        try:
            with yamlsafe.once():       # file_kind reads the file, then the ruleset's or transcript's loader
                c = _check(f, args, out)
        except RulespecError as e:
            print(e.render(), file=err)
            failed += 1
            continue
        if c is None:
            continue
        print_warnings(c, err)
        n = len(c.warnings)
        print(f"ok   {f} (ruleset {c.id}{f', {n} warning' + 's' * (n != 1) if n else ''})", file=out)
    return 2 if failed else 0


def _check(f: str, args, out):
    """The compiled ruleset `f` names; None for a transcript (checked, and its ok line printed here)."""
    from rulespec.source.rulesets import TRANSCRIPT_SUFFIXES, is_path_ref, locate
    from rulespec.transcripts.replay import check_transcript_cards
    from rulespec.transcripts.testrun import file_kind
    from rulespec.transcripts.transcript import read_transcript
    if is_path_ref(f, TRANSCRIPT_SUFFIXES):
        # A regular .yaml/.yml/.json file (under --root) before anything opens it: never a FIFO or /proc.
        # (.json is a transcript's suffix only: a ruleset named so is refused by compile_named.)
        path = locate(f, root=args.root, transcript=True)
        if file_kind(path) == "transcript":
            read_transcript(path)
            check_transcript_cards(path, root=args.root)    # its cards and deal, against its ruleset
            print(f"ok   {f} (transcript)", file=out)
            return None
    return compile_named(f, args.option, root=args.root)
