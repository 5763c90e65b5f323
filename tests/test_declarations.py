"""Declarations in `Hand`: found once per dealt hand, made with no copy of the state (run/declarations.py)."""
import copy
import random
import textwrap

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.run.declarations import Declarer, declarer
from rulespec.run.engine import Declaration, Hand, IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of


def _state(hand: Hand) -> dict:
    # The options cache is keyed by (table, wild rank): a refused play may fill it, never falsify it.
    return {k: copy.deepcopy(v) for k, v in hand.__dict__.items()
            if k not in ("rules", "source", "_options_key", "_options", "_legal")}


def _barsega_hand(r):
    # Seat 1 holds 7H 3C 4D: a barsega with the matta declared as an ace.
    return explicit_hand(r, 0, ["2S", "5C", "6C", "QC"],
                         {1: ["7H", "3C", "4D"], 2: ["3D", "2C", "JH"], 3: ["QD", "4C", "5D"], 0: ["6S", "6H", "QH"]})


def test_a_declaring_play_copies_nothing(cirulla, monkeypatch):
    r = cirulla.module
    h = _barsega_hand(r)
    monkeypatch.setattr(Hand, "clone", lambda self: pytest.fail("a declaring play cloned the hand"))
    decls = h.best_declarations(1)
    assert [(d.bonus, d.wild_rank) for d in decls] == [("barsega", r.RANK_NAMES.index("A"))]
    moves = h.legal_moves_after(decls)
    assert (card_of(r, "7H"), mask_of(r, "2S", "5C", "6C", "QC")) in moves    # the matta as an ace sweeps
    events = h.play(1, card_of(r, "7H"), mask_of(r, "2S", "5C", "6C", "QC"), decls)
    assert [e.name for e in events] == ["barsega", "scopa"]


def test_a_refused_card_after_good_declarations_leaves_the_hand_as_it_was(cirulla):
    r = cirulla.module
    h = _barsega_hand(r)
    before = _state(h)
    decl = Declaration("barsega", mask_of(r, "7H", "3C", "4D"), r.RANK_NAMES.index("A"))
    with pytest.raises(IllegalMove):
        h.play(1, card_of(r, "3C"), mask_of(r, "QC"), [decl])          # 3C cannot take QC
    assert _state(h) == before
    with pytest.raises(IllegalMove):
        h.declare(1, [decl])                                             # first_turn: with a play only
    assert _state(h) == before


def test_the_best_declarations_are_searched_once_per_dealt_hand(cirulla):
    r = cirulla.module
    found = declarer(r)
    h = _barsega_hand(r)
    first = h.best_declarations(1)
    calls = []
    searches = ("_find", "_best_by_class", "_best_quick")   # the full search, the searches by classes
    for search in searches:
        real = getattr(found, search)
        setattr(found, search, lambda *a, real=real: calls.append(a) or real(*a))
    try:
        again = _barsega_hand(r).best_declarations(1)       # another hand object, the same cards
        found.best_memo.clear()
        cleared = _barsega_hand(r).best_declarations(1)     # the memo forgotten: searched again
    finally:
        for search in searches:
            delattr(found, search)
    assert again == first == cleared and len(calls) == 1


# ---- the search by classes (BONUS_CLASSES): one plan per multiset of classes, mapped to the cards

def _fresh(rules, by_class=True) -> Declarer:
    found = Declarer(rules)
    if not by_class:
        found._classes = None          # the full search over card combinations × wild ranks
    return found


def _counting_plans(found: Declarer) -> list:
    """The plans made from now on: for the candidates (`_plan`) and for the best (`_quick_plan`)."""
    calls = []
    for name in ("_plan", "_quick_plan"):
        real = getattr(found, name)
        setattr(found, name, lambda cards, *a, real=real: calls.append(cards) or real(cards, *a))
    return calls


def test_the_bonus_classes_are_value_and_rank_with_the_wild_card_apart():
    r = compile_ruleset("cirullone").module
    cls = dict(zip(r.CARD_NAMES, r.BONUS_CLASSES))
    assert cls["5H"] == cls["5D"] == cls["5C"] == cls["5S"]
    assert cls["7D"] == cls["7C"] == cls["7S"] != cls["7H"]       # 7H is the matta
    assert len(set(r.BONUS_CLASSES)) == 11


