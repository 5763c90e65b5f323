"""`rulespec test [PATH...] [--update]`: replay every golden transcript under the paths."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_root_argument
from rulespec.source.files import skipped_line
from rulespec.transcripts.testrun import default_paths, find_all, run_tests


def register(sub) -> None:
    t = sub.add_parser("test", help="replay golden transcripts (default: the shipped ones); --update refreshes "
                                    "recorded ones")
    t.add_argument("paths", nargs="*")
    t.add_argument("--update", action="store_true",
                   help="rewrite the expectations of failing recorded transcripts from the engine")
    add_root_argument(t)
    t.set_defaults(func=run)


def run(args, out, err) -> int:
    """`rulespec test [PATH...] [--update]`."""
    paths = [Path(p) for p in args.paths] if args.paths else default_paths()
    files, odd = find_all(paths)
    if odd:
        print(skipped_line(odd), file=err)     # FIFOs, sockets, devices: never opened; the batch goes on
    if not files:
        print(f"rulespec test: no transcripts under {', '.join(map(str, paths))}", file=err)
        return 2
    passed, failed, updated = run_tests(files, update=args.update, out=out, root=args.root)
    if args.update:
        print(f"{updated} updated", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0
