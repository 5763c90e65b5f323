"""docs/cli.md, the command reference, holds each command's `--help` as the parser prints it at 80 columns:
a change to an option that leaves the page behind fails here. `python -m tests.test_cli_reference` rewrites
the page's help blocks from the parser (the prose around them is the page's own)."""
import os
import re
import sys
from pathlib import Path

import pytest

from rulespec.cli.main import COMMAND_NAMES, build_parser

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
# A help block: the marker comment naming the command line, then the fenced text.
BLOCK = re.compile(r"<!-- (rulespec(?: [a-z]+)?) --help -->\n```text\n(.*?)```\n", re.S)


def help_text(command_line: str) -> str:
    """What `COMMAND_LINE --help` prints on an 80-column terminal."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        parser = build_parser()
        words = command_line.split()[1:]
        if not words:
            return parser.format_help()
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        return sub.choices[words[0]].format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def rewritten(text: str) -> str:
    """The page with every help block as the parser prints it now."""
    return BLOCK.sub(lambda m: f"<!-- {m.group(1)} --help -->\n```text\n{help_text(m.group(1))}```\n", text)


def test_every_command_has_its_help_block_once():
    found = [m.group(1) for m in BLOCK.finditer(PAGE.read_text(encoding="utf-8"))]
    assert found == ["rulespec"] + [f"rulespec {name}" for name in COMMAND_NAMES]


@pytest.mark.parametrize("command_line", ["rulespec"] + [f"rulespec {name}" for name in COMMAND_NAMES])
def test_the_help_block_is_what_the_parser_prints(command_line):
    blocks = dict((m.group(1), m.group(2)) for m in BLOCK.finditer(PAGE.read_text(encoding="utf-8")))
    assert blocks[command_line] == help_text(command_line), \
        "docs/cli.md is behind the parser: python -m tests.test_cli_reference rewrites its help blocks"


# Options the page names that belong to other programs: pytest's, for the plugin rulespec registers.
OTHERS = {"--rulespec-golden"}


def test_every_option_the_prose_names_exists():
    """An option the page's prose names (`--name`) is one some command takes (or another program's, OTHERS)."""
    text = BLOCK.sub("", PAGE.read_text(encoding="utf-8"))
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", text))
    known = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", "".join(help_text(c) for c in
                                                                   ["rulespec"] + [f"rulespec {n}" for n in
                                                                                   COMMAND_NAMES])))
    assert named - OTHERS <= known, sorted(named - OTHERS - known)


if __name__ == "__main__":
    PAGE.write_text(rewritten(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)
