"""The fishing family's first games (chkobba, scopa-a-15, kontsina): their names are a contract (transcripts written
by others from pagat.com's rules replay against these ids), and each test names the rule it checks
(docs/fishing-family.md)."""
import random

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import Hand, IllegalMove, shuffled_source
from tests.conftest import card_of, explicit_hand, mask_of

SCOPA = ["scope", "carte", "denari", "settebello", "primiera"]
FAMILY = {
    # id: (categories, events, deal checks, options, player counts, deck)
    "chkobba": (["chkobbas", "karta", "dinari", "haya", "bermila"], {"chkobba"}, ["three_kings"],
                {"target": 11, "three_kings": True}, [2, 3, 4], "chkobba40"),
    "scopa-a-15": (SCOPA, {"scopa"}, [], {"target": 11}, [2, 3, 4, 6], "latin40"),
    "kontsina": (["cards", "clubs", "good_two", "good_ten"], set(), [], {"hands": 4}, [2], "standard52"),
    "tablanette": (["tablanettes", "cards", "honours", "ten_of_diamonds", "two_of_clubs"], {"tablanette"}, [],
                   {"target": 251, "tablanette_counts_played": True}, [2], "tablanette52"),
    "pishti": (["pishtis", "cards", "jacks", "aces", "two_of_clubs", "ten_of_diamonds"], {"pishti", "jack_pishti"},
               ["four_jacks"],
               {"target": 151, "last_card_pishti": False}, [2, 4], "standard52"),
    "kseri": (["xeres", "cards", "honours", "ten_of_diamonds", "two_of_clubs"], {"xeri", "jack_xeri"}, ["pile_redealt"],
              {"hands": 4, "aces_are_honours": False}, [2, 4], "standard52"),
    "zwicker": (["zwicks", "cards", "ten_of_diamonds", "ten_of_spades", "two_of_spades", "aces"], {"zwick"}, [],
                {"target": 21}, [2, 3, 4], "zwicker55"),
}


@pytest.fixture(scope="module")
def chkobba():
    return compile_ruleset("chkobba").module


@pytest.fixture(scope="module")
def quindici():
    return compile_ruleset("scopa-a-15").module


def names(rules, mask):
    return sorted(rules.card_names(mask).split())


@pytest.mark.parametrize("rid", sorted(FAMILY))
def test_contract_names(rid):
    categories, events, checks, options, counts, deck = FAMILY[rid]
    rs = compile_ruleset(rid).ruleset
    assert list(rs.categories) == categories
    assert set(rs.events) == events
    assert [c.name for c in rs.deal_checks] == checks
    assert {name: o.default for name, o in rs.options.items()} == options
    assert rs.player_counts == counts
    assert rs.deck.id == deck
    assert rs.source.startswith("https://www.pagat.com/") and rs.description


