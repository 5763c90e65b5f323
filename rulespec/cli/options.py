"""What several commands share: `--option NAME=VALUE`, compiling the ruleset named on the line, warnings."""
from __future__ import annotations

import re

from rulespec.errors import RulespecError


def add_option_argument(parser) -> None:
    """`--option NAME=VALUE`, repeatable: an option the ruleset declares."""
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="set an option the ruleset declares (repeatable)")


def parse_options(pairs: list[str] | None) -> dict:
    """`NAME=VALUE` pairs as option values: true/false as booleans, whole numbers as ints, else text."""
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise RulespecError(f"--option takes NAME=VALUE, found '{pair}'")
        name, value = pair.split("=", 1)
        if value in ("true", "false"):
            out[name] = value == "true"
        elif re.fullmatch(r"-?[0-9]{1,18}", value):  # not isdigit(): int() refuses '²', '--5', 5000 digits
            out[name] = int(value)
        else:
            out[name] = value
    return out


def compile_named(ref, option_pairs: list[str] | None = None):
    """Compile the ruleset a command names (an id or a path) with its `--option` values."""
    from rulespec.compiler.build import compile_ruleset
    return compile_ruleset(ref, parse_options(option_pairs) or None)


def print_warnings(compiled, err) -> None:
    """Lint's warnings (rulespec/checks/lint.py), located like errors; they do not fail the command."""
    for w in compiled.warnings:
        print(w.render(), file=err)
