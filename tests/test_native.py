"""The native back end (compiler/codegen_c.py, emit_c.py, native.py): what it supports, lockstep with the Python
engine, no compiler, and no code injection through the C source.

Lockstep: a Python driver plays the Python engine's `Hand` with the same
stream the C playout uses (rulespec/run/stream.py: deal, redeals, then one draw per move
among the moves in sorted order; bots declare `best_declarations`); every
hand must end with the same plays, events, scores and outcome, and every
move (seat, card, capture, declared cards, wild rank) must be the same.
"""
import ctypes
import os
import re
from pathlib import Path

import pytest
import yaml

from rulespec.bots.policy import declared_moves, knocks
from rulespec.cli.main import run
from rulespec.compiler import codegen_c, native
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import DealSource, Hand
from rulespec.run.stream import Stream
from rulespec.source.rulesets import rulesets_dir

SHIPPED = sorted(p.stem for p in rulesets_dir().glob("*.yaml"))
HAS_CC = native.find_compiler() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine (the native engine needs one)")

# Every shipped ruleset but those with a construct the native back end refuses, each with one it names:
# capture.combine, cards of several values, event points as expressions (tablanette, basra); a pile (pishti, kseri);
# the game's running state (cuarenta); cards worth more from the hand (kasino); builds on the table (casino,
# zwicker); a bid before play (seep). What is not supported is shown on rulesets written below.
REFUSED = {"tablanette": "capture.combine: all (several sets in one capture)",
           "basra": "capture.combine: all (several sets in one capture)",
           "cuarenta": "game.points: as_made (points that count as they are made)",
           "kasino": "cards with several values (deck value lists, hand_value, card_values)",
           "kasino-solo": "cards with several values (deck value lists, hand_value, card_values)",
           "pishti": "capture.table: pile (only the top card matched)",
           "kseri": "capture.table: pile (only the top card matched)",
           "casino": "capture.builds (builds on the table)",
           "casino-royal": "capture.builds (builds on the table)",
           "zwicker": "capture.builds (builds on the table)",
           "seep": "bid (an auction before play)"}
SUPPORTED = [rid for rid in SHIPPED if rid not in REFUSED]

# Rulesets with constructs the native back end does not do (yet): (file text, construct, line of it).
# Filters whose condition reads run-time values, inside an event and inside most().
RUNTIME_FILTERS = """id: runtime-filters
extends: cirulla
events:
  pair:
    when: count(table, value == value(played)) >= 2
    category: scope
  suited:
    when: count(select(captured, suit == suit(played)), count(table, rank == rank(played)) == 0) >= 1
    category: scope
scoring:
  odd: {points: '1 if most(count(pile, value % 2 == side % 2)) else 0'}
"""
# capture.prefer and the play's moment (turn, play, round) in events, which no shipped ruleset uses.
MOMENTS = """id: moments
extends: cirulla
capture:
  prefer: {prefer}
events:
  first_of_round:
    when: turn == 1 and not empty(captured)
    category: scope
  late_sweep:
    when: play > 30 and empty(table) and round >= 2
    category: scope
"""
WRITTEN = {"runtime-filters": RUNTIME_FILTERS, "moments-fewest": MOMENTS.format(prefer="fewest_cards"),
           "moments-most": MOMENTS.format(prefer="most_cards")}
BIG_DECK = ("""id: big-deck
extends: cirulla
players: {counts: [4], default: 4, sides: {4: 2}}
deck:
  id: big
  ranks: [{rank: A, value: 1}, {rank: "2", value: 2}, {rank: "3", value: 3}, {rank: "4", value: 4},
          {rank: "5", value: 5}, {rank: "6", value: 6}, {rank: "7", value: 7}, {rank: "8", value: 8},
          {rank: "9", value: 9}, {rank: "10", value: 10}, {rank: J, value: 8}, {rank: Q, value: 9},
          {rank: K, value: 10}]
  suits: [H, D, C, S, X]
deal:
  rounds:
    - [{each: 3}, {table: 5}]
    - [{each: 3}]
  repeat_last: true
""", "a deck of 65 cards (78 card indices with the wild card's declared ranks); the native back end handles up to 64",
            5)


