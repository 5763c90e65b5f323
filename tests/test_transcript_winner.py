"""`expect.winner` of a complete hand no outcome ended (docs/resolutions.md, docs/transcripts.md): the game's
winner where the hand ends the game, the game's totals before it (`game.totals`) plus the hand's; where the
game goes on, the hand's highest total or [] ("nobody has won the game yet"). Worked from pagat's Casino
("The first player to reach 21 points wins") on a hand whose score the golden transcript works out by hand:
side 0 makes 5, side 1 makes 3."""
import re
from pathlib import Path

import pytest

from rulespec.transcripts.replay import replay

GOLDEN = Path(__file__).parent / "golden" / "casino" / "outsider3-complete-cards-tied-and-the-game-to-21.yaml"


def variant(tmp_path, totals: str, winner: str) -> list[str]:
    text = GOLDEN.read_text(encoding="utf-8")
    text = text.replace("totals: {0: 0, 1: 18}", f"totals: {totals}")
    text = re.sub(r"(?m)^  winner: .*$", f"  winner: {winner}", text)
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return [f.split(": ", 1)[1] for f in replay(path).failures]


@pytest.mark.parametrize("totals, winner", [
    ("{0: 0, 1: 18}", "1"),        # 5 + 0 and 3 + 18 = 21: side 1 reaches the target, the hand's loser
    ("{0: 16, 1: 0}", "0"),        # 21 to 3: the hand's winner wins the game too
    ("{0: 0, 1: 0}", "0"),         # 5 to 3, nobody at 21: the hand's highest total
    ("{0: 0, 1: 0}", "[]"),        # ... or "nobody has won the game yet"
    ("{0: 17, 1: 19}", "[]"),      # 22 to 22: a tie at the top plays on (game.tie: play_on)
    ("{0: 17, 1: 19}", "0"),       # ... the hand's highest total, the game going on
])
def test_the_winner_is_the_games_where_the_hand_ends_it(tmp_path, totals, winner):
    assert variant(tmp_path, totals, winner) == []


@pytest.mark.parametrize("totals, winner, said", [
    ("{0: 0, 1: 18}", "0", "expected [0], got [1] (the game's winner: its totals after this hand are side 0 5, "
                           "side 1 21)"),
    ("{0: 0, 1: 18}", "[]", "expected [], got [1] (the game's winner: its totals after this hand are side 0 5, "
                            "side 1 21)"),
    ("{0: 0, 1: 0}", "1", "expected [1], got [0] (the highest total of the hand; the game goes on, its totals "
                          "after this hand side 0 5, side 1 3: [] says nobody has won it yet)"),
    ("{0: 17, 1: 19}", "[0, 1]", "expected [0, 1], got [0] (the highest total of the hand; the game goes on, "
                                 "its totals after this hand side 0 22, side 1 22: [] says nobody has won it yet)"),
])
def test_a_wrong_winner_says_which_reading_it_was_judged_by(tmp_path, totals, winner, said):
    assert variant(tmp_path, totals, winner) == [f"expect.winner: {said}"]


def test_a_lead_ends_the_game_in_a_transcript(tmp_path):
    # pagat's Seep: a game ends when a side is 100 points ahead; the transcript gives the totals before the hand.
    from rulespec.compiler.build import compile_ruleset
    from rulespec.run.engine import game_winners
    seep = compile_ruleset("seep").module
    assert game_winners(seep, [150, 40]) == [0]
    assert game_winners(seep, [60, 40]) is None
    assert game_winners(seep, [40, 140]) == [1]
    assert game_winners(seep, [40, 139]) is None
