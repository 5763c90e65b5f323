"""Replay reports: a wrong expectation or an invalid transcript names the play and the difference."""
import textwrap
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.transcripts.replay import replay

BASE = """\
ruleset: cirulla
seats: 4
dealer: 0
deal:
  - table: [2C, 5S, 6H, JD]
    hands: {1: [5D, KC, 3H], 2: [JS, 4D, QH], 3: [7C, AS, 2D], 0: [4S, 6C, KH]}
plays:
  - {seat: 1, card: 5D, capture: [5S], legal: [[5S], [2C, JD]], events: []}
  - {seat: 2, card: JS, capture: [2C, 6H], events: []}
  - {seat: 3, card: 7C, capture: [JD], events: [scopa]}
expect:
  table: []
  events: {0: [], 1: [scopa]}
"""


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def failures(tmp_path, text):
    result = replay(write(tmp_path, text))
    return [f.split(": ", 1)[1] for f in result.failures]


def test_base_passes(tmp_path):
    assert replay(write(tmp_path, BASE)).ok


@pytest.mark.parametrize("old,new,message", [
    ("events: [scopa]}", "events: []}",
     "play 3 (seat 3, 7C): expected events [], got [scopa]"),
    ("legal: [[5S], [2C, JD]]", "legal: [[5S]]",
     "play 1 (seat 1, 5D): expected legal captures {[5S]}, got {[2C, JD], [5S]}"),
    ("{seat: 2, card: JS, capture: [2C, 6H]", "{seat: 2, card: JS, capture: [2C]",
     "play 2 (seat 2, JS): refused: illegal capture: JS cannot take 2C (it can take JD or 6H 2C)"),
    ("{seat: 2, card: JS", "{seat: 3, card: JS",
     "play 2 (seat 3, JS): refused: it is seat 2's turn, not seat 3's"),
    ("table: []", "table: [4S]", "expect.table: expected [4S], got []"),
    ("events: {0: [], 1: [scopa]}", "events: {0: [scopa], 1: [scopa]}",
     "expect.events: side 0: expected [scopa], got []"),
])
def test_a_difference_names_the_play(tmp_path, old, new, message):
    assert old in BASE
    assert failures(tmp_path, BASE.replace(old, new)) == [message]


def test_failure_is_located_at_the_play(tmp_path):
    result = replay(write(tmp_path, BASE.replace("events: [scopa]}", "events: []}")))
    assert result.failures[0].startswith(f"{tmp_path / 't.yaml'}:10:")


def test_expected_refusal_passes_and_unexpected_acceptance_fails(tmp_path):
    refused = BASE.replace("capture: [2C, 6H], events: []}", "capture: [], error: must capture}")
    assert replay(write(tmp_path, refused)).ok
    accepted = BASE.replace("capture: [2C, 6H], events: []}", "capture: [2C, 6H], error: whatever}")
    assert failures(tmp_path, accepted) == [
        "play 2 (seat 2, JS): expected a refusal (whatever), but the engine accepted the play"]


def test_score_on_an_incomplete_hand_is_a_failure(tmp_path):
    text = BASE + "  score: {0: {total: 0}}\n"
    assert failures(tmp_path, text)[0].startswith("expect.score: the hand is not complete")


@pytest.mark.parametrize("old,new,message", [
    ("2C, 5S, 6H, JD]", "2C, 5S, 6H, 9D]", "unknown card '9D' in deck french40"),
    ("[5D, KC, 3H]", "[5D, KC, 5S]", "card 5S is dealt twice in this deal"),
    ("[5D, KC, 3H]", "[5D, KC]", "round 1 gives 3 cards to seat 1, the transcript gives 2"),
    ("table: [2C, 5S, 6H, JD]", "table: [AC, AH, 6H, JD]", "mark the round redeal: true"),
    ("ruleset: cirulla", "ruleset: cirula", "unknown ruleset 'cirula'"),
    ("seats: 4", "seats: 5", "cirulla is played by 2, 3, 4 players, not 5"),
])
def test_invalid_transcripts_are_refused_with_a_location(tmp_path, old, new, message):
    path = write(tmp_path, BASE.replace(old, new))
    with pytest.raises(RulespecError) as info:
        replay(path)
    assert message in info.value.message
    assert info.value.span is not None and info.value.span.file == str(path)


