"""Issue 22, items 9, 6, 7 and 4: the smaller gaps of the language, run captures, a deck's extra cards and a
short last deal, and kontsina checked against pagat.com.

Item 9: `last_round` and `players` visible to events; `capture.forced` and `capture.leftovers` written as
expressions of the options; a name of another context said to be visible there, not only unknown. Item 6:
capture kind run (tests/gaps/cuarenta-runs.*). Item 7: `deck.extra` and `deal.short_last`
(tests/gaps/jokers-short-deal.*). Each is played alike by Hand, the Python playout and the C back end
(lockstep), said in words by explain and diff, and located when written wrong.
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


def test_an_event_reading_the_last_round_and_players_is_said_in_words(tmp_path):
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset(_written(tmp_path, "late", LATE)).ruleset)
    assert "**late\\_sweep**: when it is the last round and the play captures something" in text
    assert "**crowded\\_sweep**: when the number of players is exactly 4 and" in text


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


# -- issue 22 item 6: capture kind run --------------------------------------------------------------

GAPS = __import__("pathlib").Path(__file__).parent / "gaps"
RUNS = GAPS / "cuarenta-runs.yaml"


def test_the_run_transcript_replays():
    result = replay(GAPS / "cuarenta-runs.transcript.yaml")
    assert result.ok, result.summary()


def _run_hand():
    from rulespec.run.engine import DealSource, ExplicitRound
    rules = compile_ruleset(RUNS).module
    card = {name: i for i, name in enumerate(rules.CARD_NAMES)}
    hands = {1: [card[c] for c in ("5S", "4H", "KS")], 0: [card[c] for c in ("3C", "AS", "JC")]}
    source = DealSource(rounds=[ExplicitRound([card[c] for c in ("5H", "6C", "6D", "7S")], hands)])
    return rules, card, Hand(rules, 2, 0, source)


def test_a_run_is_taken_whole():
    from rulespec.run.engine import IllegalMove
    rules, card, hand = _run_hand()
    mask = lambda *names: sum(1 << card[n] for n in names)   # noqa: E731
    with pytest.raises(IllegalMove) as err:
        hand.play(1, card["5S"], mask("5H", "6C"))
    assert "5H 6C 7S" in str(err.value) or "5H 6D 7S" in str(err.value)
    assert sorted(hand.legal_moves()) == hand.legal_moves()
    assert {m for c, m in hand.legal_moves() if c == card["5S"]} == {mask("5H", "6C", "7S"), mask("5H", "6D", "7S")}


def test_run_sets_one_card_per_rank_as_far_as_the_table_goes():
    from rulespec.run.runtime import run_sets
    rank_no = (0, 1, 2, 3) * 2                # two suits of four ranks: indices 0-3 and 4-7
    masks = (0b00010001, 0b00100010, 0b01000100, 0b10001000)
    # played rank 0 (index 0) takes its match (index 4), then rank 1 (1 or 5), rank 2 (2); rank 3 is absent
    assert sorted(run_sets(0, 0b00110110, [1 << 4], rank_no, masks)) == sorted([0b00010110, 0b00110100])
    # a rank in two suits at two steps: every pick of one card per rank
    assert len(run_sets(0, 0b01110110, [1 << 4], rank_no, masks)) == 4
    assert run_sets(3, 0b11111111, [1 << 7], rank_no, masks) == [1 << 7]     # the top rank: nothing above


def test_the_python_playout_plays_runs_as_hand():
    # the playout asks the compiled capture functions for a card of the played card's class (its value and
    # rank): a run reads no more of the played card than its rank, so the same sets come out
    from tests.test_playout import _bots, via_hand, via_playout
    compiled = compile_ruleset(RUNS)
    rules = compiled.module
    runs = 0
    for n in rules.SEATS_ALLOWED:
        for i in range(6):
            seed = f"runs:{n}:{i}"
            want = via_hand(rules, n, i % n, seed, _bots(i, n))
            assert via_playout(compiled, n, i % n, seed, _bots(i, n)) == want, (n, i)
            runs += sum(1 for _s, _d, card, capture in want[0] if capture.bit_count() >= 2)
    assert runs


RUN_VARIANTS = {
    "as-written": "",
    # only after a match; its sums after a match wait; a run of at least 3 cards; beside a plain match
    "match-only": "capture:\n  kinds: [{kind: run}]\n",
    "unless-match": "capture:\n  kinds: [{kind: run, after: [match, sum], unless_match: true}]\n",
    "beside-a-match": "capture:\n  kinds: [{kind: match}, {kind: run, after: [sum], min_cards: 3}]\n",
}


@pytest.mark.parametrize("variant", sorted(RUN_VARIANTS))
def test_the_native_back_end_plays_runs_as_hand(variant, tmp_path):
    from tests.test_native import HAS_CC, lockstep
    if not HAS_CC:
        pytest.skip("no C compiler on this machine")
    (tmp_path / RUNS.name).write_text(RUNS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "v", f"id: v\nextends: cuarenta-runs.yaml\n{RUN_VARIANTS[variant]}")
    compiled = compile_ruleset(path)
    from rulespec.compiler import codegen_c
    assert codegen_c.unsupported(compiled.ruleset) == []
    rules = compiled.module
    longest = 0
    for seats in (2, 4):
        for hand, moves in lockstep(compiled, hands=30, seats=seats):
            longest = max([longest] + [m[3].bit_count() for m in moves])
    assert longest >= 3


def test_simulate_plays_a_run_ruleset_with_hand():
    from rulespec.bots.simulate import simulate, to_dict
    stats = to_dict(simulate(compile_ruleset(RUNS), seed=2, workers=1, hands=20))
    assert stats["hands"] == 20


def test_after_belongs_to_run(tmp_path):
    path = _written(tmp_path, "bad", """\
        id: bad
        extends: scopa
        capture:
          kinds:
            - {kind: match, after: [sum]}
        """)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "`after` belongs to kind run" in str(err.value) and "bad.yaml:5:" in str(err.value)


def test_after_takes_only_match_and_sum(tmp_path):
    path = _written(tmp_path, "bad", """\
        id: bad
        extends: scopa
        capture:
          kinds:
            - {kind: run, after: [sweep]}
        """)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "bad.yaml:5:" in str(err.value) and "sweep" in str(err.value)


def test_a_run_is_said_in_words_by_explain_and_diff(tmp_path):
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset(RUNS).ruleset)
    assert "then every table card continuing the sequence upward from the played card in the deck's rank order " \
           "(A 2 3 4 5 6 7 J Q K), one card per rank" in text
    (tmp_path / RUNS.name).write_text(RUNS.read_text(encoding="utf-8"), encoding="utf-8")
    only_match = _written(tmp_path, "only-match", "id: only-match\nextends: cuarenta-runs.yaml\n"
                                                  "capture:\n  kinds: [{kind: run}]\n")
    changed = report(compile_ruleset(RUNS).ruleset, compile_ruleset(only_match).ruleset)
    assert "a match or a sum, then every table card continuing" in changed
    assert "→ a match, then every table card continuing" in changed


def test_the_adapters_reach_exactly_the_legal_moves_of_a_run_ruleset():
    pytest.importorskip("numpy", reason="the rl extra is not installed")
    import rulespec
    from rulespec.interop.decisions import CARD, Decisions
    from tests.test_interop import _completions
    rng = random.Random(5)
    compared = runs = 0
    for seed in range(4):
        d = Decisions(rulespec.compile(str(RUNS)).new_hand(seed=seed))
        while not d.is_over:
            if d.phase == CARD and not d.decls:
                moves = set(d.hand.legal_moves())
                assert _completions(d, set()) == moves
                compared += 1
                runs += any(m.bit_count() >= 2 for _c, m in moves)
            d.apply(rng.choice(d.legal_actions()))
    assert compared > 20 and runs


# -- issue 22 item 7: a deck's extra cards and a short last deal -----------------------------------

JOKERS = GAPS / "jokers-short-deal.yaml"


def test_extra_cards_follow_the_deck_and_are_written_by_name():
    rules = compile_ruleset(JOKERS).module
    assert rules.N_CARDS == 55 and rules.CARD_NAMES[52:] == ("15X", "20X", "25X")
    assert rules._VALUE[52:55] == (15, 20, 25) and rules._SUIT[52:55] == ("X",) * 3
    assert rules._RANK[52:55] == ("15", "20", "25")


def test_the_short_last_round_is_dealt_evenly_the_rest_to_the_table():
    rules = compile_ruleset(JOKERS).module
    # 55 cards: 4 each and 3 to the table, then 4 each; the last round is what is left, evenly
    assert rules.schedule(4)[-1][:2] == (1, 0) and len(rules.schedule(4)) == 4
    assert rules.schedule(3)[-1][:2] == (1, 1) and len(rules.schedule(3)) == 5
    assert rules.schedule(2)[-1][:2] == (2, 0) and len(rules.schedule(2)) == 7
    for seats in (2, 3, 4):
        for seed in range(3):
            hand = Hand(rules, seats, seed % seats, shuffled_source(rules.N_CARDS, random.Random(seed)))
            while not hand.is_over:
                hand.play(hand.current_seat, *hand.legal_moves()[0])
            last_table, last_hands = hand.deal_log[-1]
            assert [h.bit_count() for h in last_hands] == [rules.schedule(seats)[-1][0]] * seats
            assert last_table.bit_count() == rules.schedule(seats)[-1][1]
            everything = hand.final_table
            for pile in hand.piles:
                everything |= pile
            assert everything == (1 << 55) - 1


def test_a_short_round_with_no_card_for_each_player_is_refused(tmp_path):
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "bad", """\
        id: bad
        extends: jokers-short-deal.yaml
        players: {counts: [4], default: 4, sides: {4: 2}}
        deal:
          rounds: [[{each: 4}, {table: 6}], [{each: 4}]]
        """)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "with 4 players the last round would deal the 1 card left to the table" in str(err.value)


def test_without_short_last_a_deck_that_does_not_divide_is_refused_as_before(tmp_path):
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "bad", "id: bad\nextends: jokers-short-deal.yaml\ndeal: {short_last: null}\n")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "but only 4 remain of the 55-card deck" in str(err.value)


def test_the_jokers_transcript_replays():
    result = replay(GAPS / "jokers-short-deal.transcript.yaml")
    assert result.ok, result.summary()


def test_a_card_the_deck_does_not_have_is_named(tmp_path):
    text = (GAPS / "jokers-short-deal.transcript.yaml").read_text(encoding="utf-8")
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "t.yaml"
    path.write_text(text.replace("25X, 9H", "30X, 9H"), encoding="utf-8")
    with pytest.raises(RulespecError) as err:
        replay(path)
    assert "unknown card '30X' in deck french52-jokers: unknown rank '30' (ranks: A 2 3 4 5 6 7 8 9 10 J Q K 15 20 " \
           "25); did you mean '20X'?" in str(err.value) and "t.yaml:8:" in str(err.value)


@pytest.mark.parametrize("extra, says", [
    ("{card: 15H, value: 15}", "extra card '15H' has suit symbol 'H', one of the deck's suits"),
    ("{card: 15X, value: 15}, {card: 15X, value: 20}", "extra card '15X' is listed twice"),
    ("{card: 15x, value: 15}", "15x"),
    ("{card: 15X, value: 15, colour: red}", "colour"),
])
def test_a_bad_extra_card_is_located(tmp_path, extra, says):
    text = JOKERS.read_text(encoding="utf-8")
    start = text.index("  extra:")
    end = text.index("\nplayers:")
    path = tmp_path / "bad.yaml"
    path.write_text(text[:start] + f"  extra: [{extra}]\n" + text[end:], encoding="utf-8")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert says in str(err.value) and f"bad.yaml:{text[:start].count(chr(10)) + 1}:" in str(err.value)


def test_the_wild_card_is_no_extra_card(tmp_path):
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "bad", "id: bad\nextends: jokers-short-deal.yaml\n"
                                     "wild: {card: 25X, declare_as: [A]}\n")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(path)
    assert "not the extra card 25X" in str(err.value) and "bad.yaml:3:" in str(err.value)


def test_extra_cards_in_conditions(tmp_path):
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "jk", """\
        id: jk
        extends: jokers-short-deal.yaml
        scoring:
          large: {points: '1 if holds(pile, 25X) else 0'}
          fifteen: {points: 'count(pile, rank == "15")'}
        """)
    compiled = compile_ruleset(path)
    score = compiled.module.score([1 << 54 | 1 << 52, 0], [{}, {}])
    assert score[0]["large"] == 1 and score[0]["fifteen"] == 1 and score[0]["jokers"] == 2


def test_extra_cards_and_the_short_deal_in_words(tmp_path):
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import explain
    text = explain(compile_ruleset(JOKERS).ruleset)
    assert "three extra cards, each of its own rank and suit: the small joker (15X), value 15" in text
    assert "with 3 players the last round gives 1 card each and 1 to the table" in text
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    other = _written(tmp_path, "other", "id: other\nextends: jokers-short-deal.yaml\n"
                                        "deal:\n  short_last: null\n  repeat_last: false\n"
                                        "  rounds: [[{each: 4}, {table: 3}], [{each: 4}], [{each: 4}], [{each: 1}]]\n"
                                        "players: {counts: [4], default: 4, sides: {4: 2}}\n"
                                        "deck:\n  extra: [{card: 15X, value: 15}, {card: 20X, value: 20},"
                                        " {card: 25X, value: 21}]\n")
    changed = report(compile_ruleset(JOKERS).ruleset, compile_ruleset(other).ruleset)
    assert "the extra card 25X: large joker, value 25 → value 21" in changed
    assert "the rest to the table" in changed


def test_the_playout_plays_extra_cards_and_a_short_deal_as_hand():
    from tests.test_playout import _bots, via_hand, via_playout
    compiled = compile_ruleset(JOKERS)
    rules = compiled.module
    for n in rules.SEATS_ALLOWED:
        for i in range(3):
            seed = f"jokers:{n}:{i}"
            assert via_playout(compiled, n, i % n, seed, _bots(i, n)) == via_hand(rules, n, i % n, seed, _bots(i, n))


def test_the_native_back_end_plays_extra_cards_and_a_short_deal_as_hand(tmp_path):
    from tests.test_native import HAS_CC, lockstep
    if not HAS_CC:
        pytest.skip("no C compiler on this machine")
    (tmp_path / JOKERS.name).write_text(JOKERS.read_text(encoding="utf-8"), encoding="utf-8")
    # the jokers matched by rank too (no value: a 15X takes only a card of rank 15), and scored by rank and suit
    path = _written(tmp_path, "jk", """\
        id: jk
        extends: jokers-short-deal.yaml
        deck:
          extra: [{card: 15X, value: null}, {card: 15Y, value: null}, {card: 25X, value: 25}]
        scoring:
          jokers: {points: 'count(pile, suit == "X") + max_same_rank(pile)'}
          fifteens: {points: 'count(pile, rank == "15")'}
        """)
    by_rank = 0
    for compiled in (compile_ruleset(JOKERS), compile_ruleset(path)):
        for seats in (3, 4):
            played = lockstep(compiled, hands=40, seats=seats)
            assert any(hand.plays for hand, _moves in played)
            # moves are (hand, seat, card, capture, declared, wild): a 15 joker taking the other by rank
            by_rank += sum(1 for _h, moves in played for m in moves if m[2] in (52, 53) and m[3] in (1 << 52, 1 << 53))
    assert by_rank


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be",
                            "ignore:Observation is not a NumPy array")   # as tests/test_interop.py
def test_the_adapters_play_a_deck_with_extra_cards():
    pytest.importorskip("numpy", reason="the rl extra is not installed")
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    import contextlib
    import io
    from pettingzoo.test import api_test
    from rulespec.interop.pettingzoo import env
    e = env(str(JOKERS))
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(e, num_cycles=300)
    import rulespec
    from rulespec.interop.decisions import CARD, Decisions
    from tests.test_interop import _completions
    rng = random.Random(2)
    d = Decisions(rulespec.compile(str(JOKERS)).new_hand(seats=3, seed=1))
    while not d.is_over:
        if d.phase == CARD and not d.decls:
            assert _completions(d, set()) == set(d.hand.legal_moves())
        d.apply(rng.choice(d.legal_actions()))


SHORT_40 = """\
    id: short-40
    extends: scopa
    name: Scopa for three, five cards a round
    players: {counts: [3], default: 3, sides: {3: 3}}
    deal:
      rounds: [[{each: 5}, {table: 4}], [{each: 5}]]
      repeat_last: true
      short_last: even
    """


def test_the_native_back_end_plays_a_short_last_deal_as_hand(tmp_path):
    from tests.test_native import HAS_CC, lockstep
    if not HAS_CC:
        pytest.skip("no C compiler on this machine")
    compiled = compile_ruleset(_written(tmp_path, "short-40", SHORT_40))
    # 40 cards, 3 players: 15 + 4, then 15, then the 6 left: 2 each
    assert [r[:2] for r in compiled.module.schedule(3)] == [(5, 4), (5, 0), (2, 0)]
    played = lockstep(compiled, hands=40, seats=3)
    whole = [hand for hand, _moves in played if hand.plays == 36]      # 40 cards less the 4 dealt to the table
    assert whole and all([h.bit_count() for h in hand.deal_log[-1][1]] == [2, 2, 2] for hand in whole)


# -- issue 22 item 4: kontsina checked against pagat.com's page ------------------------------------

def test_kontsina_pagat_one_matching_card_and_one_combination():
    # pagat, Kontsina, "The Play": "capture one card ... of matching value" and "if more than one separate
    # combination of cards yields the same sum, only one of these" may be taken: two 7s on the table are
    # two captures of one card each, and 3+4 and 2+5 two captures, never taken together.
    from tests.conftest import card_of, explicit_hand, mask_of
    rules = compile_ruleset("kontsina").module
    h = explicit_hand(rules, 0, ["7H", "7D", "3C", "4S"], {1: ["7S", "2H", "5D", "KC"], 0: ["AC", "8C", "9C", "JD"]},
                      seats=2)
    h.play(1, card_of(rules, "2H"), 0)
    h.play(0, card_of(rules, "AC"), 0)
    want = {mask_of(rules, "7H"), mask_of(rules, "7D"), mask_of(rules, "3C", "4S"), mask_of(rules, "2H", "4S", "AC")}
    assert set(h.captures_for(card_of(rules, "7S"))) == want
    assert {m for c, m in h.legal_moves() if c == card_of(rules, "7S")} == want | {0}    # laying is the third action


def test_kontsina_pagat_the_non_dealer_leads_and_the_deal_alternates():
    # pagat, Kontsina: "The non-dealer begins play after each deal"; "the turn to deal alternates between the
    # players from round to round".
    from rulespec.run.engine import Game
    rules = compile_ruleset("kontsina").module
    game = Game(rules, seed=4, dealer=0)
    for dealer in (0, 1, 0):
        hand = game.new_hand()
        assert hand.dealer == dealer and hand.current_seat == 1 - dealer
        while not hand.is_over:
            hand.play(hand.current_seat, *hand.legal_moves()[0])
        game.finish_hand()


def test_lint_warns_of_a_short_last_deal_no_player_count_needs(tmp_path):
    path = _written(tmp_path, "even", "id: even\nextends: scopa\ndeal: {short_last: even}\n")
    warnings = compile_ruleset(path).ruleset.warnings
    assert any("deal.short_last: the rounds use the deck exactly for every number of players" in w.message
               and w.span.line == 3 for w in warnings)
    assert not any("short_last" in w.message for w in compile_ruleset(JOKERS).ruleset.warnings)


def test_lint_warns_of_unless_match_on_a_run_without_sums(tmp_path):
    (tmp_path / RUNS.name).write_text(RUNS.read_text(encoding="utf-8"), encoding="utf-8")
    path = _written(tmp_path, "v", "id: v\nextends: cuarenta-runs.yaml\n"
                                   "capture:\n  kinds: [{kind: run, unless_match: true}]\n")
    warnings = compile_ruleset(path).ruleset.warnings
    assert any("this run takes no sums" in w.message and w.span.line == 4 for w in warnings)
    assert not any("takes no sums" in w.message for w in compile_ruleset(RUNS).ruleset.warnings)
