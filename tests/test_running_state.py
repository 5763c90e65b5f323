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
    said = {what.split(" (")[0] if "running" not in what else what: (span.line if span else None)
            for what, span in refused}
    assert said == {"the game's running state (game_score) in event 'limpia'": 32,
                    "the game's running state (dealer_side, game_score) in scoring category 'carton'": 40,
                    "game.points: as_made": 52,
                    "outcome 'four_dealt' at: deal": 46}
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
    bad.write_text(text.replace("totals: {0: 38, 1: 12}", "totals: {0: 38, 1: 12}\n  carried: {cartn: 30}"))
    with pytest.raises(RulespecError, match="bad.yaml:11:13: game.carried: 'cartn' is not a category of race; did "
                                            "you mean 'carton'"):
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
    # a carry added to a category both have is a change of that category (tests/test_newcomer23.py)
    assert ("changed: scoring category cards: points carried to the next hand when no one side scores the most in "
            "it: none → 30 points") in out.getvalue()
    for bad, where in [("carry: 0", "expected at least 1, found 0"), ("carry: lots", "expected an integer")]:
        broken = tmp_path / "broken.yaml"
        broken.write_text(CARRY.read_text().replace("carry: 30", bad).replace("id: carry", "id: broken"))
        with pytest.raises(RulespecError, match=f"broken.yaml:29:60: {where}"):
            compile_ruleset(broken)


SWEEPS = HERE / "sweeps.yaml"
# Seat 1 sweeps AH 2S with 3H; seat 0 sweeps AS 2H with 3S and 4H with 4S; the last play sweeps no more.
TWO_TO_ONE = [(1, "AH"), (0, "2S"), (1, "3H", ["AH", "2S"]), (0, "AS"), (1, "2H"), (0, "3S", ["AS", "2H"]),
              (1, "4H"), (0, "4S", ["4H"]), (1, "5H"), (0, "5S", ["5H"])]


def sweeps_hand(rules, dealer: int = 0) -> Hand:
    """Hearts to the seat after the dealer, spades to the dealer."""
    idx = rules.CARD_NAMES.index
    first = (dealer + 1) % 2
    deal = {first: ["AH", "2H", "3H", "4H", "5H"], dealer: ["AS", "2S", "3S", "4S", "5S"]}
    return Hand(rules, 2, dealer,
                DealSource(rounds=[ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in deal.items()})]))


def test_scoring_sees_each_sides_events_and_sweeps_cancel():
    rules = compile_ruleset(SWEEPS).module
    hand = sweeps_hand(rules)
    for seat, card, *capture in TWO_TO_ONE:
        play(hand, seat, card, *capture)
    assert hand.made() == [{"sweep": 2}, {"sweep": 1}]
    rows = hand.score()
    assert [r["sweeps"] for r in rows] == [1, 0]          # 2 - 1, and 1 - 2 floored at 0
    # Side 0 took AS 2H 3S 4H 4S 5H 5S (3 hearts), side 1 AH 2S 3H (2 hearts): 4 hearts points to side 0;
    # cards 7 to 3: 2 to side 0.
    assert rows[0] == {"sweeps": 1, "hearts": 4, "cards": 2, "total": 7}
    assert rows[1] == {"sweeps": 0, "hearts": 0, "cards": 0, "total": 0}