def test_deck_order_that_would_be_thrown_in_is_refused(tmp_path):
    deck = ["2H", "3H", "4H", "5H", "6H", "7D", "JH", "QH", "KH", "2C", "3C", "4C", "AD", "AC"]
    rest = [r + s for s in "HDCS" for r in "A234567JQK" if r + s not in deck]
    text = f"ruleset: cirulla\ndealer: 0\ndeck: [{', '.join(deck + rest)}]\nplays: []\n"
    # 12 cards to the players, then AD AC ... : the table holds two aces.
    with pytest.raises(RulespecError, match="deck: order describes one deal only"):
        replay(write(tmp_path, text))


def test_cli_replay_exit_codes(tmp_path, capsys):
    import io
    good, bad = write(tmp_path, BASE, "good.yaml"), write(tmp_path, BASE.replace("table: []", "table: [4S]"), "bad.yaml")
    out, err = io.StringIO(), io.StringIO()
    assert run(["replay", str(good)], out, err) == 0
    assert run(["replay", str(good), str(bad)], out, err) == 1
    assert "1 passed, 1 failed" in out.getvalue()


def test_seats_may_be_left_out_when_the_deal_names_them(tmp_path):
    text = """\
    ruleset: cirulla
    dealer: 1
    deal:
      - table: [2C, 5S, 6H, JD]
        hands: {0: [5D, KC, 3H], 1: [JS, 4D, QH]}
    plays:
      - {seat: 0, card: 5D, capture: [5S], events: []}
    expect:
      table: [2C, 6H, JD]
      events: {0: [], 1: []}
    """
    assert replay(write(tmp_path, text)).ok


ROUND_ONE = """\
ruleset: cirulla
seats: 2
dealer: 0
deal:
  - table: [KH, AD, 5S, 7S]
    hands: {0: [6H, 6D, 3S], 1: [7D, AC, JS]}
plays:
  - {seat: 1, card: 7D, capture: [7S], events: []}
  - {seat: 0, card: 6D, capture: [AD, 5S], events: []}
  - {seat: 1, card: AC, capture: [KH], events: [scopa]}
  - {seat: 0, card: 3S, capture: [], events: []}
  - {seat: 1, card: JS, capture: [], events: []}
  - {seat: 0, card: 6H, capture: [], events: []}
expect:
  table: [3S, JS, 6H]
  events: {0: [], 1: [scopa]}
"""


def test_a_transcript_may_stop_after_the_last_play_of_a_round(tmp_path):
    # shared/spec/transcripts.md: deal rounds that play never reaches need not be listed.
    result = replay(write(tmp_path, ROUND_ONE))
    assert result.ok, result.failures
    assert result.plays == 6


def test_a_play_in_a_round_not_listed_is_still_refused(tmp_path):
    text = ROUND_ONE.replace("expect:", "  - {seat: 1, card: 4D, capture: []}\nexpect:")
    with pytest.raises(RulespecError) as exc:
        replay(write(tmp_path, text))
    assert exc.value.message == "play 7 (seat 1, 4D) needs round 2, which the transcript's deal does not list " \
                                "(it lists 1 round)"
    assert exc.value.span.line == 14          # at that play (tests/test_author_day.py)


def test_a_score_before_the_hand_ends_says_rounds_are_to_come(tmp_path):
    text = ROUND_ONE.replace("  events: {0: [], 1: [scopa]}", "  score: {0: {total: 0}}")
    assert failures(tmp_path, text) == [
        "expect.score: the hand is not complete (0 cards in hand still to play, and deal rounds to come)"]


# Rounds a transcript lists beyond where its plays stop are read all the same (notation.md: anything that
# reads cards rejects a card used twice); each refusal is located at the round.
LATER_ROUND = "  - hands: {0: [4C, 2H, QS], 1: [7H, 4D, 3H]}\n"


