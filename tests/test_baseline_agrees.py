"""The hand-written baseline (tests/baseline_cirulla.py) and the compiled `cirulla` ruleset play one game.

Both engines are dealt the same cards (the same seeded shuffle, reshuffled
the same way on a redeal), the same moves are played in both (chosen by
rulespec's RandomBot, which declares every hand bonus it holds), and after
every play the legal moves, the table, the piles and the events must agree;
at the end, every scoring category and the outcome. This proves the
benchmark compares like with like.
"""
import json
import random
import subprocess
import sys
from pathlib import Path
from collections import Counter

import pytest

from tests import baseline_cirulla as base
from rulespec.bots.random_bot import RandomBot
from rulespec.run.engine import DealSource, Declaration, Hand, IllegalMove, shuffled_source

SEEDS = {4: range(160), 3: range(40), 2: range(40)}


def names(rules, mask):
    return frozenset(rules.card_names(mask).split()) if mask else frozenset()


def spec_moves(rules, hand):
    return {(rules.CARD_NAMES[c], names(rules, m)) for c, m in hand.legal_moves()}


def base_moves(b):
    return {(base.NAMES[c], frozenset(base.NAMES[x] for x in cap)) for c, cap in b.legal_moves()}


def play_both(rules, seed: int, players: int, seen: Counter) -> None:
    dealer = seed % players
    spec = Hand(rules, players, dealer, shuffled_source(rules.N_CARDS, random.Random(seed)))
    b = base.random_hand(random.Random(seed), dealer, players)
    seen.update(spec.dealer_events)
    assert b.dealer_events == spec.dealer_events
    bot = RandomBot(random.Random(f"agree:{seed}"))
    while not spec.is_over:
        seat = spec.current_seat
        assert b.turn == seat
        assert spec_moves(rules, spec) == base_moves(b), f"seed {seed}: legal moves differ"
        decls, card, capture = bot.choose(spec, seat)
        events = spec.play(seat, card, capture, decls)
        b_decls = [(d.bonus, [c for c in range(40) if d.cards >> c & 1], d.wild_rank) for d in decls]
        b_events = b.play(card, [c for c in range(40) if capture >> c & 1], b_decls)
        assert Counter(e.name for e in events) == Counter(b_events), f"seed {seed}: events differ"
        seen.update(e.name for e in events)
        seen.update("matta declared" for d in decls if d.wild_rank is not None)
        assert names(rules, spec.table) == {base.NAMES[c] for c in b.table}
        assert [names(rules, p) for p in spec.piles] == [{base.NAMES[c] for c in p} for p in b.piles]
    assert b.over
    assert spec.score() == b.score(), f"seed {seed}, {players} players: scores differ"
    assert (spec.outcome[1][0] if spec.outcome else None) == b.winner
    seen.update(["cappotto"] if b.winner is not None else [])


def test_same_card_numbering(cirulla):
    assert list(cirulla.module.CARD_NAMES[:40]) == base.NAMES


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_baseline_agrees_with_compiled_cirulla(cirulla, players):
    seen = Counter()
    for seed in SEEDS[players]:
        play_both(cirulla.module, seed, players, seen)
    if players == 4:
        # The seeds exercise the rules that differ most between engines.
        for rule in ("redeal", "dealer_15", "dealer_30", "scopa", "barsega", "decino", "matta declared"):
            assert seen[rule], f"no seed exercised {rule}: {dict(seen)}"


def deck_order(hands: dict[int, list[str]], table: list[str], dealer: int = 0, players: int = 4) -> list[int]:
    """A deck order (top first) that deals `hands` and `table` in round 1, the rest after."""
    order = []
    for j in range(3 * players):
        seat = (dealer + 1 + j % players) % players
        order.append(base.NAMES.index(hands[seat][j // players]))
    order += [base.NAMES.index(n) for n in table]
    return order + [c for c in range(40) if c not in order]


def test_refusals_and_a_declared_matta_agree(cirulla):
    rules = cirulla.module
    hands = {1: ["AH", "AD", "7H"], 2: ["QH", "2S", "JH"], 3: ["QD", "4D", "5D"], 0: ["6S", "6H", "KC"]}
    order = deck_order(hands, ["3C", "4C", "6C", "QC"])
    b = base.CirullaHand(order)
    spec = Hand(rules, 4, 0, DealSource(order=list(order)))
    ah, ad, matta = (base.NAMES.index(n) for n in ("AH", "AD", "7H"))
    trio = (1 << ah) | (1 << ad) | (1 << matta)
    # Forced capture: the ace sweeps a table without aces, so it cannot stay on the table.
    with pytest.raises(base.IllegalPlay):
        b.play(ah, ())
    with pytest.raises(IllegalMove):
        spec.play(1, ah, 0)
    # A A 7H can make a decino, so it is no barsega (cirulla.md, "Resolved"), whatever the matta's rank.
    with pytest.raises(base.IllegalPlay):
        b.play(matta, (), [("barsega", [ah, ad, matta], 1)])
    with pytest.raises(IllegalMove):
        spec.play(1, matta, 0, [Declaration("barsega", trio, 1)])
    assert b.scope == [0, 0] and b.matta_rank is None
    # As a decino with the matta as A, the matta sweeps like an ace.
    table = [base.NAMES.index(n) for n in ("3C", "4C", "6C", "QC")]
    assert b.play(matta, table, [("decino", [ah, ad, matta], 0)]) == ["decino", "scopa"]
    events = spec.play(1, matta, sum(1 << c for c in table), [Declaration("decino", trio, 0)])
    assert [e.name for e in events] == ["decino", "scopa"]
    assert spec.score()[1]["scope"] == b.scope[1] == 11


def test_benchmark_script_runs(tmp_path):
    # bench/bench.py on a tiny scale, as a command (speed is measured there, never asserted here;
    # the suite imports nothing from bench/).
    out = tmp_path / "bench.json"
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "bench.bench", "--hands", "8", "--rounds", "2", "--skip-compile",
                    "--json", str(out)], cwd=root, check=True, capture_output=True, timeout=300)
    play = json.loads(out.read_text(encoding="utf-8"))["playout"]
    assert play["hands_per_engine"] == 8
    assert play["rulespec"]["hands_per_second"] > 0 and play["baseline"]["hands_per_second"] > 0
