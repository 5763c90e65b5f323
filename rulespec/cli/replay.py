"""`rulespec replay FILE_OR_DIR...`: replay golden transcripts, naming every play that differs."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.pages import add_html_argument, replay_page
from rulespec.errors import RulespecError


def register(sub) -> None:
    r = sub.add_parser("replay", help="replay golden transcripts (files or folders)")
    r.add_argument("files", nargs="+")
    add_html_argument(r, "the hand (one transcript)")
    r.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.transcripts.replay import replay
    files = []
    for f in args.files:
        p = Path(f)
        files += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    if args.html:
        replay_page(files, args.html, out)
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
