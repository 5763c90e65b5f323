"""The fishing games that need no builds (issue 23): basra, cuarenta, kasino. Their names are a contract
(transcripts written by others from pagat.com's rules replay against these ids), and each test names the rule
it checks (docs/fishing-family.md)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulespec.compiler.build import compile_ruleset
import random

from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot
from rulespec.run.declarations import Declaration
from rulespec.run.engine import DealSource, ExplicitRound, Game, GameState, Hand, IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of

GOLDEN = Path(__file__).parent / "golden"

CONTRACT = {
    # id: (categories, events, hand bonuses, options, player counts, deck id, deck size)
    "basra": (["basras", "cards", "jacks", "aces", "two_of_clubs", "ten_of_diamonds"], {"basra", "komi_basra"}, [],
              {"target": 101, "last_play_basra": True, "optional_capture": False}, [2, 4], "standard52", 52),
    "cuarenta": (["caida", "limpia", "ronda", "carton"], {"caida", "limpia"}, ["ronda"],
                 {"target": 40, "last_points": 38}, [2, 4], "cuarenta40", 40),
    "kasino": (["mokit", "cards", "spades", "aces", "small_kasino", "big_kasino"], {"mokki"}, [],
               {"target": 16, "mokki_until": 10}, [2, 3, 4], "kasino52", 52),
}


def names(rules, mask):
    return sorted(rules.card_names(mask).split())


@pytest.mark.parametrize("rid", sorted(CONTRACT))
def test_contract_names(rid):
    categories, events, bonuses, options, counts, deck, size = CONTRACT[rid]
    rs = compile_ruleset(rid).ruleset
    assert list(rs.categories) == categories
    assert set(rs.events) == events
    assert list(rs.hand_bonuses) == bonuses
    assert {name: o.default for name, o in rs.options.items()} == options
    assert rs.player_counts == counts
    assert (rs.deck.id, len(rs.deck.names)) == (deck, size)
    assert rs.source.startswith("https://www.pagat.com/") and rs.description


def hand_of(path: Path, game: Game) -> Hand:
    """The hand a golden transcript deals (its explicit rounds), played through to its last listed play."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    rules = game.rules
    idx = rules.CARD_NAMES.index
    rounds = [ExplicitRound([idx(c) for c in r["table"]] if "table" in r else None,
                            {s: [idx(c) for c in cs] for s, cs in r["hands"].items()}) for r in doc["deal"]]
    game.hand = hand = Hand(rules, doc.get("seats", 2), doc["dealer"], DealSource(rounds=rounds), game.state())
    for p in doc["plays"]:
        hand.play(p["seat"], idx(p["card"]), mask_of(rules, *p.get("capture", [])))
    return hand


# -- basra (docs/fishing-family.md, Basra) ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def basra():
    return compile_ruleset("basra").module


def _basra_hand(rules, table, first):
    """Seat 1 to play `first` onto a floor of `table` (dealt as four other cards, then set as the case gives it)."""
    used = set(table + first)
    rest = [c for c in ["8C", "QH", "7S", "KH", "9H", "5C", "4H", "2S"] if c not in used][:4]
    filler = [c for c in ["6S", "8S", "10H", "3S", "5S", "4D", "3D", "2H"] if c not in used][:4]
    h = explicit_hand(rules, 0, filler, {1: first, 0: rest}, seats=2)
    h.table = mask_of(rules, *table)
    return h


def test_basra_a_card_takes_every_card_of_its_rank_and_every_set_at_once(basra):
    # "capture by pairing or summing or both": 9S on 9D 3H 6C 5D 4S takes 9D, 3H 6C and 5D 4S together.
    h = _basra_hand(basra, ["9D", "3H", "6C", "5D", "4S"], ["9S", "2D", "4C", "6H"])
    assert [names(basra, m) for m in h.captures_for(card_of(basra, "9S"))] == [["3H", "4S", "5D", "6C", "9D"]]
    with pytest.raises(IllegalMove):
        h.play(1, card_of(basra, "9S"), mask_of(basra, "9D"))


