"""Issue 14's language gaps 1-3: capture.prefer, the moment of a play (round/turn/play) visible to
capture kinds and events, and the subset_total builtin. Each is checked through a small ruleset
written to a temporary directory and a transcript replayed against it."""
import random
import textwrap

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run import runtime
from rulespec.run.engine import Hand, shuffled_source
from rulespec.transcripts.replay import replay


def _ruleset(tmp_path, name, body):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def _replay(tmp_path, text):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = replay(path)
    return result


# -- gap 1: capture priority beyond match-over-sum ---------------------------------------------

PREFER = """\
    id: prefer-{which}
    extends: scopa
    name: Scopa, prefer {which}
    capture:
      prefer: {which}
      kinds: [{{kind: match}}, {{kind: sum}}]
    """

# Table AC 2S 3B 4D: a 6 has the sums 2S+4D (two cards) and AC+2S+3B (three); a 3 has the match 3B
# and the sum AC+2S.
DEAL = """\
    ruleset: prefer-{which}.yaml
    seats: 2
    dealer: 0
    deal:
      - table: [AC, 2S, 3B, 4D]
        hands: {{1: [6S, 7C, FB], 0: [3C, 5D, CC]}}
    plays:
      - {{seat: 1, card: 6S, capture: {take6}, legal: {legal6}}}
      - {{seat: 0, card: 3C, capture: {take3}, legal: {legal3}}}
    """


def test_prefer_fewest_cards_keeps_the_smallest_sets(tmp_path):
    _ruleset(tmp_path, "prefer-fewest_cards", PREFER.format(which="fewest_cards"))
    # 6S: only the two-card sum; then 3C on AC 3B: the match (one card) before the sum AC+2S... which is gone.
    result = _replay(tmp_path, DEAL.format(which="fewest_cards", take6="[2S, 4D]", legal6="[[2S, 4D]]",
                                           take3="[3B]", legal3="[[3B]]"))
    assert result.ok, result.summary()


def test_prefer_fewest_cards_puts_a_match_before_a_sum(tmp_path):
    _ruleset(tmp_path, "prefer-fewest_cards", PREFER.format(which="fewest_cards"))
    # 3C first: the match 3B (one card) and the sum AC+2S (two): only the match is offered.
    text = """\
        ruleset: prefer-fewest_cards.yaml
        seats: 2
        dealer: 1
        deal:
          - table: [AC, 2S, 3B, 4D]
            hands: {0: [3C, 5D, CC], 1: [6S, 7C, FB]}
        plays:
          - {seat: 0, card: 3C, capture: [AC, 2S], error: the match takes fewer cards}
        """
    assert _replay(tmp_path, text).ok


def test_prefer_most_cards_keeps_the_largest_sets(tmp_path):
    _ruleset(tmp_path, "prefer-most_cards", PREFER.format(which="most_cards"))
    result = _replay(tmp_path, DEAL.format(which="most_cards", take6="[AC, 2S, 3B]", legal6="[[AC, 2S, 3B]]",
                                           take3="[]", legal3="[[]]"))
    # After 6S takes AC 2S 3B the table is 4D: 3C cannot capture, so it stays.
    assert result.ok, result.summary()


def test_prefer_any_is_the_default(tmp_path):
    text = DEAL.format(which="", take6="[2S, 4D]", legal6="[[2S, 4D], [AC, 2S, 3B]]", take3="[3B]",
                       legal3="[[3B]]").replace("prefer-.yaml", "scopa")
    assert _replay(tmp_path, text).ok


