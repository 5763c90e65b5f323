"""Builds on the table (issue 23, item 1): `capture.builds` (docs/language.md, "Builds"), played by `Hand`
(run/builds.py), refused by the generated back ends, written in transcripts as `build:` with `value:`.

Each test names the rule it checks. The ruleset here is written out in full so that these tests need no
shipped game; its rules are the construct's defaults (raise, multiple, the owner must act)."""
import random
import textwrap

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.errors import RulespecError
from rulespec.run.builds import build_move
from rulespec.run.engine import Hand, IllegalMove, shuffled_source
from rulespec.transcripts.replay import replay
from tests.conftest import card_of, explicit_hand, mask_of

BUILDING = """\
id: building
name: Building
deck:
  id: building52
  ranks: [{rank: A, value: 1}, {rank: "2", value: 2}, {rank: "3", value: 3}, {rank: "4", value: 4},
          {rank: "5", value: 5}, {rank: "6", value: 6}, {rank: "7", value: 7}, {rank: "8", value: 8},
          {rank: "9", value: 9}, {rank: "10", value: 10}, {rank: J, value: null}, {rank: Q, value: null},
          {rank: K, value: null}]
  suits: [H, D, C, S]
players: {counts: [2, 4], default: 2, sides: {2: 2, 4: 2}}
deal:
  rounds:
    - [{each: 4}, {table: 4}]
    - [{each: 4}]
  repeat_last: true
capture:
  forced: false
  combine: union
  kinds: [{kind: match}, {kind: sum}]
  builds: BUILDS
events:
  sweep: {when: not empty(captured) and empty(table), points: 1, category: sweeps}
scoring:
  sweeps: {from_events: true}
  cards: {points: '3 if most(count(pile)) else 0'}
game: {target: 21}
"""


def _ruleset(tmp_path, builds="true", name="building.yaml"):
    path = tmp_path / name
    path.write_text(BUILDING.replace("BUILDS", builds))
    return path


@pytest.fixture
def rules(tmp_path):
    return compile_ruleset(_ruleset(tmp_path)).module


def _hand(rules, table, h0, h1):
    """Seat 0 plays first (seat 1 deals)."""
    return explicit_hand(rules, 1, table, {0: h0, 1: h1}, seats=2)


def _build(rules, value, *names):
    return build_move(mask_of(rules, *names), value, rules.N_CARDS)


def test_a_card_builds_a_value_its_player_holds(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4C", "6C", "7C"])
    moves = set(hand.legal_moves())
    assert (card_of(rules, "5D"), _build(rules, 8, "3H")) in moves           # 5 + 3 = 8, and 8S is held
    assert (card_of(rules, "2C"), _build(rules, 5, "3H")) in moves           # 2 + 3 = 5, and 5D is held
    # 2C + 9C = 11: no card of 11 is held (nor exists); 5D + 9C = 14 likewise
    assert not any(m >> rules.N_CARDS in (11, 14) for _, m in moves)
    with pytest.raises(IllegalMove, match="cannot build 14"):
        hand.play(0, card_of(rules, "5D"), _build(rules, 14, "9C"))
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    (b,) = hand.builds
    assert (b.cards, b.value, b.owners, b.fixed) == (mask_of(rules, "5D", "3H"), 8, (0,), False)
    assert hand.table == mask_of(rules, "5D", "3H", "9C", "KD", "QS")       # the build's cards lie on the table


def test_a_build_needs_the_value_in_hand_besides_the_card_played(rules):
    # 8S on 3H... no: 5D is the only 5; building 5 with 2C + 3H needs a 5 other than the 2C played
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["2C", "6S", "JH", "QH"], ["AC", "4C", "6C", "7C"])
    assert not any(m >> rules.N_CARDS == 5 for _, m in hand.legal_moves())
    assert (card_of(rules, "2C"), 0) in hand.legal_moves()