def test_a_tie_is_shared_rounded_down_and_the_dealers_side_is_seen():
    rules = compile_ruleset(SWEEPS).module
    # The first player takes AH 2S 3H 5H 5S, the dealer AS 2H 3S 4H 4S: five cards each, a sweep each.
    plays = [(1, "AH"), (0, "2S"), (1, "3H", ["AH", "2S"]), (0, "AS"), (1, "2H"), (0, "3S", ["AS", "2H"]),
             (1, "4H"), (0, "5S"), (1, "5H", ["5S"]), (0, "4S", ["4H"])]
    for dealer in (0, 1):
        hand = sweeps_hand(rules, dealer)
        for seat, card, *capture in plays:
            play(hand, seat if dealer == 0 else 1 - seat, card, *capture)
        first = 1 - dealer
        rows = hand.score()
        assert [r["sweeps"] for r in rows] == [0, 0]                    # one each: they cancel
        assert rows[first]["hearts"] == 4 and rows[dealer]["hearts"] == 0   # 3 hearts to 2
        # Five cards each: the cards' tie gives 1 to the side that did not deal.
        assert rows[first]["cards"] == 1 and rows[dealer]["cards"] == 0
    # Hearts tied (AH 2H to the first player, 3H 4H to the dealer): 4 shared, 2 each.
    hand = sweeps_hand(rules, 0)
    for seat, card, *capture in [(1, "AH"), (0, "AS", ["AH"]), (1, "2H"), (0, "2S", ["2H"]), (1, "3H"),
                                 (0, "3S", ["3H"]), (1, "4H"), (0, "4S", ["4H"]), (1, "5H"), (0, "5S", ["5H"])]:
        play(hand, seat, card, *capture)
    assert [r["hearts"] for r in hand.score()] == [4, 0]
    hand = sweeps_hand(rules, 0)
    for seat, card, *capture in [(1, "AH"), (0, "2S"), (1, "2H", ["2S"]), (0, "AS", ["AH"]), (1, "3H"),
                                 (0, "3S", ["3H"]), (1, "4H"), (0, "4S", ["4H"]), (1, "5H"), (0, "5S", ["5H"])]:
        play(hand, seat, card, *capture)
    # Side 1: 2H 2S; side 0: AS AH 3S 3H 4S 4H 5S 5H: hearts 1 to 4. Not a tie: 4 to side 0.
    assert [r["hearts"] for r in hand.score()] == [4, 0]


def test_rounding_builtins():
    from rulespec.run import runtime
    assert [runtime.round_up(n, 2) for n in (5, 6, 7, 8, -3)] == [6, 6, 8, 8, -2]
    assert [runtime.round_down(n, 3) for n in (5, 6, -1)] == [3, 6, -3]
    with pytest.raises(RulespecError, match="found 0"):
        runtime.round_up(3, 0)


def test_made_refuses_what_it_cannot_count(tmp_path):
    (tmp_path / "sweeps.yaml").write_text(SWEEPS.read_text())
    for text, message in [
        ("scoring:\n  sweeps: {points: 'made(\"swep\")'}\n",
         "v.yaml:4:26: made() counts event 'swep', which this ruleset does not make (events: sweep); did you mean "
         "'sweep'?"),
        ("scoring:\n  sweeps: {points: 'made(rank(deck))'}\n",
         "v.yaml:4:26: made() takes an event's name in quotes"),
        ("events:\n  sweep: {when: 'made(\"sweep\") > 0'}\n", "v.yaml:4:18: made() is only allowed in scoring"),
        ("scoring:\n  sweeps: {points: 'round_up(count(pile), 0)'}\n",
         "v.yaml:4:43: round_up() rounds to a multiple of a whole number of at least 1, found 0"),
        ("scoring:\n  sweeps: {points: '1 if tied(made(\"sweep\")) else 0'}\n",
         "v.yaml:4:31: made() counts this side's events: it cannot stand inside most()"),
    ]:
        path = tmp_path / "v.yaml"
        path.write_text(f"id: v\nextends: sweeps.yaml\n{text}")
        with pytest.raises(RulespecError) as err:
            compile_ruleset(path)
        assert message in str(err.value), text


def test_scoring_over_events_dealer_and_ties_is_said_and_refused_where_needed():
    from rulespec.authoring.explain import explain
    rs = compile_ruleset(SWEEPS).ruleset
    text = explain(rs)
    assert "the number of sweep events the side made in the hand minus the most sweep events another side made" in text
    assert "4 divided by the number of sides sharing the most hearts with the side (0 if it is not among them), " \
        "rounded down" in text
    assert "the side ties with another side for the most cards and the side's number is other than the dealer's " \
        "side's number" in text
    # The playout scores with the module's score() and no events counted: made() and dealer_side refused there;
    # sharing() and tied() read only the piles, and the playout plays them (the C back end refuses them).
    refused = [w for w, _ in playout_unsupported(rs)]
    assert refused == ["the game's running state (made, rivals_made) in scoring category 'sweeps'",
                       "the game's running state (dealer_side) in scoring category 'cards'"]
    c_refused = [w for w, _ in unsupported(rs)]
    assert c_refused[:2] == refused