def test_prefer_rejects_an_unknown_value(tmp_path):
    path = _ruleset(tmp_path, "bad", PREFER.format(which="fewest"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "fewest" in str(err.value) and "fewest_cards" in str(err.value)


# -- gap 2: the moment of a play in capture kinds and events -------------------------------------

MOMENT = """\
    id: moment
    extends: scopa
    name: Scopa with events that watch the clock
    events:
      third_play: {when: play == 3, points: 0, category: scope}
      second_turn: {when: turn == 2, points: 0, category: scope}
      second_round: {when: round == 2 and turn == 1, points: 0, category: scope}
    """


def test_round_turn_and_play_seen_by_events(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "moment", MOMENT)).module
    hand = Hand(rules, 2, 0, shuffled_source(rules.N_CARDS, random.Random(3)))
    seen = {}
    n = 0
    while not hand.is_over and n < 12:
        card, capture = hand.legal_moves()[0]
        n += 1
        seen[n] = sorted(e.name for e in hand.play(hand.current_seat, card, capture)
                         if e.name in ("third_play", "second_turn", "second_round"))
    # 2 players, 3 cards a round: plays 1-6 are round 1 (turns 1 1 2 2 3 3), plays 7-12 round 2.
    assert seen[3] == ["second_turn", "third_play"]
    assert seen[4] == ["second_turn"]
    assert seen[7] == ["second_round"] and seen[8] == ["second_round"]
    assert seen[9] == ["second_turn"] and seen[10] == ["second_turn"]
    assert all(seen[i] == [] for i in (1, 2, 5, 6, 11, 12))


ACE_LATE = """\
    id: ace-late
    extends: scopa-d-assi
    name: Scopa d'assi, no ace sweep on the first play
    capture:
      kinds:
        - kind: sweep
          when: 'rank(played) == "A" and play > 1'
          exclusive: true
        - kind: match
        - kind: sum
          unless_match: true
    """


def test_capture_kind_sees_the_play_number(tmp_path):
    _ruleset(tmp_path, "ace-late", ACE_LATE)
    # Play 1: AC may not sweep (play 1): it matches AB like any card. Play 2: AD sweeps.
    text = """\
        ruleset: ace-late.yaml
        seats: 2
        dealer: 0
        deal:
          - table: [AB, 3C, 2S, FC]
            hands: {1: [AC, 6S, 7C], 0: [AD, CC, 4B]}
        plays:
          - {seat: 1, card: AC, capture: [AB], legal: [[AB]]}
          - {seat: 0, card: AD, capture: [3C, 2S, FC], legal: [[3C, 2S, FC]]}
        expect:
          table: []
        """
    result = _replay(tmp_path, text)
    assert result.ok, result.summary()


def test_capture_names_are_listed_when_unknown(tmp_path):
    path = _ruleset(tmp_path, "bad-name", ACE_LATE.replace("play > 1", "plays > 1").replace("id: ace-late",
                                                                                           "id: bad-name"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "unknown name 'plays'" in str(err.value) and "'play'" in str(err.value)


# -- gap 3: subset sums ---------------------------------------------------------------------------

VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def _mask(*indices):
    return sum(1 << i for i in indices)


@pytest.mark.parametrize("cards, target, whole, part", [
    ((6, 7), 15, True, True),           # 7 + 8
    ((6, 7, 2), 15, False, True),       # 7 + 8 (+ 3 left out)
    ((6, 7, 2), 18, True, True),
    ((0, 1), 15, False, False),
    ((9, 9 + 10, 4, 4 + 10), 15, False, True),   # card indices >= 10 are other suits (10 + 5)
    ((), 0, True, False),               # no cards: no part of one or more cards
])
def test_subset_total_and_can_total(cards, target, whole, part):
    values = VALUES * 4
    mask = _mask(*cards)
    assert runtime.can_total(mask, target, values, 0) is whole
    assert runtime.subset_total(mask, target, values, 0) is part


def test_subset_total_with_the_wild_card():
    values = VALUES * 4
    wild = 1 << 39
    assert runtime.subset_total(_mask(9) | wild, 15, values, wild)          # 10 + wild as 5
    assert runtime.subset_total(wild, 7, values, wild)                      # the wild card alone
    assert not runtime.subset_total(_mask(0) | wild, 12, values, wild)      # 1 + at most 10
    assert runtime.subset_total(_mask(0, 1) | wild, 13, values, wild)       # 1 + 2 + 10


def test_escoba_table_of_thirty_needs_two_fifteens():
    rules = compile_ruleset("escoba").module
    idx = {n: i for i, n in enumerate(rules.CARD_NAMES)}

    def bonus(*names):
        found = rules.dealer_bonus(sum(1 << idx[n] for n in names))
        return found and found[0]
    assert bonus("RC", "5D", "7B", "FS") == "dos_escobas_de_mano"    # 10+5 and 7+8
    assert bonus("RC", "RD", "CS", "AS") is None                     # 30, but no 15 inside
    assert bonus("AC", "4D", "3B", "7S") == "escoba_de_mano"
