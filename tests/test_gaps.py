"""Issue 22, item 9: the smaller gaps of the language.

`last_round` and `players` visible to events (played alike by Hand, the Python playout and the C back end);
`capture.forced` and `capture.leftovers` written as expressions of the options; a name of another context
said to be visible there, not only unknown.
"""
import random
import textwrap

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, shuffled_source
from rulespec.transcripts.replay import replay


def _written(tmp_path, name, body):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


# -- last_round and players in events -------------------------------------------------------------

LATE = """\
    id: late
    extends: scopa
    name: Scopa whose sweeps in the last deal count double at four players
    events:
      late_sweep:
        when: last_round and not empty(captured) and empty(table)
        points: 1
        category: scope
      crowded_sweep:
        when: players == 4 and not empty(captured) and empty(table)
        points: 1
        category: scope
    """


def _events_by_round(rules, seats, seed):
    hand = Hand(rules, seats, 0, shuffled_source(rules.N_CARDS, random.Random(seed)))
    found = []
    while not hand.is_over:
        card, capture = max(hand.legal_moves(), key=lambda m: m[1].bit_count())
        rnd, last = hand.round, hand.round == len(hand.schedule)
        for e in hand.play(hand.current_seat, card, capture):
            found.append((e.name, rnd, last))
    return found


def test_events_see_the_last_round_and_the_number_of_players(tmp_path):
    rules = compile_ruleset(_written(tmp_path, "late", LATE)).module
    seen = {2: [], 4: []}
    for seats in (2, 4):
        for seed in range(12):
            seen[seats] += _events_by_round(rules, seats, seed)
    for seats, found in seen.items():
        sweeps = [(rnd, last) for name, rnd, last in found if name in ("scopa", "late_sweep")]
        # a late sweep in every sweep of the last deal (the hand's last play is no scopa), never before it
        assert all(last for name, _rnd, last in found if name == "late_sweep")
        assert any(name == "late_sweep" for name, _r, _l in found), seats
        assert any(not last for _rnd, last in sweeps), seats
        crowded = [name for name, _r, _l in found if name == "crowded_sweep"]
        assert bool(crowded) == (seats == 4)


def test_an_event_reading_the_last_round_and_players_replays(tmp_path):
    _written(tmp_path, "late", LATE)
    # 2 players, 40 cards: round 1 deals 3 each and 4 to the table, rounds 2..6 three each; the last is 6.
    text = """\
        ruleset: late.yaml
        seats: 2
        dealer: 0
        deal:
          - table: [AC, 2S, 3B, 4D]
            hands: {1: [RS, 7C, FB], 0: [3C, 5D, CC]}
        plays:
          - {seat: 1, card: RS, capture: [AC, 2S, 3B, 4D], events: [scopa]}
        """
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = replay(path)
    assert result.ok, result.summary()


def test_the_playout_plays_last_round_and_players_as_hand(tmp_path):
    from tests.test_playout import _bots, via_hand, via_playout
    compiled = compile_ruleset(_written(tmp_path, "late", LATE))
    rules = compiled.module
    fired = set()
    for n in rules.SEATS_ALLOWED:
        for i in range(4):
            seed = f"late:{n}:{i}"
            want = via_hand(rules, n, i % n, seed, _bots(i, n))
            assert via_playout(compiled, n, i % n, seed, _bots(i, n)) == want, (n, i)
            fired |= {e[2] for e in want[1]}
    assert {"late_sweep", "crowded_sweep"} <= fired


def test_the_native_back_end_plays_last_round_and_players_as_hand(tmp_path):
    from tests.test_native import HAS_CC, lockstep
    if not HAS_CC:
        pytest.skip("no C compiler on this machine")
    played = lockstep(compile_ruleset(_written(tmp_path, "late", LATE)), hands=60)
    names = {e.name for hand, _moves in played for e in hand.events}
    assert {"late_sweep", "crowded_sweep"} <= names


# -- capture.forced and capture.leftovers as expressions of the options ----------------------------