# Ints past 64 bits: Python's are exact, C's int64_t would wrap (the scores came out negative). Refused.
PRODUCT = ("""id: product
extends: cirulla
scoring:
  carte:
    points: '(count(pile) + 1) * 999999999999999999 * 999999999999999999 // 999999999999999999 // 999999999999999999'
""", "an int that may pass ±2**62 (the native back end computes with 64-bit integers; this one may reach 5.1e+19)",
           5)
# Each suit's best is below 2**62, their sum over four suits is not.
SUITS = ("""id: suits
extends: cirulla
scoring:
  primiera:
    points: 'best_per_suit(pile, {"7": 999999999999999999 * 3})'
""", "an int that may pass ±2**62 (the native back end computes with 64-bit integers; this one may reach 1.2e+19)", 5)
# Every int fits, but a hand's scores could pass what rs_simulate keeps (int32 per hand, squares in int64).
BIG_POINTS = ("""id: big-points
extends: cirulla
events:
  scopa:
    when: not empty(captured) and empty(table) and not last_play
    points: 1000000
""", "scores that may pass ±1048576 in a hand (the native back end keeps them in 32 and 64 bits; the ruleset's "
     "points could add up to 400006459; the most from here)", 5)


# Forty three-card bonuses over hands of ten: 5040 declarations a seat could choose from, past the C's
# list (it failed the run in play, --engine auto too; the Python engine plays it).
MANY_DECLARATIONS = ("""id: many-declarations
extends: cirulla
players: {counts: [2], default: 2, sides: {2: 2}}
deal:
  rounds:
    - [{each: 10}, {table: 4}]
    - [{each: 8}]
  repeat_last: true
hand_bonuses:
""" + "".join(f"  b{i}: {{size: 3, when: 'count(cards) == 3', points: 1, category: scope}}\n" for i in range(40)),
    "hand bonuses that could offer a seat 5040 declarations at once (hands of 10 cards); the native back end "
    "lists at most 4096", 10)


