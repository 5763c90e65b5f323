"""`rulespec validate FILE_OR_DIR...`: check rulesets or transcripts, every problem located."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument, compile_named, print_warnings
from rulespec.errors import RulespecError


def register(sub) -> None:
    v = sub.add_parser("validate", help="check rulesets or transcripts (files or folders)")
    v.add_argument("files", nargs="+", metavar="FILE",
                   help="rulesets or transcripts (shipped ids too, or folders of them); every problem of each "
                        "is reported")
    add_option_argument(v, "set an option the rulesets declare, checked and compiled with that value "
                           "(repeatable; a transcript gives its own options)")
    add_root_argument(v)
    v.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.source import yamlsafe
    files = _named_files(args.files, err, args.root)
    if not files:
        print(f"rulespec validate: no rulesets or transcripts under {', '.join(args.files)}", file=err)
        return 2
    failed = 0
    for f in files:
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
    return 1 if failed else 0


def _named_files(names: list[str], err, root=None) -> list[str]:
    """The files to check: each name as given, a folder as every ruleset and transcript under it (as replay
    and test find them: YAML files, and JSON files that are transcripts); files there that are not regular
    files are never opened, and one line says so."""
    from pathlib import Path
    from rulespec.transcripts.testrun import find
    files: list[str] = []
    for name in names:
        try:
            is_dir = Path(name).is_dir()
        except OSError:         # a name too long, say: reported when it is read
            is_dir = False
        if not is_dir:
            files.append(name)
            continue
        found = find([Path(name)], root)
        if found.odd:
            print(found.odd_note(), file=err)
        files += [str(p) for p in sorted(found.transcripts + found.rulesets)]
    return files


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
