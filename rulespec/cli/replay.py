"""`rulespec replay FILE_OR_DIR...`: replay golden transcripts, naming every play that differs."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_root_argument
from rulespec.cli.pages import add_html_argument, replay_page


def register(sub) -> None:
    r = sub.add_parser("replay", help="replay golden transcripts (files or folders; rulesets in a folder are skipped)")
    r.add_argument("files", nargs="+", metavar="FILE_OR_DIR",
                   help="transcript files, or folders searched for them")
    add_html_argument(r, "the hand (one transcript)")
    add_root_argument(r)
    r.set_defaults(func=run)


def run(args, out, err) -> int:
    # The same discovery and report as `rulespec test` (one rule for both), without its defaults and --update.
    from rulespec.cli.test import replay_found
    from rulespec.transcripts.testrun import find
    paths = [Path(f) for f in args.files]
    if args.html is not None:
        replay_page(find(paths, args.root).transcripts, args.html, out, args.root)
    return replay_found(paths, out, err, command="replay", root=args.root)
