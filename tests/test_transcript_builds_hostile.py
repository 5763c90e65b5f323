"""Hostile transcripts with builds and thrown-in bid deals: each mistake is one located message, never a
misleading difference, and `validate` finds what replay would (docs/transcripts.md)."""
import textwrap

import pytest

from rulespec.errors import RulespecError
from rulespec.transcripts.replay import check_transcript_cards, replay

# tests/golden/seep/11-...: seat 1 builds 10 with 6D on 4C, seat 2 cements it with 7D+3S (two owners).
SEEP = textwrap.dedent("""\
    ruleset: seep
    seats: 4
    dealer: 0
    deal:
      - table: [4C, 6H, 3S, 8D]
        hands:
          1: [10H, 9C, 6D, 2C, 2H, 3H, 4H, 5H, 7H, 8H, 9H, JH]
          2: [5D, AH, JD, QH, KH, AD, 2D, 3D, 4D, 7D, 9D, 10D]
          3: [7C, QD, KD, AC, 3C, 5C, 6C, 8C, 10C, JC, QC, KC]
          0: [10S, AS, 2S, 4S, 5S, 6S, 7S, 8S, 9S, JS, QS, KS]
    plays:
      - {seat: 1, bid: 10}
      - {seat: 1, card: 6D, build: [4C], value: 10}
      - {seat: 2, card: 7D, build: [3S, 6D, 4C], value: 10}
    expect:
      table: TABLE
    """)

# tests/golden/casino/05-...: two builds, each of one owner (capture.builds.owners: last).
CASINO = textwrap.dedent("""\
    ruleset: casino
    seats: 2
    dealer: 0
    deal:
      - table: [2C, 6D, 4S, JH]
        hands: {1: [8D, 8H, 8C, KS], 0: [3C, 7H, 10S, AS]}
    plays:
      - {seat: 1, card: 8D, build: [2C, 6D], value: 8}
      - {seat: 0, card: 3C, build: [4S], value: 7}
      - {seat: 1, card: 8H, build: [8D, 2C, 6D], value: 8}
    expect:
      table: TABLE
    """)


def write(tmp_path, text):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return path


def seep(tmp_path, table):
    return write(tmp_path, SEEP.replace("TABLE", table))


def test_the_base_transcript_passes(tmp_path):
    path = seep(tmp_path, "[6H, 8D, {build: [6D, 4C, 7D, 3S], value: 10, owner: [1, 2], fixed: true}]")
    assert replay(path).ok
    check_transcript_cards(path)


@pytest.mark.parametrize("table, first", [
    ("[6H, 8D, 6D, {build: [6D, 4C, 7D, 3S], value: 10}]", "loose"),
    ("[6H, 8D, {build: [6D, 4C, 7D, 3S], value: 10}, {build: [6D, 4C], value: 10}]", "in another build"),
    ("[6H, 8D, {build: [6D, 4C, 7D, 3S], value: 10}, {build: [6D, 4C, 7D, 3S], value: 10}]", "in another build"),
])
def test_a_card_written_twice_across_expect_table_is_refused_as_such(tmp_path, table, first):
    # Before: a difference ("no build of these cards is on the table"), though there is one.
    path = seep(tmp_path, table)
    for read in (replay, check_transcript_cards):
        with pytest.raises(RulespecError, match=f"card 6D is listed twice in expect.table: in this build, and {first}") as err:
            read(path)
        assert err.value.span is not None and err.value.span.line == 16


def test_a_build_that_differs_is_reported_once(tmp_path):
    # Before: the difference, and again "the table also holds" the very build it was compared with.
    result = replay(seep(tmp_path, "[6H, 8D, {build: [6D, 4C, 7D, 3S], value: 10, owner: 1, fixed: true}]"))
    assert len(result.failures) == 1, result.failures
    assert "owned by seat 1, fixed; the table has build of 10 [3S, 4C, 6D, 7D] owned by seats 1 and 2" \
        in result.failures[0]


