"""Which line of a misaligned YAML block is the odd one out.

YAML reports a block whose lines do not line up at the first line that leaves it: with `game:` over
`   target: 61` (3 spaces) and `  tie: extra` (2), at `tie`, one line after the mistake. With the
file's own indentation step, the line that breaks it is found and named instead.
"""
from __future__ import annotations


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _content(lines: list[str]) -> list[tuple[int, int]]:
    """(line number, indent) of each line that holds YAML (not blank, not only a comment)."""
    return [(i + 1, _indent(line)) for i, line in enumerate(lines)
            if line.strip() and not line.lstrip(" ").startswith("#")]


def _step(rows: list[tuple[int, int]], skip: range) -> int:
    """The indentation step the file uses elsewhere: the most common increase from a line to the next
    (2, the usual one, when the file shows none)."""
    counts: dict[int, int] = {}
    for (_, before), (number, after) in zip(rows, rows[1:]):
        if after > before and number not in skip:
            counts[after - before] = counts.get(after - before, 0) + 1
    return max(counts, key=lambda step: (counts[step], -step)) if counts else 2


def misindented(text: str, line: int) -> tuple[int, int, str] | None:
    """For YAML's "not expected here" at `line`: (line, column, message) naming the line that is off the
    file's step: the line above that starts the block, or `line` itself when only it is off; else None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    rows = [row for row in _content(lines) if row[0] <= line]
    indent = _indent(lines[line - 1])
    above = [row for row in rows if row[0] < line]
    block = []
    for number, depth in reversed(above):
        if depth <= indent:
            parent = depth
            break
        block.append((number, depth))
    else:
        return None
    if not block:
        return None
    first, depth = block[-1]
    # The line after `line` steps from the odd line, so its increase says nothing of the file's step.
    step = _step(_content(lines), range(first, line + 2))
    if depth - parent == step and indent - parent != step:
        # The block above is in step and `line` is the odd one: the report stays there, saying why.
        return (line, indent + 1,
                f"indented {_spaces(indent)}, but line {first} above it, in the same block, {depth}: the lines "
                f"of a block line up (this file indents by {step}); check the indentation")
    if depth - parent == step or indent - parent != step:
        return None
    return (first, depth + 1,
            f"indented {_spaces(depth)}, but line {line} below it, in the same block, {indent}: the lines of a "
            f"block line up (this file indents by {step}); check the indentation")
