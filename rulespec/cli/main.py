"""The `rulespec` command: one module per command in this folder, each with `register(sub)` and `run(args, out, err)`."""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False            # typing's flag, without importing typing (a type checker takes it as True)
if TYPE_CHECKING:
    import argparse

from rulespec import __version__
from rulespec.errors import RulespecError

# In the order `rulespec --help` lists them; each is the module rulespec/cli/NAME.py.
COMMAND_NAMES = ("validate", "compile", "replay", "record", "simulate", "leaderboard", "list", "show", "play",
                 "explain", "diff", "test", "new", "schema", "docs")
# Words other tools use for a command, which no spelling brings near its name here.
_OTHER_WORDS = {"check": "validate", "lint": "validate", "verify": "validate", "sim": "simulate",
                "init": "new", "create": "new", "build": "compile"}


def _command(name: str):
    """The module of a command, rulespec/cli/NAME.py (as importlib.import_module, without importing importlib)."""
    __import__(f"rulespec.cli.{name}")
    return sys.modules[f"rulespec.cli.{name}"]


def quick_args(argv: list[str]):
    """The arguments of a plain command line, read without argparse (its import, its translations and the
    parser cost every run about 3 ms), for a command whose module declares them (`QUICK`); None for anything
    else, which argparse reads as always.

    Plain: the command, then exactly its positionals, and options written in full (`--name value`,
    `--name=value`, a flag alone), no value that starts with '-', every value converted as argparse converts
    it (int, one of the choices), no two options of an exclusive group. Everything argparse reads differently
    or refuses (abbreviations, --help, `--`, negative numbers, errors) is left to it, so the arguments are
    always those argparse gives (tests/test_cli_quick.py).
    """
    if not argv or argv[0] not in _QUICK_COMMANDS:
        return None
    module = _command(argv[0])
    spec = module.QUICK
    options, values, positionals = spec["options"], dict(spec["defaults"]), []
    given = set()
    i = 1
    while i < len(argv):
        token = argv[i]
        i += 1
        if not token.startswith("-"):
            positionals.append(token)
            continue
        name, eq, value = token.partition("=")
        taken = options.get(name)
        if taken is None:
            return None
        dest, kind = taken
        if kind == "flag":
            if eq:
                return None
            values[dest] = True
            given.add(dest)
            continue
        if not eq:
            if i == len(argv):
                return None
            value = argv[i]
            i += 1
        if value.startswith("-"):
            return None
        if kind == "append":
            values[dest] = [*(values[dest] or []), value]
        elif isinstance(kind, tuple):
            if value not in kind:
                return None
            values[dest] = value
        else:
            try:
                values[dest] = kind(value)
            except ValueError:
                return None
        given.add(dest)
    if len(positionals) != len(spec["positionals"]):
        return None
    if any(len(given.intersection(group)) > 1 for group in spec["exclusive"]):
        return None
    values.update(zip(spec["positionals"], positionals))
    return _Namespace(command=argv[0], func=module.run, **values)


class _Namespace:
    """Arguments as attributes, as argparse.Namespace holds them."""

    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def __repr__(self) -> str:
        return "Namespace(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"

    def __eq__(self, other):
        return vars(self) == vars(other) if hasattr(other, "__dict__") else NotImplemented

    __hash__ = None


# The commands read quickly when their command line is plain: simulate, whose start-up counts (issue 12).
_QUICK_COMMANDS = ("simulate",)


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


_PARSERS: list = []


def _parser_classes() -> tuple[type, type]:
    """The parser classes, made on first use: argparse is imported only when a command line needs it."""
    if not _PARSERS:
        import argparse

        class _Parser(argparse.ArgumentParser):
            """argparse's parser, its help formatter given the width: argparse would import shutil (and bz2,
            lzma) to find it at every add_argument, about 3 ms of every run."""

            def _get_formatter(self):
                return self.formatter_class(prog=self.prog, width=_help_width())

            def _print_message(self, message, file=None):
                # Usage errors quote the command line's words: escaped like all output (cli/terminal.py).
                from rulespec.cli.terminal import safe
                super()._print_message(message, safe(file or sys.stderr))

        class _OneCommandParser(_Parser):
            def error(self, message):
                raise _Reparse(message)
        _PARSERS.extend((_Parser, _OneCommandParser))
    return _PARSERS[0], _PARSERS[1]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command's subparser (with `only`, that command's alone: a command
    line that names its command needs no other, nor their modules' imports; it raises _Reparse where the
    full parser would print a usage error)."""
    full, one = _parser_classes()
    cls = full if only is None else one
    p = cls(prog="rulespec", description="Rule specifications for Italian fishing card games.")
    p.add_argument("--version", action="version", version=f"rulespec {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for name in (only,) if only is not None else COMMAND_NAMES:
        _command(name).register(sub)
    return p


def run(argv: list[str], out=None, err=None) -> int:
    """Run one command; returns the exit code (2 for a located error, never a traceback). Everything it
    prints reaches `out` and `err` with control characters escaped (cli/terminal.py)."""
    from rulespec.cli.terminal import safe
    out = safe(out or sys.stdout)
    err = safe(err or sys.stderr)
    if argv and argv[0] not in COMMAND_NAMES and not argv[0].startswith("-"):
        from rulespec.errors import did_you_mean, printable
        hint = (f"; did you mean '{_OTHER_WORDS[argv[0]]}'?" if argv[0] in _OTHER_WORDS
                else did_you_mean(argv[0], COMMAND_NAMES))
        if hint:        # else argparse's own message, which lists the commands
            print(printable(f"rulespec: unknown command '{argv[0][:60]}'{hint}"), file=err)
            return 2
    args = quick_args(argv)
    if args is None:
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
        if isinstance(getattr(args, "bots", None), str):
            from rulespec.cli.options import policy_readers
            policy_readers(args.bots)
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