def test_chkobba_deck_is_the_french_pack_with_the_tunisian_court_values():
    # "the 40-card French pack (A-7, J, Q, K; H D C S) with Q 8, J 9, K 10"
    deck = compile_ruleset("chkobba").ruleset.deck
    assert sorted(deck.names) == sorted(r + s for s in "HDCS" for r in ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"])
    assert {r: deck.values[deck.ranks.index(r)] for r in ("Q", "J", "K")} == {"Q": 8, "J": 9, "K": 10}


def _chkobba_hand(rules, table, first_hand):
    other = [c for c in ["AS", "2S", "3S"] if c not in table + first_hand]
    return explicit_hand(rules, 0, table, {1: first_hand, 0: other}, seats=2)


def test_chkobba_queen_takes_eight_jack_nine(chkobba):
    # Q counts 8, J 9: a queen takes 5 + 3, a jack 5 + 4, and a queen cannot take a jack (8 is not 9).
    h = _chkobba_hand(chkobba, ["5H", "3C", "4D", "JC"], ["QH", "JD", "KS"])
    assert [names(chkobba, m) for m in h.captures_for(card_of(chkobba, "QH"))] == [["3C", "5H"]]
    assert sorted(names(chkobba, m) for m in h.captures_for(card_of(chkobba, "JD"))) == [["JC"]]


def test_chkobba_match_before_sum(chkobba):
    # A card that has a match may not take a sum: with 7C on the table a 7 takes 7C, never 4D 3C.
    h = _chkobba_hand(chkobba, ["7C", "4D", "3C", "KH"], ["7H", "5D", "6S"])
    assert [names(chkobba, m) for m in h.captures_for(card_of(chkobba, "7H"))] == [["7C"]]


def test_chkobba_capture_is_compulsory(chkobba):
    # "a card that can capture must": trailing a 7 with 7C on the table is refused.
    h = _chkobba_hand(chkobba, ["7C", "4D", "3C", "KH"], ["7H", "5D", "6S"])
    with pytest.raises(IllegalMove, match="must capture"):
        h.play(1, card_of(chkobba, "7H"), 0)


def test_chkobba_three_kings_void_the_deal_unless_the_option_is_off():
    # Deal check three_kings: three kings among the table cards void the deal; option three_kings: false keeps it.
    from rulespec.errors import RulespecError
    table, hands = ["KC", "KD", "KH", "AD"], {1: ["5C", "5S", "QC"], 0: ["JS", "KS", "AH"]}
    with pytest.raises(RulespecError, match="redeal"):
        explicit_hand(compile_ruleset("chkobba").module, 1, table, hands, seats=2)
    h = explicit_hand(compile_ruleset("chkobba", {"three_kings": False}).module, 1, table, hands, seats=2)
    assert h.dealer_events == []


def _score(rules, piles):
    h = _chkobba_hand(rules, ["5H", "3C", "4D", "JC"], ["QH", "JD", "KS"])
    h.piles = [mask_of(rules, *p) for p in piles]
    return h.score()


@pytest.mark.parametrize("sevens_sixes, winner", [
    ((["7H", "7C", "7S"], ["6H"]), 0),                       # most sevens, fewer sixes: sevens decide
    ((["7H", "7C", "6H", "6C"], ["7S", "7D", "6D"]), 0),     # equal sevens: the most sixes
    ((["7H", "7C", "6H"], ["7S", "7D", "6D", "6C"]), 1),
    ((["7H", "7C", "6H", "6C"], ["7S", "7D", "6D", "6S"]), None),   # equal sevens, equal sixes: nobody
    ((["6H", "6C", "6D", "6S"], ["7H"]), 1),                 # four sixes lose to one seven
])
def test_chkobba_bermila_sevens_then_sixes_then_nobody(chkobba, sevens_sixes, winner):
    score = _score(chkobba, sevens_sixes)
    assert [score[s]["bermila"] for s in (0, 1)] == [int(winner == 0), int(winner == 1)]


def test_chkobba_karta_dinari_haya(chkobba):
    # karta: strictly the most cards; dinari: strictly the most diamonds (a tie: nobody); haya: 7D.
    score = _score(chkobba, (["AD", "2D", "AH", "2H"], ["3D", "4D", "7D"]))
    assert [(score[s]["karta"], score[s]["dinari"], score[s]["haya"]) for s in (0, 1)] == [(1, 0, 0), (0, 1, 1)]
    score = _score(chkobba, (["AD", "AH"], ["3D", "3H"]))
    assert [(score[s]["karta"], score[s]["dinari"]) for s in (0, 1)] == [(0, 0), (0, 0)]


def test_chkobba_sweep_scores_a_chkobba(chkobba):
    # Event chkobba: a capture that empties the table (not on the hand's last play), 1 point in chkobbas.
    h = _chkobba_hand(chkobba, ["5H", "3C", "AD", "JC"], ["JD", "QH", "KS"])
    assert [e.name for e in h.play(1, card_of(chkobba, "JD"), mask_of(chkobba, "JC"))] == []
    assert [e.name for e in h.play(0, card_of(chkobba, "AS"), mask_of(chkobba, "AD"))] == []
    assert [e.name for e in h.play(1, card_of(chkobba, "QH"), mask_of(chkobba, "5H", "3C"))] == ["chkobba"]


def test_scopa_a_15_takes_only_fifteens(quindici):
    # "a card takes table cards that with it total 15": no match (7 on 7 is 14), no sum (a cavallo on 5 4).
    h = explicit_hand(quindici, 0, ["7C", "5S", "4B", "RD"], {1: ["7S", "CD", "AB"], 0: ["2C", "3C", "4C"]}, seats=2)
    assert h.captures_for(card_of(quindici, "7S")) == []
    assert h.captures_for(card_of(quindici, "CD")) == []
    assert sorted(names(quindici, m) for m in h.captures_for(card_of(quindici, "AB"))) == [["4B", "RD"]]   # 1 + 4 + 10; 1 + 5 + 7 is 13


def test_scopa_a_15_keeps_a_table_of_three_kings(quindici):
    # No deal check: three kings on the first table are played (Scopa's three_kings is not inherited).
    h = explicit_hand(quindici, 0, ["RC", "RD", "RB", "5S"], {1: ["5D", "7C", "3B"], 0: ["7S", "AB", "2C"]}, seats=2)
    assert h.dealer_events == []
    assert sorted(names(quindici, m) for m in h.captures_for(card_of(quindici, "5D"))) == [["RB"], ["RC"], ["RD"]]


def test_scopa_a_15_sweep_is_a_scopa(quindici):
    # Event scopa: a fifteen that empties the table (not on the hand's last play).
    h = explicit_hand(quindici, 0, ["7C", "5S", "AD", "RD"], {1: ["2B", "CD", "AB"], 0: ["5C", "3C", "4C"]}, seats=2)
    assert [e.name for e in h.play(1, card_of(quindici, "2B"), mask_of(quindici, "7C", "5S", "AD"))] == []
    assert [e.name for e in h.play(0, card_of(quindici, "5C"), mask_of(quindici, "RD"))] == ["scopa"]


def test_option_target():
    assert compile_ruleset("chkobba", {"target": 21}).ruleset.option_values["target"] == 21
    assert compile_ruleset("scopa-a-15", {"target": 21}).ruleset.option_values["target"] == 21


def test_explain_reads_bermila_in_words():
    # `rulespec explain`: a most() over a number with no phrase of its own reads "the side with the highest
    # number of ...", not "the highest the number of ...".
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset("chkobba").ruleset)
    row = next(line for line in text.splitlines() if line.startswith("| `bermila`"))
    assert "the side with the highest number of sevens in the side's captured cards times 5 plus the number of sixes" in row
    assert "highest the" not in text


