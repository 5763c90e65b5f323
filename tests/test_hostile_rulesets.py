"""Hostile rulesets through the command line: each is one located error, found quickly, in bounded memory.

`rulespec validate` and `rulespec compile` are run (rulespec.cli.main.run) on
rulesets built to hurt: alias bombs, deep nesting, huge files and integers,
odd keys, bad bytes, inheritance loops and chains, decks of 0 and 1000 ranks,
long and deeply nested expressions, absurd deal schedules. Each must fail
(validate: exit 1, its finding; compile: 2) with `file:line:col: message`
first, no traceback, in under a second of CPU time; those that could take memory stay under 64 MB of Python allocations
(tracemalloc, which slows a run, so measured apart). tests/test_yamlsafe.py
and the transcript catalogue test the loader alone.
"""
import io
import re
import tracemalloc
from pathlib import Path

import pytest

from tests.work import count_calls

from rulespec.lang import expressions
from rulespec.cli.main import run
from rulespec.errors import RulespecError, Span
from rulespec.source.rulesets import rulesets_dir

BASE = (rulesets_dir() / "cirulla.yaml").read_text(encoding="utf-8")
WHEN = "when: 'count(table, rank == \"A\") >= 2'"


def sub(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def when(expression: str) -> str:
    """Cirulla with the redeal check's condition replaced."""
    return sub(WHEN, "when: '" + expression + "'")


def chain(folder: Path, length: int) -> Path:
    """r0 extends r1 ... extends cirulla: a chain of `length` files."""
    for i in range(length):
        parent = f"r{i + 1}.yaml" if i + 1 < length else "cirulla"
        (folder / f"r{i}.yaml").write_text(f"id: r{i}\nextends: {parent}\n", encoding="utf-8")
    return folder / "r0.yaml"


def bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return sub("id: cirulla\n", "id: cirulla\n" + "\n".join(lines) + "\n")


def deck(ranks: int) -> str:
    # Symbols of three characters at most (the schema's bound): the deck's size is the one problem.
    digit = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    items = ", ".join(f"{{rank: R{digit[i // 36]}{digit[i % 36]}, value: 1}}" for i in range(ranks))
    return sub("deck: french40", f"deck: {{id: big, ranks: [{items}], suits: [H, D, C, S]}}")


# name -> (file content, or a function of the folder giving the file; the message's start)
CASES = {
    "alias bomb": (bomb(), "too many nodes: more than 100000 after expanding aliases"),
    "alias to itself": (sub("id: cirulla\n", "id: cirulla\nx: &x [*x]\n"), "recursive alias"),
    # 1000: PyYAML's scanner keeps a possible key per '[' for 1024 characters of a line, so a longer
    # run costs ~0.4 s per load before the depth bound applies (validate loads twice).
    "deep flow nesting": (sub("id: cirulla\n", "id: cirulla\nx: " + "[" * 1_000 + "\n"), "nesting deeper than 64"),
    "deep block nesting": (sub("id: cirulla\n", "id: cirulla\n" + "".join(" " * i + "k:\n" for i in range(200))),
                           "nesting deeper than 64"),
    "huge integer": (sub("target: 51", "target: 99999999999999999999999999"), "integer with more than 18 digits"),
    "huge hex integer": (sub("points: 3", "points: 0x" + "f" * 500), "integer with more than 18 digits"),
    "list as a key": (sub("  scopa:", "  [a, b]: 1\n  scopa:"), "a key must be a string or an integer, found a list"),
    "float as a key": (sub("  scopa:", "  1.5: {when: 'true'}\n  scopa:"), "a key must be a string or an integer"),
    "bool as a key": (sub("  scopa:", "  true: {when: 'true'}\n  scopa:"), "a key must be a string or an integer"),
    "null as a key": (sub("  scopa:", "  ~: {when: 'true'}\n  scopa:"), "a key must be a string or an integer"),
    "integer as an event name": (sub("  scopa:", "  7: {when: 'true'}\n  scopa:"), "invalid key '7' in events"),
    "duplicate key": (sub("game:\n", "game:\n  target: 26\n"), "duplicate key 'target'"),
    "duplicate section": (BASE + "deck: latin40\n", "duplicate key 'deck'"),
    "tab indentation": (sub("  packet: 1", "\tpacket: 1"), "found a tab character"),
    "non-UTF-8 byte": (sub("Ligurian", "Lig\udcffurian").encode("utf-8", "surrogateescape"),
                       "not UTF-8 text: invalid byte 0xff"),
    "latin-1 file": (sub("Ligurian", "Ligùrian").encode("latin-1"), "not UTF-8 text"),
    "NUL byte": (sub("Ligurian", "Lig\x00urian"), "control character U+0000"),
    "empty file": ("", "empty file; expected a mapping"),
    "only comments": ("# nothing\n# at all\n", "empty file; expected a mapping"),
    "a list": ("- id: cirulla\n", "expected a mapping at the top level"),
    "a scalar": ("cirulla\n", "expected a mapping at the top level"),
    "two documents": (BASE + "---\nid: x\n", "expected a single document"),
    "custom tag": (sub("target: 51", "target: !!python/object:os.system 51"), "unsupported tag"),
    "extends itself": ("id: self\nextends: hostile.yaml\n", "extends forms a cycle: hostile.yaml -> hostile.yaml"),
    "extends a missing file": ("id: orphan\nextends: ./nowhere.yaml\n", "no ruleset file './nowhere.yaml'"),
    "extends an unknown id": ("id: orphan\nextends: cirula\n", "unknown ruleset 'cirula'"),
    "extends a folder": ("id: orphan\nextends: ./\n", "no ruleset file './'"),
    "extends a 20-file chain": (lambda folder: chain(folder, 20), "extends is nested more than 16 deep"),
    "deck of no ranks": (sub("deck: french40", "deck: {id: none, ranks: [], suits: [H]}"), "expected a non-empty list"),
    "deck of no suits": (sub("deck: french40", "deck: {id: none, ranks: [{rank: A, value: 1}], suits: []}"),
                         "expected a non-empty list"),
    "deck of 1000 ranks": (deck(1000), "expected at most 20 items, found 1000"),
    "deck of 21 ranks": (deck(21), "expected at most 20 items, found 21"),
    "rank listed twice": (sub("deck: french40", "deck: {id: d, ranks: [{rank: A, value: 1}, {rank: A, value: 2}], "
                                                "suits: [H, D, C, S]}"), "rank 'A' is listed twice"),
    "rank in lowercase": (sub("deck: french40", "deck: {id: d, ranks: [{rank: a, value: 1}], suits: [H]}"),
                          "a rank is written in capital letters or digits"),
    "rank value huge": (sub("deck: french40", "deck: {id: d, ranks: [{rank: A, value: 1000001}], suits: [H]}"),
                        "expected at most 100"),
    "expression of 2001 characters": (when("true and " * 222 + "true   "), "expected at most 2000 characters"),
    "expression of 2000 characters, nested 1000 deep": (when("-" * 1000 + "1" * 18 + " > " + "0" * 970),
                                                        "expression nested more than 64 levels deep"),
    "500 parentheses around a sum": (when("(" * 390 + "1" + "+1)" * 390 + " > 0"),
                                      "expression nested more than 64 levels deep"),
    "not not not ...": (when("not " * 400 + "true"), "expression nested more than 64 levels deep"),
    "a chain of 300 ands": (when(" and ".join(["true"] * 300)), "expected at most 2000 characters"),
    "a chain of 200 ors": (when(" or ".join(["true"] * 200)), "expression nested more than 64 levels deep"),
    "nested calls": (when("count(" * 150 + "table" + ")" * 150 + " > 0"),
                     "expression nested more than 64 levels deep"),
    "nested lists": (when("[" * 500 + "]" * 500 + " == []"), "expression nested more than 64 levels deep"),
    "integer literal of 20 digits": (when("99999999999999999999 > 0"), "integer with more than 18 digits in expression"),
    "integer literal of 1990 digits": (when("9" * 1990 + " > 0"), "integer with more than 18 digits in expression"),
    "integer literal of leading zeros": (when("0" * 1990 + "1 > 1"), None),  # just 1: fine (never true: a
    # condition that is always true redeals every deal, refused at check time)
    "deal of 99999999 each": (sub("- [{each: 3}, {table: 4}]", "- [{each: 99999999}, {table: 4}]"),
                              "expected at most 52, found 99999999"),
    "deal of 52 each and 52 on the table": (sub("- [{each: 3}, {table: 4}]",
                                                "- [{each: 52, packet: 52}, {table: 52}]"),
                                            "with 2 players round 1 needs 156 cards but only 40 remain"),
    "deal of 0 each": (sub("- [{each: 3}, {table: 4}]", "- [{each: 0}, {table: 4}]"), "expected at least 1, found 0"),
    "negative deal": (sub("- [{each: 3}, {table: 4}]", "- [{each: -3}, {table: 4}]"), "expected at least 1, found -3"),
    "packet that does not divide": (sub("- [{each: 3}, {table: 4}]", "- [{each: 3, packet: 2}, {table: 4}]"),
                                    "3 cards each cannot be given 2 at a time"),
    "200 rounds": (sub("    - [{each: 3}]    ", "\n".join(["    - [{each: 7}]"] * 200) + "\n    - [{each: 3}]    "),
                   "expected at most 64 items, found 202"),   # the language's size limit on deal rounds
    "60 rounds": (sub("    - [{each: 3}]    ", "\n".join(["    - [{each: 7}]"] * 60) + "\n    - [{each: 3}]    "),
                  "with 2 players round 4 needs 14 cards but only 2 remain"),
    "no repeat_last": (sub("repeat_last: true", "repeat_last: false"), "with 2 players the deal uses 16 of the 40"),
    "sides keyed by a superscript digit": (sub("sides: {2: 2, 3: 3, 4: 2}", 'sides: {2: 2, 3: 3, 4: 2, "²": 2}'),
                                           "players.sides is keyed by a number of players (2 to 8), found '²'"),
    "sides keyed by 5000 digits": (sub("sides: {2: 2, 3: 3, 4: 2}", "sides:\n    2: 2\n    3: 3\n    4: 2\n    ? \""
                                       + "0" * 5000 + "2\"\n    : 2"), "players.sides is keyed by a number of players"),
    "200 player counts": (sub("counts: [2, 3, 4]", "counts: [" + ", ".join(["9"] * 200) + "]"), "expected at most 8"),
    "option default out of range": (sub("id: cirulla\n", "id: cirulla\noptions: {t: {type: int, default: 5, min: 10}}\n"),
                                    "the default of option 't' must be at least 10, found 5"),
    "option of the wrong type": (sub("id: cirulla\n", "id: cirulla\noptions: {t: {type: int, default: 'five'}}\n"),
                                 "the default of option 't' is int, found 'five'"),
    "id ending in a newline": (sub("id: cirulla", 'id: "cirulla\\n"'), "invalid value 'cirulla"),
    "event name ending in a newline": (sub("  scopa:\n", '  "scopa\\n":\n'), "invalid key 'scopa"),
    "wild card not in the deck": (sub("card: 7H", "card: 8H"), "unknown card '8H' (the wild card) in deck french40"),
    # The seats would hold no card after round 2 (the engines played on forever).
    "round dealing to the table only": (sub("    - [{each: 3}]    ", "    - [{table: 4}]    "),
                                        "round 2 deals 4 cards to the table and none to the players"),
    # A 12-card bonus over hands of 30: 86 million combinations to search (every command hung).
    "12-card bonus over hands of 30": (
        "id: big-bonus\ndeck:\n  id: sixteen\n  ranks: ["
        + ", ".join(f"{{rank: R{i}, value: {min(i, 10)}}}" for i in range(1, 17)) + "]\n  suits: [H, D, C, S]\n"
        "players: {counts: [2], default: 2, sides: {2: 2}}\n"
        "deal:\n  rounds:\n    - [{each: 30}, {table: 4}]\n  repeat_last: false\n"
        "capture: {forced: true, leftovers: last_capturer, kinds: [{kind: match}]}\n"
        "scoring:\n  scope: {from_events: true}\n"
        "game: {target: 11, tie: play_on}\n"
        "hand_bonuses:\n  big: {size: 12, when: 'total(cards) == 72', points: 3, category: scope}\n",
        "hand bonus 'big' takes 12 cards of hands of 30: the hand bonuses would be searched over 86493225 "
        "combinations"),
}


# The work one hostile command may do, in function calls (tests/work.py: counted, not timed).
# The costliest case takes about 575,000 today.
MAX_CALLS = 3_000_000


def run_cli(argv: list[str], trace: bool = False) -> tuple[int, str, int, int]:
    """Exit code, stderr, function calls made and (traced) peak Python bytes of one command."""
    out, err = io.StringIO(), io.StringIO()
    if trace:
        tracemalloc.start()
    try:
        code, calls = count_calls(run, argv, out, err)
    finally:
        peak = tracemalloc.get_traced_memory()[1] if trace else 0
        if trace:
            tracemalloc.stop()
    assert isinstance(code, int), code
    return code, err.getvalue(), calls, peak


@pytest.fixture(scope="module", autouse=True)
def warm():
    # Imports, the grammar and the schemas load once per process; time the work, not that.
    run(["compile", "cirulla"], io.StringIO(), io.StringIO())


def write_case(folder: Path, content) -> Path:
    if callable(content):
        return content(folder)
    path = folder / "hostile.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["validate", "compile"])
@pytest.mark.parametrize("name", list(CASES))
def test_hostile_ruleset_is_one_located_error(name, command, tmp_path):
    content, message = CASES[name]
    path = write_case(tmp_path, content)
    code, err, calls, peak = run_cli([command, str(path)])
    if message is None:
        assert code == 0, err
    else:
        assert code == (1 if command == "validate" else 2), err[:300]
        headline = err.splitlines()[0]
        match = re.match(r"(.+?):(\d+):(\d+): (.*)", headline)
        assert match, headline
        assert Path(match[1]).parent == tmp_path, headline
        assert match[4].startswith(message), headline[:300]
        located = [line for line in err.splitlines() if re.match(rf"{re.escape(str(tmp_path))}/.+?:\d+:\d+: ", line)]
        assert len(located) == (20 if name in MANY else 1), err[:1000]
    assert calls < MAX_CALLS, f"{calls} calls"


# Independent problems, each reported (up to validate.MAX_ERRORS).
MANY = {"200 player counts"}
# The ones that could take memory: measured with tracemalloc.
MEMORY = ["alias bomb", "deep block nesting", "huge hex integer", "expression of 2000 characters, nested 1000 deep",
          "integer literal of 1990 digits", "sides keyed by 5000 digits"]


@pytest.mark.parametrize("name", MEMORY)
def test_hostile_ruleset_memory_is_bounded(name, tmp_path):
    code, err, _, peak = run_cli(["compile", str(write_case(tmp_path, CASES[name][0]))], trace=True)
    assert code == 2
    assert peak < 64 * 1024 * 1024, f"{peak / 1e6:.0f} MB"


@pytest.mark.parametrize("command", ["validate", "compile"])
def test_huge_file_is_refused_by_its_size_without_reading_it(command, tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:  # sparse: 300 MB that take no disk
        handle.write(b"id: huge\n")
        handle.truncate(300 * 1024 * 1024)
    code, err, calls, peak = run_cli([command, str(path)], trace=True)
    assert code == (1 if command == "validate" else 2)
    assert err.startswith(f"{path}:1:1: file too large: 314572800 bytes; the limit is 2 MiB")
    assert calls < MAX_CALLS
    assert peak < 16 * 1024 * 1024, f"{peak / 1e6:.0f} MB: the file was read"


def test_extends_of_a_huge_file_is_refused_by_its_size(tmp_path):
    with open(tmp_path / "huge.yaml", "wb") as handle:
        handle.truncate(300 * 1024 * 1024)
    path = tmp_path / "child.yaml"
    path.write_text("id: child\nextends: huge.yaml\n", encoding="utf-8")
    code, err, _, peak = run_cli(["compile", str(path)], trace=True)
    assert code == 2 and "file too large: 314572800 bytes" in err
    assert peak < 16 * 1024 * 1024


def test_extends_cycle_of_two_names_both_files(tmp_path):
    (tmp_path / "a.yaml").write_text("id: a\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("id: b\nextends: a.yaml\n", encoding="utf-8")
    code, err, _, _ = run_cli(["compile", str(tmp_path / "a.yaml")])
    assert code == 2
    assert err.startswith(f"{tmp_path / 'b.yaml'}:2:10: extends forms a cycle: a.yaml -> b.yaml -> a.yaml")


def test_chain_of_sixteen_files_is_allowed(tmp_path):
    code, err, _, _ = run_cli(["compile", str(chain(tmp_path, 15))])
    assert code == 0, err


@pytest.mark.parametrize("value", ["²", "--5", "9" * 5000, "٣", "１２"])
def test_option_on_the_command_line_that_is_not_a_plain_number(value, tmp_path):
    path = tmp_path / "opt.yaml"
    path.write_text(sub("id: cirulla\n", "id: opt\noptions: {t: {type: int, default: 5}}\n"), encoding="utf-8")
    code, err, _, _ = run_cli(["compile", str(path), "--option", f"t={value}"])
    assert code == 2
    assert err.startswith("option 't' is int, found ")
    assert len(err.splitlines()[0]) < 120       # a long value is cut short, not echoed whole


# ------------------------------------------------------------------ the expression parser alone

ORIGIN = Span("e.yaml", 5, 11)


def test_nesting_limit_of_expressions():
    assert isinstance(expressions.parse("-" * 63 + "1", ORIGIN), expressions.Neg)   # 64 levels
    with pytest.raises(RulespecError) as info:
        expressions.parse("-" * 64 + "1", ORIGIN)
    assert info.value.headline() == "e.yaml:5:75: expression nested more than 64 levels deep"


@pytest.mark.parametrize("text", [
    "9" * 5000,                      # more digits than int() converts: refused before converting
    "-" * 5000 + "1",                # Lark's tree is fine; every stage after it would recurse 5000 deep
    "not " * 3000 + "true",
    "(" * 5000 + "1" + ")" * 5000,   # parentheses alone add no level: this one is fine
    "[" * 3000 + "]" * 3000,
    "f(" * 3000 + ")" * 3000,
    " + ".join(["1"] * 3000),
])
def test_expression_parser_survives_huge_inputs(text):
    tree, calls = count_calls(expressions.parse, text, ORIGIN)
    if isinstance(tree, RulespecError):
        assert tree.span is not None and tree.span.file == "e.yaml"
    else:
        assert isinstance(tree, expressions.Int)
    assert calls < 8_000_000        # at most about 1,700,000 today (5000 nested parentheses)