def test_two_hands_of_the_same_classes_share_one_search_and_get_their_own_cards():
    r = compile_ruleset("cirullone").module
    found, full = _fresh(r), _fresh(r, by_class=False)
    plans = _counting_plans(found)
    a = mask_of(r, "AD", "2D", "3D", "5C", "5S", "5D")
    b = mask_of(r, "AS", "2C", "3S", "5H", "5C", "5D")          # the same values, other suits
    best_a, best_b = found.best(a, a, 1, False), found.best(b, b, 1, False)
    assert len(plans) == 1                                        # b reused a's plan
    assert best_a == full.best(a, a, 1, False) and best_b == full.best(b, b, 1, False)
    assert [(d.bonus, d.cards) for d in best_b] == [("decino", mask_of(r, "5H", "5C", "5D")),
                                                   ("barsega", mask_of(r, "AS", "2C", "3S"))]
    assert found.candidates(b, b, 1, False) == full.candidates(b, b, 1, False)


def test_the_order_of_the_cards_still_decides_between_clashing_declarations():
    # Both hands hold A A 2 3 4 5: several barsegas overlap, and the first in card order wins,
    # which is A 2 3 in one hand and A A 2 in the other.
    r = compile_ruleset("cirullone").module
    found, full = _fresh(r), _fresh(r, by_class=False)
    plans = _counting_plans(found)
    a = mask_of(r, "AH", "2H", "3H", "4H", "5H", "AD")
    b = mask_of(r, "AH", "AD", "2D", "3D", "4D", "5D")
    best_a, best_b = found.best(a, a, 1, False), found.best(b, b, 1, False)
    assert len(plans) == 1
    assert best_a == full.best(a, a, 1, False) == (Declaration("barsega", mask_of(r, "AH", "2H", "3H")),)
    assert best_b == full.best(b, b, 1, False) == (Declaration("barsega", mask_of(r, "AH", "AD", "2D")),)


def test_a_wild_card_is_declared_alike_in_hands_of_the_same_classes():
    r = compile_ruleset("cirullone").module
    found, full = _fresh(r), _fresh(r, by_class=False)
    for names in (["7H", "3C", "4D", "KS", "KC", "JD"], ["7H", "3D", "4S", "KH", "KD", "JC"]):
        h = mask_of(r, *names)
        assert found.best(h, h, 1, False) == full.best(h, h, 1, False)
        assert found.candidates(h, h, 1, False) == full.candidates(h, h, 1, False)
    assert any(d.wild_rank is not None for d in found.best(h, h, 1, False))


@pytest.mark.parametrize("rid", ["cirulla", "cirullone", "cirullone-sequential", "cirulla-a-cinque", "cirulla-dossena",
                                 "cirulla-double-bonus",
                                 "cirulla-no-decino", "cirulla-knock-early", "cirulla-grande-in-hand",
                                 "cirullone-9", "cirullone-rivarolo", "cirulla-matta-queen"])
def test_the_search_by_classes_finds_what_the_full_search_finds(rid):
    r = compile_ruleset(rid).module
    found, full = _fresh(r), _fresh(r, by_class=False)
    rng = random.Random(rid)
    low = [i for i in range(r.N_CARDS) if r._VALUE[i] <= 5]         # where bonuses pile up and clash
    for _ in range(1500):
        pool = low if rng.random() < 0.5 else range(r.N_CARDS)
        hand = set(rng.sample(pool, rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9])))
        if rng.random() < 0.3:
            hand.add(r.WILD_INDEX)
        h = sum(1 << c for c in hand)
        avail = h & ~sum(1 << c for c in hand if rng.random() < 0.15)
        args = (h, avail, rng.choice([1, 2, 3]), rng.random() < 0.5)
        assert found.candidates(*args) == full.candidates(*args)
        assert found.best(*args) == full.best(*args)
        assert found.options(*args, unique_ok=lambda d: d.cards % 3 != 0) == \
            full.options(*args, unique_ok=lambda d: d.cards % 3 != 0)


