"""Constant folding on the tree (rulespec/lang/constant.py): what `enabled` and the target compute to."""
import pytest

from rulespec.checks.check import context
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError, Span
from rulespec.lang import typecheck as tc
from rulespec.lang.constant import value_of
from rulespec.lang.expressions import parse


def fold(text: str, expected=None):
    rs = compile_ruleset("cirulla").ruleset
    ctx = context(rs, {})
    tree = parse(text, Span("t.yaml", 1, 1))
    tc.check(tree, ctx, expected)
    return value_of(tree, ctx)


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7),
    ("-7 // 2", -4),
    ("7 % 3 == 1 and not false", True),
    ('count(deck, suit == "D")', 10),
    ('count(deck, value == 7 and suit in ["D", "H"])', 2),
    ("total([7D, KD])", 17),
    ('rank(select(deck, value == 1))', "A"),
    ("holds_all(deck, [AD, 2D]) and not empty(deck - deck | [KD])", True),
    ("max(1, min(5, abs(-3)))", 3),
    ("3 if count([AD, AS]) > 1 else 4", 3),
    ("run(select(deck, suit == \"D\"), [AD, 2D, 3D])", 3),
    ("same_rank([AD, AS]) and not same_suit([AD, AS])", True),
])
def test_values(text, value):
    assert fold(text) == value


def test_division_by_zero_is_located():
    with pytest.raises(RulespecError) as info:
        fold("1 + 10 // (2 - 2)")
    assert info.value.message == "division by zero" and info.value.span.column == 5
