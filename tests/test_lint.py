"""Static checks (rulespec/lint.py) beyond the catalogue: what they find, what they must not, and their cost."""
from __future__ import annotations

import textwrap

import pytest

from tests.work import count_calls

from rulespec.checks import lint
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError, Span
from rulespec.source.rulesets import note_inherited, shipped_ids


def checked(tmp_path, text: str, options=None):
    """The compiled ruleset: lint's warnings, then those the compiled bonus conditions find."""
    path = tmp_path / "v.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return compile_ruleset(path, options)


def warnings(compiled) -> list[str]:
    return [w.message for w in compiled.warnings]


@pytest.mark.parametrize("rid", shipped_ids())
def test_shipped_rulesets_are_clean(rid):
    assert compile_ruleset(rid).warnings == ()


BONUSES = [
    # (bonus mapping, the warning it gives or None)
    ("{size: 3, when: 'total(cards) <= 9', points: 1, category: scope}", None),
    ("{size: 3, when: 'total(cards) >= 31', points: 1, category: scope}",
     "hand bonus 'x' can never be made: no 3 cards of deck french40 satisfy its condition (the wild card "
     "declared as any rank it may take)"),
    # Two KH: the real one and the wild card declared as a king (the virtual card keeps the wild card's suit).
    ("{size: 3, when: 'count(cards, rank == \"K\" and suit == \"H\") == 2', points: 1, category: scope}", None),
    ("{size: 3, when: 'count(cards, rank == \"K\" and suit == \"H\") == 2', points: 1, category: scope, wild: false}",
     "hand bonus 'x' can never be made: no 3 cards of deck french40 satisfy its condition"),
    ("{size: 1, when: 'value(cards) == 10', points: 1, category: scope}", None),
    ("{size: 2, when: 'round == 9 and same_value(cards)', points: 1, category: scope}",
     "hand bonus 'x' can never be made: no 2 cards of deck french40 satisfy its condition (the wild card "
     "declared as any rank it may take)"),
    ("{size: 2, when: 'round == 6 and same_value(cards)', points: 1, category: scope}", None),  # 2 players
    ("{size: 3, when: 'last_round and total(cards) == 30', points: 1, category: scope}", None),
    # Made with the whole hand: not enumerated, so no verdict.
    ("{size: 3, when: 'count(hand) > 12', points: 1, category: scope}", None),
    # Four cards: more than a hand holds (and too many combinations to try).
    ("{size: 4, when: 'total(cards) > 40', points: 1, category: scope}",
     "hand bonus 'x' is made by 4 cards, but a hand holds at most 3 in the rounds it may be declared"),
]


@pytest.mark.parametrize("bonus, expected", BONUSES, ids=[b for b, _ in BONUSES])
def test_bonus_that_can_never_be_made(tmp_path, bonus, expected):
    rs = checked(tmp_path, f"""\
        id: v
        extends: cirulla
        hand_bonuses:
          x: {bonus}
        """)
    assert warnings(rs) == ([expected] if expected else [])


def test_every_combination_is_cheap(tmp_path):
    # The worst case: a 52-card deck and a bonus nothing makes, so every triple is tried.
    rs, calls = count_calls(checked, tmp_path, """\
        id: v
        extends: cicera
        hand_bonuses:
          x: {size: 3, when: 'total(cards) > 30', points: 1, category: scua}
        declarations: {timing: first_turn}
        """)
    # About 560,000 calls today, the whole compile included (tests/work.py: work counted, not timed).
    assert calls < 3_000_000
    assert warnings(rs) == ["hand bonus 'x' can never be made: no 3 cards of deck bresciane52 satisfy its condition"]


def test_an_option_read_only_by_a_switch_is_used(tmp_path):
    rs = checked(tmp_path, """\
        id: v
        extends: cirulla
        options:
          decino: {type: bool, default: true}
        hand_bonuses:
          decino: {enabled: options.decino}
          barsega: {excluded_by: []}
        """)
    assert warnings(rs) == []