@pytest.mark.parametrize("bonuses", [
    "barsega: {rounds: [1, 2]}\n",                                        # a round limit: keyed on the round
    "decino:\n  when: 'same_value(cards) and total(hand) > 12'\n",          # reads the whole hand
])
def test_the_search_by_classes_in_a_context_finds_what_the_full_search_finds(tmp_path, bonuses):
    # The best declarations keyed on more than the available cards: the plans per context (`_plan`).
    path = tmp_path / "context.yaml"
    path.write_text(f"id: context\nextends: cirullone\nhand_bonuses:\n{textwrap.indent(bonuses, '  ')}",
                    encoding="utf-8")
    r = compile_ruleset(path).module
    found, full = _fresh(r), _fresh(r, by_class=False)
    assert found._classes is not None and not found.by_avail
    rng = random.Random(bonuses)
    low = [i for i in range(r.N_CARDS) if r._VALUE[i] <= 5]
    for _ in range(800):
        hand = set(rng.sample(low if rng.random() < 0.5 else range(r.N_CARDS), rng.choice([3, 4, 5, 6])))
        if rng.random() < 0.3:
            hand.add(r.WILD_INDEX)
        h = sum(1 << c for c in hand)
        args = (h, h & ~sum(1 << c for c in hand if rng.random() < 0.15), rng.choice([1, 2, 3]), rng.random() < 0.5)
        assert found.best(*args) == full.best(*args)
        assert found.candidates(*args) == full.candidates(*args)


def _bonus_classes(tmp_path, name: str, bonus: str) -> tuple:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\nextends: cirulla\nhand_bonuses:\n  {name}:\n{textwrap.indent(bonus, '    ')}",
                    encoding="utf-8")
    return compile_ruleset(path).module.BONUS_CLASSES


def test_a_condition_that_reads_more_than_value_and_rank_gets_a_class_per_card(tmp_path):
    every_card = tuple(range(40))
    suits = "size: 3\nwhen: 'count(cards, suit == \"D\") == 3'\npoints: 2\ncategory: scope\n"
    first_card = "size: 3\nwhen: 'rank(cards) == \"A\"'\npoints: 2\ncategory: scope\n"
    one_card = "size: 1\nwhen: 'value(cards) <= 2'\npoints: 1\ncategory: scope\nwild: false\n"
    by_rank = "size: 2\nwhen: 'count(cards, rank == \"K\") == 2 and total(hand) > 20'\npoints: 1\ncategory: scope\n"
    assert _bonus_classes(tmp_path, "suits", suits) == every_card
    assert _bonus_classes(tmp_path, "first", first_card) == every_card      # rank() of a set: its first card
    assert compile_ruleset("cirulla-grande-in-hand").module.BONUS_CLASSES == every_card   # card literals
    assert len(set(_bonus_classes(tmp_path, "onecard", one_card))) == 11
    assert len(set(_bonus_classes(tmp_path, "byrank", by_rank))) == 11
    assert _fresh(compile_ruleset("cirulla-grande-in-hand").module)._classes is None


@pytest.mark.parametrize("rid", ["cirulla", "cirulla-no-decino", "cirulla-double-bonus", "cirulla-matta-queen"])
def test_the_best_worked_out_ahead_is_what_each_hand_finds_on_its_own(rid):
    """Declarer.prefill_best (kept in the compile cache) gives every three-card hand the bots' best that
    `best_new` finds for it alone; a declarer loaded with them (`load_best`) searches nothing more, even
    after its memo is cleared."""
    from itertools import combinations
    r = compile_ruleset(rid).module
    sizes, declaring = stored = _fresh(r).prefill_best({3})
    assert sizes == (3,) and 0 < len(declaring) < 9880
    loaded = _fresh(r)
    loaded.load_best(stored)
    assert set(loaded.best_memo) == {hand for hand, _d in declaring}
    loaded._best_quick = loaded._find = lambda *a: pytest.fail("a hand worked out ahead was searched again")
    loaded.best_memo.clear()                                  # as when the memo is full
    alone = _fresh(r)
    for cards in combinations(range(r.N_CARDS), 3):           # every hand of three of the 40 cards
        h = sum(1 << c for c in cards)
        assert loaded.best(h, h, 2, True) == alone.best_new(h, h, 1, False), cards
    assert len(loaded.best_memo) == 9880


