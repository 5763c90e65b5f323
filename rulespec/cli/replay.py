"""`rulespec replay FILE_OR_DIR...`: replay golden transcripts, naming every play that differs."""
from __future__ import annotations

from pathlib import Path


def register(sub) -> None:
    r = sub.add_parser("replay", help="replay golden transcripts (files or folders; rulesets in a folder are skipped)")
    r.add_argument("files", nargs="+")
    r.set_defaults(func=run)


def run(args, out, err) -> int:
    # The same discovery and report as `rulespec test` (one rule for both), without its defaults and --update.
    from rulespec.cli.test import replay_found
    return replay_found([Path(f) for f in args.files], out, err, command="replay")
