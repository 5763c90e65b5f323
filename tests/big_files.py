"""Files of 2 MiB that break no documented bound but the one each is built to break: what validate must
refuse cheaply (tests/test_validate_cost.py counts its work; bench/validate_big.py times it)."""
from __future__ import annotations

from rulespec.source.yamlsafe import MAX_BYTES


def _fill(head: list[str], line, most: int = 48_000) -> str:
    """`head`, then line(i) for i = 0, 1, ... while the file stays under the size limit, `most` lines at
    most (each case stays under the node limit too)."""
    lines, size, i = list(head), sum(len(h) + 1 for h in head), 0
    while i < most:
        text = line(i)
        if size + len(text) + 1 > MAX_BYTES - 64:
            break
        lines.append(text)
        size += len(text) + 1
        i += 1
    return "\n".join(lines) + "\n"


def cases() -> dict[str, str]:
    """The files: each name says what it holds."""
    return {
        "unknown top-level keys": _fill(["id: big", "extends: cirulla"],
                                        lambda i: f"unknown_key_number_{i:06d}_padding_padding: {i}"),
        "hand bonuses past the 64 allowed": _fill(["id: big", "extends: cirulla", "hand_bonuses:"],
                                                  lambda i: f"  bonus_{i:06d}: {{points: 1, when: '"
                                                            + " and ".join(["size(hand) == 3"] * 6) + "'}",
                                                  most=16_000),
        "a syntax error on the last line": _fill(["id: big", "extends: cirulla", "description: >-"],
                                                 lambda i: f"  words of a long description, line {i}") + "x: : y\n",
    }
