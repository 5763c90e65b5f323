"""The game's running state in rules (issue 23, item 3): the game scores so far visible to events and
scoring, points that count as they are made with a game that ends the moment a side reaches the target,
a game won by a lead, an outcome asked at the deal; Hand, Game, transcripts and the back ends' refusals.

The rulesets are tests/running/*.yaml (no game of their own)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulespec.bots.simulate import simulate, to_dict
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.errors import RulespecError
from rulespec.run.engine import DealSource, ExplicitRound, Game, GameState, Hand
from rulespec.transcripts.replay import replay as replay_file

HERE = Path(__file__).parent / "running"
RACE = HERE / "race.yaml"
LEAD = HERE / "lead.yaml"


@pytest.fixture(scope="module")
def race():
    return compile_ruleset(RACE)


def dealt(rules, rounds: list[dict[int, list[str]]], game: GameState | None = None, dealer: int = 0) -> Hand:
    idx = rules.CARD_NAMES.index
    source = DealSource(rounds=[ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in r.items()})
                                for r in rounds])
    return Hand(rules, 2, dealer, source, game)


FIRST = {1: ["3H", "5C", "6C", "7C", "JC"], 0: ["3S", "AD", "2D", "4D", "QD"]}


def play(hand: Hand, seat: int, card: str, capture: list[str] = ()):
    rules = hand.rules
    mask = sum(1 << rules.CARD_NAMES.index(c) for c in capture)
    return [e.name for e in hand.play(seat, rules.CARD_NAMES.index(card), mask)]


def test_a_side_reaching_the_target_as_it_scores_ends_the_game_at_once(race):
    rules = race.module
    hand = dealt(rules, [FIRST], GameState((36, 12)))
    assert play(hand, 1, "3H") == []
    assert play(hand, 0, "3S", ["3H"]) == ["caida", "limpia"]     # 36 + 4: the game is over mid-hand
    assert hand.is_over and hand.cut_short
    assert hand.outcome == ("target", [0])
    # Only the points made count: the carton of an unfinished hand is not scored.
    assert hand.score()[0] == {"caida": 2, "limpia": 2, "carton": 0, "total": 4}


def test_below_the_target_the_hand_plays_on(race):
    hand = dealt(race.module, [FIRST], GameState((20, 12)))
    play(hand, 1, "3H")
    assert play(hand, 0, "3S", ["3H"]) == ["caida", "limpia"]
    assert not hand.is_over and hand.running_totals() == [24, 12]


def test_a_side_at_38_finishes_only_with_a_caida(race):
    rules = race.module
    # At 38 the limpia's condition reads game_score: it no longer holds; the caida alone ends the game.
    hand = dealt(rules, [FIRST], GameState((38, 12)))
    play(hand, 1, "3H")
    assert play(hand, 0, "3S", ["3H"]) == ["caida"]
    assert hand.outcome == ("target", [0])
    # Side 1 at 38: its own limpia of a card seat 0 left earlier (no caida) does not count.
    hand = dealt(rules, [{1: ["3H", "5C", "6C", "7C", "JC"], 0: ["5S", "AD", "2D", "4D", "QD"]}], GameState((0, 38)))
    play(hand, 1, "3H")
    play(hand, 0, "5S")
    assert play(hand, 1, "5C", ["5S"]) == ["caida"]
    assert hand.outcome == ("target", [1])


def test_without_a_game_a_hand_starts_from_nothing(race):
    hand = dealt(race.module, [FIRST])
    assert hand.before == (0, 0) and hand.carried == ()
    with pytest.raises(RulespecError, match="one whole number per side"):
        dealt(race.module, [FIRST], GameState((1, 2, 3)))


def test_four_of_a_kind_dealt_ends_the_game_at_the_deal(race):
    rules = race.module
    hand = dealt(rules, [{1: ["KH", "KD", "KC", "KS", "JC"], 0: ["3S", "AD", "2D", "4D", "QD"]}])
    assert hand.is_over and hand.plays == 0
    assert hand.outcome == ("four_dealt", [1])
    # In a later deal round too: the hand is cut short there.
    rounds = [FIRST, {1: ["KH", "KD", "KC", "KS", "JH"], 0: ["AS", "2S", "4S", "5S", "6S"]}]
    hand = dealt(rules, rounds)
    for seat, card in [(1, "3H"), (0, "QD"), (1, "5C"), (0, "AD"), (1, "6C"), (0, "2D"), (1, "7C"), (0, "4D"),
                       (1, "JC")]:
        play(hand, seat, card)
    assert not hand.is_over
    play(hand, 0, "3S", ["3H"])
    assert hand.outcome == ("four_dealt", [1]) and hand.cut_short


def test_game_gives_each_hand_the_totals_and_ends_mid_hand(race):
    rules = race.module
    for seed in range(6):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            hand = game.new_hand()
            assert hand.before == tuple(game.totals)
            while not hand.is_over:
                seat = hand.current_seat
                hand.play(seat, *rng.choice(hand.legal_moves()))
            game.finish_hand()
        assert game.outcome in ("target", "four_dealt", None)
        if game.outcome == "target":
            assert max(game.totals) >= 40 and game.totals[game.winners[0]] == max(game.totals)


def test_a_game_is_won_by_a_lead():
    rules = compile_ruleset(LEAD).module
    assert rules.LEAD == 10
    for seed in range(4):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            before = list(game.totals)
            hand = game.new_hand()
            while not hand.is_over:
                hand.play(hand.current_seat, *rng.choice(hand.legal_moves()))
            game.finish_hand()
            ahead = [s for s in range(2) if game.totals[s] - game.totals[1 - s] >= 10]
            assert game.winners == (ahead or None), (before, game.totals)
        assert max(game.totals) < 1000


def test_simulate_games_play_the_running_state_through_hand():
    figures = to_dict(simulate(str(RACE), games=5, seed=3, workers=1))
    assert figures == to_dict(simulate(str(RACE), games=5, seed=3, workers=1, playout=False))
    lead = to_dict(simulate(str(LEAD), games=5, seed=3, workers=1))
    assert lead == to_dict(simulate(str(LEAD), games=5, seed=3, workers=1, playout=False))


def test_the_back_ends_refuse_the_running_state_where_it_is_written(race):
    refused = playout_unsupported(race.ruleset)
    said = {what.split(" (")[0]: (span.line if span else None) for what, span in refused}
    assert said == {"event 'limpia' reads the game's running state": 32,
                    "scoring category 'carton' reads the game's running state": 39,
                    "game.points: as_made": 49,
                    "outcome 'four_dealt' at: deal": 43}
    assert [(w, s.line) for w, s in unsupported(race.ruleset)] == [(w, s.line) for w, s in refused]
    # A lead alone is the game's, not the hand's: both back ends play it.
    lead = compile_ruleset(LEAD, {}).ruleset
    assert not [w for w, _ in playout_unsupported(lead) if "lead" in w]


def test_a_transcript_states_the_game_around_its_hand(tmp_path):
    result = replay_file(HERE / "golden" / "race-38-caida.yaml")
    assert result.ok, result.failures
    bad = tmp_path / "bad.yaml"
    text = (HERE / "golden" / "race-38-caida.yaml").read_text().replace("ruleset: ../race.yaml", f"ruleset: {RACE}")
    bad.write_text(text.replace("totals: {0: 38, 1: 12}", "totals: {0: 38}"))
    with pytest.raises(RulespecError) as err:
        replay_file(bad)
    assert str(err.value).endswith("bad.yaml:10:11: game.totals gives sides [0]; race with 2 players has sides "
                                   "0 to 1: give each its total")
    bad.write_text(text.replace("totals: {0: 38, 1: 12}", "totals: {0: 38, 1: 12}\n  carried: {carton: 30}"))
    with pytest.raises(RulespecError, match="bad.yaml:11:13: game.carried: category 'carton' carries no points in race"):
        replay_file(bad)
    bad.write_text(text.replace("totals: {0: 38, 1: 12}", "totalz: {0: 38, 1: 12}"))
    with pytest.raises(RulespecError, match="bad.yaml:10:3: .*totalz"):
        replay_file(bad)


def variant(tmp_path, text: str) -> Path:
    (tmp_path / "race.yaml").write_text(RACE.read_text())
    path = tmp_path / "variant.yaml"
    path.write_text(f"id: variant\nextends: race.yaml\n{text}")
    return path


@pytest.mark.parametrize("text, message", [
    ("capture:\n  kinds: [{kind: match, when: game_score > 0}]\n",
     "variant.yaml:4:31: unknown name 'game_score'"),
    ("scoring:\n  carton: {points: '1 if most(count(pile) + game_score) else 0'}\n",
     "variant.yaml:4:45: 'game_score' is this side's: inside most(), sharing() or tied()"),
    ("events:\n  caida: {when: dealer_side == 0}\n",
     "variant.yaml:4:17: unknown name 'dealer_side'"),
    ("game: {points: sometimes}\n", "variant.yaml:3:16: "),
    ("game: {lead: 0}\n", "variant.yaml:3:14: "),
    ("game: {lead: 'options.far'}\n", "variant.yaml:3:15: unknown option 'far'"),
    ("outcomes:\n  four_dealt: {at: shuffle}\n", "variant.yaml:4:20: "),
    ("outcomes:\n  four_dealt: {when: 'count(pile) > 30'}\n", "variant.yaml:4:29: unknown name 'pile'"),
])
def test_the_running_state_is_refused_where_it_is_not_visible(tmp_path, text, message):
    with pytest.raises(RulespecError) as err:
        compile_ruleset(variant(tmp_path, text))
    assert message in str(err.value)


def test_explain_and_diff_say_the_running_state_in_words(tmp_path):
    import io

    from rulespec.authoring.explain import explain
    from rulespec.cli.main import run
    text = explain(compile_ruleset(RACE).ruleset)
    assert "the side's game score so far is less than 38" in text
    assert "(the number of cards in the side's captured cards minus 14) rounded up to a multiple of 2" in text
    assert "the moment a side reaches 40, alone at the top, it wins" in text
    assert "after every deal, the first seat (in dealing order) for which the player's hand holds exactly four" in text
    assert "a side 10 or more points ahead of every other side wins" in explain(compile_ruleset(LEAD).ruleset)
    out = io.StringIO()
    assert run(["diff", str(RACE), str(LEAD)], out, io.StringIO()) == 1
    said = out.getvalue()
    assert "a lead that wins the game: none → 10 points" in said
    assert ("when a hand's points of play count toward the game: as they are made (the game ends the moment a side "
            "reaches the target) → at the end of the hand") in said


CARRY = HERE / "carry.yaml"
TIED = [(1, "AH"), (0, "AS", ["AH"]), (1, "2H"), (0, "3S"), (1, "3H", ["3S"]), (0, "2S")]   # 2 cards each
TAKEN = [(1, "AH"), (0, "AS", ["AH"]), (1, "2H"), (0, "2S", ["2H"]), (1, "3H"), (0, "3S", ["3H"])]


def played_hand(game: Game, plays) -> Hand:
    rules = game.rules
    idx = rules.CARD_NAMES.index
    deal = {1: ["AH", "2H", "3H"], 0: ["AS", "2S", "3S"]}
    game.hand = hand = Hand(rules, 2, game.dealer,
                            DealSource(rounds=[ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in deal.items()})]),
                            game.state())
    for seat, card, *capture in plays:
        if hand.current_seat != seat:        # the dealer passes on: the same plays, seats swapped
            seat = 1 - seat
        play(hand, seat, card, *capture)
    return hand


def test_a_tied_category_carries_its_points_to_the_next_hand_that_has_a_winner():
    rules = compile_ruleset(CARRY).module
    assert rules.CARRY == {"cards": 30}
    game = Game(rules, dealer=0)
    hand = played_hand(game, TIED)
    assert [r["cards"] for r in hand.score()] == [0, 0]
    game.finish_hand()
    assert game.carried == {"cards": 30} and game.totals == [1, 1]
    game.dealer = 0
    hand = played_hand(game, TIED)
    assert hand.carried == (("cards", 30),)
    game.finish_hand()
    assert game.carried == {"cards": 60}           # tied again: both hands' points carried on
    game.dealer = 0
    hand = played_hand(game, TAKEN)
    assert hand.score()[0] == {"cards": 90, "pairs": 3, "total": 93}
    game.finish_hand()
    assert game.carried == {} and game.totals == [95, 2]


def test_a_transcript_states_the_points_carried_into_its_hand():
    result = replay_file(HERE / "golden" / "carry-taken.yaml")
    assert result.ok, result.failures


def test_carry_is_refused_by_the_back_ends_and_said_in_words(tmp_path):
    import io

    from rulespec.authoring.explain import explain
    from rulespec.cli.main import run
    rs = compile_ruleset(CARRY).ruleset
    assert [(w, s.line, s.column) for w, s in playout_unsupported(rs)] == \
        [("scoring category 'cards': carry (points carried to the next hand)", 29, 60)]
    assert [(w, s.line) for w, s in unsupported(rs)] == [(w, s.line) for w, s in playout_unsupported(rs)]
    assert ("When no one side scores the most in `cards` (a tie, or nobody scores in it), 30 points are carried to "
            "the next hand") in explain(rs)
    plain = tmp_path / "plain.yaml"
    plain.write_text(CARRY.read_text().replace(", carry: 30", "").replace("id: carry", "id: plain"))
    out = io.StringIO()
    run(["diff", str(plain), str(CARRY)], out, io.StringIO())
    assert ("added: scoring category cards: points carried to the next hand when no one side scores the most in "
            "it: 30 points") in out.getvalue()
    for bad, where in [("carry: 0", "expected at least 1, found 0"), ("carry: lots", "expected an integer")]:
        broken = tmp_path / "broken.yaml"
        broken.write_text(CARRY.read_text().replace("carry: 30", bad).replace("id: carry", "id: broken"))
        with pytest.raises(RulespecError, match=f"broken.yaml:29:60: {where}"):
            compile_ruleset(broken)
