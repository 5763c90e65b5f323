"""Every shipped ruleset compiles, deals for every allowed player count, and plays to the end."""
import random

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.run.engine import Hand, shuffled_source
from rulespec.source.rulesets import shipped_ids

IDS = shipped_ids()


def test_every_id_of_the_rules_is_shipped():
    # The bracketed ids of shared/rules (cirulla.md's variants, cirullone.md, cicera.md) and the bases.
    import re
    from pathlib import Path
    rules = Path(__file__).resolve().parents[2] / "shared" / "rules"
    if not rules.is_dir():
        pytest.skip("shared/rules is not beside the checkout")
    wanted = {"cirulla", "cicera", "cirullone", "cirulla-a-cinque"}
    for doc in rules.glob("*.md"):
        wanted |= set(re.findall(r"\[`([a-z0-9-]+)`\]", doc.read_text(encoding="utf-8")))
    wanted |= {m for doc in rules.glob("cirullone.md")
               for m in re.findall(r"^\| `([a-z0-9-]+)`", doc.read_text(encoding="utf-8"), re.M)}
    assert wanted - set(IDS) == set()


@pytest.mark.parametrize("rid", IDS)
def test_plays_out(rid):
    c = compile_ruleset(rid)
    rules = c.module
    for seats in rules.SEATS_ALLOWED:
        for seed in range(6):
            rng = random.Random(seed)
            hand = Hand(rules, seats, seed % seats, shuffled_source(rules.N_CARDS, rng))
            play_out(hand, [RandomBot(random.Random(seed * 10 + s)) for s in range(seats)])
            assert hand.is_over
            rows = hand.score()
            assert len(rows) == rules.SIDES[seats]
            if hand.plays:
                seen = hand.table
                for pile in hand.piles:
                    assert not seen & pile
                    seen |= pile
                assert seen == (1 << rules.N_CARDS) - 1 or hand.last_capturer is None
