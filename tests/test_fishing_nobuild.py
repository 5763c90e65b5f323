"""The fishing games that need no builds (issue 23): basra, cuarenta, kasino. Their names are a contract
(transcripts written by others from pagat.com's rules replay against these ids), and each test names the rule
it checks (docs/fishing-family.md)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import DealSource, ExplicitRound, Game, Hand, IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of

GOLDEN = Path(__file__).parent / "golden"

CONTRACT = {
    # id: (categories, events, hand bonuses, options, player counts, deck id, deck size)
    "basra": (["basras", "cards", "jacks", "aces", "two_of_clubs", "ten_of_diamonds"], {"basra", "komi_basra"}, [],
              {"target": 101, "last_play_basra": True, "optional_capture": False}, [2, 4], "standard52", 52),
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