def test_basra_kings_and_queens_take_only_their_rank(basra):
    h = _basra_hand(basra, ["KD", "QS", "3H", "9C"], ["KS", "QD", "4C", "6H"])
    assert [names(basra, m) for m in h.captures_for(card_of(basra, "KS"))] == [["KD"]]
    assert [names(basra, m) for m in h.captures_for(card_of(basra, "QD"))] == [["QS"]]


def test_basra_capturing_is_compulsory_unless_the_option_frees_it():
    for free, laid in ((False, False), (True, True)):
        rules = compile_ruleset("basra", {"optional_capture": free}).module
        h = _basra_hand(rules, ["9D", "3H", "6C", "KD"], ["9S", "2D", "4C", "6H"])
        assert ((card_of(rules, "9S"), 0) in h.legal_moves()) is laid


@pytest.mark.parametrize("table, card, events", [
    (["5H", "3C", "KD", "9S"], "JS", []),                   # a jack takes the floor: no basra
    (["5H", "3C", "KD", "9S"], "7D", []),                   # 7D with a king on the floor: no basra
    (["6C", "2D", "2H", "AS"], "7D", []),                   # 7D on numerals totalling 11: no basra
    (["6C", "2D", "2H"], "7D", ["komi_basra"]),             # 7D on numerals totalling 10: a komi basra
    (["3C", "4D"], "7H", ["basra"]),                        # a seven taking 3 + 4, the floor cleared: a basra
    (["7C"], "7D", ["komi_basra"]),                         # 7D taking a lone seven: its sweep, a komi basra
])
def test_basra_jack_and_seven_of_diamonds_take_the_floor_and_which_make_a_basra(basra, table, card, events):
    h = _basra_hand(basra, table, [card, "8D", "9D", "QH"])
    [capture] = h.captures_for(card_of(basra, card))
    assert names(basra, capture) == sorted(table)
    assert [e.name for e in h.play(1, card_of(basra, card), capture)] == events


def test_basra_a_jack_or_seven_of_diamonds_on_an_empty_floor_is_laid(basra):
    h = _basra_hand(basra, ["5H", "3C", "KD", "9S"], ["JS", "2D", "4C", "6H"])
    h.table = 0
    assert h.captures_for(card_of(basra, "JS")) == [] and (card_of(basra, "JS"), 0) in h.legal_moves()


def test_basra_jacks_and_the_seven_of_diamonds_dealt_to_the_floor_are_buried(basra):
    # "If the cards on the floor include any jacks or the seven of diamonds, the dealer buries these cards in the
    # undealt pack and replaces them": they go to the bottom of the stock and come back in the last deal.
    deck = yaml.safe_load((GOLDEN / "basra" / "10-partial-deck-jack-and-komi-buried.yaml").read_text())["deck"]
    idx = basra.CARD_NAMES.index
    h = Hand(basra, 2, 0, DealSource(order=[idx(c) for c in deck]))
    assert names(basra, h.table) == sorted(["2C", "5S", "9H", "4D"])
    while not h.over and "JH" not in names(basra, h.hands[0]):
        h.play(h.turn, *h.legal_moves()[0])
    assert h.round == 6                                      # the last deal
    assert {"JH", "7D"} <= set(names(basra, h.hands[0]))     # the stock's last two cards: seat 0's


def test_basra_scoring_cards_30_jacks_aces_two_of_clubs_ten_of_diamonds(basra):
    h = _basra_hand(basra, ["5H", "3C", "KD", "9S"], ["JS", "2D", "4C", "6H"])
    h.piles = [mask_of(basra, "JH", "JD", "AS", "AC", "2C", "3H"), mask_of(basra, "10D", "AH", "JC")]
    assert h.score() == [
        {"basras": 0, "cards": 30, "jacks": 2, "aces": 2, "two_of_clubs": 2, "ten_of_diamonds": 0, "total": 36},
        {"basras": 0, "cards": 0, "jacks": 1, "aces": 1, "two_of_clubs": 0, "ten_of_diamonds": 3, "total": 5}]


