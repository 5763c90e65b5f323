"""What several commands share: `--option NAME=VALUE`, compiling the ruleset named on the line, warnings."""
from __future__ import annotations

import re

from rulespec.errors import RulespecError


def add_option_argument(parser, help: str = "set an option the ruleset declares (repeatable)") -> None:
    """`--option NAME=VALUE`, repeatable: an option the ruleset declares."""
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help=help)


BOOL_WORDS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}


def parse_options(pairs: list[str] | None, declared: dict | None = None) -> dict:
    """`NAME=VALUE` pairs as option values.

    With the ruleset's `declared` options (name -> its declaration), each value is read as its option's
    type: a bool takes yes/no, true/false or on/off (any case), an int a whole number, a str the text as
    written. An option not declared (reported later, by name), or without `declared`: true/false as
    booleans, whole numbers as ints, else text.
    """
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise RulespecError(f"--option takes NAME=VALUE, found '{pair}'")
        name, value = pair.split("=", 1)
        kind = getattr((declared or {}).get(name), "type", None)
        if kind == "str":
            out[name] = value
        elif kind == "bool":
            if value.lower() not in BOOL_WORDS:
                raise RulespecError(f"option '{name}' is bool, found {value[:60]!r}; on the command line write "
                                    f"yes or no (or true/false, on/off)")
            out[name] = BOOL_WORDS[value.lower()]
        elif kind == "int" and not re.fullmatch(r"-?[0-9]{1,18}", value):
            raise RulespecError(f"option '{name}' is int, found {value[:60]!r}; write a whole number")
        elif kind is None and value in ("true", "false"):
            out[name] = value == "true"
        elif re.fullmatch(r"-?[0-9]{1,18}", value):  # not isdigit(): int() refuses '²', '--5', 5000 digits
            out[name] = int(value)
        else:
            out[name] = value
    return out


def add_root_argument(parser) -> None:
    """`--root DIR`: every file read (rulesets, what they extend, transcripts) must lie under DIR."""
    parser.add_argument("--root", metavar="DIR",
                        help="read files only under this folder (for rulesets and transcripts from strangers)")


def named_options(ref, option_pairs: list[str] | None, root: str | None = None) -> dict | None:
    """The `--option` values for the ruleset `ref` names, each read as its declared type (None for none)."""
    if not option_pairs:
        return None
    from rulespec.lang import model
    return parse_options(option_pairs, model.load(ref, root=root).options) or None


def compile_named(ref, option_pairs: list[str] | None = None, root: str | None = None):
    """Compile the ruleset a command names (an id or a path) with its `--option` values, confined to `root`."""
    from rulespec.compiler.build import compile_ruleset
    return compile_ruleset(ref, named_options(ref, option_pairs, root), root=root)


def print_warnings(compiled, err) -> None:
    """Lint's warnings (rulespec/checks/lint.py), located like errors; they do not fail the command."""
    for w in compiled.warnings:
        print(w.render(), file=err)
