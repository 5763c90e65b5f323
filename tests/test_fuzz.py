"""A short fuzz in the suite (tests/fuzz.py; `python bench/fuzz.py --seconds 600` runs a long one).

Mutated shipped rulesets, generated rulesets, mutated and random
expressions, mutated golden transcripts: the only exception allowed out is a
located RulespecError; a ruleset that compiles plays a hand with its
invariants intact; an expression that type-checks runs. Fixed seeds, so a
failure here reproduces. The regression tests at the end are the fuzzer's
findings in compiler/codegen.py and rulespec/engine.py (fixed since).
"""
import random
import re

import pytest

from tests import fuzz
from rulespec.compiler.build import compile_ruleset
from rulespec.bots.policy import play_out
from rulespec.bots.random_bot import RandomBot
from rulespec.run.engine import Hand, shuffled_source
from rulespec.errors import RulespecError, Span
from rulespec.transcripts.replay import replay
from rulespec.source.rulesets import rulesets_dir

GOLDEN = fuzz.GOLDEN

CIRULLA = (rulesets_dir() / "cirulla.yaml").read_text(encoding="utf-8")


def _report(stats) -> str:
    return "\n\n".join(f"{target}: {detail[:2000]}\ninput: {data!r:.2000}" for target, _, detail, data in stats.failures)


@pytest.mark.parametrize("target, count, seed", [
    ("rulesets", 20, 11),
    ("expressions", 400, 12),
    ("transcripts", 15, 13),
    ("injection", 20, 14),
])
def test_short_fuzz_finds_nothing_new(target, count, seed, tmp_path):
    # The budget is a guard against a hang, not a speed bound (a loaded machine must not fail this):
    # bounded work is held by call counts in test_hostile_rulesets and test_yamlsafe.
    stats = fuzz.fuzz(counts={target: count}, seed=seed, targets=(target,), folder=tmp_path, budget=60.0)
    assert stats.tried[target] == count
    assert not stats.failures, _report(stats)


def test_mutations_change_the_text():
    rng = random.Random(1)
    mutator = fuzz.Mutator(rng, [CIRULLA])
    changed = 0
    for op in mutator.ops:
        for _ in range(5):
            changed += op(CIRULLA) != CIRULLA
    assert changed >= len(mutator.ops) * 4


def test_generated_rulesets_mostly_compile(tmp_path):
    rng = random.Random(5)
    compiled = 0
    for i in range(20):
        path = tmp_path / f"g{i}.yaml"
        path.write_text(fuzz.random_ruleset(rng), encoding="utf-8")
        try:
            compile_ruleset(path)
            compiled += 1
        except RulespecError as err:
            assert err.span is not None
    assert compiled >= 10


def test_a_spanless_error_is_a_failure():
    assert not fuzz._located_or_justified(RulespecError("somewhere, nowhere"))
    assert fuzz._located_or_justified(RulespecError("here", Span("f.yaml", 3, 1)))


def test_replay_locates_a_deal_that_runs_out(tmp_path):
    # Found by the fuzzer: the engine's "does not list round 2" used to escape the replay with no span.
    source = (GOLDEN / "cicera" / "12-cicera-6-picada-across-rounds.yaml").read_text(encoding="utf-8")
    head, rest = source.split("\ndeal:\n", 1)
    deal, plays = rest.split("\nplays:", 1)
    first_round = re.split(r"(?m)^  - ", deal)[1]
    path = tmp_path / "short.yaml"
    path.write_text(head + "\ndeal:\n  - " + first_round + "\nplays:" + plays, encoding="utf-8")
    with pytest.raises(RulespecError) as info:
        replay(path)
    assert info.value.span is not None and info.value.span.file == str(path)
    assert info.value.message.endswith("needs round 2, which the transcript's deal does not list (it lists 1 round)")


# ------------------------------------------------------------------ findings, left to their owners


ALWAYS_REDEAL = CIRULLA.replace("when: 'count(table, rank == \"A\") >= 2'", "when: 'count(table) == 4'")


def test_a_deal_check_that_always_holds_ends(tmp_path):
    path = tmp_path / "always.yaml"
    path.write_text(ALWAYS_REDEAL.replace("id: cirulla", "id: always"), encoding="utf-8")
    rules = compile_ruleset(path).module  # compiles: whether a condition always holds is not known statically

    # It ends by a bound, not a clock: after MAX_REDEALS deals thrown in, the check is named, located.
    with pytest.raises(RulespecError, match=r"deal check '\w+' threw in 1000 deals in a row") as info:
        Hand(rules, 4, 0, shuffled_source(rules.N_CARDS, random.Random(1)))
    assert info.value.span is not None and info.value.span.file == str(path)


DOUBLE_MATCH = CIRULLA.replace("    - kind: fifteen\n      total: 15\n", "    - kind: fifteen\n      total: 15\n"
                               "    - kind: match\n")


def test_a_capture_kind_listed_twice_compiles_to_working_code(tmp_path):
    path = tmp_path / "double.yaml"
    path.write_text(DOUBLE_MATCH.replace("id: cirulla", "id: double"), encoding="utf-8")
    rules = compile_ruleset(path).module
    for seed in range(5):
        hand = Hand(rules, 4, 0, shuffled_source(rules.N_CARDS, random.Random(seed)))
        play_out(hand, [RandomBot(random.Random(s)) for s in range(4)])


MATCH_ONLY = """id: matchonly
deck:
  id: low
  ranks: [{rank: '1', value: 1}, {rank: '2', value: 1}, {rank: '3', value: 2}, {rank: '4', value: 2}, {rank: '5', value: 10}]
  suits: [H, D, C, S, X, Y, Z, W]
players: {counts: [2], default: 2, sides: {2: 2}}
deal: {rounds: [[{each: 3}, {table: 4}], [{each: 3}]], repeat_last: true}
capture: {kinds: [{kind: match, when: 'value(played) > 5'}]}
scoring: {carte: {points: '1 if most(count(pile)) else 0'}}
game: {target: 11}
"""


def test_a_big_table_does_not_blow_up_the_capture_search(tmp_path):
    path = tmp_path / "matchonly.yaml"
    path.write_text(MATCH_ONLY, encoding="utf-8")
    rules = compile_ruleset(path).module

    # 40 cards, most never captured: the table grows to about 30. The moves a turn offers stay one capture per
    # matching table card at most (a match kind takes one card), counted rather than timed.
    hand = Hand(rules, 2, 0, shuffled_source(rules.N_CARDS, random.Random(0)))
    biggest = 0

    def counted(hand, seat):
        nonlocal biggest
        in_hand, on_table = bin(hand.hands[seat]).count("1"), bin(hand.table).count("1")
        assert len(hand.legal_moves()) <= in_hand * (1 + on_table)
        biggest = max(biggest, on_table)
    play_out(hand, [RandomBot(random.Random(s)) for s in range(2)], on_turn=counted)
    assert biggest >= 20


def test_known_findings_are_named_in_the_fuzzer():
    names = {n.split("::")[1] for n in fuzz.KNOWN.values()}
    assert names == {"test_a_deal_check_that_always_holds_ends",
                     "test_a_capture_kind_listed_twice_compiles_to_working_code",
                     "test_a_big_table_does_not_blow_up_the_capture_search"}