def test_basra_a_tie_for_cards_carries_its_30_points_to_the_next_hand(basra):
    # "In the event of a tie (26 cards each) the 30 points are carried to the next hand": golden 04 ties 26-26,
    # golden 03 (dealt by the same seat) gives side 0 the most cards: 30 + 30.
    game = Game(basra, dealer=0)
    hand = hand_of(GOLDEN / "basra" / "04-complete-cards-tied.yaml", game)
    assert [s["cards"] for s in hand.score()] == [0, 0]
    game.finish_hand()
    assert game.carried == {"cards": 30}
    game.dealer = 0
    hand = hand_of(GOLDEN / "basra" / "03-complete-carried-tie-taken.yaml", game)
    assert hand.carried == (("cards", 30),) and [s["cards"] for s in hand.score()] == [60, 0]
    game.finish_hand()
    assert game.carried == {}


# -- cuarenta (docs/fishing-family.md, Cuarenta) ---------------------------------------------------------------


@pytest.fixture(scope="module")
def cuarenta():
    return compile_ruleset("cuarenta").module


FIRST = {1: ["3H", "5C", "6C", "QC", "JC"], 0: ["3S", "AD", "2D", "4D", "KD"]}


def cuarenta_hand(rules, rounds=(FIRST,), totals=(0, 0), dealer=0) -> Hand:
    idx = rules.CARD_NAMES.index
    source = DealSource(rounds=[ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in r.items()})
                                for r in rounds])
    return Hand(rules, 2, dealer, source, GameState(tuple(totals)))


def test_cuarenta_deck_is_a_to_7_and_court_cards_without_value():
    deck = compile_ruleset("cuarenta").ruleset.deck
    assert list(deck.ranks) == ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    assert [deck.values[i] for i in range(7)] == [1, 2, 3, 4, 5, 6, 7]
    assert all(not deck.values[i] for i in range(7, 10))


def test_cuarenta_no_table_cards_five_each_four_deals_for_two_two_for_four():
    from rulespec.checks.check import schedules
    plans = schedules(compile_ruleset("cuarenta").ruleset)
    assert [r[:2] for r in plans[2].rounds] == [(5, 0)] * 4
    assert [r[:2] for r in plans[4].rounds] == [(5, 0)] * 2


def test_cuarenta_a_capture_runs_on_up_the_ranks(cuarenta):
    # "after capturing by matching or adding, the cards in sequence upward from the played card are taken too":
    # a 5 on 5H 6C 7S JD 2H takes 5H 6C 7S JD; a 5 on 2H 3H 6D KS takes 2H 3H (2 + 3) and 6D.
    h = cuarenta_hand(cuarenta)
    h.table = mask_of(cuarenta, "5H", "6C", "7S", "JD", "2H")
    assert [names(cuarenta, m) for m in h.captures_for(card_of(cuarenta, "5C"))] == [["5H", "6C", "7S", "JD"]]
    h.table = mask_of(cuarenta, "2H", "3H", "6D", "KS")
    assert [names(cuarenta, m) for m in h.captures_for(card_of(cuarenta, "5C"))] == [["2H", "3H", "6D"]]


def test_cuarenta_court_cards_take_only_their_rank_and_capture_is_optional(cuarenta):
    h = cuarenta_hand(cuarenta)
    h.table = mask_of(cuarenta, "QH", "5D", "KS")
    assert [names(cuarenta, m) for m in h.captures_for(card_of(cuarenta, "QC"))] == [["KS", "QH"]]   # Q, then K
    assert (card_of(cuarenta, "QC"), 0) in h.legal_moves()


def play_names(h: Hand, seat: int, card: str, capture=()) -> list[str]:
    rules = h.rules
    return [e.name for e in h.play(seat, card_of(rules, card), mask_of(rules, *capture))]


def test_cuarenta_caida_is_taking_by_its_rank_the_card_just_laid(cuarenta):
    h = cuarenta_hand(cuarenta)
    assert play_names(h, 1, "3H") == []
    assert play_names(h, 0, "3S", ["3H"]) == ["caida", "limpia"]     # taken by its rank, and the table cleared
    h = cuarenta_hand(cuarenta)
    play_names(h, 1, "3H")
    play_names(h, 0, "2D")
    assert play_names(h, 1, "5C", ["3H", "2D"]) == ["limpia"]         # 2D, just laid, taken by a sum: no caida