def test_the_best_worked_out_ahead_follows_the_rules():
    """cirulla.md, hand bonuses: a barsega sums to 9 or less (3 points), a decino is three of one value
    (10), a hand that can make a decino is not declared a barsega, the matta (7H) as whatever makes one."""
    r = compile_ruleset("cirulla").module
    loaded = _fresh(r)
    loaded.load_best(_fresh(r).prefill_best({3}))
    loaded._best_quick = loaded._find = lambda *a: pytest.fail("searched")
    ace = r.RANK_NAMES.index("A")

    def best(*names):
        h = mask_of(r, *names)
        return [(d.bonus, d.cards, d.wild_rank) for d in loaded.best(h, h, 1, False)]

    assert best("AC", "3D", "5S") == [("barsega", mask_of(r, "AC", "3D", "5S"), None)]       # 9
    assert best("AC", "3D", "6S") == []                                                        # 10
    assert best("2C", "2D", "2S") == [("decino", mask_of(r, "2C", "2D", "2S"), None)]         # not a barsega
    assert best("QS", "QD", "7H") == [("decino", mask_of(r, "QS", "QD", "7H"), r.RANK_NAMES.index("Q"))]
    assert best("7H", "3C", "4D") == [("barsega", mask_of(r, "7H", "3C", "4D"), ace)]
    assert best("AC", "AD", "7H") == [("decino", mask_of(r, "AC", "AD", "7H"), ace)]


def test_nothing_is_worked_out_ahead_where_the_best_is_not_keyed_on_the_cards_alone_or_too_many():
    cinque = compile_ruleset("cirulla-a-cinque").module                # its bonuses read more than the cards
    assert not Declarer(cinque).by_avail and Declarer(cinque).prefill_best({1, 3}) is None
    r = compile_ruleset("cirulla").module
    assert _fresh(r).prefill_best({3}, most=9879) is None
    sizes, _declaring = _fresh(r).prefill_best({3, 6}, most=20_000)   # the smaller size only: 3,838,380 of six
    assert sizes == (3,)
    assert _fresh(r).prefill_best({3}, most_kept=1035) is None          # more declarations to keep than that
    four = _fresh(r)                                                    # a size not worked out is searched
    four.load_best(_fresh(r).prefill_best({3}))
    h = mask_of(r, "AC", "AD", "AS", "AH")
    assert four.best(h, h, 1, False) == _fresh(r).best(h, h, 1, False) != ()


@pytest.mark.parametrize("by_class", [True, False])
@pytest.mark.parametrize("rid, points", [("cirulla-double-bonus", 13), ("cirulla-dossena", 3)])
@pytest.mark.parametrize("names, rank", [(("2C", "2D", "7H"), "2"), (("3S", "3D", "7H"), "3"),
                                         (("AC", "AD", "7H"), "A"), (("2C", "7H", "2S"), "2")])
def test_three_equal_with_the_matta_totalling_9_or_less_make_both_bonuses(rid, points, names, rank, by_class):
    """cirulla.md variants 7 and 11: three equal cards totalling 9 or less are declared as decino and
    barsega on the same three cards, "with the same rank for the matta": 2C 2D 7H is 2-2-2 (6), so both,
    though the barsega alone would be offered with the matta as an ace (2-2-A) and A-A-7H would make a
    barsega with the matta as itself (9)."""
    r = compile_ruleset(rid).module
    h = mask_of(r, *names)
    best = _fresh(r, by_class).best(h, h, 1, False)
    assert sorted((d.bonus, d.cards, d.wild_rank) for d in best) == [
        ("barsega", h, r.RANK_NAMES.index(rank)), ("decino", h, r.RANK_NAMES.index(rank))]
    assert sum(r.HAND_BONUSES[d.bonus].points for d in best) == points
    # and Hand: its bots' best, then the play declaring both (the events and points the rules give)
    hand = explicit_hand(r, 0, ["5S", "6C", "JC", "KS"], {1: list(names), 2: ["JD", "4S", "5D"],
                                                         3: ["QD", "4H", "5H"], 0: ["6S", "6H", "QH"]})
    decls = hand.best_declarations(1)
    assert sorted(decls) == sorted(best)
    card, capture = hand.legal_moves_after(decls)[0]
    events = hand.play(1, card, capture, decls)
    assert sorted(e.name for e in events if e.name in ("barsega", "decino")) == ["barsega", "decino"]
    assert sum(e.points for e in events if e.name in ("barsega", "decino")) == points


