"""The table as a pile, face-down table cards and buried deal cards (issue 22, items 2 and 5): the language's
`capture.table: pile`, `face_down` and `deal.bury` (docs/language.md), played by `Hand`, refused by the
generated back ends, hidden from every seat's view."""
import random
from pathlib import Path

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.errors import RulespecError
from rulespec.run.engine import DealSource, ExplicitRound, Hand, IllegalMove
from tests.conftest import mask_of

# A Basra-like spread table built on kontsina: every face-up dealt jack and the 7D go back into the stock.
BURYING = """\
id: burying
extends: kontsina
deal:
  rounds:
    - [{each: 4}, {table: 4}]
    - [{each: 4}]
  repeat_last: true
  bury: {when: 'rank(dealt) == "J" or dealt == 7D', to: bottom}
"""


def _write(tmp_path, text, name="r.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def pishti():
    return compile_ruleset("pishti").module


@pytest.fixture
def burying(tmp_path):
    return compile_ruleset(_write(tmp_path, BURYING)).module


def _order(rules, first: list[str]) -> list[int]:
    """A deck order starting with `first` (top card first), the rest in index order."""
    idx = rules.CARD_NAMES.index
    head = [idx(c) for c in first]
    return head + [c for c in range(rules.N_CARDS) if c not in head]


def _names(rules, mask):
    return sorted(rules.card_names(mask).split())


# -- item 5: bury ------------------------------------------------------------------------------------

def test_bury_sends_a_dealt_jack_and_7d_to_the_bottom_and_deals_the_next_card(burying):
    # 4 to each of 2 players (8 cards), then the table one by one: JS buried, 5H laid, 7D buried, JH buried,
    # 6H laid, 8H laid, then 7H (the rest of the order is the index order).
    order = _order(burying, ["AH", "2H", "3H", "4H", "AS", "2S", "3S", "4S", "JS", "5H", "7D", "JH", "6H", "8H"])
    hand = Hand(burying, 2, 0, DealSource(order=order))
    assert [burying.CARD_NAMES[c] for c in hand.table_order] == ["5H", "6H", "8H", "7H"]
    # The buried cards are at the bottom of the stock, in the order buried: the last cards dealt.
    assert [burying.CARD_NAMES[c] for c in hand.source.order[-3:]] == ["JS", "7D", "JH"]
    assert hand.stock_size() == 52 - 12
    while not hand.is_over:
        hand.play(hand.current_seat, *hand.legal_moves()[0])
    assert sum(p.bit_count() for p in hand.piles) + hand.table.bit_count() == 52


def test_bury_an_explicit_deal_writes_the_table_as_it_lies_after_burying(burying):
    idx = burying.CARD_NAMES.index
    given = ExplicitRound([idx(c) for c in ["5H", "JS", "6H", "8H"]],
                          {0: [idx(c) for c in ["AH", "2H", "3H", "4H"]], 1: [idx(c) for c in ["AS", "2S", "3S", "4S"]]})
    with pytest.raises(RulespecError, match="lays JS face up on the table, but the rules bury it"):
        Hand(burying, 2, 0, DealSource(rounds=[given]))


def test_bury_with_a_seeded_deck_never_leaves_a_buried_card_face_up(burying):
    jacks = mask_of(burying, "JH", "JD", "JC", "JS", "7D")
    for seed in range(200):
        hand = Hand(burying, 2, 0, DealSource(order=random.Random(seed).sample(range(52), 52)))
        assert not hand.table & jacks


def test_bury_condition_is_typed_and_located(tmp_path):
    path = _write(tmp_path, BURYING.replace("rank(dealt)", "rank(played)"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "unknown name 'played'" in str(err.value) and "r.yaml:8:" in str(err.value)


@pytest.mark.parametrize("bad, says", [
    ("to: bottom, depth: 2", "depth"),
    ("to: middle", "middle"),
])
def test_bury_schema_refuses_unknown_keys_and_bad_places(tmp_path, bad, says):
    path = _write(tmp_path, BURYING.replace("to: bottom", bad))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert says in str(err.value) and "r.yaml:8:" in str(err.value)


def test_bury_is_refused_by_the_generated_back_ends_located(burying, tmp_path):
    rs = compile_ruleset(_write(tmp_path, BURYING)).ruleset
    for found in (playout_unsupported(rs), unsupported(rs)):
        assert [what for what, _ in found] == ["deal.bury (dealt table cards sent back into the stock)"]
        assert found[0][1].line == 8


def test_bury_in_words(burying):
    from rulespec.authoring.explain import explain
    text = explain(burying._COMPILED.ruleset)
    assert "When a table card is dealt face up and the card dealt is a jack or the card dealt is the seven of " \
           "diamonds (7D), it is put at the bottom of the stock" in text


# -- deal.bury to: under (pagat's Pishti: "If it is a jack, further cards are turned up until one is found that
#    is not a jack") -------------------------------------------------------------------------------------------

def test_bury_under_turns_the_face_down_card_up_onto_a_dealt_jack(pishti):
    # Pishti deals 4 to the centre (9C 4D 7S face down, JH face up), then a packet of 4 to seat 1 and to seat 0.
    order = _order(pishti, ["9C", "4D", "7S", "JH", "7H", "2S", "3S", "5S", "7C", "KD", "QD", "6H"])
    hand = Hand(pishti, 2, 0, DealSource(order=order))
    assert [pishti.CARD_NAMES[c] for c in hand.table_order] == ["9C", "4D", "JH", "7S"]
    assert _names(pishti, hand.face_down) == ["4D", "9C"]
    assert _names(pishti, hand.top_mask()) == ["7S"]
    assert _names(pishti, hand.hands[1]) == sorted(["7H", "2S", "3S", "5S"])     # nothing of the stock moved
    assert hand.source.order == order


def test_bury_under_turns_up_again_while_the_card_turned_up_is_a_jack(pishti):
    order = _order(pishti, ["9C", "JD", "JS", "JH"])
    hand = Hand(pishti, 2, 0, DealSource(order=order))
    assert [pishti.CARD_NAMES[c] for c in hand.table_order] == ["JH", "JS", "JD", "9C"]
    assert hand.face_down == 0 and _names(pishti, hand.top_mask()) == ["9C"]


def test_bury_under_four_jacks_are_thrown_in(pishti):
    order = _order(pishti, ["JC", "JD", "JS", "JH"])
    with pytest.raises(RulespecError, match="four_jacks"):
        Hand(pishti, 2, 0, DealSource(order=order))      # a deck order describes one deal: refused, named
    hand = Hand(pishti, 2, 0, DealSource(order=order, rng=random.Random(1)))
    assert hand.dealer_events[0] == "four_jacks"


def test_bury_under_an_explicit_table_is_written_as_dealt(pishti):
    idx = pishti.CARD_NAMES.index
    given = ExplicitRound([idx(c) for c in ("2C", "8D", "10S", "JH")],
                          {1: [idx(c) for c in ("10D", "3S", "4S", "5S")], 0: [idx(c) for c in ("6S", "7S", "8S", "9S")]})
    hand = Hand(pishti, 2, 0, DealSource(rounds=[given]))
    assert [pishti.CARD_NAMES[c] for c in hand.table_order] == ["2C", "8D", "JH", "10S"]
    assert _names(pishti, hand.face_down) == ["2C", "8D"]
    assert hand.legal_moves()[0] == (idx("10D"), mask_of(pishti, "JH", "10S"))


def test_bury_under_needs_face_down_cards(tmp_path):
    path = _write(tmp_path, BURYING.replace("to: bottom", "to: under"))
    with pytest.raises(RulespecError, match="to: under turns a face-down card up") as err:
        compile_ruleset(path)
    assert "r.yaml:8:" in str(err.value)


def test_bury_under_is_refused_by_the_generated_back_ends_and_said_in_words():
    from rulespec.authoring.explain import explain
    rs = compile_ruleset("pishti").ruleset
    for found in (playout_unsupported(rs), unsupported(rs)):
        assert "deal.bury to: under (a face-down pile card turned up onto a dealt one)" in [w for w, _ in found]
    assert "When a table card is dealt face up and the card dealt is a jack, it stays in the pile and the " \
           "face-down card nearest the top is turned face up onto it" in explain(rs)


# -- item 2: the pile, its top card and its face-down cards ----------------------------------------------

def _pishti_hand(rules, table=("2H", "3H", "4H", "5C"), seat1=("6D", "KS", "9S", "5D"), seat0=("5S", "KC", "9C", "10C")):
    idx = rules.CARD_NAMES.index
    return Hand(rules, 2, 0, DealSource(rounds=[ExplicitRound([idx(c) for c in table],
                                                              {1: [idx(c) for c in seat1], 0: [idx(c) for c in seat0]})]))


def test_pile_only_the_top_card_is_matched_and_a_capture_takes_it_all(pishti):
    hand = _pishti_hand(pishti)
    c = pishti.CARD_NAMES.index
    assert hand.top_mask() == mask_of(pishti, "5C")
    # 5D takes the pile; the move names the face-up 5C, the three face-down cards go with it.
    assert hand.options_for(c("5D")) == [mask_of(pishti, "5C")]
    hand.play(1, c("6D"), 0)
    assert hand.top_mask() == mask_of(pishti, "6D")
    assert hand.options_for(c("5S")) == [0]         # 5C lies under the top: not matched
    hand.play(0, c("5S"), 0)
    hand.play(1, c("KS"), 0)
    with pytest.raises(IllegalMove):
        hand.play(0, c("KC"), mask_of(pishti, "KS"))  # the top card alone: refused
    hand.play(0, c("KC"), mask_of(pishti, "5C", "6D", "5S", "KS"))
    assert _names(pishti, hand.piles[0]) == sorted(["2H", "3H", "4H", "5C", "6D", "5S", "KS", "KC"])
    assert hand.table == 0 and hand.face_down == 0


def _views(hand, seat):
    """Everything an adapter shows `seat`: the engine's dict, the observation array, the information state,
    OpenSpiel-style strings and the public log of the deals."""
    from rulespec.interop.decisions import ActionLayout, Decisions
    from rulespec.interop.infostate import InfoStateEncoder
    from rulespec.interop.observation import Observer
    rules = hand.rules
    d = Decisions(hand.clone())
    layout = ActionLayout(rules, hand.n)
    return (repr(hand.observation(seat)), Observer(rules, hand.n).array(d, seat).tobytes(),
            InfoStateEncoder(rules, hand.n, layout).array(d, seat).tobytes(), repr(d.public_log(seat)),
            repr(hand.legal_moves()), repr(hand.deal_log))


def test_pile_face_down_cards_reach_no_seat_view(pishti):
    # The same deal with other cards lying face down: every seat sees exactly the same, in every adapter.
    hand = _pishti_hand(pishti)
    c = pishti.CARD_NAMES.index
    twin = _pishti_hand(pishti, table=("7H", "8H", "9H", "5C"))
    for seat in (0, 1):
        assert _views(hand, seat) == _views(twin, seat)
        obs = hand.observation(seat)
        assert obs["table"] == [c("5C")] and obs["top"] == c("5C") and obs["face_down"] == 3
        for hidden in ("2H", "3H", "4H"):
            assert c(hidden) not in obs["table"] and all(c(hidden) not in p for p in obs["captured"])
    # Taken, they are seen: in the capturer's pile.
    hand.play(1, c("5D"), mask_of(pishti, "5C"))
    assert {c("2H"), c("3H"), c("4H")} <= set(hand.observation(0)["captured"][1])
    assert hand.observation(0)["face_down"] == 0


def test_pile_face_down_cards_hidden_in_the_trace_and_play(pishti):
    from rulespec.transcripts.trace import _snapshot
    hand = _pishti_hand(pishti)
    step = _snapshot(hand, 0, None, None, 0, [], [])
    assert step.table == ["5C"] and step.face_down == 3


def test_pile_determinised_worlds_redraw_the_face_down_cards(pishti):
    from rulespec.bots.ismcts import determinise
    hand = Hand(pishti, 2, 0, DealSource(order=random.Random(5).sample(range(52), 52)))
    seen = set()
    for i in range(20):
        world = determinise(hand, hand.current_seat, random.Random(i))
        assert world.face_down.bit_count() == 3 and world.top_mask() == hand.top_mask()
        assert world.observation(hand.current_seat) == hand.observation(hand.current_seat)
        seen.add(world.face_down)
    assert len(seen) > 1


PILE_RULES = """\
id: piled
extends: pishti
deal_checks:
  - {name: king_on_top, when: 'count(top, rank == "K") == 1', result: redeal}
capture:
  kinds:
    - kind: match
      when: 'count(top, rank == "Q") == 0'     # a queen on top is matched by nothing
    - kind: sweep
      when: 'rank(played) == "J"'
events:
  on_a_nine: {when: 'count(top, rank == "9") == 1 and empty(captured)', points: 1, category: pishtis}
"""


def test_pile_top_is_visible_to_capture_kinds_events_and_deal_checks(tmp_path):
    rules = compile_ruleset(_write(tmp_path, PILE_RULES)).module
    idx = rules.CARD_NAMES.index
    with pytest.raises(RulespecError, match="king_on_top"):     # a king on top throws the deal in
        _pishti_hand(rules, table=("2H", "3H", "4H", "KD"))
    hand = _pishti_hand(rules, table=("2H", "3H", "4H", "QC"), seat1=("QD", "9D", "JS", "2S"))
    assert hand.options_for(idx("QD")) == [0]                  # the queen on top is not matched
    events = hand.play(1, idx("9D"), 0)
    assert [e.name for e in events] == []                     # the top before the play was QC
    events = hand.play(0, idx("5S"), 0)
    assert [e.name for e in events] == ["on_a_nine"]          # laid on 9D, the top before this play
    hand2 = _pishti_hand(rules, table=("2H", "3H", "4H", "9H"), seat1=("5D", "6D", "7D", "8D"))
    assert [e.name for e in hand2.play(1, idx("5D"), 0)] == ["on_a_nine"]


@pytest.mark.parametrize("text, says", [
    (BURYING.replace("  bury:", "  rounds_x: 1\n  bury:"), "rounds_x"),
    (BURYING.replace("{table: 4}", "{table: 4, face_down: 2}"), "face_down table cards lie under a pile"),
    (PILE_RULES.replace("id: piled\nextends: pishti\n", "id: piled\nextends: pishti\ndeal:\n  rounds: "
                        "[[{table: 4, face_down: 4}, {each: 4}], [{each: 4}]]\n  repeat_last: true\n"),
     "at least the last card laid (the top) lies face up"),
    (BURYING + "deal_checks:\n  - {name: x, when: 'count(top) == 1', result: redeal}\n",
     "it names the top card of a pile; declare capture.table: pile"),
    (PILE_RULES.replace("count(top, rank == \"Q\") == 0", "count(table) > 0"),
     "a capture kind matches only the top card; write top"),
    (PILE_RULES.replace("capture:\n", "capture:\n  table: heap\n"), "heap"),
])
def test_pile_mistakes_are_located(tmp_path, text, says):
    with pytest.raises(RulespecError) as err:
        compile_ruleset(_write(tmp_path, text))
    assert says in str(err.value) and "r.yaml:" in str(err.value)


def test_pile_is_refused_by_the_generated_back_ends_located(pishti):
    rs = compile_ruleset("pishti").ruleset
    for found in (playout_unsupported(rs), unsupported(rs)):
        assert [what for what, _ in found] == ["capture.table: pile (only the top card matched)",
                                               "face-down table cards (deal face_down)",
                                               "deal.bury to: under (a face-down pile card turned up onto a dealt one)"]
        assert all(span is not None and str(span.file).endswith("pishti.yaml") for _, span in found)


def test_pile_in_words():
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset("pishti").ruleset)
    assert "The table is one pile" in text and "the first 3 face down" in text
    changes = report(compile_ruleset("kontsina").ruleset, compile_ruleset("pishti").ruleset)
    assert "the table: spread: every card can be captured → one pile" in changes
    assert "(3 face down)" in changes


@pytest.mark.parametrize("text, says, fatal", [
    (BURYING.replace("'rank(dealt) == \"J\" or dealt == 7D'", "'true'"), "holds for every card", True),
    (BURYING.replace("'rank(dealt) == \"J\" or dealt == 7D'", "'false'"), "holds for no card", False),
    (PILE_RULES.replace("    - kind: sweep\n", "    - kind: sum\n    - kind: sweep\n"), "this kind never applies", False),
])
def test_pile_and_bury_lint(tmp_path, text, says, fatal):
    from rulespec.checks.stage import check
    from rulespec.lang.model import load
    if fatal:
        with pytest.raises(RulespecError, match=says):
            compile_ruleset(_write(tmp_path, text))
        return
    checked = check(load(_write(tmp_path, text)))
    assert any(says in w.message for w in checked.warnings)


def test_pile_rulespec_play_shows_the_top_card_and_a_count_of_face_down_cards():
    import io
    import re

    from rulespec.cli.play import TerminalGame
    compiled = compile_ruleset("pishti")
    out = io.StringIO()
    assert TerminalGame(compiled, inp=io.StringIO("1\n" * 60), out=out, seed=3, hands=1, seats=2).run() == 0
    text = out.getvalue()
    first = text.split("your moves")[0]
    # The dealt table names its one face-up card; the table line adds how many lie face down under the pile.
    dealt = re.search(r"dealt to the table: (.*)", first).group(1).split()
    assert len(dealt) == 1
    table = re.search(r"table: (.+?)   \(3 face down under them\)", first).group(1).split()
    assert table[0] == dealt[0]


def test_pile_hand_page_says_how_many_cards_lie_face_down():
    from rulespec.authoring import html_hand
    # the module's own text (its loader may be pytest's, which gives no source, where rulespec is installed)
    assert "face down under them." in Path(html_hand.__file__).read_text(encoding="utf-8")


def test_a_bury_that_buries_every_card_left_stops_the_deal_located(tmp_path):
    """A condition lint cannot see through (it reads `dealt`) but that holds for every card: the deal stops
    with one error at deal.bury, not a loop."""
    import io

    from rulespec.cli.main import run
    path = tmp_path / "all-buried.yaml"
    path.write_text("id: all-buried\nextends: pishti\nname: B\ndescription: d\ndeal:\n"
                    "  bury: {when: 'rank(dealt) != \"2\" or rank(dealt) == \"2\"', to: bottom}\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", str(path), "--hands", "2"], out, err) == 2
    assert err.getvalue().startswith(f"{path}:6:3: deal.bury buries every card left in the stock"), err.getvalue()


# -- a deal check's result redeal_table: the table thrown in alone, the hands kept ------------------------------

TABLE_AGAIN = """\
id: table-again
extends: chkobba
deal_checks:
  - name: two_aces
    when: 'count(table, rank == "A") >= 2'
    result: redeal_table
"""


def test_redeal_table_on_a_spread_table_keeps_the_hands_and_is_refused_by_the_generated_back_ends(tmp_path):
    compiled = compile_ruleset(_write(tmp_path, TABLE_AGAIN))
    rules, rs = compiled.module, compiled.ruleset
    for found in (playout_unsupported(rs), unsupported(rs)):
        assert [what for what, _ in found] == \
            ["deal check 'two_aces': result redeal_table (the table dealt again, the hands kept)"]
        assert found[0][1].line == 5
    # chkobba deals 3 each (seat 1 first, one at a time), then 4 to the table: AH AD, two aces.
    order = _order(rules, ["2H", "2D", "3H", "3D", "4H", "4D", "AH", "AD", "5H", "5D"])
    hand = Hand(rules, 2, 0, DealSource(order=order, rng=random.Random(3)))
    assert hand.dealer_events[0] == "two_aces"
    assert _names(rules, hand.hands[1]) == ["2H", "3H", "4H"] and _names(rules, hand.hands[0]) == ["2D", "3D", "4D"]
    assert sum(1 for c in rules.card_names(hand.table).split() if c.startswith("A")) < 2
