"""Three options of `capture.builds` (docs/language.md, "Builds on the table") that Seep's houses need (pagat: one
house of each value; its owner keeps a card of its value but may throw another; an opponent who cements a house
becomes a second owner, a partner does not): `one_per_value`, `owner_may_trail` and `owners`. Each test names
the rule it checks; the ruleset is written out (no shipped game needed)."""
import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.run.builds import build_move
from rulespec.run.engine import IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of
from tests.test_builds import BUILDING


def _rules(tmp_path, builds):
    path = tmp_path / "houses.yaml"
    path.write_text(BUILDING.replace("BUILDS", builds))
    return compile_ruleset(path).module


def _hand(rules, table, h0, h1):
    return explicit_hand(rules, 1, table, {0: h0, 1: h1}, seats=2)


def _build(rules, value, *names):
    return build_move(mask_of(rules, *names), value, rules.N_CARDS)


def _two_eights(rules):
    # s0 builds 8 with 5D on 3H; s1 (holding 8C) then has 2H with 6C: another set of 8
    hand = _hand(rules, ["3H", "6C", "KD", "QS"], ["5D", "8S", "4C", "10H"], ["2H", "8C", "9H", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    return hand


def test_without_one_per_value_a_second_build_of_a_value_may_stand_apart(tmp_path):
    rules = _rules(tmp_path, "true")
    hand = _two_eights(rules)
    assert (card_of(rules, "2H"), _build(rules, 8, "6C")) in hand.legal_moves()


def test_one_per_value_joins_a_new_set_of_a_standing_value_to_its_build(tmp_path):
    rules = _rules(tmp_path, "{one_per_value: true}")
    hand = _two_eights(rules)
    moves = hand.legal_moves()
    assert (card_of(rules, "2H"), _build(rules, 8, "6C")) not in moves           # apart: refused
    assert (card_of(rules, "2H"), _build(rules, 8, "6C", "5D", "3H")) in moves   # joined: a multiple build
    with pytest.raises(IllegalMove):
        hand.play(1, card_of(rules, "2H"), _build(rules, 8, "6C"))


def test_one_per_value_raises_no_build_to_the_value_of_another(tmp_path):
    # builds of 8 (s0's) and of 9 (s1's) stand; AD would raise the 8 to 9 beside the 9: refused
    rules = _rules(tmp_path, "{one_per_value: true}")
    hand = _hand(rules, ["3H", "7C", "KD", "QS"], ["5D", "8S", "AD", "9C"], ["2H", "9H", "8C", "6C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "2H"), _build(rules, 9, "7C"))
    moves = hand.legal_moves()
    assert (card_of(rules, "AD"), _build(rules, 9, "5D", "3H")) not in moves
    apart = tmp_path / "apart"
    apart.mkdir()
    other = _rules(apart, "true")                 # without the option the raise is offered
    free = _hand(other, ["3H", "7C", "KD", "QS"], ["5D", "8S", "AD", "9C"], ["2H", "9H", "8C", "6C"])
    free.play(0, card_of(other, "5D"), _build(other, 8, "3H"))
    free.play(1, card_of(other, "2H"), _build(other, 9, "7C"))
    assert (card_of(other, "AD"), _build(other, 9, "5D", "3H")) in free.legal_moves()


def test_owner_may_trail_lets_the_owner_trail_but_not_its_last_card_of_the_value(tmp_path):
    rules = _rules(tmp_path, "{owner_may_trail: true}")
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "4C", "10H"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "6C"), 0)
    assert (card_of(rules, "10H"), 0) in hand.legal_moves()                      # it may trail
    assert (card_of(rules, "8S"), 0) not in hand.legal_moves()                   # not its last 8
    with pytest.raises(IllegalMove, match="must keep a card of 8"):
        hand.play(0, card_of(rules, "8S"), 0)


def test_the_options_are_said_in_words_and_off_by_default(tmp_path):
    from rulespec.authoring.explain import builds_words
    rs = compile_ruleset("casino").ruleset
    assert not rs.builds.one_per_value and not rs.builds.owner_may_trail
    assert "one_per_value" not in repr(compile_ruleset("casino").module.BUILDS)
    path = tmp_path / "houses.yaml"
    path.write_text(BUILDING.replace("BUILDS", "{one_per_value: true, owner_may_trail: true}"))
    words = builds_words(compile_ruleset(path).ruleset.builds)
    assert "At most one build of each value" in words and "may trail another card" in words


# -- owners: last (the default) or per_side ---------------------------------------------------------------------
# Four seats, sides 0 2 against 1 3 (seat 3 deals, seat 0 plays first). s0 builds 8 (5D on 3H, keeping 8S);
# s1, an opponent, adds 2H+6C (keeping 8C): a multiple build; s2, s0's partner, adds 8D alone (keeping 8H);
# s3 throws QH (a card of no value).

def _four(rules):
    return explicit_hand(rules, 3, ["3H", "6C", "6D", "QS"], {0: ["5D", "8S", "4C", "10H"], 1: ["2H", "8C", "9H", "7C"],
                                                               2: ["8D", "8H", "AC", "JH"], 3: ["9C", "QH", "AS", "2S"]},
                         seats=4)


EIGHT = ("2H", "6C", "5D", "3H")


def _cemented(rules, partner_too=True):
    hand = _four(rules)
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "2H"), _build(rules, 8, "6C", "5D", "3H"))
    if partner_too:
        hand.play(2, card_of(rules, "8D"), _build(rules, 8, *EIGHT))
        hand.play(3, card_of(rules, "QH"), 0)
    return hand


