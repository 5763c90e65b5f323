"""The generated C's ranked memo of declarations (codegen_c._write_hand_ranks): every hand of up to
RANKED_CARDS of the deck's cards has a place of its own below RANKED_N, as hand_place computes it."""
import itertools
import re
from math import comb

import pytest

from rulespec.compiler.codegen_c import RANKED_PLACES, _write_hand_ranks


def tables(n_cards: int):
    lines = []
    _write_hand_ranks(lines.append, n_cards)
    text = "\n".join(lines)
    most = int(re.search(r"#define RANKED_CARDS (\d+)", text).group(1))
    places = int(re.search(r"#define RANKED_N (\d+)", text).group(1))
    off = [int(x) for x in re.search(r"RANKED_OFF\[[^]]*\] = \{([^}]*)\}", text).group(1).split(",")]
    rows = re.search(r"RANKED_BIN\[[^]]*\]\[N_CARDS\] = \{(.*)\};", text).group(1)
    binom = [[int(x) for x in row.split(",")] for row in re.findall(r"\{([^{}]*)\}", rows)]
    return most, places, off, binom


def place(hand, off, binom):
    """hand_place in the generated C: the cards in ascending order, the s-th (from 1) adding C(card, s)."""
    return off[len(hand)] + sum(binom[s][c] for s, c in enumerate(sorted(hand), start=1))


@pytest.mark.parametrize("n_cards", [40, 52])
def test_every_small_hand_has_its_own_place(n_cards):
    most, places, off, binom = tables(n_cards)
    assert most == 3                              # three-card hands of these decks: the fishing games' deal
    seen = [place(hand, off, binom) for s in range(most + 1) for hand in itertools.combinations(range(n_cards), s)]
    assert sorted(seen) == list(range(places))    # a bijection onto the places, none past RANKED_N
    assert places == sum(comb(n_cards, s) for s in range(most + 1)) <= RANKED_PLACES


@pytest.mark.parametrize("n_cards", [4, 24, 36, 64])
def test_the_ranked_hands_stop_where_the_places_would_pass_the_bound(n_cards):
    most, places, off, binom = tables(n_cards)
    assert places <= RANKED_PLACES
    assert most == n_cards or places + comb(n_cards, most + 1) > RANKED_PLACES
    hands = [h for s in range(most + 1) for h in itertools.combinations(range(n_cards), s)] if places < 5000 else \
        [h for h in itertools.combinations(range(n_cards), most)][:5000]
    assert all(off[len(h)] <= place(h, off, binom) < (off[len(h) + 1] if len(h) < most else places) for h in hands)