def test_cuarenta_points_count_as_made_and_40_wins_at_once(cuarenta):
    h = cuarenta_hand(cuarenta, totals=(36, 10))
    play_names(h, 1, "3H")
    assert play_names(h, 0, "3S", ["3H"]) == ["caida", "limpia"]
    assert h.over and h.outcome == ("target", [0])


def test_cuarenta_a_side_at_38_finishes_only_with_a_caida(cuarenta):
    # At 38 a limpia and the carton no longer count; a caida (2) takes the side to 40.
    h = cuarenta_hand(cuarenta, totals=(10, 38))
    play_names(h, 1, "3H")
    play_names(h, 0, "2D")
    assert play_names(h, 1, "5C", ["3H", "2D"]) == []                 # side 1 at 38 clears the table: no limpia
    h = cuarenta_hand(cuarenta, totals=(38, 10))
    play_names(h, 1, "3H")
    assert play_names(h, 0, "3S", ["3H"]) == ["caida"]                # the caida counts, the limpia does not
    assert h.over and h.outcome == ("target", [0])


@pytest.mark.parametrize("cards, dealer_side, side, points", [
    (19, 0, 1, 0), (21, 0, 1, 8), (22, 0, 1, 8), (23, 0, 1, 10), (30, 0, 1, 16),
])
def test_cuarenta_carton_20_cards_6_each_further_1_rounded_up_to_even(cuarenta, cards, dealer_side, side, points):
    # (20 cards alone never happens: two sides share 40, so 20 is the tie below; 21 is 7, rounded up to 8.)
    h = cuarenta_hand(cuarenta, dealer=dealer_side)
    deck = list(range(cuarenta.N_CARDS))
    piles = [0, 0]
    piles[side] = sum(1 << c for c in deck[:cards])
    piles[1 - side] = sum(1 << c for c in deck[cards:])
    h.piles = piles
    assert h.score()[side]["carton"] == points


def test_cuarenta_carton_tied_20_each_gives_2_to_the_side_that_did_not_deal(cuarenta):
    for dealer in (0, 1):
        h = cuarenta_hand(cuarenta, dealer=dealer)
        h.piles = [sum(1 << c for c in range(20)), sum(1 << c for c in range(20, 40))]
        assert [row["carton"] for row in h.score()] == [2 if side != dealer else 0 for side in (0, 1)]


def test_cuarenta_carton_is_not_scored_by_a_side_at_38(cuarenta):
    h = cuarenta_hand(cuarenta, totals=(38, 0))
    h.piles = [sum(1 << c for c in range(26)), sum(1 << c for c in range(26, 40))]
    assert h.score()[0]["carton"] == 0


def test_cuarenta_ronda_three_of_a_kind_dealt_scores_4(cuarenta):
    rounds = ({1: ["3H", "5C", "6C", "QC", "JC"], 0: ["3S", "3D", "3C", "4D", "KD"]},)
    h = cuarenta_hand(cuarenta, rounds)
    [decl] = h.best_declarations(0)
    assert [(e.name, e.points, e.side) for e in h.declare(0, [decl])] == [("ronda", 4, 0)]


def test_cuarenta_no_ronda_for_a_side_at_38(cuarenta):
    # pagat: a side at 38 finishes only with a caida, so its ronda is not offered and a declared one is refused
    # (open_when: game_score < options.last_points); the other side, and a side at 36, still declare theirs.
    rounds = ({1: ["5H", "5C", "5S", "QC", "JC"], 0: ["3S", "3D", "3C", "4D", "KD"]},)
    h = cuarenta_hand(cuarenta, rounds, totals=(38, 10))
    assert h.bonus_options(0) == [] and h.best_declarations(0) == []
    assert not h.may_declare(0)
    ronda = Declaration("ronda", mask_of(cuarenta, "3S", "3D", "3C"))
    with pytest.raises(IllegalMove, match="ronda cannot be declared by a side at 38 points"):
        h.declare(0, [ronda])
    assert [e.name for e in h.declare(1, h.best_declarations(1))] == ["ronda"]      # side 1, at 10, scores it
    h = cuarenta_hand(cuarenta, rounds, totals=(36, 10))
    assert [e.points for e in h.declare(0, [ronda])] == [4]                        # 36 + 4: a ronda finishes
    assert h.over and h.outcome == ("target", [0])