def written(tmp_path, case) -> Path:
    text, _, _ = case
    path = tmp_path / (text.split()[1] + ".yaml")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Builds go to one cache for the session (never the user's), at -O0: a quarter of -O2's compile time."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def test_every_shipped_ruleset_is_supported():
    for rid in SUPPORTED:
        assert codegen_c.unsupported(compile_ruleset(rid).ruleset) == [], rid
    for rid in sorted(set(REFUSED) & set(SHIPPED)):
        found = [what for what, _ in codegen_c.unsupported(compile_ruleset(rid).ruleset)]
        assert REFUSED[rid] in found, rid


@pytest.mark.parametrize("case", [BIG_DECK, PRODUCT, SUITS, BIG_POINTS, MANY_DECLARATIONS],
                         ids=["deck over 64", "product past 64 bits", "suits past 64 bits", "big points",
                              "many declarations"])
def test_an_unsupported_construct_is_named_with_file_and_line(case, tmp_path):
    path = written(tmp_path, case)
    found = codegen_c.unsupported(compile_ruleset(path).ruleset)
    assert [(what, span.file, span.line) for what, span in found] == [(case[1], str(path), case[2])]


# -------------------------------------------------------------------- lockstep


def python_hand(rules, seats: int, seed: int, i: int):
    """Hand i of a native run, played by the Python engine with the same generator; (hand, moves)."""
    rng = Stream.for_hand(seed, i)
    order = list(range(rules.N_CARDS))
    rng.shuffle(order)
    hand = Hand(rules, seats, i % seats, DealSource(order=order, rng=rng))
    moves_made = []
    while not hand.is_over:
        seat = hand.current_seat
        knocks(hand)
        decls, moves = declared_moves(hand, seat)
        card, capture = sorted(moves)[rng.below(len(moves))]
        declared = 0
        wild = -1
        for d in decls:
            declared |= d.cards
            wild = d.wild_rank if d.wild_rank is not None else wild
        moves_made.append((i, seat, card, capture, declared, wild))
        hand.play(seat, card, capture, decls)
    return hand, moves_made


HANDS = 12


@needs_cc
@pytest.mark.parametrize("rid", SUPPORTED + [f"{name} (written)" for name in WRITTEN])
def test_lockstep_with_the_python_engine(rid, tmp_path):
    if rid.endswith(" (written)"):
        name = rid.split()[0]
        rid = tmp_path / f"{name}.yaml"
        rid.write_text(WRITTEN[name], encoding="utf-8")
    compiled = compile_ruleset(rid)
    rules = compiled.module
    nat = native.load(compiled)
    for seats in rules.SEATS_ALLOWED:
        seed = 11 + seats
        batch = nat.run(seed, 0, HANDS, seats, per_hand=True, trace_cap=HANDS * 60)
        expected_moves = []
        for i in range(HANDS):
            hand, moves = python_hand(rules, seats, seed, i)
            expected_moves += moves
            row = batch.per_hand[i]
            events = {}
            for e in hand.events:
                events[e.name] = events.get(e.name, 0) + 1
            assert row["plays"] == hand.plays, (rid, seats, i)
            assert row["outcome"] == (hand.outcome[0] if hand.outcome else None), (rid, seats, i)
            assert {k: v for k, v in row["events"].items() if v} == events, (rid, seats, i)
            if hand.plays:
                assert row["scores"] == hand.score(), (rid, seats, i)
        assert [tuple(t) for t in batch.trace] == expected_moves, (rid, seats)


def lockstep(compiled, seed: int = 29, hands: int = 300, seats: int = 4) -> list:
    """Hands 0..hands-1 of a native run (4 seats) against the Python engine's (python_hand): the same scores
    and the same moves; the Python hands with their moves, for a test to check what they reached."""
    rules = compiled.module
    batch = native.load(compiled).run(seed, 0, hands, seats, per_hand=True, trace_cap=hands * 60)
    played, expected = [], []
    for i in range(hands):
        hand, moves = python_hand(rules, seats, seed, i)
        expected += moves
        if hand.plays:
            assert batch.per_hand[i]["scores"] == hand.score(), i
        played.append((hand, moves))
    assert [tuple(t) for t in batch.trace] == expected
    return played


def matta_in_two_bonuses(played) -> int:
    """How many of the hands had a turn declaring the matta as a rank on three cards, with a barsega and a
    decino among the hand's events."""
    return sum(any(m[5] >= 0 and bin(m[4]).count("1") == 3 for m in moves)
               and {"barsega", "decino"} <= {e.name for e in hand.events} for hand, moves in played)


def written_variant(tmp_path, text: str):
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return compile_ruleset(path)


@needs_cc
@pytest.mark.parametrize("rid", ["cirulla-double-bonus", "cirulla-dossena"])
def test_lockstep_where_the_matta_takes_one_rank_in_two_bonuses(rid):
    """Hands where a barsega joins a decino on the same three cards only with the decino's rank for the matta
    (2-2-7H: alone the barsega is offered with the matta as an ace; declarations.same_rank): the C bots
    declare as the Python bots do, move for move, and the seed reaches such hands (without the same rank
    in C the trace differs: checked)."""
    assert matta_in_two_bonuses(lockstep(compile_ruleset(rid)))


@needs_cc
def test_lockstep_where_the_bonus_chosen_first_takes_the_rank_of_the_matta_from_the_next(tmp_path):
    """A barsega worth more than a decino is chosen first, with the matta as itself (A-A-7H) or as an ace
    (2-2-7H); the decino beside it gives it the decino's rank (declarations.rerank): the C bots declare as
    the Python bots do, move for move, and reach such hands."""
    compiled = written_variant(tmp_path, "id: barsega-first\nextends: cirulla-double-bonus\n"
                                         "hand_bonuses:\n  barsega: {points: 20}\n")
    assert matta_in_two_bonuses(lockstep(compiled))


@needs_cc
def test_lockstep_where_a_one_card_bonus_is_unique_by_value_in_rounds_of_three(tmp_path):
    """`unique_by` on a one-card bonus declared in rounds of three cards, one declaration a turn: an earlier
    seat (dealing order) holding two qualifying cards shows one and hides the other. The declaring seat
    counts an earlier seat's cards only when it has played them or shows them declared
    (declarations.unique_holder), never its hidden ones: the C bots declare as the Python bots do, move for
    move, and the seed reaches declarations made while an earlier seat hides a card of the same value (with
    C reading hidden cards, as it once did, the trace differs: checked)."""
    compiled = written_variant(tmp_path, "id: unique-one\nextends: cirulla-double-bonus\n"
                                         "declarations: {per_turn: one}\nhand_bonuses:\n"
                                         "  basso: {size: 1, when: 'value(cards) <= 2', points: 1, category: scope,"
                                         " unique_by: value}\n")
    value = compiled.module._VALUE
    reached = 0
    for _hand, moves in lockstep(compiled):
        for j, (i, seat, _card, _capture, declared, _wild) in enumerate(moves):
            if declared.bit_count() != 1:               # one declaration a turn: one card is a basso
                continue
            start = j // 12 * 12                        # rounds of 12 plays
            dealer, later = i % 4, moves[j + 1:start + 12]
            earlier = {o for o in range(4) if (o - dealer - 1) % 4 < (seat - dealer - 1) % 4}
            shown = 0
            for m in moves[start:j]:
                shown |= m[4]
            mine = value[declared.bit_length() - 1]
            reached += any(m[1] in earlier and value[m[2]] == mine and not shown >> m[2] & 1 for m in later)
    assert reached


@needs_cc
def test_lockstep_where_a_bonus_cannot_declare_the_matta(tmp_path):
    """A barsega that cannot declare the matta (`wild: false`) is never declared beside a decino declaring it
    a rank (one rank for the matta; Hand refuses the mix): the C bots declare as the Python bots do, move
    for move (with C's bots letting it join as itself, as before, the trace differs: checked)."""
    compiled = written_variant(tmp_path, "id: barsega-no-wild\nextends: cirulla-double-bonus\n"
                                         "hand_bonuses:\n  barsega: {wild: false}\n")
    played = lockstep(compiled, hands=400)
    wild = compiled.module.WILD_BIT
    assert any(m[5] >= 0 and m[4] & wild for _hand, moves in played for m in moves)   # the matta declared a rank


@needs_cc
def test_batches_add_up_and_repeat():
    """Two half batches give the figures of one whole batch; the same seed gives the same figures."""
    nat = native.load(compile_ruleset("cirulla"))
    whole = nat.run(3, 0, 400, 4)
    a, b = nat.run(3, 0, 200, 4), nat.run(3, 200, 200, 4)
    assert whole.sums == {k: a.sums[k] + b.sums[k] for k in whole.sums}
    assert whole.events == {k: a.events[k] + b.events[k] for k in whole.events}
    assert whole.legal_moves == a.legal_moves + b.legal_moves and whole.plays == 400 * 36
    assert nat.run(3, 0, 400, 4).sums == whole.sums
    assert nat.run(4, 0, 400, 4).sums != whole.sums


# -------------------------------------------------------------------- the command line


@needs_cc
def test_simulate_engine_native_prints_the_statistics(capsys):
    assert run(["simulate", "cirulla", "--hands", "300", "--engine", "native", "--json"]) == 0
    out = capsys.readouterr()
    doc = yaml.safe_load(out.out)
    assert doc["engine"] == "native" and doc["hands"] == 300 and doc["mean_plays_per_hand"] == 36
    assert out.err == ""


def auto_fallback(capsys, ref, hands: int = 3) -> list[str]:
    """`simulate REF --engine auto --json`: it ran on the Python engine; the lines it wrote to stderr."""
    assert run(["simulate", str(ref), "--hands", str(hands), "--engine", "auto", "--workers", "1", "--json"]) == 0
    out = capsys.readouterr()
    assert yaml.safe_load(out.out)["engine"] == "python"
    return out.err.strip().splitlines()


@needs_cc
def test_engine_auto_falls_back_and_says_why_once(capsys, tmp_path):
    lines = auto_fallback(capsys, written(tmp_path, BIG_DECK), hands=5)
    assert len(lines) == 1 and "using the Python engine" in lines[0]
    assert re.search(r"big-deck\.yaml:5:3: the native engine does not support a deck of 65 cards", lines[0])


def test_engine_native_names_the_unsupported_construct(capsys, tmp_path):
    path = written(tmp_path, BIG_DECK)
    assert run(["simulate", str(path), "--hands", "5", "--engine", "native"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"big-deck\.yaml:5:3: the native engine does not support a deck of 65 cards \(78 card "
                     r"indices with the wild card's declared ranks\); the native back end handles up to 64 "
                     r"\(ruleset big-deck\)", err)
    assert "Traceback" not in err and "^" in err


@needs_cc
def test_ismcts_bots_on_the_native_engine_roll_out_in_c_with_the_python_engines_figures(capsys, monkeypatch):
    """The hands on the Python engine, the ISMCTS bots' rollouts in C: the same moves, so the same figures."""
    from rulespec.compiler.native_rollouts import Rollouts
    calls = {"python": 0, "native": 0}
    add = Rollouts.add
    docs = {}
    for engine in ("python", "native"):
        def counted(self, *args, engine=engine):
            calls[engine] += 1
            return add(self, *args)
        monkeypatch.setattr(Rollouts, "add", counted)
        assert run(["simulate", "cirulla", "--hands", "3", "--seed", "2", "--bots", "ismcts:8,random",
                    "--engine", engine, "--workers", "1", "--json", "--no-timings"]) == 0
        docs[engine] = yaml.safe_load(capsys.readouterr().out)
    assert calls["python"] == 0 and calls["native"] > 50
    assert docs["native"].pop("engine") == "native" and docs["python"].pop("engine") == "python"
    assert docs["native"] == docs["python"]


@needs_cc
def test_simulate_engine_native_plays_games_and_greedy_bots(capsys):
    assert run(["simulate", "cirulla", "--games", "30", "--bots", "random,greedy", "--engine", "native",
                "--json"]) == 0
    out = capsys.readouterr()
    doc = yaml.safe_load(out.out)
    assert doc["engine"] == "native" and doc["games"] == 30 and sum(doc["game_wins"]) == 30
    assert doc["win_rate"]["by"] == "games" and doc["mean_hands_per_game"] > 1 and out.err == ""


# -------------------------------------------------------------------- no compiler


@pytest.mark.parametrize("how", ["empty RULESPEC_CC", "PATH without a compiler", "RULESPEC_CC names nothing"])
def test_no_c_compiler_is_a_clear_message(how, tmp_path, monkeypatch, capsys):
    if how == "empty RULESPEC_CC":
        monkeypatch.setenv("RULESPEC_CC", "")
        expected = "RULESPEC_CC is empty"
    elif how == "PATH without a compiler":
        monkeypatch.delenv("RULESPEC_CC", raising=False)
        monkeypatch.setenv("PATH", str(tmp_path))
        expected = "none of cc, gcc, clang is on PATH"
    else:
        monkeypatch.setenv("RULESPEC_CC", "no-such-cc-here")
        expected = "names no C compiler"
    # A ruleset not built yet in this session's cache: the build itself must find no compiler.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    native._LOADED.clear()
    assert run(["simulate", "cirulla-short", "--hands", "3", "--engine", "native"]) == 2
    err = capsys.readouterr().err
    assert "the native engine needs a C compiler" in err and expected in err and "Traceback" not in err
    assert run(["compile", "cirulla-short", "--target", "c"]) == 2
    assert expected in capsys.readouterr().err
    # auto: the Python engine, said once
    err = "\n".join(auto_fallback(capsys, "cirulla-short"))
    assert err.count("using the Python engine") == 1 and expected in err
    # printing the C source needs no compiler
    assert run(["compile", "cirulla-short", "--target", "c", "--emit"]) == 0
    assert "rs_simulate" in capsys.readouterr().out


# -------------------------------------------------------------------- injection

MARK = "PWNED"
C_PAYLOADS = [
    f'"; system("touch {MARK}"); "',
    f"*/ system(\"touch {MARK}\"); /*",
    f"x\\\"); system(\"touch {MARK}\"); //",
    f"??/\n system(\"touch {MARK}\");",
    f"x\n#include \"/etc/{MARK}\"\n",
    f"\\x41\\0{MARK}\\",
    f"{MARK}\u2028é\x7f",
]


def c_code(source: str) -> str:
    """The C source without comments, string and character literals (what the compiler treats as code)."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("/*", i):
            j = source.index("*/", i + 2)
            i = j + 2
        elif source.startswith("//", i):
            i = source.index("\n", i)
        elif source[i] in "\"'":
            quote, j = source[i], i + 1
            while source[j] != quote:
                assert source[j] != "\n", "a newline inside a C literal"
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def hostile_rulesets(tmp_path):
    base = yaml.safe_load((rulesets_dir() / "cirulla.yaml").read_text(encoding="utf-8"))
    for k, p in enumerate(C_PAYLOADS):
        doc = yaml.safe_load(yaml.safe_dump(base))
        doc["events"]["scopa"]["when"] = f"not empty(captured) and empty(table) and {p!r} != {p[::-1]!r}"
        doc["events"][f"e{k}"] = {"when": f"options.label == {p!r} and suit(previous) == \"D\"",
                                  "category": "scope"}
        doc["options"] = {"label": {"type": "str", "default": p, "choices": [p, "other"], "description": p}}
        doc["name"] = doc["description"] = p
        path = tmp_path / f"hostile{k}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=10**6), encoding="utf-8")
        yield p, path


def test_strings_from_yaml_never_reach_c_code(tmp_path):
    for payload, path in hostile_rulesets(tmp_path):
        source = codegen_c.generate(compile_ruleset(path).ruleset)
        code = c_code(source)
        assert MARK not in code and "system" not in code and "#include \"/etc" not in code
        assert "??" not in source
        for line in source.splitlines():
            if line.lstrip().startswith("#"):
                assert re.fullmatch(r"\s*#(include <[a-z]+\.h>|define [A-Z_0-9]+ .*)", line), line


@needs_cc
def test_hostile_ruleset_builds_and_runs(tmp_path):
    payload, path = next(hostile_rulesets(tmp_path))
    nat = native.load(compile_ruleset(path))
    assert nat.run(1, 0, 5, 4).hands == 5
    assert not (Path.cwd() / MARK).exists()


@needs_cc
@pytest.mark.parametrize("text", C_PAYLOADS + ["plain", "", "ünïcödé ✓", "\x00inner nul"])
def test_c_string_literal_round_trips(text, tmp_path):
    if "\x00" in text:
        pytest.skip("a C string ends at its first NUL; ruleset ids never hold one (the schema refuses it)")
    lib = native.build(f"const char *probe(void) {{ return {codegen_c.c_string(text)}; }}\n")
    fn = ctypes.CDLL(str(lib)).probe
    fn.restype = ctypes.c_char_p
    assert fn().decode("utf-8") == text


def test_the_cache_folder_is_made_private_and_never_loosened(tmp_path, monkeypatch):
    """Created 0700; a folder found open to others is not tightened and used (whoever could write it may have
    left a library there) but passed over, as tests/test_cache_trust.py checks in full."""
    from rulespec.source import owned
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with native._cache_folder() as where:
        assert where.path == str(tmp_path / "rulespec" / "native")
    path = tmp_path / "rulespec" / "native"
    assert (path.stat().st_mode & 0o777) == 0o700
    path.chmod(0o755)
    monkeypatch.setattr(owned, "_SAID", set())
    assert native._cache_folder() is None and (path.stat().st_mode & 0o777) == 0o755


@needs_cc
def test_division_by_zero_in_play_is_a_located_error(tmp_path, capsys):
    path = tmp_path / "divzero.yaml"
    path.write_text("id: divzero\nextends: cirulla\nevents:\n  ratio:\n"
                    "    when: count(table) // count(captured) >= 1\n    category: scope\n", encoding="utf-8")
    assert run(["simulate", str(path), "--hands", "5", "--engine", "native"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:5:11: this rule failed: division by zero") and "Traceback" not in err


@needs_cc
def test_a_later_run_is_served_by_the_manifest_until_a_file_changes(tmp_path, monkeypatch, capsys):
    path = tmp_path / "variant.yaml"
    path.write_text("id: variant\nextends: cirulla\ndescription: one\n", encoding="utf-8")
    command = ["simulate", str(path), "--hands", "3", "--engine", "native", "--json"]
    assert run(command) == 0
    first = yaml.safe_load(capsys.readouterr().out)

    from rulespec.compiler import build
    from rulespec.errors import RulespecError

    def refuse(*args, **kwargs):
        raise RulespecError("compiled again")
    monkeypatch.setattr(build, "compile_ruleset", refuse)
    assert run(command) == 0                       # nothing read or compiled: the manifest
    again = yaml.safe_load(capsys.readouterr().out)
    assert again["engine"] == "native" and again["mean"] == first["mean"]
    path.write_text("id: variant\nextends: cirulla\ndescription: two\n", encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert run(command) == 2                       # the file changed: compiled again
    assert "compiled again" in capsys.readouterr().err


@pytest.mark.parametrize("field", sorted(__import__("tests.test_injection", fromlist=["FIELDS"]).FIELDS))
def test_every_field_of_the_python_side_injection_test_stays_out_of_c_code(field, tmp_path):
    """tests/test_injection.py's fields, each given the C payloads: refused, or C whose code holds none of it."""
    from rulespec.errors import RulespecError
    from tests.test_injection import FIELDS, base_doc, write
    for n, payload in enumerate(C_PAYLOADS[:4]):
        doc = FIELDS[field](base_doc(), payload)
        try:
            compiled = compile_ruleset(write(doc, tmp_path / f"rules{n}.yaml"))
        except RulespecError:
            continue                                 # refused with a located error: nothing generated
        source = codegen_c.generate(compiled.ruleset)
        code = c_code(source)
        assert MARK not in code and "system" not in code, (field, payload)
        assert "??" not in source


@pytest.mark.parametrize("name", ["cc", "gcc", "clang", "sh", "no-such-cc-here", "/bin/sh", "/no/such/cc", "."])
def test_which_agrees_with_shutil_which(name):
    """find_compiler's PATH search (no shutil import on a run served by the manifest) is shutil.which's."""
    import shutil
    assert native._which(name) == shutil.which(name)


def test_sha256_is_hashlibs():
    import hashlib
    for text in ("", "cirulla", "é\0x" * 100):
        assert native._sha256(text) == hashlib.sha256(text.encode()).hexdigest()


# Negative operands of // and %, min, max, abs and unary minus, within 64 bits: C floors as Python does.
NEGATIVES = """id: negatives
extends: cirulla
events:
  odd_floor:
    when: (count(table) - 7) // 3 == -2 or (5 - count(captured)) % -4 == -3
    category: scope
scoring:
  carte: {points: '(count(pile) - 20) // 7 + (7 - count(pile)) % 5'}
  denari: {points: '-(count(pile, suit == "D") - 5) // -3 + abs(count(pile) - 21) % 4 - min(-1, 3 - count(pile))'}
  settebello: {points: 'max(-7 // 2, (count(pile) * 999999999999) // -999999999998) % 11'}
"""


@needs_cc
def test_lockstep_with_negative_division_and_modulo(tmp_path):
    compiled = written_variant(tmp_path, NEGATIVES)
    assert codegen_c.unsupported(compiled.ruleset) == []
    played = lockstep(compiled, hands=60)
    scores = [row[c] for hand, _ in played if hand.plays for row in hand.score() for c in ("carte", "denari")]
    assert min(scores) < 0 < max(scores)    # negative operands were reached
    assert any(e.name == "odd_floor" for hand, _ in played for e in hand.events)


@needs_cc
def test_engine_auto_falls_back_from_an_int_past_64_bits(capsys, tmp_path):
    lines = auto_fallback(capsys, written(tmp_path, PRODUCT))
    assert len(lines) == 1 and re.search(r"product\.yaml:5:14: the native engine does not support an int", lines[0])


@needs_cc
def test_a_batch_is_bounded_so_that_the_squares_of_scores_fit():
    nat = native.load(compile_ruleset("cirulla"))
    with pytest.raises(RulespecError, match="a native batch is 0 to 4194304 hands"):
        nat.run(1, 0, native.MAX_BATCH + 1, 4)
    assert native.MAX_BATCH * codegen_c.MAX_SCORE ** 2 < 2 ** 63


# subset_total() of a total no set of cards reaches (over every value of the deck together) is false, as
# in Python: the C refused totals over 4096 with an error in play, and the run failed (auto too).
BEYOND_ALL = """id: beyond-all
extends: cirulla
events:
  beyond:
    when: subset_total(table, count(table) + 5000) or subset_total(captured, 4097)
    category: scope
  within:
    when: subset_total(table_before, 12)
    category: scope
"""


@needs_cc
def test_lockstep_where_subset_total_asks_for_more_than_the_deck_holds(tmp_path):
    played = lockstep(written_variant(tmp_path, BEYOND_ALL), hands=40)
    names = [e.name for hand, _ in played for e in hand.events]
    assert "within" in names and "beyond" not in names


def test_the_declaration_limit_is_the_c_arrays():
    assert f"#define MAX_OPTS {codegen_c.MAX_OPTS} " in codegen_c._PRELUDE


# -------------------------------------------------------------------- the C's fixed arrays (docs/security.md)

# Sixty-four one-card bonuses that share their cards, over hands of thirty: a seat declares up to 1920 of
# them at once. The C chose them into `Decl ds[64]` on the stack: the run died with SIGSEGV.
SHARED_BONUSES = ("id: shared-bonuses\n"
                  "deck:\n  id: sixteen\n  ranks: [" + ", ".join(f"{{rank: R{i}, value: {min(i, 10)}}}"
                                                               for i in range(1, 17)) + "]\n"
                  "  suits: [H, D, C, S]\n"
                  "players: {counts: [2], default: 2, sides: {2: 2}}\n"
                  "deal:\n  rounds:\n    - [{each: 30}, {table: 4}]\n  repeat_last: false\n"
                  "capture: {forced: true, leftovers: last_capturer, kinds: [{kind: match}]}\n"
                  "scoring:\n  scope: {from_events: true}\n  carte: {points: '1 if most(count(pile)) else 0'}\n"
                  "game: {target: 11, tie: play_on}\n"
                  "hand_bonuses:\n" + "".join(
                      f"  b{i}: {{size: 1, when: 'count(cards) == 1', points: 1, category: scope, "
                      f"shares_cards_with: [{', '.join(f'b{j}' for j in range(64) if j != i)}]}}\n"
                      for i in range(64)))


@needs_cc
def test_a_seat_declaring_more_than_64_bonuses_at_once_plays_as_the_python_engine(tmp_path):
    path = tmp_path / "shared-bonuses.yaml"
    path.write_text(SHARED_BONUSES, encoding="utf-8")
    # In a process of its own: the C wrote past its array (a crash would take the test run with it).
    done = __import__("subprocess").run(
        [__import__("sys").executable, "-m", "rulespec", "simulate", str(path), "--hands", "3", "--engine", "native"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    played = lockstep(compile_ruleset(path), hands=2, seats=2)
    from collections import Counter
    at_once = Counter((i, e.play) for i, (hand, _) in enumerate(played) for e in hand.events)
    assert max(at_once.values()) > 64


# Fourteen capture kinds by sum beside a match and a sweep, a table of eighteen cards worth 1: the C lists
# a card worth 8 once per kind, past its 200000 moves (the Python engine lists each set once: about 700).
MANY_MOVES = ("id: many-moves\n"
              "deck:\n  id: ones\n  ranks: [" + ", ".join(f"{{rank: R{i}, value: 1}}" for i in range(1, 16))
              + ", {rank: E, value: 8}]\n  suits: [H, D, C, S]\n"
              "players: {counts: [2], default: 2, sides: {2: 2}}\n"
              "deal:\n  rounds:\n    - [{each: 23}, {table: 18}]\n  repeat_last: false\n"
              "capture:\n  forced: false\n  leftovers: last_capturer\n  kinds:\n    - kind: match\n"
              + "    - {kind: sum}\n" * 14 + "    - kind: sweep\n"
              "scoring:\n  carte: {points: '1 if most(count(pile)) else 0'}\n"
              "game: {target: 11, tie: play_on}\n")


@needs_cc
def test_more_moves_than_the_c_lists_is_located_and_auto_plays_the_python_engine(tmp_path, capsys):
    path = tmp_path / "many-moves.yaml"
    path.write_text(MANY_MOVES, encoding="utf-8")
    assert run(["simulate", str(path), "--hands", "2", "--engine", "native"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:16:7: a turn has more than 200000 legal moves, more than the native engine "
                          f"lists") and "Traceback" not in err
    lines = auto_fallback(capsys, path, hands=1)
    assert len(lines) == 1 and lines[0].startswith(f"rulespec: using the Python engine: {path}:16:7: a turn has")


@needs_cc
def test_a_library_that_does_not_match_what_is_known_of_its_ruleset_is_refused_before_a_hand():
    """The arrays rs_simulate writes are allocated from the meta (a manifest's, say): a library built with other
    sizes would write past them; rs_shape is asked first."""
    nat = native.load(compile_ruleset("cirulla"))
    fewer = native.Native(native.Meta(**{**nat.meta.__dict__, "categories": nat.meta.categories[:-1]}), nat.lib,
                          nat.path)
    with pytest.raises(native.NativeUnavailable, match="does not match what is known of ruleset cirulla"):
        fewer.run(1, 0, 5, 4)