@pytest.mark.parametrize("rid", ["cirulla-double-bonus", "cirulla-dossena"])
def test_a_bonus_that_cannot_take_the_matta_s_rank_is_not_declared_beside_it(rid):
    """4C 4D 7H: the decino with the matta as a 4 (10 or 2 points); as a 4 the three total 12, no barsega,
    though the barsega alone would be offered with the matta as an ace (4-4-A, 9): one rank for the matta."""
    r = compile_ruleset(rid).module
    h = mask_of(r, "4C", "4D", "7H")
    for by_class in (True, False):
        assert [(d.bonus, d.wild_rank) for d in _fresh(r, by_class).best(h, h, 1, False)] == [
            ("decino", r.RANK_NAMES.index("4"))]


def test_the_best_of_big_hands_is_found_each_time_and_not_kept():
    """best_new keeps the sets of available cards of up to 3 of 40 cards (all 9,880 fit in the memo); six of
    them (3.8 million, seldom met twice) are searched each time and never kept: kept they would fill the
    memo and have it cleared of the small ones. The answer is the same either way."""
    r = compile_ruleset("cirullone").module
    found = _fresh(r)
    assert found._memo_size == 3
    small, big = mask_of(r, "2C", "2D", "2S"), mask_of(r, "2C", "2D", "2S", "AC", "3D", "5S")
    assert found.best_new(small, small, 1, False) == _fresh(r, by_class=False).best(small, small, 1, False)
    assert found.best_new(big, big, 1, False) == _fresh(r, by_class=False).best(big, big, 1, False)
    assert small in found.best_memo and big not in found.best_memo
    assert [d.bonus for d in found.best(big, big, 1, False)] == ["decino", "barsega"]      # 2-2-2, A-3-5 (9)


@pytest.mark.parametrize("names, want", [
    (("AC", "AD", "7H"), [("barsega", "A"), ("decino", "A")]),     # the barsega as itself (9) takes the decino's ace
    (("2C", "2D", "7H"), [("barsega", "2"), ("decino", "2")]),
    (("AC", "7D", "7H"), [("barsega", "A")]),                      # A-7-7: no decino as A or as 7 beside it
])
def test_the_matta_takes_one_rank_whichever_bonus_is_chosen_first(tmp_path, names, want):
    """One rank for the matta in all of a turn's declarations (cirulla.md variant 7: "the same rank for the
    matta"), also where the bonus chosen first (here the barsega, made worth more than the decino) takes the
    matta as itself: a decino declaring it as an ace beside it gives the barsega that ace, not a barsega
    counting it as a 7 beside a decino counting it as an ace. By classes, in full, and the Hand's bots."""
    path = tmp_path / "barsega-first.yaml"
    path.write_text("id: barsega-first\nextends: cirulla-double-bonus\nhand_bonuses:\n  barsega: {points: 20}\n",
                    encoding="utf-8")
    r = compile_ruleset(path).module
    h = mask_of(r, *names)
    for by_class in (True, False):
        for found in (_fresh(r, by_class), _not_by_avail(_fresh(r, by_class))):
            best = found.best(h, h, 1, False)
            assert sorted((d.bonus, r.RANK_NAMES[d.wild_rank]) for d in best) == want, (by_class, found.by_avail)
            assert all(d.cards == h for d in best)


def _not_by_avail(found: Declarer) -> Declarer:
    """The declarer answering `best` from the plans of the candidates (`_best_by_class`), not `best_new`."""
    found.by_avail = False
    return found


def test_a_turn_that_counts_the_matta_as_itself_and_as_a_rank_is_refused():
    """cirulla.md variant 7: two declarations on the same three cards "with the same rank for the matta". On
    A-A-7H the barsega holds as itself (A+A+7 = 9) and as an ace; beside a decino declaring the 7H an ace,
    only the ace is one rank (13 points); itself in one and an ace in the other is refused, located."""
    r = compile_ruleset("cirulla-double-bonus").module
    ace = r.RANK_NAMES.index("A")
    h = mask_of(r, "AC", "AD", "7H")

    def hand():
        return explicit_hand(r, 0, ["5S", "6C", "JC", "KS"], {1: ["AC", "AD", "7H"], 2: ["JD", "4S", "5D"],
                                                             3: ["QD", "4H", "5H"], 0: ["6S", "6H", "QH"]})

    one = [Declaration("decino", h, ace), Declaration("barsega", h, ace)]
    card, capture = hand().legal_moves_after(one)[0]
    mixed = [Declaration("decino", h, ace), Declaration("barsega", h, None)]
    refused = hand()
    with pytest.raises(IllegalMove, match="the wild card is declared as A and counted as itself in barsega"):
        refused.play(1, card, capture, mixed)
    assert refused.plays == 0 and not refused.events       # nothing of the refused play was kept
    events = hand().play(1, card, capture, one)
    assert sum(e.points for e in events if e.name in ("barsega", "decino")) == 13