def test_by_default_the_last_seat_to_add_to_a_build_owns_it_alone(tmp_path):
    # owners: last (every ruleset that does not write it): the adder replaces the owner, partner or not
    rules = _rules(tmp_path, "true")
    assert "owners" not in repr(rules.BUILDS)
    hand = _cemented(rules, partner_too=False)
    assert [b.owners for b in hand.builds] == [(1,)]
    assert hand.observation(3)["builds"][0]["owner"] == 1
    hand.play(2, card_of(rules, "8D"), _build(rules, 8, *EIGHT))
    assert [b.owners for b in hand.builds] == [(2,)]
    hand.play(3, card_of(rules, "QH"), 0)
    assert (card_of(rules, "10H"), 0) in hand.legal_moves()                     # s0 owns nothing: it may trail


def test_per_side_an_opponent_who_adds_becomes_a_second_owner_and_a_partner_does_not(tmp_path):
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _cemented(rules, partner_too=False)
    assert [(b.owners, b.fixed) for b in hand.builds] == [((0, 1), True)]        # s1: an opponent of s0
    hand.play(2, card_of(rules, "8D"), _build(rules, 8, *EIGHT))
    assert [b.owners for b in hand.builds] == [(0, 1)]                           # s2: s0's partner (and s1's opponent)
    assert hand.observation(3)["builds"][0]["owner"] == [0, 1]


def test_per_side_every_owner_bears_the_owners_duty_while_the_build_stands(tmp_path):
    # owner_must_act (the default): an owner may not trail while its build stands, nor play away its last card
    # of the build's value but to take it; both owners are bound
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _cemented(rules)
    assert (card_of(rules, "10H"), 0) not in hand.legal_moves()                  # s0, the first owner
    with pytest.raises(IllegalMove, match="owner of a build may not trail"):
        hand.play(0, card_of(rules, "10H"), 0)
    hand.play(0, card_of(rules, "4C"), _build(rules, 10, "6D"))                  # s0 builds 10, keeping 8S and 10H
    eight = mask_of(rules, *EIGHT, "8D")
    # s1, the second owner: no trail, and its 8C only takes the build
    assert hand.legal_moves() == [(card_of(rules, "8C"), eight)]
    hand.play(1, card_of(rules, "8C"), eight)
    # taken: the build of two owners leaves the table like any build, and their duty with it
    assert [(b.value, b.owners) for b in hand.builds] == [(10, (0,))]


def _one_eight_each(rules):
    # as _four, but s2 (s0's partner) and s3 (an opponent) hold one 8 each, and nothing else of 8
    return explicit_hand(rules, 3, ["3H", "6C", "6D", "QS"], {0: ["5D", "8S", "4C", "10H"], 1: ["2H", "8C", "9H", "7C"],
                                                               2: ["8D", "AC", "JH", "2C"], 3: ["8H", "QH", "AS", "2S"]},
                         seats=4)


def test_per_side_a_partner_of_an_owner_adds_its_only_card_of_the_value(tmp_path):
    # pagat's Seep: "if your partner is already an owner, you can add to the house without becoming an owner"
    # (e.g. your only queen to your partner's cemented queen house): it keeps no card of the value, being no owner
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _one_eight_each(rules)
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    eight = _build(rules, 8, "5D", "3H")
    hand.play(1, card_of(rules, "7C"), 0)
    assert (card_of(rules, "8D"), eight) in hand.legal_moves()
    hand.play(2, card_of(rules, "8D"), eight)                                    # s2's only 8, onto s0's build
    assert [(b.owners, b.fixed) for b in hand.builds] == [((0,), True)]
    # s3, an opponent, would become an owner: it must keep an 8, and its only one cannot be added
    assert (card_of(rules, "8H"), _build(rules, 8, "5D", "3H", "8D")) not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="cannot build 8"):
        hand.play(3, card_of(rules, "8H"), _build(rules, 8, "5D", "3H", "8D"))


