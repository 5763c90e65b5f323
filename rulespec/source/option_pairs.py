"""Option values written as text, `NAME=VALUE` pairs: what the command line's `--option` and OpenSpiel's game
string (rulespec/interop/openspiel.py) both read. Below the command line and the adapters, so that both may
use it (tests/test_layout.py: the command line imports the adapters to play an .npz policy)."""
from __future__ import annotations

from rulespec.errors import RulespecError

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
        elif kind == "int" and not _whole(value):
            raise RulespecError(f"option '{name}' is int, found {value[:60]!r}; write a whole number")
        elif kind is None and value in ("true", "false"):
            out[name] = value == "true"
        elif _whole(value):  # not isdigit(): int() refuses '²', '--5', 5000 digits
            out[name] = int(value)
        else:
            out[name] = value
    return out


def ascii_digits(text: str, most: int) -> bool:
    """Whether `text` is 1 to `most` ASCII digits (r"[0-9]{1,most}"; by str methods: a native run imports no
    `re`)."""
    return 1 <= len(text) <= most and text.isascii() and text.isdigit()


def _whole(value: str) -> bool:
    """A whole number as an option's value is written: r"-?[0-9]{1,18}"."""
    return ascii_digits(value[1:] if value.startswith("-") else value, 18)