@pytest.mark.parametrize("round_2,message", [
    (LATER_ROUND.replace("4C", "7D"), "card 7D is dealt twice in this deal"),
    (LATER_ROUND.replace("4C, ", ""), "round 2 gives 3 cards to seat 0, the transcript gives 2"),
    (LATER_ROUND.replace("- hands", "- table: [2S]\n    hands"), "round 2 lays 0 table cards, the transcript gives 1"),
    (LATER_ROUND + "    redeal: true\n", "round 2 is marked redeal: true, but only a deal's first round"),
])
def test_a_listed_round_that_play_never_reaches_is_still_checked(tmp_path, round_2, message):
    text = ROUND_ONE.replace("plays:", round_2 + "plays:")
    path = write(tmp_path, text)
    with pytest.raises(RulespecError) as info:
        replay(path)
    assert message in info.value.message
    assert info.value.span is not None and info.value.span.line == 7 and info.value.span.file == str(path)
    assert replay(write(tmp_path, ROUND_ONE.replace("plays:", LATER_ROUND + "plays:"))).ok


def test_a_round_after_the_last_one_the_rules_deal_is_refused(tmp_path):
    cards = [r + s for s in "HDCS" for r in "A234567JQK"]
    table, rest = cards[:4], cards[4:]
    rounds = [f"  - table: [{', '.join(table)}]\n    hands: "]
    for n in range(6):
        rounds[-1] += f"{{0: [{', '.join(rest[:3])}], 1: [{', '.join(rest[3:6])}]}}\n"
        rest = rest[6:]
        rounds.append("  - hands: ")
    rounds[-1] += "{0: [AH, 2H, 3H], 1: [4H, 5H, 6H]}\n"
    text = "ruleset: cirulla\nseats: 2\ndealer: 0\ndeal:\n" + "".join(rounds) + "plays: []\n"
    with pytest.raises(RulespecError, match="lists round 7, but cirulla with 2 players deals 6 rounds"):
        replay(write(tmp_path, text))


@pytest.mark.parametrize("old,new,message", [
    ("[5D, KC, 3H]", "[5D, KC, 9H]", "t.yaml:6:25: unknown card '9H' in deck french40"),
    ("[5D, KC, 3H]", "[5D, KC, 2C]", "t.yaml:6:25: card 2C is dealt twice in this deal"),  # at the card
    ("capture: [2C, 6H]", "capture: [2C, 6X]", "t.yaml:9:39: unknown card '6X' in deck french40"),
    ("legal: [[5S], [2C, JD]]", "legal: [[5S], [JD, JD]]", "t.yaml:8:59: card JD is listed twice in a legal capture set"),
    ("table: []", "table: [QQ]", "t.yaml:12:11: unknown card 'QQ' in deck french40"),
])
def test_validate_reads_a_transcripts_cards_against_its_ruleset(tmp_path, old, new, message):
    # notation.md: anything that reads cards rejects an unknown one or one used twice; validate said "ok".
    import io
    assert old in BASE
    path = write(tmp_path, BASE.replace(old, new))
    out, err = io.StringIO(), io.StringIO()
    assert run(["validate", str(path)], out, err) == 1
    assert err.getvalue().startswith(str(tmp_path / message)), err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert run(["validate", str(write(tmp_path, BASE))], out, err) == 0, err.getvalue()


def test_a_transcript_may_be_json(tmp_path, capsys):
    # shared/spec/transcripts.md: "Transcripts are YAML (JSON is valid YAML)"; seats as JSON's string keys.
    import io
    import json
    import yaml
    doc = yaml.safe_load(BASE)
    doc["deal"][0]["hands"] = {str(k): v for k, v in doc["deal"][0]["hands"].items()}
    doc["expect"]["events"] = {str(k): v for k, v in doc["expect"]["events"].items()}
    path = write(tmp_path, json.dumps(doc), "hand.json")
    assert replay(path).ok
    for command in (["replay", str(path)], ["test", str(path)], ["validate", str(path)]):
        out, err = io.StringIO(), io.StringIO()
        assert run(command, out, err) == 0, err.getvalue() + out.getvalue()
    bad = write(tmp_path, json.dumps(doc).replace('"JD"]', '"9D"]', 1), "bad.json")
    with pytest.raises(RulespecError, match="unknown card '9D'") as info:
        replay(bad)
    assert info.value.span.file == str(bad) and info.value.span.line == 1


