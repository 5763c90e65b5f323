"""Building by subtraction (issue 23, item 1: Zwicker's building "by subtraction as well as addition"):
`capture.builds: {subtract: true}` (docs/language.md, "Builds"), played by `Hand` (run/builds.py).

Each test names the rule it checks. The ruleset is tests/test_builds.py's, with `subtract: true`: a played
card laid on one loose table card of greater value makes a build of the difference; with `raise`, a single
build may be lowered so; the rest of the construct (holding the value, taking whole, multiple, the owner's
duty) is unchanged."""
import pytest

from rulespec.authoring.diff import report as diff_text
from rulespec.authoring.explain import builds_words
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.run.builds import move_words
from rulespec.run.engine import IllegalMove
from rulespec.transcripts.replay import replay
from tests.test_builds import _build, _hand, _ruleset
from tests.conftest import card_of, mask_of


@pytest.fixture
def rules(tmp_path):
    return compile_ruleset(_ruleset(tmp_path, "{subtract: true}")).module


def test_a_card_laid_on_a_greater_card_builds_the_difference(rules):
    # 3H on the 10C: a build of 7, and s0 holds 7S
    hand = _hand(rules, ["10C", "9D", "KD", "QS"], ["3H", "7S", "2C", "JH"], ["AC", "4C", "6C", "8C"])
    moves = set(hand.legal_moves())
    assert (card_of(rules, "3H"), _build(rules, 7, "10C")) in moves
    hand.play(0, card_of(rules, "3H"), _build(rules, 7, "10C"))
    (b,) = hand.builds
    assert (b.cards, b.value, b.owners, b.fixed) == (mask_of(rules, "3H", "10C"), 7, (0,), False)
    # taken only whole, by a card of 7 (not by a 10, nor by a 3)
    hand.play(1, card_of(rules, "AC"), 0)
    hand.play(0, card_of(rules, "7S"), mask_of(rules, "3H", "10C"))
    assert hand.builds == [] and hand.piles[0] == mask_of(rules, "3H", "10C", "7S")


def test_without_subtract_the_difference_is_no_build(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "true")).module
    hand = _hand(rules, ["10C", "9D", "KD", "QS"], ["3H", "7S", "2C", "JH"], ["AC", "4C", "6C", "8C"])
    assert (card_of(rules, "3H"), _build(rules, 7, "10C")) not in set(hand.legal_moves())
    with pytest.raises(IllegalMove, match="cannot build 7"):
        hand.play(0, card_of(rules, "3H"), _build(rules, 7, "10C"))


def test_a_subtraction_needs_the_difference_held_and_a_greater_card(rules):
    # 2C on the 9D would be 7: s0 holds no 7 here; 9D on nothing smaller; 3H on 2C is no difference (3 > 2)
    hand = _hand(rules, ["9D", "2D", "KD", "QS"], ["3H", "2C", "4S", "JH"], ["AC", "4C", "6C", "8C"])
    values = {m >> rules.N_CARDS for _, m in hand.legal_moves()}
    assert 7 not in values
    assert (card_of(rules, "3H"), _build(rules, 1, "2D")) not in set(hand.legal_moves())
    # 3H on the 9D makes 6? s0 holds no 6. 2C on the... 4S + 2D = 6 no. Legal builds: 2C + 2D = 4 (4S held)
    assert (card_of(rules, "2C"), _build(rules, 4, "2D")) in set(hand.legal_moves())


def test_a_subtraction_set_with_a_loose_set_of_the_value_makes_a_multiple_build(rules):
    # 3H on 10C is 7, with 4D + 3S (7) beside it: two sets of 7, fixed
    hand = _hand(rules, ["10C", "4D", "3S", "QS"], ["3H", "7S", "2C", "JH"], ["AC", "4C", "6C", "8C"])
    move = _build(rules, 7, "10C", "4D", "3S")
    assert (card_of(rules, "3H"), move) in set(hand.legal_moves())
    hand.play(0, card_of(rules, "3H"), move)
    (b,) = hand.builds
    assert (b.value, b.fixed) == (7, True)