def test_custom_deck_suit_names_read_in_explain():
    # A custom deck's suit_names name its suits in words: chkobba's dinari read "the most diamonds" and
    # "the seven of diamonds (7D)", not "the most suit D".
    from rulespec.authoring.explain import explain
    rs = compile_ruleset("chkobba").ruleset
    assert rs.deck.suit_names == ("hearts", "diamonds", "clubs", "spades")
    text = explain(rs)
    assert "the side with the most diamonds" in text and "the seven of diamonds (7D)" in text
    assert "suit D" not in text


@pytest.fixture(scope="module")
def kontsina():
    return compile_ruleset("kontsina").module


def test_kontsina_court_cards_capture_only_by_rank(kontsina):
    # "this is the only way to capture face cards (K, Q, J) as these cards have no numerical value": a queen
    # takes a queen, never a sum; a 10 takes a 10 or numerals summing to 10, never a king.
    h = explicit_hand(kontsina, 0, ["QC", "KS", "4D", "6H"], {1: ["QH", "10D", "2S", "3S"], 0: ["AC", "5C", "7C", "8C"]},
                      seats=2)
    assert h.captures_for(card_of(kontsina, "QH")) == [mask_of(kontsina, "QC")]
    assert sorted(names(kontsina, m) for m in h.captures_for(card_of(kontsina, "10D"))) == [["4D", "6H"]]


