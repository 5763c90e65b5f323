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
    assert "stopped after 1 hand;" in text


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
    assert re.search(r"game over after \d+ hands: side \d wins; ", text)


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
    (["--seats", "0"], "not 0"),
])
def test_bad_arguments(argv, message):
    out, err = io.StringIO(), io.StringIO()
    assert run(["play", "cirulla", *argv], out, err) == 2
    assert message in err.getvalue()


def _wild_declared_and_held(cirulla):
    """Seat 1 declares a barsega with 7H (the wild card) as an ace and keeps 7H in hand."""
    from rulespec.run.engine import DealSource, ExplicitRound, Hand
    rules = cirulla.module
    c = rules.CARD_NAMES.index
    hands = {1: ["7H", "AS", "AD"], 2: ["JS", "4D", "QH"], 3: ["7C", "3S", "2D"], 0: ["4S", "6C", "KH"]}
    deal = ExplicitRound([c(x) for x in ["2C", "5S", "6H", "QD"]], {s: [c(x) for x in v] for s, v in hands.items()},
                         False, None)
    hand = Hand(rules, 4, 0, DealSource(rounds=[deal, deal]))
    decl = next(d for d in hand.bonus_options(1) if d.cards >> c("7H") & 1 and d.wild_rank is not None)
    probe = hand.with_declarations(1, [decl])
    card, capture = next((m for m in probe.legal_moves() if m[0] != c("7H")))
    hand.play(1, card, capture, [decl])
    assert hand.hands[1] >> c("7H") & 1 and hand.wild_as is not None
    return hand


@pytest.mark.parametrize("me, says", [(0, False), (2, False), (1, True)])
def test_the_wild_cards_value_is_said_only_where_it_is_seen(cirulla, me, says):
    hand = _wild_declared_and_held(cirulla)
    out = io.StringIO()
    game = TerminalGame(cirulla, seat=me, seed=1, inp=io.StringIO(), out=out)
    game.show_state(hand)
    text = out.getvalue()
    assert ("counts as" in text) is says, text
    if says:
        assert re.search(r"your hand: .*7H.*\(the wild card 7H counts as A\)", text), text


def test_the_dealt_table_is_shown_before_anyone_plays(cirulla):
    text = play(cirulla, "1\n" * 60, seed=3, hands=1, seat=3)
    header = text.index("=== hand 1")
    dealt = text.index("dealt to the table: ", header)
    assert dealt < text.index(" plays ", header) and dealt < text.index("-- your turn", header)


def test_the_game_ends_in_words(cirulla):
    text = play(cirulla, "1\n" * 2000, seed=1, seats=2, bots="random")
    last = text.rstrip().splitlines()[-1]
    assert re.fullmatch(r"game over after \d+ hands: side \d wins; side 0 \(yours\) \d+ points, side 1 \d+ points\. "
                        r"You (win!|lose\.)", last), last
    assert "[" not in last
    stopped = play(cirulla, "1\n" * 60, seed=3, hands=1).rstrip().splitlines()[-1]
    assert re.fullmatch(r"stopped after 1 hand; side 0 \(yours\) \d+ points?, side 1 \d+ points?\.", stopped), stopped


def test_bots_one_per_other_seat(cirulla):
    # 3 seats, the person at seat 1: two bots name seats 0 and 2 in seat order.
    game = TerminalGame(cirulla, seat=1, seed=1, seats=3, bots="greedy,ismcts:20", inp=io.StringIO(),
                        out=io.StringIO())
    assert (game.who(0), game.who(1), game.who(2)) == ("seat 0 (greedy)", "you", "seat 2 (ismcts:20)")
    from rulespec.errors import RulespecError
    seat_4 = TerminalGame(cirulla, seat=0, seed=1, seats=4, bots="greedy,random,ismcts", inp=io.StringIO(),
                          out=io.StringIO())
    assert seat_4.bot_names[1:] == ["greedy", "random", "ismcts"]
    with pytest.raises(RulespecError, match=r"names 4 bots for 3 seats \(give one, one per other seat \(2\), "
                                            r"or one per seat\)"):
        TerminalGame(cirulla, seat=0, seed=1, seats=3, bots="greedy,random,greedy,random",
                     inp=io.StringIO(), out=io.StringIO())


def test_a_redeal_says_which_deal_check_and_why(cirulla):
    # Seed 39's first deal lays two aces on the table: the deal check redeal throws it in.
    text = play(cirulla, "1\n" * 60, seed=39, hands=1)
    assert ("deal: redeal (deal check redeal: the table holds two or more aces; the same dealer deals again)\n"
            in text)


def test_a_knock_that_reaches_the_target_ends_the_game():
    """game.points: as_made with bonuses declared apart from a play: cuarenta to 4 points is won by the first ronda
    (4), declared right after a deal; the game ends there (the loop asked the finished hand whose turn it was)."""
    from rulespec.compiler.build import compile_ruleset
    compiled = compile_ruleset("cuarenta", {"target": 4, "last_points": 4})
    ended = [play(compiled, "1\n" * 400, seed=seed, seats=2, bots="greedy") for seed in range(12)]
    assert any("declares ronda" in text for text in ended)
    assert all(re.search(r"game over after \d+ hands?: side \d wins", text) for text in ended)
