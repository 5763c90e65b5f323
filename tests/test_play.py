"""`rulespec play`: a person's game driven through injected input and output streams."""
import io
import re
import sys

import pytest

from rulespec.cli.main import run
from rulespec.cli.play import TerminalGame


def play(compiled, answers: str, **kw) -> str:
    out = io.StringIO()
    code = TerminalGame(compiled, inp=io.StringIO(answers), out=out, **kw).run()
    assert code == 0
    return out.getvalue()


def test_one_hand_shows_hand_table_moves_events_and_score(cirulla):
    text = play(cirulla, "1\n" * 60, seed=3, hands=1)
    assert "you are seat 0, side 0 with seat 2" in text
    assert re.search(r"your hand: \S\S \S\S \S\S\n", text)
    assert "table: " in text and "your moves:\n  1) " in text
    assert "— scopa! (+1 scope for side" in text          # events as they happen
    assert "-- round 2: new cards dealt --" in text
    assert "hand 1 score" in text and "game total" in text and "primiera" in text
    assert "stopped after 1 hands" in text


def test_declarations_are_offered_and_made(cirulla):
    # Seed 3 deals seat 0 a barsega (AD 6C AS) in round 3; answering 1 declares it.
    text = play(cirulla, "1\n" * 60, seed=3, hands=1)
    assert "you can declare:\n  1) barsega with AD 6C AS (3 scope)" in text
    assert "you declare barsega with AD 6C AS (3 scope)" in text
    declined = play(cirulla, "1\n" * 6 + "0\n" + "1\n" * 60, seed=3, hands=1)
    assert "you can declare" in declined and "you declare" not in declined


def test_knocks_are_offered_apart_from_a_play():
    from rulespec.compiler.build import compile_ruleset
    text = play(compile_ruleset("cirulla-knock-after-deal"), "1\n" * 200, seed=3, hands=3)
    assert "declare now? number, or 0 for nothing: you declare barsega" in text


def test_bad_input_is_asked_again_and_q_quits(cirulla):
    text = play(cirulla, "9\nxyz\n1\nq\n", seed=3, hands=1)
    assert text.count("type a number from 1 to 3, or q to quit") == 2
    assert text.rstrip().endswith("game abandoned.")
    assert play(cirulla, "", seed=3).rstrip().endswith("game abandoned.")    # end of input


def test_same_seed_same_game(cirulla):
    assert play(cirulla, "2\n" * 60, seed=8, hands=1) == play(cirulla, "2\n" * 60, seed=8, hands=1)


def test_a_whole_game_to_the_target(cirulla):
    text = play(cirulla, "1\n" * 2000, seed=1, seats=2, bots="random")
    assert re.search(r"game over after \d+ hands: side \d wins \[\d+, \d+\] — you (win!|lose\.)", text)


def test_any_seat_and_player_count(cirulla):
    text = play(cirulla, "1\n" * 60, seed=2, seat=2, seats=3, bots="greedy", hands=1)
    assert "you are seat 2, side 2 ===" in text and "-- your turn (seat 2) --" in text


def test_cli_reads_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 60))
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "cirulla", "--seed", "3", "--hands", "1", "--bots", "random,greedy,ismcts:4,random"],
               out, err) == 0, err.getvalue()
    assert "hand 1 score" in out.getvalue()
    assert "seat 2 (ismcts:4)" in out.getvalue()


@pytest.mark.parametrize("argv,message", [
    (["--seat", "4"], "--seat must be a seat from 0 to 3"),
    (["--seats", "5"], "not 5"),
])
def test_bad_arguments(argv, message):
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "cirulla", *argv], out, err) == 2
    assert message in err.getvalue()