FREE = """\
    id: free
    extends: scopa
    name: Scopa, captures optional at will
    options:
      free: {type: bool, default: false, description: capturing is optional}
      leftovers: {type: str, default: last_capturer, choices: [last_capturer, nobody]}
    capture:
      forced: not options.free
      leftovers: options.leftovers
    """


def test_forced_and_leftovers_follow_the_options(tmp_path):
    path = _written(tmp_path, "free", FREE)
    plain = compile_ruleset(path)
    assert plain.module.FORCED is True and plain.module.LEFTOVERS == "last_capturer"
    other = compile_ruleset(path, options={"free": True, "leftovers": "nobody"})
    assert other.module.FORCED is False and other.module.LEFTOVERS == "nobody"
    # every back end reads the resolved values: the C back end takes the ruleset as it is
    from rulespec.compiler import codegen_c
    assert codegen_c.unsupported(other.ruleset) == []


def test_optional_capture_by_option_replays(tmp_path):
    _written(tmp_path, "free", FREE)
    text = """\
        ruleset: free.yaml
        seats: 2
        dealer: 0
        options: {free: true}
        deal:
          - table: [AC, 2S, 3B, 4D]
            hands: {1: [3S, 7C, FB], 0: [3C, 5D, CC]}
        plays:
          - {seat: 1, card: 3S, capture: [], legal: [[], [3B]]}
        """
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = replay(path)
    assert result.ok, result.summary()


def test_forced_and_leftovers_rules_are_said_in_words(tmp_path):
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import explain
    path = _written(tmp_path, "free", FREE)
    text = explain(compile_ruleset(path).ruleset)
    assert "must capture when option free is off" in text
    assert "go to: option leftovers (last\\_capturer by default)" in text
    changed = report(compile_ruleset("scopa").ruleset, compile_ruleset(path).ruleset)
    assert "when option free is off" in changed and "option leftovers" in changed


@pytest.mark.parametrize("value, says", [
    ("last_capture", "capture.leftovers is last_capturer or nobody, or an expression of the options such as "
                     "'options.leftovers'; found 'last_capture'; did you mean 'last_capturer'?"),
    ("'\"everybody\"'", "capture.leftovers is last_capturer or nobody; this expression gives 'everybody'"),
    ("options.free", "expected str, found bool"),
])
def test_a_bad_leftovers_is_located(tmp_path, value, says):
    path = _written(tmp_path, "bad", FREE.replace("id: free", "id: bad").replace("options.leftovers", value))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert says in str(err.value)
    assert "bad.yaml:9:1" in str(err.value)     # the line of leftovers, at its value


def test_a_forced_reading_the_table_is_refused(tmp_path):
    path = _written(tmp_path, "bad", FREE.replace("id: free", "id: bad").replace("not options.free", "empty(table)"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "capture.forced is true, false, or a condition on the options" in str(err.value)


def test_forced_as_a_number_is_refused_by_the_schema(tmp_path):
    path = _written(tmp_path, "bad", FREE.replace("id: free", "id: bad").replace("not options.free", "3"))
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "bad.yaml:" in str(err.value) and "forced" in str(err.value)


# -- a name of another context --------------------------------------------------------------------

def test_a_capture_condition_naming_an_event_name_says_what_is_visible(tmp_path):
    path = _written(tmp_path, "bad", """\
        id: bad
        extends: scopa
        capture:
          kinds:
            - kind: sweep
              when: empty(captured)
        """)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    said = str(err.value)
    assert ("'captured' is not visible in capture kinds (visible here: played, table, round, turn, play; and deck, "
            "options.<name>); 'captured' is visible in events") in said
    assert "bad.yaml:6:" in said


def test_a_name_of_no_context_is_still_unknown(tmp_path):
    path = _written(tmp_path, "bad", """\
        id: bad
        extends: scopa
        events:
          scopa: {when: empty(tabel)}
        """)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "unknown name 'tabel'" in str(err.value) and "did you mean 'table'" in str(err.value)
