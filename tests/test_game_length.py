"""`game.hands`: a game of an agreed number of hands (docs/language.md, "Outcomes and the game"): after that
many hands the highest total wins, a tie at the top plays another hand; with a target too, whichever comes
first. Typed and checked as an options-only integer, rendered by explain and diff."""
import random

import pytest

from rulespec.authoring.diff import report
from rulespec.authoring.explain import explain
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import Game, game_length, stake


def write(tmp_path, game: str, options: str = "") -> str:
    path = tmp_path / "v.yaml"
    path.write_text(f"id: v\nextends: scopa\n{options}game: {game}\n", encoding="utf-8")
    return str(path)


def play_game(rules, seed=0):
    game = Game(rules, 2, seed=seed)
    while not game.is_over:
        hand = game.new_hand()
        play_out(hand, [RandomBot(random.Random(seed * 7 + s)) for s in range(2)])
        game.finish_hand()
        assert game.hands_played <= 50
    return game


def test_a_game_of_n_hands_ends_after_n_hands_unless_tied():
    rules = compile_ruleset("kontsina").module
    assert (rules.TARGET, rules.HANDS) == (None, 4)
    for seed in range(12):
        game = play_game(rules, seed)
        best = max(game.totals)
        assert game.winners == [game.totals.index(best)] and game.totals.count(best) == 1
        assert game.hands_played >= 4
        if game.hands_played > 4:      # it played on: every earlier end was a tie at the top
            assert game.outcome is None


def test_the_option_sets_the_number_of_hands():
    assert compile_ruleset("kontsina", {"hands": 2}).module.HANDS == 2
    assert game_length(compile_ruleset("kontsina", {"hands": 1}).module) == "1 hand"


def test_target_and_hands_whichever_comes_first(tmp_path):
    rules = compile_ruleset(write(tmp_path, "{target: 1000, hands: 2}")).module
    assert game_length(rules) == "first to 1000 or 2 hands"
    game = play_game(rules, 3)
    assert game.hands_played >= 2 and max(game.totals) < 1000
    rules = compile_ruleset(write(tmp_path, "{target: 1, hands: 500}")).module
    assert play_game(rules, 3).hands_played < 500


def test_a_game_with_no_target_values_an_outcome_at_the_margin_alone():
    assert stake(compile_ruleset("kontsina").module) == 0
    assert stake(compile_ruleset("scopa").module) == 11


def test_hands_is_an_options_only_integer(tmp_path):
    with pytest.raises(RulespecError, match="expected int"):
        compile_ruleset(write(tmp_path, "{hands: 'options.flag'}", "options: {flag: {type: bool, default: true}}\n"))
    with pytest.raises(RulespecError, match="unknown name 'pile'|pile"):
        compile_ruleset(write(tmp_path, "{hands: 'count(pile)'}"))


def test_explain_and_diff_render_the_length():
    rs = compile_ruleset("kontsina").ruleset
    # An option's number of hands is said as the option, as an option's target is (the default alone hides it).
    assert ("At the end of a hand, once 4 hands have been played (the number of hands: option hands (4 by "
            "default)), the side with the highest total wins") in explain(rs)
    text = report(compile_ruleset("scopa").ruleset, rs)
    assert "the game's length in hands: not fixed → option hands (4 by default)" in text and "points to win the game: option target (11 by default) → none" in text