CAPOTUN = """\
ruleset: cirulla-capotun
seats: 4
dealer: 0
deal:
  - table: [5S, 5C, 5D, 5H]
    hands: {1: [2S, 3S, 4S], 2: [2C, 3C, 4C], 3: [2D, 3D, 4D], 0: [2H, 3H, 4H]}
expect:
  dealer_events: []
  outcome: capotun
  winner: 0
"""


@pytest.mark.parametrize("ruleset", ["cirulla-capotun", "cirulla-luzzati"])
def test_a_winning_deal_is_an_outcome_not_a_dealer_event(tmp_path, ruleset):
    result = replay(write(tmp_path, CAPOTUN.replace("cirulla-capotun", ruleset)))
    assert result.ok, result.failures
    listed = CAPOTUN.replace("ruleset: cirulla-capotun", f"ruleset: {ruleset}").replace(
        "dealer_events: []", "dealer_events: [capotun]")
    # A name the ruleset has as an outcome, written as a dealer event: said so before the hand is played.
    found = failures(tmp_path, listed)
    assert len(found) == 1 and found[0].startswith(
        f"unknown dealer event 'capotun': in {ruleset} it is an outcome (write it as `outcome: capotun`)")


def test_a_round_after_a_deal_that_ended_the_game_is_refused(tmp_path):
    # transcripts.md: "Where a deal ends the game ..., deal: stops there"
    text = CAPOTUN.replace("expect:", "  - hands: {1: [6S, 7S, JS], 2: [6C, 7C, JC], 3: [6D, 7D, JD], 0: [6H, 7H, JH]}\nexpect:")
    with pytest.raises(RulespecError, match=r"the deal ended the game \(capotun\).*round 2 is one too many") as info:
        replay(write(tmp_path, text))
    assert info.value.span.line == 7


def test_a_score_for_a_deal_that_ended_the_game_is_refused(tmp_path):
    # transcripts.md: "Where a deal ends the game ..., `expect` gives `outcome` and `winner` but no `score`"
    zeros = "{scope: 0, carte: 0, denari: 0, settebello: 0, primiera: 0, grande: 0, piccola: 0, total: 0}"
    text = CAPOTUN.replace("expect:", f"expect:\n  score: {{0: {zeros}, 1: {zeros}}}")
    assert failures(tmp_path, text) == ["expect.score: the deal ended the game (capotun), so the hand has no score; "
                                        "expect its outcome and winner instead"]


def test_a_dealer_wins_check_takes_no_event(tmp_path):
    from rulespec.compiler.build import compile_ruleset
    path = write(tmp_path, """\
        id: v
        extends: cirulla
        name: V
        description: d
        deal_checks:
          - {name: capotun, when: 'max_same_rank(table) == 4', result: dealer_wins, event: capotun}
        """, name="v.yaml")
    with pytest.raises(RulespecError) as exc:
        compile_ruleset(path)
    assert exc.value.headline() == (f"{path}:6:77: deal check capotun: result dealer_wins ends the game with the "
                                    "outcome 'capotun' and reports no dealer event; remove `event:`")


def test_a_turn_counting_the_matta_as_itself_and_as_a_rank_is_refused_at_its_play(tmp_path):
    """cirulla.md variant 7, "with the same rank for the matta": the hand-verified A-A-7H transcript with its
    barsega declared without the matta's rank (the 7H as itself, A+A+7 = 9) beside the decino's ace is
    refused, named and located at the play."""
    golden = (Path(__file__).parent / "golden" / "cirulla-variants" /
              "cirulla-double-bonus--aa-matta-both-as-ace.yaml").read_text(encoding="utf-8")
    old = '{bonus: barsega, matta: "A"}'
    assert old in golden
    result = replay(write(tmp_path, golden.replace(old, "{bonus: barsega}")))
    line = next(i for i, text in enumerate(golden.splitlines(), 1) if text.lstrip().startswith("- {seat: 1, declare"))
    assert not result.ok and len(result.failures) == 1
    assert result.failures[0].startswith(f"{tmp_path / 't.yaml'}:{line}:")
    assert result.failures[0].endswith("play 1 (seat 1, AC): refused: the wild card is declared as A and counted as "
                                       "itself in barsega: one rank in all of a turn's declarations")
