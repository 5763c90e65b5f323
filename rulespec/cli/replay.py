"""`rulespec replay FILE_OR_DIR...`: replay golden transcripts, naming every play that differs."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_root_argument
from rulespec.errors import RulespecError


def register(sub) -> None:
    r = sub.add_parser("replay", help="replay golden transcripts (files or folders)")
    r.add_argument("files", nargs="+")
    add_root_argument(r)
    r.set_defaults(func=run)


def run(args, out, err) -> int:
    from rulespec.source.files import skipped_line, yaml_files
    from rulespec.transcripts.replay import replay
    files = []
    odd = []
    for f in args.files:
        p = Path(f)
        if _is_dir(p):
            regular, others = yaml_files(p)     # FIFOs, sockets, devices: never opened, named below
            files += regular
            odd += others
        else:
            files.append(p)
    if odd:
        print(skipped_line(odd), file=err)
    failed = 0
    for f in files:
        try:
            result = replay(f, args.root)
        except RulespecError as e:
            print(f"FAIL {f}\n  {e.render()}", file=out)
            failed += 1
            continue
        print(result.summary(), file=out)
        failed += not result.ok
    print(f"{len(files) - failed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:             # a name too long, say: replay reports it as a file it cannot read
        return False
