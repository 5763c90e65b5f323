"""The `rulespec` command: one module per command in this folder, each with `register(sub)` and `run(args, out, err)`."""
from __future__ import annotations

import argparse
import os
import sys

from rulespec.cli import (
    compile,
    diff,
    docs,
    explain,
    list,
    new,
    play,
    record,
    replay,
    schema,
    simulate,
    test,
    validate,
)
from rulespec import __version__
from rulespec.errors import RulespecError

# In the order `rulespec --help` lists them.
COMMANDS = (validate, compile, replay, record, simulate, list, play, explain, diff, test, new, schema, docs)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command's subparser."""
    p = argparse.ArgumentParser(prog="rulespec", description="Rule specifications for Italian fishing card games.")
    p.add_argument("--version", action="version", version=f"rulespec {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(sub)
    return p


def run(argv: list[str], out=None, err=None) -> int:
    """Run one command; returns the exit code (2 for a located error, never a traceback)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    args.argv = argv
    try:
        return args.func(args, out, err)
    except RulespecError as e:
        print(e.render(), file=err)
        return 2
    except BrokenPipeError:
        raise  # the reader went away (`rulespec list | head`): main() ends quietly
    except OSError as e:
        print(f"rulespec: {e.filename or ''}: {e.strerror}", file=err)
        return 2
    except KeyboardInterrupt:
        return 130


def main() -> None:
    """Console entry point."""
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # Like any filter whose reader stopped reading: no message. Python would still try to flush the
        # closed pipe at exit and complain, so stdout goes to /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
