"""Shared fixtures: compiled shipped rulesets and a card-name helper."""
import atexit
import os
import random
import shutil
import tempfile

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.run.engine import DealSource, ExplicitRound, Hand, shuffled_source

# The session's own cache folder (the compile cache on disk, the native libraries), for this process and
# the commands it starts: the tests never read or write the user's ~/.cache.
_CACHE_HOME = tempfile.mkdtemp(prefix="rulespec-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
# simulate's default engine (auto) builds C for each ruleset and options a test simulates: at -O0 the build
# takes a quarter of -O2's time, and the figures are the same (tests/test_stream.py).
os.environ.setdefault("RULESPEC_NATIVE_OPT", "-O0")
atexit.register(shutil.rmtree, _CACHE_HOME, True)


@pytest.fixture(scope="session")
def cirulla():
    return compile_ruleset("cirulla")


def mask_of(rules, *names: str) -> int:
    """A card-set mask from card names."""
    return sum(1 << rules.CARD_NAMES.index(n) for n in names)


def card_of(rules, name: str) -> int:
    return rules.CARD_NAMES.index(name)


def explicit_hand(rules, dealer: int, table: list[str], hands: dict[int, list[str]], seats: int = 4,
                  more_rounds: list[dict[int, list[str]]] = ()) -> Hand:
    """A hand dealt exactly as given (round 1, then optional later rounds)."""
    idx = rules.CARD_NAMES.index
    rounds = [ExplicitRound([idx(c) for c in table], {s: [idx(c) for c in cs] for s, cs in hands.items()})]
    for r in more_rounds:
        rounds.append(ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in r.items()}))
    return Hand(rules, seats, dealer, DealSource(rounds=rounds))


def seeded_hand(rules, seed: int, seats: int = 4, dealer: int = 0) -> Hand:
    return Hand(rules, seats, dealer, shuffled_source(rules.N_CARDS, random.Random(seed)))
