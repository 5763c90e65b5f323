"""The `rulespec` command: one module per command in this folder, each with `register(sub)` and `run(args, out, err)`."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from rulespec import __version__
from rulespec.errors import RulespecError

# In the order `rulespec --help` lists them; each is the module rulespec/cli/NAME.py.
COMMAND_NAMES = ("validate", "compile", "replay", "record", "simulate", "list", "play", "explain", "diff", "test",
                 "new", "schema", "docs")


class _Reparse(Exception):
    """A command line the one-command parser refuses: parsed again with every command, whose message it is."""


def _help_width() -> int:
    """The width argparse's help takes, found as shutil.get_terminal_size finds it, less 2 as argparse does."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its help formatter given the width: argparse would import shutil (and bz2, lzma)
    to find it at every add_argument, about 3 ms of every run."""

    def _get_formatter(self):
        return self.formatter_class(prog=self.prog, width=_help_width())


class _OneCommandParser(_Parser):
    def error(self, message):
        raise _Reparse(message)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command's subparser (with `only`, that command's alone: a command
    line that names its command needs no other, nor their modules' imports; it raises _Reparse where the
    full parser would print a usage error)."""
    cls = _Parser if only is None else _OneCommandParser
    p = cls(prog="rulespec", description="Rule specifications for Italian fishing card games.")
    p.add_argument("--version", action="version", version=f"rulespec {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for name in (only,) if only is not None else COMMAND_NAMES:
        importlib.import_module(f"rulespec.cli.{name}").register(sub)
    return p


def run(argv: list[str], out=None, err=None) -> int:
    """Run one command; returns the exit code (2 for a located error, never a traceback)."""
    out = out or sys.stdout
    err = err or sys.stderr
    # The command first (not an option, which may need the full parser): parsed by its own subparser.
    parser = build_parser(argv[0] if argv and argv[0] in COMMAND_NAMES else None)
    try:
        try:
            args = parser.parse_args(argv)
        except _Reparse:
            args = build_parser().parse_args(argv)     # prints the usage error as it always did, and exits
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
