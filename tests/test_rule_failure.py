"""A rule that fails while a hand is played (issue 9 item 7): a located error, the hand unchanged."""
import copy
import random
import textwrap

import pytest

from rulespec.cli.main import run
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, IllegalMove, shuffled_source

# `10 // count(captured)` type-checks, but a play that captures nothing divides by zero.
HALVES = """\
    id: halves
    extends: cirulla
    events:
      halves:
        when: '10 // count(captured) > 1'
        points: 1
        category: scope
    """


def _ruleset(tmp_path):
    path = tmp_path / "halves.yaml"
    path.write_text(textwrap.dedent(HALVES), encoding="utf-8")
    return path


def _state(hand: Hand) -> dict:
    return {k: copy.deepcopy(v) for k, v in hand.__dict__.items() if k not in ("rules", "source")}


def _hand_and_quiet_move(compiled):
    """A fresh hand whose seat to play has a move that captures nothing (captures are forced)."""
    for seed in range(100):
        hand = Hand(compiled.module, 2, 0, shuffled_source(compiled.module.N_CARDS, random.Random(seed)))
        quiet = [(c, m) for c, m in hand.legal_moves() if m == 0]
        if quiet:
            return hand, quiet[0]
    raise AssertionError("no deal in 100 seeds with a move that captures nothing")


def test_a_failing_rule_is_a_located_error_and_the_hand_is_unchanged(tmp_path):
    compiled = compile_ruleset(_ruleset(tmp_path))
    hand, (card, capture) = _hand_and_quiet_move(compiled)
    before = _state(hand)
    with pytest.raises(RulespecError) as info:
        hand.play(hand.current_seat, card, capture)
    err = info.value
    assert not isinstance(err, IllegalMove)
    assert "division by zero" in err.message
    assert err.span is not None and err.span.file.endswith("halves.yaml")
    assert (err.span.line, err.span.column) == (5, 12)   # the condition itself, inside its quotes
    assert _state(hand) == before
    # The hand is still playable: a capturing move (when there is one) divides by a count above 0.
    capturing = [(c, m) for c, m in hand.legal_moves() if m]
    if capturing:
        hand.play(hand.current_seat, *capturing[0])


def test_simulate_reports_the_rule_without_a_traceback(tmp_path, capsys):
    code = run(["simulate", str(_ruleset(tmp_path)), "--games", "1", "--seed", "1", "--workers", "1"])
    out = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out.err + out.out
    assert "halves.yaml:5:12" in out.err and "division by zero" in out.err


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_record_reports_the_rule_without_a_traceback(tmp_path, capsys, bot):
    out_file = tmp_path / "t.yaml"
    code = run(["record", str(_ruleset(tmp_path)), "--seed", "1", "--bot", bot, "-o", str(out_file)])
    out = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out.err + out.out
    assert "halves.yaml:5:12" in out.err and "division by zero" in out.err


# A scoring category whose points divide by zero once the hand is over: every engine that scores a hand
# (the Hand, the generated playout of simulate, ISMCTS's rollouts, the native engine) reports the rule, located,
# no traceback, in the same words.
ZERO_SCORE = """\
    id: zero-score
    extends: cirulla
    scoring:
      carte: {points: '10 // (count(pile) - count(pile))'}
    """


@pytest.mark.parametrize("argv", [["--hands", "2"], ["--hands", "2", "--bots", "greedy"], ["--games", "1"],
                                  ["--hands", "1", "--bots", "ismcts:3"], ["--hands", "2", "--engine", "python"]],
                         ids=["default (native)", "playout-greedy", "games", "ismcts", "python (playout)"])
def test_a_failing_scoring_rule_is_located_in_every_engine(argv, tmp_path, capsys):
    path = tmp_path / "zero-score.yaml"
    path.write_text(textwrap.dedent(ZERO_SCORE), encoding="utf-8")
    code = run(["simulate", str(path), "--workers", "1", "--seed", "1", *argv])
    out = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out.err + out.out
    assert f"{path}:4:20: this rule failed: division by zero" in out.err, out.err[-600:]
