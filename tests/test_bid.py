"""An auction before play (issue 23, item 2): `bid:` (docs/language.md, "A bid before play"), played by
`Hand` (run/bid.py), refused by the generated back ends, written in transcripts as a play `{seat, bid}`.

The ruleset here is written out in full so that these tests need no shipped game: two players, the first
player bids 9 to 13 on the first four cards dealt to it, the bid binds its first play."""
import random
import re

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.errors import RulespecError
from rulespec.run.bid import BID_MOVE
from rulespec.run.builds import build_move
from rulespec.run.engine import DealSource, ExplicitRound, Hand, IllegalMove, shuffled_source
from rulespec.transcripts.replay import replay
from tests.conftest import card_of, mask_of

BIDDING = """\
id: bidding
name: Bidding
deck:
  id: bidding52
  ranks: [{rank: A, value: 1}, {rank: "2", value: 2}, {rank: "3", value: 3}, {rank: "4", value: 4},
          {rank: "5", value: 5}, {rank: "6", value: 6}, {rank: "7", value: 7}, {rank: "8", value: 8},
          {rank: "9", value: 9}, {rank: "10", value: 10}, {rank: J, value: 11}, {rank: Q, value: 12},
          {rank: K, value: 13}]
  suits: [H, D, C, S]
players: {counts: [2], default: 2, sides: {2: 2}}
deal:
  packet: 4
  rounds:
    - [{each: 4}, {table: 4}, {each: 8}]
    - [{each: 12}]
bid: BID
capture:
  forced: false
  combine: union
  kinds: [{kind: match}, {kind: sum}]
  builds: {values: [9, 10, 11, 12, 13]}
events:
  sweep: {when: not empty(captured) and empty(table), points: 1, category: sweeps}
  bid_card: {when: 'value(played) == bid and play == 1', points: 1, category: bids}
scoring:
  sweeps: {from_events: true}
  bids: {from_events: true}
game: {target: 21}
"""
BID = "{after_cards: 4, values: [9, 10, 11, 12, 13]}"


def _ruleset(tmp_path, bid=BID, text=BIDDING):
    path = tmp_path / "bidding.yaml"
    path.write_text(text.replace("BID", bid, 1) if "bid: BID" in text else text)
    return path


@pytest.fixture
def rules(tmp_path):
    return compile_ruleset(_ruleset(tmp_path)).module


def _rounds(rules, table, first, rest=()):
    """Round 1 as written: seat 0 (it bids; seat 1 deals) gets `first`, then `rest`, then cards of the deck in
    order, seat 1 the next twelve; round 2 the other 24 cards."""
    names = list(rules.CARD_NAMES)
    used = set(table) | set(first) | set(rest)
    free = [c for c in names if c not in used]
    fill = 12 - len(first) - len(rest)
    h0 = list(first) + list(rest) + free[:fill]
    h1, later = free[fill:fill + 12], free[fill + 12:]
    idx = names.index
    return [ExplicitRound([idx(c) for c in table], {0: [idx(c) for c in h0], 1: [idx(c) for c in h1]}),
            ExplicitRound(None, {0: [idx(c) for c in later[:12]], 1: [idx(c) for c in later[12:]]})]


def _hand(rules, table, first, rest=()):
    return Hand(rules, 2, 1, DealSource(rounds=_rounds(rules, table, first, rest)))


# -- the bid -----------------------------------------------------------------------------------------