def test_cuarenta_four_of_a_kind_dealt_wins_the_game_at_once(cuarenta):
    rounds = ({1: ["3H", "5C", "6C", "QC", "JC"], 0: ["7S", "7D", "7C", "7H", "KD"]},)
    h = cuarenta_hand(cuarenta, rounds)
    assert h.over and h.outcome == ("four_of_a_kind", [0])


def test_a_knock_that_reaches_the_target_ends_the_hand_for_the_bots(cuarenta):
    # game.points: as_made and a bonus declared apart from a play (after_deal): a ronda taking side 0 from 36
    # to 40 ends the game at the knock, and the bots' loop stops there (it asked the finished hand for a seat).
    rounds = ({1: ["3H", "5C", "6C", "QC", "JC"], 0: ["3S", "3D", "3C", "4D", "KD"]},)
    h = cuarenta_hand(cuarenta, rounds, totals=(36, 0))
    bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
    play_out(h, bots)
    assert h.over and h.outcome == ("target", [0]) and [e.name for e in h.events] == ["ronda"]


# -- kasino (docs/fishing-family.md, Kasino) -------------------------------------------------------------------


@pytest.fixture(scope="module")
def kasino():
    return compile_ruleset("kasino").module


def kasino_hand(rules, table, first, totals=(0, 0)):
    """Seat 1 to play `first` onto `table` (dealt as four other cards, then set as the case gives it)."""
    used = set(table + first)
    rest = [c for c in ["8C", "QH", "7S", "KH", "9H", "5C", "4H", "2C"] if c not in used][:4]
    filler = [c for c in ["6S", "8S", "10H", "3S", "5S", "4D", "3D", "2H"] if c not in used][:4]
    idx = rules.CARD_NAMES.index
    rounds = [ExplicitRound([idx(c) for c in filler], {1: [idx(c) for c in first], 0: [idx(c) for c in rest]})]
    h = Hand(rules, 2, 0, DealSource(rounds=rounds), GameState(tuple(totals)))
    h.table = mask_of(rules, *table)
    return h


@pytest.mark.parametrize("table, card, takes", [
    (["AS", "9C", "5D"], "AH", [["5D", "9C"]]),               # an ace from the hand is 14, on the table 1
    (["KC", "2H", "JD"], "2S", [["2H", "KC"]]),               # the small kasino from the hand is 15
    (["9C", "7D", "10S"], "10D", [["7D", "9C"]]),             # the big kasino from the hand is 16, not 10
    (["JH", "5C", "6D"], "JS", [["5C", "6D"], ["5C", "6D", "JH"], ["JH"]]),   # J 11: by value, and by sums
])
def test_kasino_values_from_the_hand_and_on_the_table(kasino, table, card, takes):
    h = kasino_hand(kasino, table, [card, "8D", "9D", "QD"])
    assert sorted(names(kasino, m) for m in h.captures_for(card_of(kasino, card))) == takes


def test_kasino_any_union_of_sets_at_the_players_choice_and_capture_optional(kasino):
    # "Q allows you to take Q and 9 + 3": one set, the other, or both; or the card is laid.
    h = kasino_hand(kasino, ["QH", "9C", "3D", "7S"], ["QS", "4C", "8D", "KC"])
    assert sorted(names(kasino, m) for m in h.captures_for(card_of(kasino, "QS"))) == \
        [["3D", "9C"], ["3D", "9C", "QH"], ["QH"]]
    assert (card_of(kasino, "QS"), 0) in h.legal_moves()


def test_kasino_mokki_not_in_the_last_deal_nor_once_a_player_has_ten(kasino):
    e = compile_ruleset("kasino").ruleset.events["mokki"]
    assert e.points == 0 and "last_round" in e.when.text and "options.mokki_until" in e.when.text
    for totals, events in (((0, 0), ["mokki"]), ((9, 9), ["mokki"]), ((10, 0), []), ((0, 12), [])):
        h = kasino_hand(kasino, ["5H", "3C", "2D", "4S"], ["AH", "8D", "9C", "KC"], totals)
        assert [ev.name for ev in h.play(1, card_of(kasino, "AH"), mask_of(kasino, "5H", "3C", "2D", "4S"))] \
            == events, totals


