"""Properties of every shipped ruleset, over random hands (hypothesis).

After every play: each card is in exactly one place (hands, table, piles,
stock), legal moves exist while the hand goes on, observations hide the other
seats' cards and the stock; at the end, each side's total is the sum of its
categories and a majority category scores for one side at most
(tests/invariants.py). Across hands: a recorded hand replays, and one seed
deals and plays one hand.

The budget is small for CI; RULESPEC_PROPERTY_EXAMPLES=500 (say) runs more.
"""
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.invariants import (check_hand, majority_categories, new_hand, observation_ignores_hidden,
                              play_checked)
from rulespec.compiler.build import compile_ruleset
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.transcripts.record import record
from rulespec.transcripts.replay import replay
from rulespec.source.rulesets import shipped_ids

EXAMPLES = int(os.environ.get("RULESPEC_PROPERTY_EXAMPLES", "15"))
IDS = shipped_ids()
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rulesets = st.sampled_from(IDS)
seeds = st.integers(min_value=0, max_value=2**32)


@pytest.mark.parametrize("rid", IDS)
def test_every_seat_count_keeps_the_invariants(rid):
    compiled = compile_ruleset(rid)
    for seats in compiled.module.SEATS_ALLOWED:
        for dealer in range(seats):
            play_checked(compiled, new_hand(compiled, f"sweep:{dealer}", seats, dealer), random.Random(dealer))


@PROPERTY
@given(rid=rulesets, seed=seeds)
def test_invariants_hold_after_every_play(rid, seed):
    compiled = compile_ruleset(rid)
    play_checked(compiled, new_hand(compiled, seed), random.Random(seed))


@PROPERTY
@given(rid=rulesets, seed=seeds, data=st.data())
def test_observation_does_not_depend_on_hidden_cards(rid, seed, data):
    compiled = compile_ruleset(rid)
    hand = new_hand(compiled, seed)
    stop = data.draw(st.integers(min_value=0, max_value=60), label="plays before looking")
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + s)) for s in range(hand.n)]
    while not hand.is_over and hand.plays < stop:
        seat = hand.current_seat
        decls, card, capture = bots[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
    for seat in range(hand.n):
        assert observation_ignores_hidden(hand, seat, rng), f"seat {seat} sees the others' hidden cards"


def _played(rid: str, seed: int):
    compiled = compile_ruleset(rid)
    hand = new_hand(compiled, seed)
    log = []
    play_out(hand, [RandomBot(random.Random(f"{seed}:{s}")) for s in range(hand.n)],
             lambda seat, decls, card, capture, events: log.append((seat, tuple(decls), card, capture,
                                                                   tuple(events))))
    return hand, log


@PROPERTY
@given(rid=rulesets, seed=seeds)
def test_same_seed_same_hand(rid, seed):
    first, first_log = _played(rid, seed)
    second, second_log = _played(rid, seed)
    assert first_log == second_log
    assert first.deal_log == second.deal_log
    assert first.events == second.events and first.dealer_events == second.dealer_events
    assert first.outcome == second.outcome
    if first.plays:
        assert first.score() == second.score()


@settings(max_examples=max(EXAMPLES // 2, 5), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=rulesets, seed=seeds)
def test_recorded_hand_replays(rid, seed):
    compiled = compile_ruleset(rid)
    seats = random.Random(seed).choice(compiled.module.SEATS_ALLOWED)
    text = record(compiled, seed=seed, seats=seats, dealer=seed % seats)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{rid}-{seed}.yaml"
        path.write_text(text, encoding="utf-8")
        result = replay(path)
    assert result.ok, result.summary() + "\n" + text


def test_checker_sees_a_card_in_two_places():
    # The checker itself: a card copied from the table into a pile is reported.
    compiled = compile_ruleset("cirulla")
    hand = new_hand(compiled, 3, seats=4, dealer=0)
    assert check_hand(compiled, hand) == []
    table_card = hand.table & -hand.table
    hand.piles[0] |= table_card
    assert any("also elsewhere" in p for p in check_hand(compiled, hand))


def test_checker_sees_a_leaked_card():
    compiled = compile_ruleset("cirulla")
    hand = new_hand(compiled, 3, seats=4, dealer=0)
    original = hand.observation

    def leaky(seat):
        obs = original(seat)
        obs["table"] = obs["table"] + [hand.hands[(seat + 1) % hand.n].bit_length() - 1]
        return obs

    hand.observation = leaky
    assert any("hidden cards" in p for p in check_hand(compiled, hand))


def test_checker_sees_a_majority_scored_twice():
    # The checker itself: a second side given the carte (2 sides of 3 with the point) is reported.
    compiled = compile_ruleset("scopa")
    hand = new_hand(compiled, 4, seats=3, dealer=0)
    play_checked(compiled, hand, random.Random(4))
    rows = hand.score()
    rows[(next(s for s, r in enumerate(rows) if r["carte"]) + 1) % 3]["carte"] = 1
    hand.score = lambda: rows
    assert "majority category carte scores for sides" in "; ".join(check_hand(compiled, hand))


MAJORITIES = """
id: majorities
extends: escoba
options: {sevens: {default: most_sevens}}
scoring:
  cartas: {points: '2 if most(count(pile)) and count(pile) > 20 else 0'}
  every_side: {points: '1 if most(count(pile)) else 1'}
  all_but_leader: {points: '1 if not most(count(pile)) else 0'}
  leader_or_sevens: {points: '1 if most(count(pile)) or holds(pile, 7D) else 0'}
  two_majorities: {points: '1 if most(count(pile)) else (1 if most(total(pile)) else 0)'}
  switched_off: {points: '(1 if most(count(pile)) else 0) if options.sevens == "setenta" else 0'}
"""


def test_only_categories_that_go_to_one_side_are_majorities(tmp_path):
    # most() in the points is not enough: the form must give the points to the leader alone.
    path = tmp_path / "majorities.yaml"
    path.write_text(MAJORITIES, encoding="utf-8")
    ruleset = compile_ruleset(path).ruleset
    assert majority_categories(ruleset) == ["cartas", "oros", "setenta"]


DIGEST = """
import hashlib, random, sys
from tests.invariants import new_hand
from rulespec.compiler.build import compile_ruleset
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
h = hashlib.sha256()
for rid in sys.argv[1:]:
    compiled = compile_ruleset(rid)
    for seed in range(3):
        hand = new_hand(compiled, seed)
        play_out(hand, [RandomBot(random.Random(f"{seed}:{s}")) for s in range(hand.n)])
        h.update(repr((hand.deal_log, hand.events, hand.outcome, hand.score() if hand.plays else None)).encode())
print(h.hexdigest())
"""


def test_same_seed_same_hand_in_another_process():
    # Hash randomisation differs between processes: no set or dict order may leak into play.
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent
    ids = ["cirulla", "cirullone", "cicera", "cirulla-knock-early", "cirulla-buffoni", "cirullone-rivarolo"]
    digests = set()
    for hashseed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", DIGEST, *ids], cwd=root, capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hashseed}, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        digests.add(done.stdout.strip())
    assert len(digests) == 1