def test_kontsina_match_and_sum_both_offered_and_capture_optional(kontsina):
    # No match priority: a 10 may take the 10 or 4 + 6; capturing is optional (a card may be laid).
    h = explicit_hand(kontsina, 0, ["10C", "4C", "6H", "KS"], {1: ["3H", "JS", "QC", "7D"], 0: ["10D", "2C", "AH", "5S"]},
                      seats=2)
    h.play(1, card_of(kontsina, "3H"), 0)
    assert sorted(names(kontsina, m) for m in h.captures_for(card_of(kontsina, "10D"))) == [["10C"], ["4C", "6H"]]
    h.play(0, card_of(kontsina, "10D"), 0)         # laid though it could capture
    assert names(kontsina, h.table) == sorted(["10C", "4C", "6H", "KS", "3H", "10D"])


def test_kontsina_has_no_sweep_event(kontsina):
    # Pagat's Kontsina scores no sweeps: a capture that empties the table makes no event.
    h = explicit_hand(kontsina, 0, ["2C", "3D", "4H", "AS"], {1: ["10S", "JS", "QC", "7D"], 0: ["10D", "2S", "AH", "5S"]},
                      seats=2)
    assert h.play(1, card_of(kontsina, "10S"), mask_of(kontsina, "2C", "3D", "4H", "AS")) == []
    assert h.table == 0


@pytest.mark.parametrize("piles, expected", [
    # cards 2 to strictly the most; clubs 1 to the most clubs; good two 2C; good ten 10D
    ((["2C", "3C", "4H"], ["10D", "AS"]), ({"cards": 2, "clubs": 1, "good_two": 1, "good_ten": 0, "total": 4},
                                          {"cards": 0, "clubs": 0, "good_two": 0, "good_ten": 1, "total": 1})),
    ((["2C", "4H"], ["10D", "3C"]), ({"cards": 0, "clubs": 0, "good_two": 1, "good_ten": 0, "total": 1},
                                    {"cards": 0, "clubs": 0, "good_two": 0, "good_ten": 1, "total": 1})),
])
def test_kontsina_scoring(kontsina, piles, expected):
    h = explicit_hand(kontsina, 0, ["QC", "KS", "4D", "6H"], {1: ["QH", "10S", "2S", "3S"], 0: ["AC", "5C", "7C", "8C"]},
                      seats=2)
    h.piles = [mask_of(kontsina, *p) for p in piles]
    assert tuple(h.score()) == expected


# -- tablanette (docs/fishing-family.md, Tablanette) --------------------------------------------------------

@pytest.fixture(scope="module")
def tablanette():
    return compile_ruleset("tablanette").module


def _tablanette_hand(rules, table, first):
    pool = [r + s for s in "SCDH" for r in ["2", "3", "4", "5", "6", "7", "8", "9"]]
    other = [c for c in pool if c not in table + first][:6]
    return explicit_hand(rules, 0, table, {1: first, 0: other}, seats=2)