def test_a_build_is_taken_only_whole_by_a_card_of_its_value(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["3D", "8H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    with pytest.raises(IllegalMove, match="only whole"):
        hand.play(1, card_of(rules, "3D"), mask_of(rules, "3H"))          # the 3H lies in the build of 8
    assert card_of(rules, "3D") not in [c for c, m in hand.legal_moves() if m & mask_of(rules, "3H")]
    hand.play(1, card_of(rules, "8H"), mask_of(rules, "5D", "3H"))
    assert hand.builds == []
    assert hand.piles[1] == mask_of(rules, "5D", "3H", "8H")


def test_a_build_is_not_taken_by_a_sum_of_another_value(rules):
    # the build of 8 and a loose 9C: a 17 does not exist, and a 9 does not take the build
    hand = _hand(rules, ["3H", "AD", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["9H", "4C", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    with pytest.raises(IllegalMove, match="taken only by a card of 8"):
        hand.play(1, card_of(rules, "9H"), mask_of(rules, "5D", "3H", "AD"))


def test_anyone_holding_the_new_value_raises_a_single_build(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "AC"), _build(rules, 9, "5D", "3H"))      # 8 + A = 9; seat 1 holds 9H
    (b,) = hand.builds
    assert (b.value, b.owners, b.fixed) == (9, (1,), False)
    assert b.cards == mask_of(rules, "5D", "3H", "AC")


def test_a_second_set_makes_a_multiple_build_that_cannot_be_raised(rules):
    # 5D + 3H = 8, and the loose 8C joins it: a multiple build of 8, fixed
    hand = _hand(rules, ["3H", "8C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    moves = dict.fromkeys(m for c, m in hand.legal_moves() if c == card_of(rules, "5D"))
    assert _build(rules, 8, "3H", "8C") in moves and _build(rules, 8, "3H") in moves
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H", "8C"))
    (b,) = hand.builds
    assert (b.value, b.fixed) == (8, True)
    with pytest.raises(IllegalMove, match="cannot build 9"):
        hand.play(1, card_of(rules, "AC"), _build(rules, 9, "5D", "3H", "8C"))


def test_a_card_of_the_value_added_to_a_build_makes_it_multiple(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "8D", "JH"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "6C"), 0)
    hand.play(0, card_of(rules, "8D"), _build(rules, 8, "5D", "3H"))      # "still building 8": a second set
    (b,) = hand.builds
    assert (b.value, b.owners, b.fixed) == (8, (0,), True)


def test_the_owner_of_a_build_may_not_trail_while_it_stands(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "6C"), 0)
    assert (card_of(rules, "2C"), 0) not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="may not trail"):
        hand.play(0, card_of(rules, "2C"), 0)
    # nor play away the 8S it must capture with, other than to take the build
    assert all(m & mask_of(rules, "5D", "3H") for c, m in hand.legal_moves() if c == card_of(rules, "8S"))
    hand.play(0, card_of(rules, "8S"), mask_of(rules, "5D", "3H"))


def test_an_opponent_may_trail_beside_a_build(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    assert (card_of(rules, "6C"), 0) in hand.legal_moves()


def test_owner_must_act_false_lets_the_owner_trail(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "{owner_must_act: false}")).module
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "6C"), 0)
    assert (card_of(rules, "2C"), 0) in hand.legal_moves()


def test_raise_false_and_multiple_false_and_values(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "{raise: false, multiple: false, values: [8, 9]}")).module
    hand = _hand(rules, ["3H", "8C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    values = {m >> rules.N_CARDS for _, m in hand.legal_moves()} - {0}
    assert values == {8}                                  # 2C + 3H = 5 is not among the values
    assert (card_of(rules, "5D"), _build(rules, 8, "3H", "8C")) not in hand.legal_moves()   # no multiple
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    raises = [m for _, m in hand.legal_moves() if m & mask_of(rules, "5D") and m >> rules.N_CARDS == 9]
    assert raises == []                                   # no raise (AC + 8C = 9 still builds from loose cards)


def test_a_card_takes_a_build_with_loose_sets_of_its_value(rules):
    # build 8 (5D + 3H) and loose 6C + 2D: the 8H takes all four at once (combine: union)
    hand = _hand(rules, ["3H", "6C", "2D", "QS"], ["5D", "8S", "JC", "JH"], ["8H", "4H", "9C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    options = {m for c, m in hand.legal_moves() if c == card_of(rules, "8H")}
    assert mask_of(rules, "5D", "3H", "6C", "2D") in options
    assert mask_of(rules, "6C", "2D") in options and mask_of(rules, "5D", "3H") in options


def test_taking_the_last_build_and_cards_is_a_sweep(rules):
    hand = _hand(rules, ["3H", "KD", "QS", "JD"], ["5D", "8S", "KC", "QC"], ["8H", "JH", "9C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    hand.play(1, card_of(rules, "JH"), mask_of(rules, "JD"))
    hand.play(0, card_of(rules, "KC"), mask_of(rules, "KD"))
    events = hand.play(1, card_of(rules, "8H"), mask_of(rules, "5D", "3H"))
    assert [e.name for e in events] == []                 # the QS is still there
    hand.play(0, card_of(rules, "QC"), mask_of(rules, "QS"))
    assert hand.table == 0


def test_builds_left_at_the_end_go_to_the_last_capturer(rules):
    # Random hands: every card ends in a pile, no build is left, and the hand scores.
    for seed in range(30):
        hand = Hand(rules, 2, seed % 2, shuffled_source(rules.N_CARDS, random.Random(seed)))
        rng = random.Random(seed)
        while not hand.is_over:
            card, move = rng.choice(hand.legal_moves())
            hand.play(hand.current_seat, card, move)
        assert hand.builds == []
        assert sum(p.bit_count() for p in hand.piles) == 52 or hand.last_capturer is None
        hand.score()


def test_a_move_from_a_stranger_is_checked(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    with pytest.raises(IllegalMove, match="a set of cards"):
        hand.play(0, card_of(rules, "5D"), 1 << (rules.N_CARDS + 9))        # past the highest build value
    with pytest.raises(IllegalMove, match="not on the table"):
        hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3C"))


def test_observation_shows_builds_with_value_owner_fixed(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    obs = hand.observation(1)
    assert obs["builds"] == [{"cards": sorted([card_of(rules, "5D"), card_of(rules, "3H")]), "value": 8,
                              "owner": 0, "fixed": False}]


def test_clones_keep_their_own_builds(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    copy = hand.clone()
    copy.play(1, card_of(rules, "AC"), _build(rules, 9, "5D", "3H"))
    assert [b.value for b in hand.builds] == [8] and [b.value for b in copy.builds] == [9]


# -- the back ends refuse builds, located ---------------------------------------------------------

def test_the_playout_and_the_c_back_end_refuse_builds_located(tmp_path):
    rs = compile_ruleset(_ruleset(tmp_path)).ruleset
    line = BUILDING.splitlines().index("  builds: BUILDS") + 1
    for found in (playout_unsupported(rs), unsupported(rs)):
        spans = [span for what, span in found if what.startswith("capture.builds")]
        assert spans and spans[0].line == line


def test_a_ruleset_without_builds_emits_no_builds():
    assert not hasattr(compile_ruleset("scopa").module, "BUILDS")


# -- the language: schema and checks -------------------------------------------------------------

def test_an_unknown_key_in_capture_builds_is_refused_located(tmp_path):
    with pytest.raises(RulespecError) as err:
        compile_ruleset(_ruleset(tmp_path, "{raise: true, rasie: false}"))
    assert "rasie" in err.value.message and err.value.span.line == BUILDING.splitlines().index("  builds: BUILDS") + 1


def test_builds_with_a_pile_or_a_wild_card_are_refused(tmp_path):
    text = BUILDING.replace("BUILDS", "true").replace("  forced: false", "  forced: false\n  table: pile")
    path = tmp_path / "pile.yaml"
    path.write_text(text)
    with pytest.raises(RulespecError, match="spread table"):
        compile_ruleset(path)


def test_build_values_no_card_captures_as_are_refused(tmp_path):
    with pytest.raises(RulespecError, match="no card of the deck captures as 14"):
        compile_ruleset(_ruleset(tmp_path, "{values: [9, 14]}"))


# -- transcripts -------------------------------------------------------------------------------------

TRANSCRIPT = """\
ruleset: building.yaml
seats: 2
dealer: 1
deal:
  - table: [3H, 9C, KD, QS]
    hands: {0: [5D, 8S, 2C, JH], 1: [AC, 9H, 6C, 7C]}
plays:
  - {seat: 0, card: 5D, build: [3H], value: 8, legal: [[]]}
  - {seat: 1, card: AC, build: [5D, 3H], value: 9}
PLAYS
expect:
  table: [9C, KD, QS, {build: [5D, 3H, AC], value: 9, owner: 1, fixed: false}]
"""


def _transcript(tmp_path, plays="", expect_table=None):
    _ruleset(tmp_path)
    text = TRANSCRIPT.replace("PLAYS\n", plays)
    if expect_table is not None:
        text = text.replace(text[text.index("  table: [9C"):], f"  table: {expect_table}\n")
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return path


def test_a_transcript_writes_a_build_and_shows_it_on_the_table(tmp_path):
    result = replay(_transcript(tmp_path))
    assert result.ok, result.failures


def test_a_transcript_table_that_misses_a_build_fails(tmp_path):
    result = replay(_transcript(tmp_path, expect_table="[9C, KD, QS, {build: [5D, 3H, AC], value: 8}]"))
    assert not result.ok and "expected build of 8" in result.failures[0]
    result = replay(_transcript(tmp_path, expect_table="[9C, KD, QS]"))
    assert not result.ok and "also holds build of 9" in result.failures[0]


def test_a_transcript_build_owner_is_a_seat_or_a_list_of_seats(tmp_path):
    # docs/transcripts.md: `owner:` a seat, or the list of a build's owners (capture.builds.owners), any order
    table = "[9C, KD, QS, {{build: [5D, 3H, AC], value: 9, owner: {}}}]"
    assert replay(_transcript(tmp_path, expect_table=table.format("[1]"))).ok
    result = replay(_transcript(tmp_path, expect_table=table.format("[1, 0]")))
    # capture.builds.owners: last: a build has one owner, so a list of two is refused before playing
    assert not result.ok and "owner: [0, 1]: a build of" in result.failures[0] and \
        "has one owner (capture.builds.owners: last)" in result.failures[0], result.failures
    for bad, said in (("[1, x]", "expected an integer, found 'x'"), ("[0, 5]", "seat 5 is out of range"),
                      ("[1, 1]", "repeated item 1"), ("[]", "non-empty"), ("two", "expected a seat number or a list")):
        with pytest.raises(RulespecError) as e:
            replay(_transcript(tmp_path, expect_table=table.format(bad)))
        assert said in str(e.value) and "t.yaml:11:" in str(e.value), (bad, str(e.value))


def test_a_bad_build_in_a_transcript_is_refused_naming_the_play(tmp_path):
    plays = "  - {seat: 0, card: 2C, build: [9C], value: 11}\n"
    result = replay(_transcript(tmp_path, plays))
    assert not result.ok and "play 3 (seat 0, 2C): refused" in result.failures[0]


def test_the_owner_may_not_trail_as_an_expected_refusal(tmp_path):
    plays = "  - {seat: 0, card: 2C, error: the owner of a build may not trail}\n"
    text = TRANSCRIPT.replace("  - {seat: 1, card: AC, build: [5D, 3H], value: 9}\n",
                              "  - {seat: 1, card: 6C}\n").replace("PLAYS\n", plays)
    text = text[:text.index("expect:")]
    _ruleset(tmp_path)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    result = replay(path)
    assert result.ok and result.stopped_at_error, result.failures


def test_a_build_in_a_ruleset_without_builds_is_refused_located(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent("""\
        ruleset: tablanette
        dealer: 1
        deal:
          - table: [3C, 9C, KD, QS]
            hands: {0: [5D, 7S, 2C, 4H, AS, 4S], 1: [AC, 9H, 6C, 7C, 2D, 3D]}
        plays:
          - {seat: 0, card: 5D, build: [3C], value: 8}
        """))
    with pytest.raises(RulespecError, match="has no builds") as err:
        replay(path)
    assert err.value.span.line == 7


def test_build_and_capture_together_are_refused_by_the_schema(tmp_path):
    plays = "  - {seat: 0, card: 2C, build: [9C], value: 11, capture: [9C]}\n"
    with pytest.raises(RulespecError, match="captures or builds"):
        replay(_transcript(tmp_path, plays))


# -- bots, words, display ----------------------------------------------------------------------------

def test_the_greedy_bot_builds_when_it_cannot_capture(rules):
    # seat 0 takes nothing with any card; 5D on 3H builds 8 (it holds 8S): greedy prefers it to a trail
    from rulespec.bots.greedy import GreedyBot
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    assert not [m for c, m in hand.legal_moves() if m and not m >> rules.N_CARDS]      # no capture at all
    _, card, move = GreedyBot(random.Random(0)).choose(hand, 0)
    assert move >> rules.N_CARDS and card in (card_of(rules, "5D"), card_of(rules, "2C"))


def test_the_greedy_bot_still_captures_before_it_builds(rules):
    from rulespec.bots.greedy import GreedyBot
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "9D", "JH"], ["AC", "4H", "6C", "7C"])
    _, card, move = GreedyBot(random.Random(0)).choose(hand, 0)
    assert (card, move) == (card_of(rules, "9D"), mask_of(rules, "9C"))


def test_a_move_in_words_names_the_build(rules):
    from rulespec.run.builds import move_words
    hand = _hand(rules, ["3H", "9C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    names = rules.card_names
    assert move_words(_build(rules, 8, "3H"), hand.builds, rules.N_CARDS, names) == "builds 8 with 3H"
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H"))
    assert move_words(_build(rules, 9, "5D", "3H"), hand.builds, rules.N_CARDS, names) == \
        "raises the build of 8 (3H 5D) to 9"
    assert move_words(mask_of(rules, "5D", "3H"), hand.builds, rules.N_CARDS, names) == \
        "takes 3H 5D (the build of 8)"


def test_explain_says_builds_in_words(tmp_path):
    from rulespec.authoring.explain import builds_words
    rs = compile_ruleset(_ruleset(tmp_path, "{raise: false, values: [8, 9]}")).ruleset
    words = builds_words(rs.builds)
    assert "only 8 or 9" in words and "cannot be raised" in words and "may not trail" in words
    # owners: last (the default): whoever last made, raised or added to the build owns it
    assert "The player who last made, raised or added to a build may not trail" in words


def test_adapters_reach_a_build_through_their_actions(rules):
    # 4D with the table's 4H: take it (DONE), or build 8 with it (s0 holds 8S): a `build 8` action closes it
    from rulespec.interop.decisions import CAPTURE, Decisions
    hand = _hand(rules, ["4H", "9C", "KD", "QS"], ["4D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    d = Decisions(hand)
    d.apply(card_of(rules, "4D"))
    d.apply(card_of(rules, "4H"))
    assert d.phase == CAPTURE and d.legal_actions() == [d.layout.done, d.layout.build_action(8)]
    assert d.layout.describe(d.layout.build_action(8), rules) == "build 8"
    d.apply(d.layout.build_action(8))
    assert [(b.value, b.owners) for b in hand.builds] == [(8, (0,))]


def test_listing_builds_is_bounded(rules, monkeypatch):
    # A listing past the bound on memory stops with one error, never an endless listing; the state is not
    # refused with it: a move is drawn without the list (Hand.random_move) and played.
    from rulespec.run import builds
    from rulespec.run.engine import TooManyMoves
    monkeypatch.setattr(builds, "MAX_BUILD_MOVES", 5)
    hand = _hand(rules, ["3H", "9C", "AD", "2S"], ["5D", "8S", "2C", "JH"], ["AC", "4H", "6C", "7C"])
    with pytest.raises(TooManyMoves, match="loose cards are too many to list them"):
        hand.legal_moves()
    card, mask = hand.random_move(random.Random(0))
    assert hand.hands[0] >> card & 1 and not mask & ~hand.table & ((1 << rules.N_CARDS) - 1)


def test_the_observation_array_shows_builds_owner_fixed_and_value(rules):
    pytest.importorskip("numpy")
    from rulespec.interop.decisions import Decisions
    from rulespec.interop.observation import Observer
    hand = _hand(rules, ["3H", "8C", "KD", "QS"], ["5D", "8S", "2C", "JH"], ["AC", "9H", "6C", "7C"])
    hand.play(0, card_of(rules, "5D"), _build(rules, 8, "3H", "8C"))            # multiple: fixed, seat 0's
    d = Decisions(hand)
    observer = Observer(rules, 2)
    arr, at, N = observer.array(d, 1), observer.blocks, rules.N_CARDS
    cards = [card_of(rules, c) for c in ("5D", "3H", "8C")]
    assert [arr[at["built"].start + c] for c in cards] == [1, 1, 1]
    # seen by seat 1, seat 0 is the next seat (relative 1): its block holds the build
    assert [arr[at["build_owner"].start + N + c] for c in cards] == [1, 1, 1]
    assert arr[at["build_owner"]][:N].sum() == 0
    assert [arr[at["build_fixed"].start + c] for c in cards] == [1, 1, 1]
    assert list(arr[at["build_values"]].nonzero()[0]) == [7]                     # value 8


def test_the_casino_transcripts_pin_down_every_build_rule():
    # rulespec test --coverage: each flag of capture.builds flipped, and the courts' alone, is caught
    from pathlib import Path

    from rulespec.transcripts.coverage import coverage, mutations
    from rulespec.source.rulesets import load_merged
    found = {(m.rule, m.change) for m in mutations(load_merged("casino")[0])}
    assert {("capture.builds.raise", "false"), ("capture.builds.multiple", "false"),
            ("capture.builds.owner_must_act", "false"), ("capture.kinds[1] (match)", "not alone")} <= found
    golden = sorted((Path(__file__).parent / "golden" / "casino").glob("*.yaml"))
    report = coverage("casino", golden)
    assert report.survivors == [] and report.count("invalid") == 0


def test_declared_cards_first_still_offer_their_builds(tmp_path):
    # declared_first: after declaring 8S 8D, only they may be played, and their moves are the builds' own
    # (legal_moves_after gave the capture kinds' moves alone, without builds)
    from rulespec.run.engine import Declaration
    path = tmp_path / "declaring.yaml"
    path.write_text(BUILDING.replace("BUILDS", "true") + textwrap.dedent("""\
        hand_bonuses:
          pair: {size: 2, when: same_value(cards), points: 1, category: sweeps}
        declarations: {timing: first_turn, declared_first: true}
        """))
    rules = compile_ruleset(path).module
    hand = _hand(rules, ["3H", "8C", "KD", "QS"], ["5S", "8S", "8D", "JH"], ["AC", "4H", "6C", "7C"])
    pair = Declaration("pair", mask_of(rules, "8S", "8D"))
    after = hand.legal_moves_after([pair])
    assert (card_of(rules, "8S"), _build(rules, 8, "8C")) in after              # 8S on 8C, 8D kept: building 8s
    assert {c for c, _ in after} == {card_of(rules, "8S"), card_of(rules, "8D")}
    assert after == sorted(after) and (card_of(rules, "8S"), 0) in after
    probe = hand.with_declarations(0, [pair])
    assert after == probe.legal_moves()
