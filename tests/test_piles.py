"""The table as a pile, face-down table cards and buried deal cards (issue 22, items 2 and 5): the language's
`capture.table: pile`, `face_down` and `deal.bury` (docs/language.md), played by `Hand`, refused by the
generated back ends, hidden from every seat's view."""
import random

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
    # 4 to each of 2 players (8 cards), then the table: JS buried, 5H laid, 7D buried, JH buried, 6H laid, 8H laid, then 7H (the rest in index order).
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


def test_bury_in_words():
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset("pishti").ruleset)
    assert "When a table card is dealt face up and the card dealt is a jack, it is put at the bottom of the stock" \
        in text
