"""What the 30-minute fuzz run found (tests/fuzz.py), kept as regression tests; inputs in tests/fuzz_findings/."""
import random
from pathlib import Path

from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, RuleFailed, shuffled_source
from rulespec.transcripts.replay import replay
from tests.invariants import check_hand, majority_categories

FINDINGS = Path(__file__).parent / "fuzz_findings"


def test_a_table_past_the_subset_limit_is_located_at_the_capture_kind():
    compiled = compile_ruleset(FINDINGS / "subset_cap.yaml")
    rules = compiled.module
    hand = Hand(rules, 2, 0, shuffled_source(rules.N_CARDS, random.Random(3)))
    try:
        play_out(hand, [RandomBot(random.Random(k)) for k in range(2)])
    except RuleFailed as err:
        assert err.span is not None and Path(err.span.file).name == "subset_cap.yaml"
        assert err.span.line == 10                 # the capture kinds
        assert err.message.startswith("this rule failed: the table (") and "too many to list" in err.message
    else:
        raise AssertionError("the hand played out: the subset limit was never reached")


def test_a_redeal_with_no_next_round_listed_is_located_at_the_deal():
    path = FINDINGS / "redeal_without_next_round.yaml"
    try:
        replay(path)
    except RulespecError as err:
        assert err.span is not None and Path(err.span.file) == path and err.span.line == 18                 # the deal's round
        # round 1 is listed, and thrown in: what is missing is the new deal after it
        assert "round 1 is thrown in (redeal: true), so the transcript's deal must go on with the new deal" \
            in err.message
    else:
        raise AssertionError("replayed a deal the transcript does not give")


def test_a_seat_out_of_range_is_refused_at_the_play():
    result = replay(FINDINGS / "seat_out_of_range.yaml")
    assert not result.ok
    assert "there is no seat 34: this hand's seats are 0 to 3" in result.failures[0]
    assert result.failures[0].startswith(f"{FINDINGS / 'seat_out_of_range.yaml'}:")


def test_a_point_for_every_side_is_no_broken_majority():
    # `1 if most(X) else 1` mentions most() but gives every side its point: no majority to check.
    compiled = compile_ruleset(FINDINGS / "majority_for_every_side.yaml")
    rules = compiled.module
    hand = Hand(rules, 3, 0, shuffled_source(rules.N_CARDS, random.Random(5)))
    play_out(hand, [RandomBot(random.Random(k)) for k in range(3)])
    assert [row["primiera"] for row in hand.score()] == [1, 1, 1]
    assert check_hand(compiled, hand) == []
    assert "primiera" not in majority_categories(compiled.ruleset)
    assert "carte" in majority_categories(compiled.ruleset)        # scopa's own majorities stay checked
