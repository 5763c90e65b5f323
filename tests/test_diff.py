"""`rulespec diff`: the differences between two rulesets after inheritance, exactly."""
from __future__ import annotations

import io
import textwrap

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.cli.main import run
from rulespec.authoring.diff import differences

# shared/rules/cirullone.md against cirulla.md: the deal shape, four players only, several bonus
# triples in a hand of 6, declared cards played first, the target 101. Nothing else.
CIRULLONE = """\
cirulla (Cirulla) → cirullone (Cirullone): 5 differences
  changed: numbers of players: 2, 3 or 4 → 4
  changed: the deal: round 1: 3 each, then 4 on the table; round 2: 3 each; round 2 again while cards remain → round 1: 6 each, then 4 on the table; round 2: 3 each
  changed: bonus sets one hand can hold: one → up to two (6 cards in hand)
  changed: declared cards are played before the others: no → yes
  changed: points to win the game: 51 → 101
"""


def diff(a: str, b: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    code = run(["diff", a, b], out, err)
    # As diff: 1 when the rulesets differ, 0 when they do not.
    assert (code, err.getvalue()) == (0 if out.getvalue().endswith("no differences in the rules\n") else 1, "")
    return out.getvalue()


def test_exit_status_is_diffs():
    out = io.StringIO()
    assert run(["diff", "cirulla", "cirulla"], out, io.StringIO()) == 0
    assert out.getvalue() == "cirulla (Cirulla) → cirulla (Cirulla): no differences in the rules\n"
    assert run(["diff", "cirulla", "cirullone"], io.StringIO(), io.StringIO()) == 1


def test_cirulla_to_cirullone_is_the_rules_document():
    assert diff("cirulla", "cirullone") == CIRULLONE


# (base, variant, the differences after the heading line)
CASES = [
    ("cirulla", "cirulla", []),
    ("cirullone", "cirullone-9", [
        "changed: the deal: round 1: 6 each, then 4 on the table; round 2: 3 each → round 1: 3 each in one packet, "
        "then 2 on the table, then 3 each in one packet, then 2 on the table, then 3 each in one packet",
        "changed: bonus sets one hand can hold: up to two (6 cards in hand) → up to three (9 cards in hand)"]),
    ("cirullone", "cirullone-sequential", [
        "changed: when bonuses are declared: at the start of one's first turn with the hand → at the start of any "
        "of one's turns",
        "changed: sets declared at a time: all → one"]),
    ("cirulla", "cirulla-no-decino", [
        "changed: hand bonus barsega: not on cards that can make: decino → no limit",
        "removed: hand bonus decino: three cards such that the declared cards are all of the same value: "
        "10 points in scope"]),
    ("cirulla", "cirulla-capotun", [
        "added: deal check capotun: if the table holds exactly four cards of one rank: the dealer's side wins"]),
    ("cirulla", "cirulla-free-play", ["changed: a card that can capture must capture: yes → no"]),
    ("cirulla", "cirulla-matta-queen", ["changed: the wild card: 7H → QH"]),
    ("cirulla", "cirulla-match-priority", ["changed: capture sum: not when a match exists: no → yes"]),
    ("cicera", "cicera-deal-twos", [
        "changed: the deal: round 1: 12 each in one packet, then 4 on the table → round 1: 12 each (2 at a time), "
        "then 4 on the table"]),
]


@pytest.mark.parametrize("a, b, expected", CASES, ids=[f"{a}-{b}" for a, b, _ in CASES])
def test_differences(a, b, expected):
    lines = diff(a, b).splitlines()
    assert [line.strip() for line in lines[1:]] == expected
    if not expected:
        assert lines[0].endswith("no differences in the rules")


def test_added_and_removed_swap_when_reversed():
    a, b = compile_ruleset("cirulla").ruleset, compile_ruleset("cirulla-a-cinque").ruleset
    forward, backward = differences(a, b), differences(b, a)
    swap = {"added": "removed", "removed": "added", "changed": "changed"}
    assert sorted((swap[d.change], d.label) for d in forward) == sorted((d.change, d.label) for d in backward)


def test_a_variant_file_against_its_base(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(textwrap.dedent("""\
        id: v
        extends: cirulla
        name: Mine
        dealer_bonuses: []
        events:
          scopa: {points: 2}
        options:
          short: {type: bool, default: false}
        game: {target: '26 if options.short else 51'}
        """), encoding="utf-8")
    assert diff("cirulla", str(path)).splitlines() == [
        "cirulla (Cirulla) → v (Mine): 5 differences",
        "  removed: dealer bonus dealer_15: if the cards on the table together total 15 (the wild card counting as any "
        "value from 1 to 10): 1 point in scope, taking the table",
        "  removed: dealer bonus dealer_30: if the cards on the table together total 30 (the wild card counting as any "
        "value from 1 to 10): 2 points in scope, taking the table",
        "  changed: event scopa: points: 1 point in scope → 2 points in scope",
        # The target depends on the option: shown whole (at its default, 51, it was no difference).
        "  changed: points to win the game: 51 → 26 if option short is on, otherwise 51",
        "  added: option short: bool, default false",
    ]


def test_unknown_ruleset_is_a_located_error():
    out, err = io.StringIO(), io.StringIO()
    assert run(["diff", "cirulla", "cirullne"], out, err) == 2
    assert err.getvalue().startswith("unknown ruleset 'cirullne'; expected a shipped id or a path to a .yaml file; "
                                     "did you mean 'cirullone'?")