def test_a_single_build_is_lowered_by_a_card_from_the_hand(rules):
    # s0 builds 9 (4H + 5D); s1, holding a 6, lays the 3C on it: 9 - 3 = 6, and s1 now owns it
    hand = _hand(rules, ["5D", "KD", "QS", "JD"], ["4H", "9S", "2C", "JH"], ["3C", "6C", "AC", "8C"])
    hand.play(0, card_of(rules, "4H"), _build(rules, 9, "5D"))
    lowered = _build(rules, 6, "4H", "5D")
    assert (card_of(rules, "3C"), lowered) in set(hand.legal_moves())
    hand.play(1, card_of(rules, "3C"), lowered)
    (b,) = hand.builds
    assert (b.cards, b.value, b.owners, b.fixed) == (mask_of(rules, "4H", "5D", "3C"), 6, (1,), False)


def test_raise_false_lowers_no_build(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "{subtract: true, raise: false}")).module
    hand = _hand(rules, ["5D", "KD", "QS", "JD"], ["4H", "9S", "2C", "JH"], ["3C", "6C", "AC", "8C"])
    hand.play(0, card_of(rules, "4H"), _build(rules, 9, "5D"))
    assert (card_of(rules, "3C"), _build(rules, 6, "4H", "5D")) not in set(hand.legal_moves())


def test_a_fixed_build_is_not_lowered(rules):
    # s0 makes a multiple build of 9 (4H + 5D, 9D); s1's 3C may not lower it to 6
    hand = _hand(rules, ["5D", "9D", "QS", "JD"], ["4H", "9S", "2C", "JH"], ["3C", "6C", "AC", "8C"])
    hand.play(0, card_of(rules, "4H"), _build(rules, 9, "5D", "9D"))
    assert hand.builds[0].fixed
    assert not any(m >> rules.N_CARDS == 6 for _, m in hand.legal_moves())


def test_a_lowered_build_in_words(rules):
    hand = _hand(rules, ["5D", "KD", "QS", "JD"], ["4H", "9S", "2C", "JH"], ["3C", "6C", "AC", "8C"])
    hand.play(0, card_of(rules, "4H"), _build(rules, 9, "5D"))
    words = move_words(_build(rules, 6, "4H", "5D"), hand.builds, rules.N_CARDS, rules.card_names)
    assert words.startswith("lowers the build of 9")


def test_explain_and_diff_say_building_by_subtraction(tmp_path):
    with_it = compile_ruleset(_ruleset(tmp_path, "{subtract: true}")).ruleset
    without = compile_ruleset(_ruleset(tmp_path, "true", "plain.yaml")).ruleset
    assert "by subtraction" in builds_words(with_it.builds)
    assert "by subtraction" not in builds_words(without.builds)
    changes = diff_text(without, with_it)
    assert "by subtraction" in changes


def test_the_fast_back_ends_refuse_it_located(tmp_path):
    path = _ruleset(tmp_path, "{subtract: true}")
    compiled = compile_ruleset(path)
    assert any("builds" in what for what, _ in playout_unsupported(compiled.ruleset))
    assert any("builds" in what for what, _ in unsupported(compiled.ruleset))


def test_a_transcript_writes_a_subtraction_build_as_any_build(tmp_path):
    path = _ruleset(tmp_path, "{subtract: true}")
    t = tmp_path / "t.yaml"
    t.write_text(f"""\
ruleset: {path}
seats: 2
dealer: 1
deal:
  - table: [10C, 9D, KD, QS]
    hands: {{0: [3H, 7S, 2C, JH], 1: [AC, 4C, 6C, 8C]}}
plays:
  - {{seat: 0, card: 3H, build: [10C], value: 7}}
expect:
  table: [9D, KD, QS, {{build: [3H, 10C], value: 7, owner: 0, fixed: false}}]
""")
    result = replay(t)
    assert result.ok, result


def test_the_zwicker_transcripts_pin_down_every_build_rule():
    # rulespec test --coverage: subtract (written in zwicker) is flipped too, and every mutation is caught
    from pathlib import Path

    from rulespec.source.rulesets import load_merged
    from rulespec.transcripts.coverage import coverage, mutations
    found = {(m.rule, m.change) for m in mutations(load_merged("zwicker")[0])}
    assert ("capture.builds.subtract", "false") in found
    golden = sorted((Path(__file__).parent / "golden" / "zwicker").glob("*.yaml"))
    report = coverage("zwicker", golden)
    assert report.survivors == [] and report.count("invalid") == 0