def test_tablanette_deck_values_ace_one_or_eleven_queen_13_king_14_jack_none():
    deck = compile_ruleset("tablanette").ruleset.deck
    assert sorted(deck.names) == sorted(r + s for s in "HDCS" for r in
                                        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    values = {r: deck.table_values_of(deck.index(r + "H")) for r in ("A", "10", "J", "Q", "K")}
    assert values == {"A": (1, 11), "10": (10,), "J": (), "Q": (13,), "K": (14,)}


def test_tablanette_a_card_takes_every_set_at_once(tablanette):
    # "every table card of its value and every set summing to it, all at once": a king on 10 4 9 5 takes all four
    h = _tablanette_hand(tablanette, ["10H", "4D", "9C", "5S"], ["KS", "2H", "3H", "6D", "QH", "AH"])
    assert [names(tablanette, m) for m in h.captures_for(card_of(tablanette, "KS"))] == [["10H", "4D", "5S", "9C"]]
    with pytest.raises(IllegalMove, match="cannot take"):
        h.play(1, card_of(tablanette, "KS"), mask_of(tablanette, "10H", "4D"))


def test_tablanette_ace_counts_one_or_eleven_played_and_on_the_table(tablanette):
    h = _tablanette_hand(tablanette, ["AS", "6H", "3D", "8C"], ["7D", "AH", "KS", "2H", "QH", "10C"])
    assert [names(tablanette, m) for m in h.captures_for(card_of(tablanette, "7D"))] == [["6H", "AS"]]   # 1 + 6
    # 11 + 3 and 6 + 8, at once
    assert [names(tablanette, m) for m in h.captures_for(card_of(tablanette, "KS"))] == [["3D", "6H", "8C", "AS"]]
    # played as 11: 3 + 8; as 1 or 11: the ace AS; both sets at once
    assert [names(tablanette, m) for m in h.captures_for(card_of(tablanette, "AH"))] == [["3D", "8C", "AS"]]


def test_tablanette_jack_takes_the_whole_table_without_a_tablanette(tablanette):
    h = _tablanette_hand(tablanette, ["10H", "4D", "9C", "QS"], ["JS", "2H", "3H", "6D", "QH", "AH"])
    assert [names(tablanette, m) for m in h.captures_for(card_of(tablanette, "JS"))] == [["10H", "4D", "9C", "QS"]]
    assert h.play(1, card_of(tablanette, "JS"), mask_of(tablanette, "10H", "4D", "9C", "QS")) == []


@pytest.mark.parametrize("table, card, points", [
    (["10H", "4D", "9C", "5S"], "KS", 42),          # two sets of 14: 10 + 4 + 9 + 5 + 14
    (["2H", "9S", "AS", "QC"], "AH", None),         # QC stays: no tablanette
    (["2H", "9S", "AS"], "AH", 33),                 # the ace as 11: 2 + 9, and AS as 11; 11 x 3
    (["AS", "6H"], "7D", 14),                       # the ace on the table as 1: 1 + 6 + 7
])
def test_tablanette_scores_the_values_of_the_cards_taken(tablanette, table, card, points):
    rest = [c for c in ["3D", "4C", "5C", "8D", "10D"] if c not in table][:4 - len(table)]
    h = _tablanette_hand(tablanette, table + rest, [card, "2D", "3C", "6C", "7C", "8C"])
    h.table &= ~mask_of(tablanette, *rest)          # the table as the case gives it (the rest out of play)
    [capture] = h.captures_for(card_of(tablanette, card))
    events = h.play(1, card_of(tablanette, card), capture)
    assert [(e.name, e.points) for e in events] == ([("tablanette", points)] if points else [])


def test_tablanette_option_scores_the_table_cards_alone():
    rules = compile_ruleset("tablanette", {"tablanette_counts_played": False}).module
    h = _tablanette_hand(rules, ["10H", "4D", "9C", "5S"], ["KS", "2H", "3H", "6D", "QH", "AH"])
    events = h.play(1, card_of(rules, "KS"), mask_of(rules, "10H", "4D", "9C", "5S"))
    assert [(e.name, e.points) for e in events] == [("tablanette", 28)]
# -- pishti and kseri: a pile (docs/fishing-family.md, Pishti, Kseri) -----------------------------------------

@pytest.mark.parametrize("rid, pishti, jack", [("pishti", "pishti", "jack_pishti"), ("kseri", "xeri", "jack_xeri")])
def test_pile_games_event_points(rid, pishti, jack):
    # pishti/xeri 10, jack pishti/xeri 20 (pagat): both in the first category.
    rs = compile_ruleset(rid).ruleset
    first = list(rs.categories)[0]
    assert (rs.events[pishti].points, rs.events[pishti].category) == (10, first)
    assert (rs.events[jack].points, rs.events[jack].category) == (20, first)


@pytest.mark.parametrize("piles, expected", [
    # cards 3 to strictly the most; 1 per jack, 1 per ace; 2C 2; 10D 3
    ((["JH", "JD", "AS", "2C", "3H"], ["10D", "AC"]),
     ({"pishtis": 0, "cards": 3, "jacks": 2, "aces": 1, "two_of_clubs": 2, "ten_of_diamonds": 0, "total": 8},
      {"pishtis": 0, "cards": 0, "jacks": 0, "aces": 1, "two_of_clubs": 0, "ten_of_diamonds": 3, "total": 4})),
    ((["2C", "4H"], ["10D", "3C"]),
     ({"pishtis": 0, "cards": 0, "jacks": 0, "aces": 0, "two_of_clubs": 2, "ten_of_diamonds": 0, "total": 2},
      {"pishtis": 0, "cards": 0, "jacks": 0, "aces": 0, "two_of_clubs": 0, "ten_of_diamonds": 3, "total": 3})),
])
def test_pishti_scoring(piles, expected):
    rules = compile_ruleset("pishti").module
    h = explicit_hand(rules, 0, ["5H", "6H", "7H", "8H"], {1: ["QH", "10S", "2S", "3S"], 0: ["AH", "5C", "7C", "8C"]},
                      seats=2)
    h.piles = [mask_of(rules, *p) for p in piles]
    assert tuple(h.score()) == expected


def test_kseri_honours_are_k_q_j_10_but_the_ten_of_diamonds():
    rules = compile_ruleset("kseri").module
    h = explicit_hand(rules, 0, ["5H", "6H", "7H", "8H"], {1: ["QH", "10S", "2S", "3S", "4S", "5S"],
                                                         0: ["AH", "5C", "7C", "8C", "9C", "9D"]}, seats=2)
    h.piles = [mask_of(rules, "KH", "QS", "JD", "10C", "10D", "2C", "3H"), mask_of(rules, "AS")]
    assert h.score()[0] == {"xeres": 0, "cards": 3, "honours": 4, "ten_of_diamonds": 2, "two_of_clubs": 1, "total": 10}
    assert h.score()[1]["honours"] == 0


def test_kseri_option_counts_aces_among_the_honours():
    # Some descriptions of Xeri count A K Q J 10 (the 10D apart) 1 each: option aces_are_honours.
    rules = compile_ruleset("kseri", {"aces_are_honours": True}).module
    h = explicit_hand(rules, 0, ["5H", "6H", "7H", "8H"], {1: ["QH", "10S", "2S", "3S", "4S", "5S"],
                                                         0: ["AH", "5C", "7C", "8C", "9C", "9D"]}, seats=2)
    h.piles = [mask_of(rules, "KH", "QS", "JD", "10C", "10D", "2C", "3H", "AC"), mask_of(rules, "AS", "AD")]
    assert h.score()[0]["honours"] == 5 and h.score()[1]["honours"] == 2


def test_pishti_the_last_card_makes_no_pishti_unless_the_option_counts_it():
    # "You may score a pisti at any point in the game except on the very ... last cards played": the hand's
    # last card taking a lone card of its rank is no pishti by default (docs/fishing-family.md, Pishti).
    assert compile_ruleset("pishti").ruleset.options["last_card_pishti"].default is False
    for on, want in ((True, ["pishti"]), (False, [])):
        rules = compile_ruleset("pishti", {"last_card_pishti": on}).module
        nine, other = mask_of(rules, "9D"), mask_of(rules, "9S")
        fired = rules.play_events(nine, other, 0, other, True, other, 6, 4, 48, True, 4, other)
        assert [name for name, _, _ in fired] == want
        fired = rules.play_events(nine, other, 0, other, False, other, 5, 4, 40, False, 4, other)
        assert [name for name, _, _ in fired] == ["pishti"]


# -- kseri: a bad first pile (pagat: the pile is shuffled back into the stock and a new one dealt, the hands kept)

def _kseri_order(rules, first):
    idx = rules.CARD_NAMES.index
    head = [idx(c) for c in first]
    return head + [c for c in range(rules.N_CARDS) if c not in head]


def test_kseri_a_bad_pile_is_dealt_again_and_the_hands_are_kept():
    import random

    from rulespec.run.engine import DealSource, Hand
    rules = compile_ruleset("kseri").module
    # 6 each, one at a time from seat 1 (12 cards), then the pile 4H 9D 4S 6C: two fours, thrown in.
    hands = ["2S", "2D", "3S", "3D", "5S", "5D", "7S", "7D", "8S", "8D", "10S", "QD"]
    order = _kseri_order(rules, hands + ["4H", "9D", "4S", "6C"])
    h = Hand(rules, 2, 0, DealSource(order=order, rng=random.Random(7)))
    assert h.dealer_events[0] == "pile_redealt"
    assert names(rules, h.hands[1]) == sorted(["2S", "3S", "5S", "7S", "8S", "10S"])
    assert names(rules, h.hands[0]) == sorted(["2D", "3D", "5D", "7D", "8D", "QD"])
    assert h.deal_log[1] is None and h.deal_log[-1][1] == tuple(h.hands)
    dealt = h.table | h.hands[0] | h.hands[1]
    assert dealt.bit_count() == 16 and h.table.bit_count() == 4


def test_kseri_a_written_deal_after_a_bad_pile_gives_the_same_hands():
    from rulespec.errors import RulespecError
    from rulespec.run.engine import DealSource, ExplicitRound, Hand
    rules = compile_ruleset("kseri").module
    idx = rules.CARD_NAMES.index

    def rnd(table, one, zero, redeal=False):
        return ExplicitRound([idx(c) for c in table], {1: [idx(c) for c in one], 0: [idx(c) for c in zero]}, redeal)
    one, zero = ["10H", "2S", "3S", "5S", "7S", "8S"], ["2D", "3D", "5D", "7D", "8D", "QD"]
    first = rnd(["4H", "9D", "4S", "6C"], one, zero, redeal=True)
    h = Hand(rules, 2, 0, DealSource(rounds=[first, rnd(["4H", "9C", "KH", "10S"], one, zero)]))
    assert h.dealer_events == ["pile_redealt"] and names(rules, h.table) == sorted(["4H", "9C", "KH", "10S"])
    other = ["10H", "2S", "3S", "5S", "7S", "9S"]
    with pytest.raises(RulespecError, match="rules keep the hands: seat 1 holds"):
        Hand(rules, 2, 0, DealSource(rounds=[first, rnd(["2C", "9C", "KH", "10S"], other, zero)]))


# -- zwicker (docs/fishing-family.md, Zwicker) ---------------------------------------------------------------

def test_zwicker_deck_is_the_french_52_and_three_jokers_with_two_valued_aces_and_courts():
    # "the French 52 and three jokers of 25, 20 and 15"; A 1|11, J 2|12, Q 3|13, K 4|14
    deck = compile_ruleset("zwicker").ruleset.deck
    assert sorted(deck.names) == sorted([r + s for s in "HDCS" for r in
                                         ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
                                        + ["15X", "20X", "25X"])
    values = {r: deck.table_values_of(deck.index(r)) for r in ("AH", "10H", "JH", "QH", "KH", "15X", "20X", "25X")}
    assert values == {"AH": (1, 11), "10H": (10,), "JH": (2, 12), "QH": (3, 13), "KH": (4, 14),
                      "15X": (15,), "20X": (20,), "25X": (25,)}


def test_zwicker_deals_four_each_and_three_to_the_table_then_one_each_last():
    # four players: 4 each and 3 to the table, 4 each twice more, then the 4 cards left one each (short_last)
    rules = compile_ruleset("zwicker").module
    hand = Hand(rules, 4, 3, shuffled_source(rules.N_CARDS, random.Random(1)))
    assert bin(hand.table).count("1") == 3
    dealt = [[bin(h).count("1") for h in hand.hands]]
    while not hand.is_over:
        held = sum(bin(h).count("1") for h in hand.hands)
        moves = hand.legal_moves()               # a capture where there is one (a table of dozens of trailed
        takes = [(c, m) for c, m in moves if m and not m >> rules.N_CARDS]   # cards offers too many builds)
        card, move = takes[0] if takes else moves[0]
        hand.play(hand.turn, card, move)
        now = [bin(h).count("1") for h in hand.hands]
        if sum(now) > held - 1:                  # the play emptied the hands and a round was dealt
            dealt.append(now)
    assert dealt == [[4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4], [1, 1, 1, 1]]