def test_the_carton_is_an_expression_with_its_tie_rule_for_the_dealers_side(race):
    rules = race.module
    deck = (1 << 40) - 1

    def carton(taken: int, dealer_side: int = 0, before=(0, 0)) -> list[int]:
        piles = [deck & ((1 << taken) - 1), deck & ~((1 << taken) - 1)]
        return [r["carton"] for r in rules.score(piles, [{}, {}], before=before, dealer_side=dealer_side)]

    assert carton(20) == [0, 2] and carton(20, dealer_side=1) == [2, 0]   # 20 each: the side that did not deal
    assert [carton(n)[0] for n in (19, 21, 22, 23, 24, 30)] == [0, 8, 8, 10, 10, 16]
    assert carton(19) == [0, 8]
    assert carton(24, before=(38, 0)) == [0, 0]                          # at 38 the carton no longer counts


def test_ties_alone_are_played_by_the_playout_in_lockstep(tmp_path):
    from rulespec.compiler.playout import playout_for
    (tmp_path / "sweeps.yaml").write_text(SWEEPS.read_text())
    path = tmp_path / "ties.yaml"
    path.write_text("id: ties\nextends: sweeps.yaml\nscoring:\n  sweeps: {points: 1}\n"
                    "  cards: {points: '2 if most(count(pile)) else (1 if tied(count(pile)) else 0)'}\n")
    compiled = compile_ruleset(path)
    assert playout_unsupported(compiled.ruleset) == [] and playout_for(compiled) is not None
    refused = [(w, s.line) for w, s in unsupported(compiled.ruleset)]       # located in the variant
    assert [("sharing()" in w or "tied()" in w, line) for w, line in refused] == [(True, 41), (True, 5)]
    fast = to_dict(simulate(compiled, hands=200, seed=2, workers=1))
    assert fast == to_dict(simulate(compiled, hands=200, seed=2, workers=1, playout=False))


def test_the_public_api_gives_a_hand_its_game():
    import rulespec
    rules = rulespec.compile(str(RACE))
    hand = rules.new_hand(seed=3, game=rulespec.GameState((36, 12)))
    assert hand.before == (36, 12) and hand.running_totals() == [36, 12]
    for bad in [(36, 12), rulespec.GameState(36), rulespec.GameState((1, 2), (("carton", 5),))]:
        with pytest.raises(RulespecError):
            rules.new_hand(seed=3, game=bad)


def test_a_hand_bonus_open_only_while_the_scores_allow_it(tmp_path):
    # open_when: a condition on the declaring side's game scores; the bonus is offered and accepted only while
    # it holds. It reads the running state: the playout and the C back end refuse it, located at it.
    pairs = tmp_path / "pairs.yaml"
    pairs.write_text(CARRY.read_text().replace("id: carry", "id: pairs").replace(
        ", carry: 30}", "}\n  pair: {from_events: true}") + "hand_bonuses:\n  pair:\n    size: 2\n"
        "    when: same_rank(cards)\n    open_when: game_score < 10 and rival_score < 20\n"
        "    points: 3\n    category: pair\ndeclarations:\n  timing: after_deal\n")
    compiled = compile_ruleset(pairs)
    rules = compiled.module
    idx = rules.CARD_NAMES.index
    for totals, offered in [((0, 0), True), ((10, 0), False), ((0, 20), False), ((9, 19), True)]:
        source = DealSource(rounds=[ExplicitRound(None, {0: [idx("AH"), idx("AS"), idx("2H")],
                                                         1: [idx("2S"), idx("3H"), idx("3S")]})])
        hand = Hand(rules, 2, 1, source, GameState(totals))
        assert bool(hand.bonus_options(0)) is offered, totals
    assert [(w, s.line) for w, s in playout_unsupported(compiled.ruleset)] == \
        [("the game's running state (game_score, rival_score) in hand bonus 'pair' open_when", 39)]
    assert [(w, s.line) for w, s in unsupported(compiled.ruleset)] == \
        [(w, s.line) for w, s in playout_unsupported(compiled.ruleset)]
    bad = tmp_path / "bad.yaml"
    bad.write_text(pairs.read_text().replace("open_when: game_score < 10", "open_when: count(cards) < 10"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(bad)
    assert "bad.yaml:39:" in str(err.value) and "'cards'" in str(err.value)