@pytest.mark.parametrize("mine, theirs, points", [(0, 0, 0), (1, 0, 1), (1, 1, 0), (3, 1, 2), (1, 3, 0)])
def test_kasino_mokit_of_both_sides_cancel(kasino, mine, theirs, points):
    from rulespec.run.engine import Event
    h = kasino_hand(kasino, ["5H", "3C", "2D", "4S"], ["AH", "8D", "9C", "KC"])
    h.events = [Event(1, 0, 0, "mokki", 0, None)] * mine + [Event(1, 1, 1, "mokki", 0, None)] * theirs
    assert h.score()[0]["mokit"] == points


def test_kasino_scoring_cards_spades_aces_and_the_kasinos(kasino):
    h = kasino_hand(kasino, ["5H", "3C", "2D", "4S"], ["AH", "8D", "9C", "KC"])
    h.piles = [mask_of(kasino, "AS", "AC", "2S", "3S", "4S", "5H"), mask_of(kasino, "10D", "AH", "6S")]
    assert h.score() == [
        {"mokit": 0, "cards": 1, "spades": 2, "aces": 2, "small_kasino": 1, "big_kasino": 0, "total": 6},
        {"mokit": 0, "cards": 0, "spades": 0, "aces": 1, "small_kasino": 0, "big_kasino": 2, "total": 3}]


# Kasino for three, and four each alone (pagat, "Kasino in Finland": normally two, but three or four can play;
# a tie for the most spades among three or four shares the 2 points; each player's or team's mokit cancel).


def kasino_sides(rules, n, sides_events, piles=None):
    """A hand of `n` players whose events are `sides_events[side]` mokit, piles as given (per side)."""
    from rulespec.run.engine import Event
    h = Hand(rules, n, 0, DealSource(order=list(range(rules.N_CARDS))), GameState((0,) * rules.SIDES[n]))
    h.events = [Event(1, side, side, "mokki", 0, None) for side, k in enumerate(sides_events) for _ in range(k)]
    if piles is not None:
        h.piles = [mask_of(rules, *p) for p in piles]
    return h


def test_kasino_three_players_each_for_themselves(kasino):
    # 52 cards: 4 each and 4 to the table, then 4 each: four deals of 12.
    from rulespec.checks.check import schedules
    assert kasino.SIDES[3] == 3
    assert [r[:2] for r in schedules(compile_ruleset("kasino").ruleset)[3].rounds] == [(4, 4)] + [(4, 0)] * 3


@pytest.mark.parametrize("made, mokit", [((2, 1, 0), [2, 1, 0]), ((2, 1, 1), [1, 0, 0]), ((1, 1, 1), [0, 0, 0]),
                                         ((3, 0, 2), [3, 0, 2])])
def test_kasino_every_sides_mokit_cancel_one_for_one_among_three(kasino, made, mokit):
    # each side loses as many mokit as the side with the fewest made: (2, 1, 1) -> (1, 0, 0)
    h = kasino_sides(kasino, 3, made, [[], [], []])
    assert [row["mokit"] for row in h.score()] == mokit


def test_kasino_spades_tied_between_two_of_three_are_shared(kasino):
    for piles, spades in [
        ([["2S", "3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "10S"], ["JS", "QS", "KS", "AS"]], [2, 0, 0]),  # 5 4 4
        ([["2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S", "10S"], ["JS", "QS", "KS", "AS"]], [0, 2, 0]),  # 4 5 4
        ([["2S", "3S", "4S", "5S", "6S"], ["7S", "8S", "9S", "10S", "JS"], ["QS", "KS", "AS"]], [1, 1, 0]),  # 5 5 3
    ]:
        assert [row["spades"] for row in kasino_sides(kasino, 3, (0, 0, 0), piles).score()] == spades, piles


def test_kasino_solo_four_sides_of_one():
    rules = compile_ruleset("kasino-solo").module
    assert rules.SEATS_ALLOWED == (4,) and rules.SIDES[4] == 4
    h = kasino_sides(rules, 4, (1, 2, 1, 3), [[], [], [], []])
    assert [row["mokit"] for row in h.score()] == [0, 1, 0, 2]
