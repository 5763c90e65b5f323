"""Two options of `capture.builds` (docs/language.md, "Builds on the table") that Seep's houses need (pagat: one
house of each value; its owner keeps a card of its value but may throw another): `one_per_value` and
`owner_may_trail`. Each test names the rule it checks; the ruleset is written out (no shipped game needed)."""
import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.run.builds import build_move
from rulespec.run.engine import IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of
from tests.test_builds import BUILDING


def _rules(tmp_path, builds):
    path = tmp_path / "houses.yaml"
    path.write_text(BUILDING.replace("BUILDS", builds))
    return compile_ruleset(path).module


def _hand(rules, table, h0, h1):
    return explicit_hand(rules, 1, table, {0: h0, 1: h1}, seats=2)


def _build(rules, value, *names):
    return build_move(mask_of(rules, *names), value, rules.N_CARDS)


def _two_eights(rules):
    # s0 builds 8 with 5D on 3H; s1 (holding 8C) then has 2H with 6C: another set of 8
    hand = _hand(rules, ["3H", "6C", "KD", "QS"], ["5D", "8S", "4C", "10H"], ["2H", "8C", "9H", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    return hand


def test_without_one_per_value_a_second_build_of_a_value_may_stand_apart(tmp_path):
    rules = _rules(tmp_path, "true")
    hand = _two_eights(rules)
    assert (card_of(rules, "2H"), _build(rules, 8, "6C")) in hand.legal_moves()


def test_one_per_value_joins_a_new_set_of_a_standing_value_to_its_build(tmp_path):
    rules = _rules(tmp_path, "{one_per_value: true}")
    hand = _two_eights(rules)
    moves = hand.legal_moves()
    assert (card_of(rules, "2H"), _build(rules, 8, "6C")) not in moves           # apart: refused
    assert (card_of(rules, "2H"), _build(rules, 8, "6C", "5D", "3H")) in moves   # joined: a multiple build
    with pytest.raises(IllegalMove):
        hand.play(1, card_of(rules, "2H"), _build(rules, 8, "6C"))


def test_one_per_value_raises_no_build_to_the_value_of_another(tmp_path):
    # builds of 8 (s0's) and of 9 (s1's) stand; AD would raise the 8 to 9 beside the 9: refused
    rules = _rules(tmp_path, "{one_per_value: true}")
    hand = _hand(rules, ["3H", "7C", "KD", "QS"], ["5D", "8S", "AD", "9C"], ["2H", "9H", "8C", "6C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "2H"), _build(rules, 9, "7C"))
    moves = hand.legal_moves()
    assert (card_of(rules, "AD"), _build(rules, 9, "5D", "3H")) not in moves
    apart = tmp_path / "apart"
    apart.mkdir()
    other = _rules(apart, "true")                 # without the option the raise is offered
    free = _hand(other, ["3H", "7C", "KD", "QS"], ["5D", "8S", "AD", "9C"], ["2H", "9H", "8C", "6C"])
    free.play(0, card_of(other, "5D"), _build(other, 8, "3H"))
    free.play(1, card_of(other, "2H"), _build(other, 9, "7C"))
    assert (card_of(other, "AD"), _build(other, 9, "5D", "3H")) in free.legal_moves()


def test_owner_may_trail_lets_the_owner_trail_but_not_its_last_card_of_the_value(tmp_path):
    rules = _rules(tmp_path, "{owner_may_trail: true}")
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "4C", "10H"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "6C"), 0)
    assert (card_of(rules, "10H"), 0) in hand.legal_moves()                      # it may trail
    assert (card_of(rules, "8S"), 0) not in hand.legal_moves()                   # not its last 8
    with pytest.raises(IllegalMove, match="must keep a card of 8"):
        hand.play(0, card_of(rules, "8S"), 0)


def test_the_options_are_said_in_words_and_off_by_default(tmp_path):
    from rulespec.authoring.explain import builds_words
    rs = compile_ruleset("casino").ruleset
    assert not rs.builds.one_per_value and not rs.builds.owner_may_trail
    assert "one_per_value" not in repr(compile_ruleset("casino").module.BUILDS)
    path = tmp_path / "houses.yaml"
    path.write_text(BUILDING.replace("BUILDS", "{one_per_value: true, owner_may_trail: true}"))
    words = builds_words(compile_ruleset(path).ruleset.builds)
    assert "At most one build of each value" in words and "may trail another card" in words