NO_WILD_BARSEGA = "id: barsega-no-wild\nextends: cirulla-double-bonus\nhand_bonuses:\n  barsega: {wild: false}\n"


def test_a_bonus_that_cannot_declare_the_matta_is_not_declared_beside_a_rank_for_it(tmp_path):
    """With the barsega unable to declare the matta, A-A-7H is a barsega only with the 7H as itself (9) and
    a decino only with it as an ace: one rank for the matta, so the bots declare the decino alone (10, more
    than 3), by classes, in full, and from the plans."""
    path = tmp_path / "barsega-no-wild.yaml"
    path.write_text(NO_WILD_BARSEGA, encoding="utf-8")
    r = compile_ruleset(path).module
    h = mask_of(r, "AC", "AD", "7H")
    for by_class in (True, False):
        for found in (_fresh(r, by_class), _not_by_avail(_fresh(r, by_class))):
            assert [(d.bonus, d.wild_rank) for d in found.best(h, h, 1, False)] == [
                ("decino", r.RANK_NAMES.index("A"))], (by_class, found.by_avail)


# -------------------------------------------------------------- the rank the player names for the matta


def test_the_player_may_name_every_rank_of_the_matta_that_makes_the_bonus(cirulla):
    """cirulla.md, hand bonuses: "The matta in hand may be declared as any rank A..K if, and only if, that
    makes the declared bonus. The player names the rank. Examples: 7H 3C 4D -> barsega with 7H as A or 2"
    (A+3+4 = 8, 2+3+4 = 9; as a 3 it is 10, as itself 14). Hand.bonus_options offers both; the bots still
    take the first (the ace), and a barsega declared with the matta as a 2 plays it as a 2."""
    r = cirulla.module
    h = _barsega_hand(r)
    barsega = mask_of(r, "7H", "3C", "4D")
    assert [(d.bonus, d.cards, d.wild_rank) for d in h.bonus_options(1)] == [
        ("barsega", barsega, r.RANK_NAMES.index("A")), ("barsega", barsega, r.RANK_NAMES.index("2"))]
    as_two = Declaration("barsega", barsega, r.RANK_NAMES.index("2"))
    moves = h.legal_moves_after([as_two])
    assert (card_of(r, "7H"), mask_of(r, "2S")) in moves                           # takes the 2 as a 2
    assert (card_of(r, "7H"), mask_of(r, "2S", "5C", "6C", "QC")) not in moves     # no ace's sweep
    events = h.play(1, card_of(r, "7H"), mask_of(r, "2S"), [as_two])
    assert [(e.name, e.points) for e in events] == [("barsega", 3)]


def test_a_decino_with_the_matta_is_offered_with_the_one_rank_that_makes_it(cirulla):
    """cirulla.md: "QS QD 7H -> decino with 7H as Q": the one rank making three equal values."""
    r = cirulla.module
    h = explicit_hand(r, 0, ["2S", "5C", "6C", "JC"],
                      {1: ["QS", "QD", "7H"], 2: ["3D", "2C", "JH"], 3: ["KD", "4C", "5D"], 0: ["6S", "6H", "QH"]})
    assert [(d.bonus, d.wild_rank) for d in h.bonus_options(1)] == [("decino", r.RANK_NAMES.index("Q"))]


