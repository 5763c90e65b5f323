"""`rulespec test [PATH...] [--update]`: replay every golden transcript under the paths."""
from __future__ import annotations

from pathlib import Path

from rulespec.cli.options import add_root_argument


def register(sub) -> None:
    t = sub.add_parser("test", help="replay golden transcripts (default: the `golden` setting of rulespec.toml or "
                                    "[tool.rulespec], else ./tests/golden); --update refreshes recorded ones")
    t.add_argument("paths", nargs="*", metavar="PATH",
                   help="transcript files or folders (default: the golden setting, else ./tests/golden)")
    t.add_argument("--update", action="store_true",
                   help="rewrite the expectations of failing recorded transcripts from the engine")
    t.add_argument("--coverage", metavar="RULESET",
                   help="mutate each rule of RULESET and report the mutations no transcript under the paths catches")
    t.add_argument("--own", action="store_true",
                   help="with --coverage: only the rules RULESET's own file writes, not those it inherits")
    add_root_argument(t)
    t.set_defaults(func=run)


def run(args, out, err) -> int:
    """`rulespec test [PATH...] [--update]`."""
    from rulespec.transcripts.testrun import default_paths, find  # here: other commands start without it
    paths = [Path(p) for p in args.paths] if args.paths else default_paths()
    found = find(paths, args.root)
    if args.coverage:
        from rulespec.cli.coverage import run_coverage
        return run_coverage(args.coverage, found.transcripts, out, err, own_only=args.own, root=args.root)
    return replay_found(paths, out, err, update=args.update, command="test", found=found, root=args.root)


def replay_found(paths: list[Path], out, err, *, update: bool = False, command: str, found=None,
                 root: str | None = None) -> int:
    """Replay the transcripts under `paths` (rulesets beside them skipped, and said so); `replay` shares it.

    Files that are not regular files (FIFOs, sockets, devices) are never opened: one line names them.
    `root`: every file read must lie under it."""
    from rulespec.transcripts.testrun import find, run_tests  # here: other commands start without it
    found = found or find(paths, root)
    for note in (found.skipped_note(), found.odd_note()):
        if note:
            print(note, file=err)
    if not found.transcripts:
        print(f"rulespec {command}: no transcripts under {', '.join(map(str, paths))}", file=err)
        return 2
    passed, failed, updated = run_tests(found.transcripts, update=update, out=out, root=root)
    if update:
        print(f"{updated} updated", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0