def test_by_default_an_adder_becomes_the_owner_and_keeps_a_card_of_the_value(tmp_path):
    # owners: last: the adder owns the build, so even a partner must keep a card of its value
    rules = _rules(tmp_path, "true")
    hand = _one_eight_each(rules)
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "7C"), 0)
    assert (card_of(rules, "8D"), _build(rules, 8, "5D", "3H")) not in hand.legal_moves()


def test_per_side_a_raise_gives_the_build_to_the_raiser_alone(tmp_path):
    # a single build raised (not fixed, so still of one owner) is the raiser's, as with `last`
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "4C", "10H"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "AC"), _build(rules, 9, "5D", "3H"))
    assert [b.owners for b in hand.builds] == [(1,)]


def test_the_owners_option_is_said_and_checked(tmp_path):
    from rulespec.authoring.diff import differences
    from rulespec.authoring.explain import builds_words
    from rulespec.errors import RulespecError
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "houses.yaml").write_text(BUILDING.replace("BUILDS", "{owners: per_side}"))
    rs = compile_ruleset(mine / "houses.yaml").ruleset
    words = builds_words(rs.builds)
    assert "becomes another owner" in words and "Each owner of a build" in words
    assert "another owner" not in builds_words(compile_ruleset("casino").ruleset.builds)
    (tmp_path / "houses.yaml").write_text(BUILDING.replace("BUILDS", "true"))
    said = [str(d) for d in differences(compile_ruleset(tmp_path / "houses.yaml").ruleset, rs)]
    assert said == ["changed: builds: who owns a build: the player who last made, raised or added to it → the maker "
                    "or last raiser, and each opponent who adds a set to it (not a partner)"], said
    bad = tmp_path / "bad"
    bad.mkdir()
    with pytest.raises(RulespecError) as e:
        _rules(bad, "{owners: partners}")
    assert "owners" in str(e.value) and "per_side" in str(e.value) and "houses.yaml:" in str(e.value)
    # per_side without multiple builds decides nothing (nothing is ever added to a build): a located warning
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "houses.yaml").write_text(BUILDING.replace("BUILDS", "{owners: per_side, multiple: false}"))
    warned = [w for w in compile_ruleset(lone / "houses.yaml").ruleset.warnings if "owners: per_side" in w.message]
    assert len(warned) == 1 and "multiple: false" in warned[0].message
    line = (lone / "houses.yaml").read_text().splitlines()[warned[0].span.line - 1]
    assert "owners: per_side" in line
    assert not any("owners" in w.message for w in rs.warnings)


def test_the_observation_array_shows_each_owner_of_a_build(tmp_path):
    # interop observation (rulespec/interop/observation.py): `build_owner` holds a build's cards in the row of
    # every seat that owns it, relative to the observer
    pytest.importorskip("numpy")
    from rulespec.interop.decisions import Decisions
    from rulespec.interop.observation import Observer
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _cemented(rules, partner_too=False)                                   # owners s0 and s1
    observer = Observer(rules, 4)
    arr, at, N = observer.array(Decisions(hand), 3), observer.blocks, rules.N_CARDS
    cards = [card_of(rules, c) for c in EIGHT]
    rows = [[int(arr[at["build_owner"].start + r * N + c]) for c in cards] for r in range(4)]
    # seen by seat 3: seat 0 is relative 1, seat 1 relative 2; seats 2 and 3 own nothing
    assert rows == [[0] * 4, [1] * 4, [1] * 4, [0] * 4]


def test_rulespec_play_says_every_owner_of_a_build(tmp_path):
    # run/builds.builds_words (`rulespec play`'s table line): each owner in words, the player's own as "yours"
    from rulespec.run.builds import builds_words
    rules = _rules(tmp_path, "{owners: per_side}")
    hand = _cemented(rules, partner_too=False)
    who = {0: "yours", 1: "seat 1's"}.__getitem__
    assert builds_words(hand.builds, rules.card_names, who) == \
        f"build of 8: {rules.card_names(mask_of(rules, *EIGHT))} (yours and seat 1's, fixed)"