def test_disabled_rules_are_still_checked(tmp_path):
    # With the option off the event is dropped, but with it on it would score in an unknown category.
    with pytest.raises(RulespecError) as info:
        checked(tmp_path, """\
            id: v
            extends: cirulla
            options:
              extra: {type: bool, default: false}
            events:
              extra: {when: 'count(captured) >= 4', enabled: options.extra}
            """)
    assert info.value.headline().endswith("event 'extra' scores in unknown scoring category 'extra' (an event "
                                           "scores in the category of its own name unless it says category:)")


def test_errors_come_in_file_and_line_order(tmp_path):
    with pytest.raises(RulespecError) as info:
        checked(tmp_path, """\
            id: v
            extends: cirulla
            scoring:
              b: {points: 'cont(pile)'}
              a: {points: 'holds(pile, 7D)'}
            events:
              scopa: {category: scopa}
            """)
    assert [(e.span.line, e.span.column) for e in info.value.all] == [(4, 16), (5, 16), (7, 21)]


TYPOS = [("setebello", "settebello", True), ("decimo", "decino", True), ("primera", "primiera", True),
         ("grnade", "grande", True), ("re_bello", "settebello", False), ("carte", "certa", False),
         ("x", "y", False), ("scope", "scope", False), ("buffoni", "denari", False)]


@pytest.mark.parametrize("a, b, expected", TYPOS)
def test_typo(a, b, expected):
    assert lint._typo(a, b) is expected


def test_note_inherited_names_the_ruleset_that_inherited():
    files = ["child.yaml", "base.yaml"]
    from pathlib import Path
    errs = note_inherited([RulespecError("x", Span("base.yaml", 1, 1)), RulespecError("y", Span("child.yaml", 2, 1))],
                               [Path(f) for f in files])
    assert [e.headline() for e in errs] == ["base.yaml:1:1: x (inherited by child.yaml)", "child.yaml:2:1: y"]


def test_warning_headline():
    assert lint.LintWarning("m", Span("f.yaml", 3, 4)).headline() == "f.yaml:3:4: warning: m"


@pytest.mark.parametrize("when, warned", [
    ("'10 // count(captured) > 1'", True),
    ("'10 % (count(captured) - 1) > 1'", True),
    ("'10 // max(1, count(captured)) > 1'", False),
    ("'10 // (count(captured) + 1) > 1'", False),
    ("'10 // round > 1'", False),
    ("'count(captured) // 2 > 1'", False),
])
def test_a_divisor_that_may_be_zero(tmp_path, when, warned):
    c = checked(tmp_path, f"""\
        id: v
        extends: cirulla
        events:
          halves: {{when: {when}, points: 1, category: scope}}
        """)
    found = [w for w in c.warnings if "may be 0" in w.message]
    assert bool(found) == warned
    if warned:
        assert found[0].span.line == 4


def test_the_search_charges_every_variant_of_the_wild_card():
    """A set holding the wild card is tried once per rank it may be declared as: each try is charged
    (they were one charge a set, so 20 declared ranks made a search 21 times its budget)."""
    class Spent:
        total = 0

        def spend(self, n=1):
            self.total += n

    wild = 1 << 2

    def variants(name, mask):
        return [mask] + [mask | 1 << 10 + r for r in range(20)] if mask & wild else [mask]
    budget = Spent()
    made, _ = lint._search({"b": lambda *_: False}, "b", [], variants, [(1, False)], 5, 1, budget, {"b": 3})
    assert not made
    assert budget.total == 3 * (4 + 21)      # four cards tried once, the wild card 21 times, each costing 3


def test_an_option_read_only_by_capture_forced_or_leftovers_is_used(tmp_path):
    """`capture.forced` and `capture.leftovers` written over the options read them: no "declared but no expression
    reads" warning for an option that only they read (rulespec/checks/lint.py, check_options)."""
    compiled = checked(tmp_path, """\
        id: v
        extends: cirulla
        options:
          free: {type: bool, default: false, description: capturing is optional}
          leftovers: {type: str, default: last_capturer, choices: [last_capturer, nobody]}
        capture:
          forced: not options.free
          leftovers: options.leftovers
        """)
    assert not [w for w in warnings(compiled) if "declared but no expression reads" in w]