@pytest.mark.parametrize("rid", ["cirulla", "cirulla-double-bonus", "cirullone"])
def test_the_options_are_every_single_declaration_the_engine_accepts(rid):
    """Hand.bonus_options lists exactly the single declarations check_declaration accepts (every combination
    of the hand's cards of a bonus's size, as itself and with every rank for the wild card), at each seat's
    first turn of every round of seeded hands: nothing a transcript may declare is missing from what a
    player or a search is offered, and nothing offered is refused."""
    rules = compile_ruleset(rid).module
    from itertools import combinations
    from rulespec.bots.policy import declared_moves
    from rulespec.run.engine import shuffled_source
    checked = with_wild = 0
    for seed in range(40):
        rng = random.Random(f"options:{seed}")
        h = Hand(rules, 4, seed % 4, shuffled_source(rules.N_CARDS, rng))
        seen = set()
        while not h.is_over:
            seat = h.current_seat
            if (h.round, seat) not in seen and h.declares_with_play:
                seen.add((h.round, seat))
                cards = [c for c in range(rules.N_CARDS) if (h.hands[seat] & ~h.shown[seat]) >> c & 1]
                accepted = set()
                for name, spec in rules.HAND_BONUSES.items():
                    for combo in combinations(cards, spec.size):
                        mask = sum(1 << c for c in combo)
                        for rank in (None, *range(len(rules.RANK_NAMES))):
                            try:
                                h.check_declaration(seat, Declaration(name, mask, rank))
                            except IllegalMove:
                                continue
                            accepted.add((name, mask, rank))
                offered = [(d.bonus, d.cards, d.wild_rank) for d in h.bonus_options(seat)]
                assert len(offered) == len(set(offered)) and set(offered) == accepted, (seed, seat, h.round)
                checked += 1
                with_wild += any(rank is not None for _n, _m, rank in offered)
            decls, moves = declared_moves(h, seat)
            card, capture = moves[rng.randrange(len(moves))]
            h.play(seat, card, capture, decls)
    assert checked >= 40 * 4 * 2 and with_wild          # two rounds of four seats at least


# Worked by hand from cirulla.md ("Hand bonuses", variant 7): per bonus, the matta's ranks offered in order
# (None: as itself, a plain 7), and the most points a seat can declare. Base: a hand that can make a decino
# (with the matta if need be) is no barsega; double bonus: both on the same cards, one rank for the matta.
OFFERED_BY_HAND = [
    ("cirulla", "7H 3C 4D", {"barsega": ["A", "2"]}, 3),                     # A+3+4 = 8, 2+3+4 = 9; 3 is 10
    ("cirulla", "QS QD 7H", {"decino": ["Q"]}, 10),
    ("cirulla", "2C 2D 7H", {"decino": ["2"]}, 10),                           # barsega A..5 excluded by it
    ("cirulla", "AC AD 7H", {"decino": ["A"]}, 10),                           # barsega as itself (9) excluded too
    ("cirulla", "7H 5C 4D", {}, 0),                                           # 5+4 = 9 leaves nothing for the matta
    ("cirulla", "7H KC KD", {"decino": ["K"]}, 10),
    ("cirulla", "7H 7C 7D", {"decino": [None, "7"]}, 10),                    # a plain 7, or named 7
    ("cirulla-double-bonus", "7H 3C 4D", {"barsega": ["A", "2"]}, 3),
    ("cirulla-double-bonus", "2C 2D 7H", {"barsega": ["A", "2", "3", "4", "5"], "decino": ["2"]}, 13),
    ("cirulla-double-bonus", "AC AD 7H", {"barsega": [None, "A", "2", "3", "4", "5", "6", "7"], "decino": ["A"]}, 13),
    ("cirulla-double-bonus", "4C 4D 7H", {"barsega": ["A"], "decino": ["4"]}, 10),   # no rank makes both
    ("cirulla-double-bonus", "7H KC KD", {"decino": ["K"]}, 10),
]


@pytest.mark.parametrize("rid, cards, offered, best_points", OFFERED_BY_HAND)
def test_the_options_and_the_bots_choice_on_hands_worked_from_the_rules(rid, cards, offered, best_points):
    r = compile_ruleset(rid).module
    held = cards.split()
    table = ["JC", "KS", "5S", "6S"]                          # 29: no dealer bonus, no ace
    rest = [c for c in r.CARD_NAMES[:r.N_CARDS] if c not in held + table and c != "7H" and c[0] != "A"]
    h = explicit_hand(r, 0, table, {1: held, 2: rest[0:3], 3: rest[3:6], 0: rest[6:9]})
    got: dict[str, list] = {}
    for d in h.bonus_options(1):
        assert d.cards == mask_of(r, *held)
        got.setdefault(d.bonus, []).append(None if d.wild_rank is None else r.RANK_NAMES[d.wild_rank])
    assert got == offered
    best = h.best_declarations(1)
    assert sum(r.HAND_BONUSES[d.bonus].points for d in best) == best_points
    assert len({d.wild_rank for d in best}) <= 1