def test_the_first_player_bids_before_any_play_a_value_held_among_its_first_cards(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"], ["KS"])
    assert hand.current_seat == 0 and hand.bid_pending
    # J and Q are among its first four cards; its K came later, so 13 is not a bid it may make
    assert hand.legal_moves() == [(BID_MOVE, 11), (BID_MOVE, 12)]
    assert hand.play(0, BID_MOVE, 11) == [] and hand.bid == 11 and not hand.bid_pending


def test_a_card_before_the_bid_is_refused(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    with pytest.raises(IllegalMove, match="bids before any play"):
        hand.play(0, card_of(rules, "2D"), 0)


def test_a_bid_of_a_value_not_held_or_not_allowed_is_refused(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    for value in (13, 7, 2.5):
        with pytest.raises(IllegalMove, match="cannot bid"):
            hand.play(0, BID_MOVE, value)
    assert hand.bid_pending and hand.bid is None
    with pytest.raises(IllegalMove, match="seat 0 bids, not seat 1"):
        hand.play(1, BID_MOVE, 11)


def test_a_second_bid_is_refused(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    hand.play(0, BID_MOVE, 11)
    with pytest.raises(IllegalMove, match="has bid 11 already"):
        hand.play(0, BID_MOVE, 12)


def test_a_deal_with_nothing_to_bid_is_thrown_in_and_dealt_again(rules):
    rng = random.Random(0)
    for _ in range(200):
        hand = Hand(rules, 2, 1, shuffled_source(rules.N_CARDS, rng))
        if hand.dealer_events:
            break
    assert hand.dealer_events[0] == "no_bid" and hand.deal_log[1] is None     # the deal before, thrown in
    assert hand.bid_pending and hand.legal_moves()           # the deal that stands has a bid
    assert all(v >= 9 for _, v in hand.legal_moves())


def test_a_written_deal_with_nothing_to_bid_must_be_marked_redeal(rules):
    rounds = _rounds(rules, ["3H", "9C", "KD", "5S"], ["AC", "2D", "3C", "7H"], ["KS"])
    with pytest.raises(RulespecError, match=r"no_bid.*redeal: true"):
        Hand(rules, 2, 1, DealSource(rounds=rounds))


def _short_void(rules, first, table=None, other=None, redeal=True):
    """A thrown-in round 1 written short (the cards bid on, maybe the table and seat 1), then a full deal."""
    idx = list(rules.CARD_NAMES).index
    hands = {0: [idx(c) for c in first]}
    if other is not None:
        hands[1] = [idx(c) for c in other]
    void = ExplicitRound([idx(c) for c in table] if table else None, hands, redeal)
    return [void] + _rounds(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])


def test_a_thrown_in_round_may_list_only_the_cards_bid_on(rules):
    # pagat's Seep: the bidder sees 4 cards; with none of 9 or more they are thrown in before the rest is dealt,
    # so a transcript may give just those four (the table and the other cards were never seen)
    for table in (None, ["3H", "9C", "KD", "5S"]):
        hand = Hand(rules, 2, 1, DealSource(rounds=_short_void(rules, ["AC", "2D", "3C", "7H"], table)))
        assert hand.dealer_events == ["no_bid"]
        assert hand.bid_log[0] == mask_of(rules, "AC", "2D", "3C", "7H")            # the cards bid on, as written
        assert hand.hands[0] >> card_of(rules, "JC") & 1 and hand.legal_moves() == [(BID_MOVE, 11), (BID_MOVE, 12)]


def test_a_short_thrown_in_round_is_refused_where_it_leaves_out_what_decides(rules, tmp_path):
    with pytest.raises(RulespecError, match="may list only the cards bid on: seat 0's first 4 cards, or all 12; "
                                            "the transcript gives 3"):
        Hand(rules, 2, 1, DealSource(rounds=_short_void(rules, ["AC", "2D", "3C"])))
    with pytest.raises(RulespecError, match="a seat it lists gets all 12; seat 1 gets 2"):
        Hand(rules, 2, 1, DealSource(rounds=_short_void(rules, ["AC", "2D", "3C", "7H"], other=["4C", "5C"])))
    with pytest.raises(RulespecError, match=r"do not throw this deal in \(seat 0 can bid 9 on "):
        Hand(rules, 2, 1, DealSource(rounds=_short_void(rules, ["AC", "2D", "3C", "9H"])))
    with pytest.raises(RulespecError, match="lays 4 table cards, the transcript gives 0"):  # not thrown in: every card is needed
        Hand(rules, 2, 1, DealSource(rounds=_short_void(rules, ["AC", "2D", "3C", "7H"], redeal=False)))
    # a deal check reads the table: then the table must be written
    checked = compile_ruleset(_ruleset(tmp_path, text=BIDDING.replace(
        "capture:\n", "deal_checks:\n  - {name: kings, when: 'count(table, rank == \"K\") >= 3', result: redeal}\n"
        "capture:\n", 1))).module
    with pytest.raises(RulespecError, match="list its 4 table cards, which the ruleset's deal checks read"):
        Hand(checked, 2, 1, DealSource(rounds=_short_void(checked, ["AC", "2D", "3C", "7H"])))
    hand = Hand(checked, 2, 1, DealSource(rounds=_short_void(checked, ["AC", "2D", "3C", "7H"], ["3H", "9C", "KD", "5S"])))
    assert hand.dealer_events == ["no_bid"]


# -- what the bid binds ------------------------------------------------------------------------------

def test_the_bid_binds_the_first_play_to_its_value(rules):
    # bid 11 holding JC: build 11 (2D with 9C, keeping JC), capture with the J, or lay the J; nothing else
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"], ["3C"])
    hand.play(0, BID_MOVE, 11)
    moves = hand.legal_moves()
    jc, d2 = card_of(rules, "JC"), card_of(rules, "2D")
    assert (d2, build_move(mask_of(rules, "9C"), 11, rules.N_CARDS)) in moves
    assert (jc, 0) in moves
    assert all(c == jc or m >> rules.N_CARDS == 11 for c, m in moves)
    with pytest.raises(IllegalMove, match="keep the bid of 11"):
        hand.play(0, d2, 0)
    with pytest.raises(IllegalMove, match="keep the bid of 11"):
        hand.play(0, card_of(rules, "7H"), build_move(mask_of(rules, "5S"), 12, rules.N_CARDS))   # legal but for the bid
    assert (card_of(rules, "7H"), build_move(mask_of(rules, "5S"), 12, rules.N_CARDS)) in hand._card_moves()


def test_the_bidders_first_play_is_one_of_the_cards_it_bid_on(rules):
    # pagat's Seep ("Deal"): the rest of the bidder's cards are dealt after its first play. 3C came fifth: building
    # 12 with it would be refused by the bid anyway; 2H (fifth) on 9C builds the 11 bid, and is refused all the same
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"], ["2H"])
    hand.play(0, BID_MOVE, 11)
    h2 = card_of(rules, "2H")
    assert (h2, build_move(mask_of(rules, "9C"), 11, rules.N_CARDS)) in hand._card_moves()
    assert all(c != h2 for c, _ in hand.legal_moves())
    with pytest.raises(IllegalMove, match=r"2H is not among the cards the bidder bid on \(.*\): the rest are dealt"):
        hand.play(0, h2, build_move(mask_of(rules, "9C"), 11, rules.N_CARDS))


def test_a_house_of_the_bid_keeps_a_card_of_it_among_the_cards_bid_on(rules):
    # JC on 9C + 2S is a second set of 11 beside JC's own: a house of 11 that needs another J kept. JD came
    # fifth (dealt after the first play): the bidder may not count on it.
    hand = _hand(rules, ["3H", "9C", "KD", "2S"], ["JC", "2D", "QH", "7H"], ["JD"])
    hand.play(0, BID_MOVE, 11)
    jc_house = (card_of(rules, "JC"), build_move(mask_of(rules, "9C", "2S"), 11, rules.N_CARDS))
    assert jc_house in hand._card_moves() and jc_house not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="keep the bid of 11"):
        hand.play(0, *jc_house)


def test_the_bid_binds_only_the_first_play(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    hand.play(0, BID_MOVE, 11)
    hand.play(0, card_of(rules, "JC"), 0)
    hand.play(1, hand.legal_moves()[0][0], 0)
    assert not hand.bid_binds
    assert (card_of(rules, "2D"), 0) in hand.legal_moves()


def test_binds_nothing_leaves_the_first_play_free(tmp_path):
    rules = compile_ruleset(_ruleset(tmp_path, "{after_cards: 4, values: [9, 10, 11, 12, 13], binds: nothing}")).module
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    hand.play(0, BID_MOVE, 11)
    hand.play(0, card_of(rules, "2D"), 0)


def test_events_see_the_bid(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    hand.play(0, BID_MOVE, 11)
    events = hand.play(0, card_of(rules, "JC"), 0)
    assert [e.name for e in events] == ["bid_card"]


def test_the_observation_shows_the_bid_and_hides_what_the_bidder_has_not_seen(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    obs = hand.observation(0)
    assert obs["bid"] == {"seat": 0, "value": None, "due": True}
    assert sorted(obs["hand"]) == sorted(card_of(rules, c) for c in ["JC", "2D", "QH", "7H"])
    assert obs["table"] == [] and hand.observation(1)["hand"] == []
    hand.play(0, BID_MOVE, 12)
    obs = hand.observation(1)
    assert obs["bid"] == {"seat": 0, "value": 12, "due": False} and len(obs["table"]) == 4


def test_clones_keep_their_own_bid(rules):
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    copy = hand.clone()
    copy.play(0, BID_MOVE, 12)
    assert hand.bid is None and hand.bid_pending and copy.bid == 12


# -- bots ------------------------------------------------------------------------------------------

def test_the_greedy_bot_bids_the_value_it_holds_most(rules):
    from rulespec.bots.greedy import GreedyBot
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "QD", "QH", "7H"])
    assert GreedyBot(random.Random(0)).choose(hand, 0) == ([], BID_MOVE, 12)
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "9D", "QH", "7H"])
    assert GreedyBot(random.Random(0)).choose(hand, 0) == ([], BID_MOVE, 12)


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:4"])
def test_every_bot_bids_and_plays_a_hand_legally(rules, bot):
    from rulespec.bots.policy import play_out
    from rulespec.bots.registry import make_bot, parse_bots
    hand = Hand(rules, 2, 1, shuffled_source(rules.N_CARDS, random.Random(3)))
    bots = [make_bot(spec, random.Random(s)) for s, spec in enumerate(parse_bots(bot, 2, 2))]
    seen = []
    play_out(hand, bots, lambda seat, decls, card, capture, events: seen.append((card, capture)))
    assert hand.is_over and seen[0][0] == BID_MOVE and 9 <= seen[0][1] <= 13 and hand.bid == seen[0][1]


# -- back ends and the language ------------------------------------------------------------------------

def test_the_playout_and_the_c_back_end_refuse_a_bid_located(tmp_path):
    rs = compile_ruleset(_ruleset(tmp_path)).ruleset
    line = BIDDING.splitlines().index("bid: BID") + 1
    for found in (playout_unsupported(rs), unsupported(rs)):
        spans = [span for what, span in found if what.startswith("bid")]
        assert spans and spans[0].line == line


def test_a_ruleset_without_a_bid_emits_no_bid():
    assert not hasattr(compile_ruleset("scopa").module, "BID")


def test_bid_values_no_card_captures_as_are_refused(tmp_path):
    with pytest.raises(RulespecError, match="no card of the deck captures as 14"):
        compile_ruleset(_ruleset(tmp_path, "{after_cards: 4, values: [9, 14]}"))


def test_a_bid_on_more_cards_than_the_first_round_gives_is_refused(tmp_path):
    with pytest.raises(RulespecError, match="after_cards is 13") as err:
        compile_ruleset(_ruleset(tmp_path, "{after_cards: 13, values: [9]}"))
    assert err.value.span.line == BIDDING.splitlines().index("bid: BID") + 1


def test_an_event_reading_bid_without_a_bid_is_refused_located(tmp_path):
    text = BIDDING.replace("bid: BID\n", "")
    with pytest.raises(RulespecError, match="reads bid, but the ruleset has no bid") as err:
        compile_ruleset(_ruleset(tmp_path, text=text))
    assert err.value.span.line == text.splitlines().index(
        "  bid_card: {when: 'value(played) == bid and play == 1', points: 1, category: bids}") + 1


def test_an_unknown_key_in_bid_is_refused(tmp_path):
    with pytest.raises(RulespecError, match="vaules"):
        compile_ruleset(_ruleset(tmp_path, "{after_cards: 4, vaules: [9]}"))


def test_explain_and_diff_say_the_bid_in_words(tmp_path):
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import bid_words
    rs = compile_ruleset(_ruleset(tmp_path)).ruleset
    words = bid_words(rs.bid)
    assert "first 4 cards" in words and "9, 10, 11, 12 or 13" in words and "thrown in" in words
    assert "binds the bidder's first play" in words
    other = tmp_path / "other"
    other.mkdir()
    changed = _ruleset(other, "{after_cards: 4, values: [9, 10, 11, 12, 13], binds: nothing}")
    text = report(rs, compile_ruleset(changed).ruleset)
    assert "bid: what the bid binds" in text


# -- transcripts -------------------------------------------------------------------------------------

TRANSCRIPT = """\
ruleset: bidding.yaml
seats: 2
dealer: 1
deal:
  - table: [3H, 9C, KD, 5S]
    hands:
      0: [JC, 2D, QH, 7H, AC, AD, AH, AS, 2C, 2H, 2S, 3C]
      1: [3D, 3S, 4D, 4H, 4S, 5C, 5D, 5H, 6C, 6D, 6H, 6S]
plays:
PLAYS
"""


def _transcript(tmp_path, plays):
    _ruleset(tmp_path)
    path = tmp_path / "t.yaml"
    path.write_text(TRANSCRIPT.replace("PLAYS\n", plays))
    return path


def test_a_transcript_writes_the_bid_as_a_play_of_its_own(tmp_path):
    result = replay(_transcript(tmp_path, "  - {seat: 0, bid: 11}\n  - {seat: 0, card: 2D, build: [9C], value: 11}\n"))
    assert result.ok, result.failures


def test_an_illegal_bid_is_an_expected_refusal(tmp_path):
    result = replay(_transcript(tmp_path, "  - {seat: 0, bid: 13, error: no king among the first four}\n"))
    assert result.ok and result.stopped_at_error


def test_a_first_play_that_breaks_the_bid_fails_naming_it(tmp_path):
    result = replay(_transcript(tmp_path, "  - {seat: 0, bid: 11}\n  - {seat: 0, card: 2D, capture: []}\n"))
    assert not result.ok and "keep the bid of 11" in result.failures[0]


def test_a_bid_with_a_card_is_refused_by_the_schema(tmp_path):
    with pytest.raises(RulespecError, match="a bid is a play of its own"):
        replay(_transcript(tmp_path, "  - {seat: 0, bid: 11, card: JC}\n"))


def test_a_bid_in_a_ruleset_without_a_bid_is_refused_located(tmp_path):
    text = BIDDING.replace("bid: BID\n", "").replace(" and play == 1'", "'").replace("value(played) == bid", "false")
    (tmp_path / "bidding.yaml").write_text(text)
    path = tmp_path / "t.yaml"
    path.write_text(TRANSCRIPT.replace("PLAYS\n", "  - {seat: 0, bid: 11}\n"))
    with pytest.raises(RulespecError, match="has no bid") as err:
        replay(path)
    assert err.value.span.line == path.read_text().splitlines().index("  - {seat: 0, bid: 11}") + 1


def test_a_recorded_hand_writes_the_bid_and_replays(tmp_path):
    from rulespec.transcripts.record import record
    compiled = compile_ruleset(_ruleset(tmp_path))
    for seed in range(40):
        text = record(compiled, seed=seed, seats=2, bots="greedy", ruleset="bidding.yaml")
        if "redeal: true" in text:
            break
    assert "redeal: true" in text and "bid:" in text     # a thrown-in deal and a bid, both written
    path = tmp_path / "rec.yaml"
    path.write_text(text)
    result = replay(path)
    assert result.ok, result.failures


# -- adapters ------------------------------------------------------------------------------------------

def test_adapters_bid_through_their_actions(rules):
    from rulespec.interop.decisions import Decisions
    from rulespec.interop.observation import Observer
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    d = Decisions(hand)
    layout = d.layout
    assert d.legal_actions() == [layout.bid_action(11), layout.bid_action(12)]
    assert layout.describe(layout.bid_action(11), rules) == "bid 11"
    observer = Observer(rules, 2)
    before = observer.array(d, 0)
    assert before[observer.blocks["hand"]].sum() == 4 and before[observer.blocks["table"]].sum() == 0
    d.apply(layout.bid_action(11))
    assert hand.bid == 11 and d.public_log(1)[-1] == "s0 bid 11"
    after = observer.array(d, 1)
    assert after[observer.blocks["bid"]].tolist().index(1.0) == 10
    assert all(a < layout.bid_offset for a in d.legal_actions())


# -- rulespec play and the HTML hand page ----------------------------------------------------------------

def test_rulespec_play_asks_the_bid_and_says_it(tmp_path):
    import io
    from rulespec.cli.play import TerminalGame
    compiled = compile_ruleset(_ruleset(tmp_path))
    out = io.StringIO()
    assert TerminalGame(compiled, inp=io.StringIO("1\n" * 40), out=out, seat=1, seed=5, hands=1).run() == 0
    text = out.getvalue()
    assert "face down until the bid" in text and "your bids:\n  1) bid " in text
    assert re.search(r"you bid \d+; the table is turned face up: \S\S", text)


def test_rulespec_play_shows_the_bidder_the_cards_of_a_deal_thrown_in(tmp_path):
    # the bidder saw its first cards before they were thrown in: play says them to the bidder, and to nobody else
    import io
    from rulespec.cli.play import TerminalGame
    compiled = compile_ruleset(_ruleset(tmp_path))
    told = {True: 0, False: 0}
    for seed in range(40):
        for seat in (0, 1):
            out = io.StringIO()
            game = TerminalGame(compiled, inp=io.StringIO("1\n" * 40), out=out, seat=seat, seed=seed, hands=1)
            assert game.run() == 0
            text = out.getvalue()
            if "deal: no_bid" not in text:
                continue
            held = re.search(r"deal: no_bid \(.*\); you held (\S+) (\S+) (\S+) (\S+)\n", text)
            bidder = "your bids:" in text
            told[bidder] += 1
            assert (held is not None) == bidder, text
            if held:
                assert not any(card_of(compiled.module, c) is None for c in held.groups())
    assert told[True] and told[False]


def test_the_hand_page_shows_the_bid(tmp_path):
    from rulespec.authoring.html_hand import render_hand
    from rulespec.transcripts.trace import trace_transcript
    trace = trace_transcript(_transcript(tmp_path, "  - {seat: 0, bid: 11}\n  - {seat: 0, card: JC}\n"))
    assert [s.bid_made for s in trace.steps] == [None, 11, None]
    assert trace.steps[2].bid == {"seat": 0, "value": 11}
    page = render_hand(trace)
    assert '"bid_made":11' in page and '"bids " + step.bid_made' in page


def test_the_public_log_and_a_searched_world_hide_what_the_bidder_has_not_seen(rules):
    from rulespec.bots.ismcts import determinise
    from rulespec.interop.decisions import Decisions
    hand = _hand(rules, ["3H", "9C", "KD", "5S"], ["JC", "2D", "QH", "7H"])
    d = Decisions(hand)
    assert d.public_log(0) == ["deal table[] mine[" + rules.card_names(hand.bid_cards) + "]"]
    assert d.public_log(1) == ["deal table[] mine[]"]
    world = determinise(hand, 0, random.Random(1))
    assert world.bid_cards == hand.bid_cards and world.hands[0] & hand.bid_cards == hand.bid_cards
    assert world.legal_moves() == hand.legal_moves()
    other = determinise(hand, 1, random.Random(2))       # seat 1 has seen nothing: a bid is still possible
    assert other.bid_pending and other.legal_moves() and other.table.bit_count() == 4
    assert [h.bit_count() for h in other.hands] == [12, 12]