def test_several_owners_where_a_build_has_one_is_refused_before_playing(tmp_path):
    path = write(tmp_path, CASINO.replace("TABLE", "[JH, {build: [8D, 2C, 6D, 8H], value: 8, owner: 1}, "
                                                   "{build: [3C, 4S], value: 7, owner: [0, 1]}]"))
    with pytest.raises(RulespecError, match=r"owner: \[0, 1\]: a build of casino has one owner "
                                            r"\(capture.builds.owners: last\)") as err:
        check_transcript_cards(path)
    assert (err.value.span.line, err.value.span.column) == (12, 97)
    result = replay(path)
    assert len(result.failures) == 1 and "has one owner" in result.failures[0]


SCOPA = textwrap.dedent("""\
    ruleset: scopa
    seats: 2
    dealer: 0
    deal:
      - table: [2C, 6D, 4S, 5D]
        hands: {1: [AD, 7C, 3C], 0: [RD, RC, RB]}
    plays:
    """)


@pytest.mark.parametrize("rest, message, line", [
    ("  - {seat: 1, card: 7C, build: [2C], value: 9}\n", r"play 1 \(seat 1, 7C\) makes a build, but scopa has no "
                                                          r"builds", 8),
    ("  - {seat: 1, card: 7C, build: [2C], value: 9, error: x}\n", "scopa has no builds", 8),
    ("  - {seat: 1, bid: 9}\n", r"play 1 \(seat 1, bid 9\) is a bid, but scopa has no bid", 8),
    ("  - {seat: 1, card: 3C}\nexpect:\n  table: [2C, {build: [6D, 4S], value: 10}]\n",
     "expect.table shows a build, but scopa has no builds", 10),
])
def test_validate_refuses_a_build_or_bid_the_ruleset_lacks(tmp_path, rest, message, line):
    # Before: validate said "ok"; only replay found it.
    with pytest.raises(RulespecError, match=message) as err:
        check_transcript_cards(write(tmp_path, SCOPA + rest))
    assert err.value.span.line == line


def test_a_thrown_in_round_with_no_new_deal_says_so(tmp_path):
    # Before: "the transcript's deal does not list round 1", though round 1 is listed (and thrown in).
    path = write(tmp_path, textwrap.dedent("""\
        ruleset: seep
        seats: 4
        dealer: 0
        deal:
          - hands: {1: [2C, 3D, 4S, 5H]}
            redeal: true
        expect:
          dealer_events: [no_bid]
        """))
    for read in (replay, check_transcript_cards):
        with pytest.raises(RulespecError, match=r"round 1 is thrown in \(redeal: true\), so the transcript's deal "
                                                r"must go on with the new deal") as err:
            read(path)
        assert (err.value.span.line, err.value.span.column) == (5, 5)


def test_an_owner_out_of_range_is_refused_where_seats_is_left_out(tmp_path):
    # Before: with no `seats:`, owner 7 in a 4-seat hand passed validate and replay called it a difference.
    path = seep(tmp_path, "[6H, 8D, {build: [6D, 4C, 7D, 3S], value: 10, owner: [2, 7], fixed: true}]")
    path.write_text(path.read_text().replace("seats: 4\n", ""))
    for read in (replay, check_transcript_cards):
        with pytest.raises(RulespecError, match=r"seat 7 is out of range: this hand has 4 seats \(0 to 3\)") as err:
            read(path)
        assert (err.value.span.line, err.value.span.column) == (15, 63)


def test_thousands_of_structural_errors_are_reported_as_at_most_twenty(tmp_path):
    # Before: a transcript of 3,000 plays by seat 9 of 4 printed 3,000 messages (every other stage caps at 20).
    from rulespec.source.validate import MAX_ERRORS
    text = SEEP.split("plays:")[0] + "plays:\n" + "  - {seat: 9, card: 2C}\n" * 3000
    with pytest.raises(RulespecError, match="seat 9 is out of range") as err:
        check_transcript_cards(write(tmp_path, text))
    assert len(err.value.all) == MAX_ERRORS
    assert [e.span.line for e in err.value.all] == list(range(12, 12 + MAX_ERRORS))
