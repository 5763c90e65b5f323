"""A rule of pagat's Seep the engine does not play yet: a partner adds to its partner's cemented house
without becoming an owner (docs/fishing-family.md, Seep, "Owners": here the last seat to add owns the house
and must keep a card of its value). An outsider's transcript written from pagat's rules, kept in
tests/not_yet until the engine plays it: it must fail at the partner's play, and only there; if it replays,
the rule is played: move it to tests/golden/seep and drop this test."""
from pathlib import Path

import pytest

from rulespec.transcripts.replay import replay

TRANSCRIPT = Path(__file__).parent / "not_yet" / "seep" / "outsider2-a-partner-adds-its-only-jack.yaml"


def test_a_partner_adds_its_only_card_to_a_cemented_house():
    result = replay(TRANSCRIPT)
    assert not result.ok, "the engine now lets a partner add its only card: move the transcript to tests/golden/seep"
    assert result.failures and all("play 4 (seat 2, JC)" in f and "cannot build 11" in f
                                   for f in result.failures), result.failures
    pytest.xfail("a house has one owner here, the last seat to add to it, who keeps a card of its value (pagat: a "
                 "partner adds without becoming an owner)")
