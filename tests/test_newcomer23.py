"""A club member's house variants of the fishing family (Casino, Seep, Cuarenta, Basra, Kasino), written from the
docs alone: what they found. Each test names the command or rule a user met and what it said."""
from __future__ import annotations

import io
import textwrap

import pytest

from rulespec.cli.main import run
from rulespec.cli.play import TerminalGame
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.builds import build_move
from rulespec.run.engine import IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of
from tests.test_builds import BUILDING


def _variant(tmp_path, text: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _building(tmp_path, builds: str):
    path = tmp_path / "building.yaml"
    path.write_text(BUILDING.replace("BUILDS", builds), encoding="utf-8")
    return compile_ruleset(path).module


def _refusal(rules, table, h0, h1, plays) -> str:
    """The message of the last of `plays` ((seat, card, table cards, value)), the earlier ones made first."""
    hand = explicit_hand(rules, 1, table, {0: h0, 1: h1}, seats=2)
    *made, (seat, card, cards, value) = plays
    for s, c, t, v in made:
        hand.play(s, card_of(rules, c), build_move(mask_of(rules, *t), v, rules.N_CARDS))
    with pytest.raises(IllegalMove) as err:
        hand.play(seat, card_of(rules, card), build_move(mask_of(rules, *cards), value, rules.N_CARDS))
    return str(err.value)


# -- a refused build says the rule that refuses it ---------------------------------------------------------------
# `rulespec test` on a house Casino with `raise: false` (seat 1 raising 3H+2D to 6 with AC, holding 6H) said
# "AC cannot build 6 with 3H 2D (a build needs a card of its value kept in hand, and sets of that value; ...)":
# seat 1 held a 6; the rule that refused it (no raising) was not named. So for a fixed build raised, and for a
# Seep house of 8 (values 9 to 13) by a player holding an 8.

def test_a_raise_where_builds_are_not_raised_says_so(tmp_path):
    rules = _building(tmp_path, "{raise: false}")
    said = _refusal(rules, ["2D", "5C", "9H", "KS"], ["3H", "5D", "8S", "QD"], ["AC", "6H", "7C", "JS"],
                    [(0, "3H", ["2D"], 5), (1, "AC", ["3H", "2D"], 6)])
    assert "the build of 5 (3H 2D) cannot be raised" in said and "raise: false" in said, said
    assert "kept in hand" not in said


def test_a_fixed_build_raised_says_it_is_fixed(tmp_path):
    rules = _building(tmp_path, "true")
    said = _refusal(rules, ["2D", "5C", "9H", "KS"], ["3H", "5D", "8S", "QD"], ["AC", "6H", "7C", "JS"],
                    [(0, "3H", ["2D", "5C"], 5), (1, "AC", ["3H", "2D", "5C"], 6)])
    assert "the build of 5 (3H 2D 5C) is fixed" in said and "no longer be raised" in said, said


def test_a_build_of_a_value_outside_values_names_the_values(tmp_path):
    rules = _building(tmp_path, "{values: [9, 10]}")
    # seat 0 holds 8S: 3H + 5C is 8, a value it holds, but builds are of 9 or 10 only
    said = _refusal(rules, ["2D", "5C", "9H", "KS"], ["3H", "5D", "8S", "QD"], ["AC", "6H", "7C", "JS"],
                    [(0, "3H", ["5C"], 8)])
    assert "a build's value is 9 or 10 (capture.builds.values), not 8" in said, said


def test_adding_to_a_build_where_builds_are_single_says_so(tmp_path):
    rules = _building(tmp_path, "{multiple: false}")
    # seat 0 builds 5 (3H 2D) and keeps 5D; seat 1, holding 5H, adds its 5S to it: a multiple build
    said = _refusal(rules, ["2D", "5C", "9H", "KS"], ["3H", "5D", "8S", "QD"], ["5S", "5H", "7C", "JS"],
                    [(0, "3H", ["2D"], 5), (1, "5S", ["3H", "2D"], 5)])
    assert "nothing is added to a build" in said and "multiple: false" in said, said


def test_the_generic_reason_stays_for_a_value_not_held(tmp_path):
    rules = _building(tmp_path, "{raise: false}")
    said = _refusal(rules, ["2D", "5C", "9H", "KS"], ["3H", "5D", "8S", "QD"], ["AC", "6H", "7C", "JS"],
                    [(0, "8S", ["2D"], 10)])
    assert "kept in hand" in said and "raise" not in said, said


# -- validate: a bid or a build value the ruleset never allows ---------------------------------------------------
# `rulespec validate` passed `{seat: 1, bid: 8}` against Seep (bids 9 to 13) and `build: [...], value: 14`
# (houses 9 to 13); replay then refused them. Both are known before any play, as an unknown event name is.

SEEP_DEAL = """\
ruleset: seep
seats: 4
dealer: 0
deal:
- table: [5H, 5C, 9C, JS]
  hands:
    0: [4H, 6H, 7H, AD, 3C, 6C, KC, AS, 2S, 6S, 8S, KS]
    1: [AH, 2H, 5S, 9S, 10H, JH, 6D, 7D, KD, 7C, 8C, QC]
    2: [8H, KH, 3D, 5D, 8D, 9D, 10D, QD, AC, 2C, 10C, 7S]
    3: [3H, 9H, QH, 2D, 4D, JD, 4C, JC, 3S, 4S, 10S, QS]
plays:
"""


def _validate(path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["validate", str(path)], out, err)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("plays, said, line", [
    ("- {seat: 1, bid: 8}\n", "play 1 (seat 1, bid 8): seep bids 9, 10, 11, 12 or 13 (bid.values), not 8", "12:18"),
    ("- {seat: 1, bid: 9}\n- {seat: 1, card: 9S, capture: [9C]}\n"
     "- {seat: 2, card: 3D, build: [5H], value: 14}\n", "play 3 (seat 2, 3D): value 14: a build of seep is of 9, 10, 11, 12 or 13 "
     "(capture.builds.values)", "14:43"),
])
def test_validate_refuses_a_bid_or_build_value_the_ruleset_never_allows(tmp_path, plays, said, line):
    path = tmp_path / "t.yaml"
    path.write_text(SEEP_DEAL + plays, encoding="utf-8")
    code, text = _validate(path)
    assert code == 1 and said in text and f"t.yaml:{line}:" in text, text


def test_validate_leaves_such_a_value_to_a_play_that_expects_the_refusal(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(SEEP_DEAL + "- {seat: 1, bid: 8, error: not a bid value}\n", encoding="utf-8")
    assert _validate(path)[0] == 0


# -- diff: a carry added or removed is not a category added or removed -------------------------------------------
# `rulespec diff basra basra-house.yaml` with `scoring: {cards: {carry: null}}` said "removed: scoring category
# cards: points carried ...": read as the category gone, where only its carry went.

def test_diff_says_a_carry_removed_or_added_as_a_change_of_the_category(tmp_path):
    no_carry = _variant(tmp_path, """\
        id: no-carry
        extends: basra
        scoring:
          cards: {carry: null}
        """)
    out = io.StringIO()
    assert run(["diff", "basra", str(no_carry)], out, io.StringIO()) == 1
    assert out.getvalue().splitlines()[1:] == [
        "  changed: scoring category cards: points carried to the next hand when no one side scores the most in "
        "it: 30 points → none"]
    out = io.StringIO()
    run(["diff", str(no_carry), "basra"], out, io.StringIO())
    assert "changed: scoring category cards: points carried" in out.getvalue() and "none → 30 points" in out.getvalue()


def test_diff_of_a_new_category_with_a_carry_is_one_addition(tmp_path):
    more = _variant(tmp_path, """\
        id: more
        extends: basra
        scoring:
          spades: {points: '1 if most(count(pile, suit == "S")) else 0', carry: 1}
        """)
    out = io.StringIO()
    run(["diff", "basra", str(more)], out, io.StringIO())
    assert out.getvalue().splitlines()[1:] == ["  added: scoring category spades: 1 point to the side with the most "
                                               "spades (nobody on a tie)"]


# -- explain: a caida's condition ---------------------------------------------------------------------------------
# `rulespec explain cuarenta` said of the caida "when the cards both in the captured cards and in the card the
# previous play left on the table is not empty": not a sentence.

def test_explain_says_a_shared_card_as_a_sentence():
    out = io.StringIO()
    assert run(["explain", "cuarenta"], out, io.StringIO()) == 0
    text = out.getvalue()
    assert "is not empty and the played card has the same rank" not in text
    assert ("**caida**: when the captured cards include the card the previous play left on the table and the "
            "played card has the same rank as the card the previous play left on the table") in text


# -- validate: a category a variant leaves empty ------------------------------------------------------------------
# A variant removing Cuarenta's limpia (`events: {limpia: null}`) got a warning located in the installed
# cuarenta.yaml, a file the user cannot edit, with no word of what to write in their own.

def test_the_warning_of_an_inherited_category_left_empty_says_how_to_remove_it(tmp_path):
    path = _variant(tmp_path, """\
        id: no-limpia
        extends: cuarenta
        events:
          limpia: null
        """, "no-limpia.yaml")
    code, text = _validate(path)
    assert code == 0
    assert ("scoring category 'limpia' is from_events but no event or bonus scores in it, so it is always 0 "
            "(inherited by no-limpia.yaml: `scoring: {limpia: null}` there removes it)") in text, text


# -- play: the table line with builds -----------------------------------------------------------------------------
# `rulespec play` on a Seep variant showed "table: 8H 2H AS 2C 6D 7C AC 10D JH 3H AH JD AD 8D 9C KD" above
# "builds: build of 10: 2H 3H 8H 6D 10D AC 2C 7C AS (...)": the cards of the builds among the loose ones, so that
# a reader could not tell which cards lie loose (AD 9C KD).

def test_play_shows_the_loose_cards_apart_from_the_builds():
    out = io.StringIO()
    game = TerminalGame(compile_ruleset("casino"), inp=io.StringIO("1\n" * 200), out=out, seed=3, seats=4,
                        hands=1)
    assert game.run() == 0
    screens = [s for s in out.getvalue().split("-- your turn") if "\nbuilds: " in s]
    assert screens, "seed 3 has a build on the table at one of seat 0's turns"
    for screen in screens:
        table = next(line for line in screen.splitlines() if line.startswith("table: "))
        builds = next(line for line in screen.splitlines() if line.startswith("builds: "))
        in_builds = {c for part in builds[len("builds: "):].split("; ") for c in part.split(": ")[1].split(" (")[0]
                     .split()}
        assert table.endswith(" loose, and the builds below"), table
        loose = table[len("table: "):-len(" loose, and the builds below")].split()
        assert loose and not in_builds & set(loose), (table, builds)


def test_explain_says_a_set_shared_with_several_cards_or_with_none(tmp_path):
    path = _variant(tmp_path, """\
        id: w
        extends: cuarenta
        events:
          caida: {when: 'not empty(captured & [7D, 7H]) and empty(table_before & 7S)'}
        """)
    out = io.StringIO()
    assert run(["explain", str(path)], out, io.StringIO()) == 0
    assert ("**caida**: when the captured cards include one or more of the seven of diamonds (7D) and the seven of "
            "hearts (7H) and the table before the play does not hold the seven of spades (7S): 2 points") \
        in out.getvalue()


# `rulespec explain casino` said of the court cards' match "when the played card has a value of exactly 0", the
# deck line above it "J no value"; and `explain seep` counted "the number of cards for which the card's rank is
# exactly "A" and the card's suit is other than "S"", a deck with suit names.

def test_explain_says_a_card_with_no_value_and_the_aces_not_spades():
    out = io.StringIO()
    run(["explain", "casino"], out, io.StringIO())
    text = out.getvalue()
    assert "value of exactly 0" not in text and "value of more than 0" not in text
    assert "(a card with no value: one of its rank), when the played card has no value;" in text
    assert "(a card with no value: one of its rank), when the played card has a value." in text
    out = io.StringIO()
    run(["explain", "seep"], out, io.StringIO())
    assert "| `other_aces` | the number of aces that are not spades in the side's captured cards |" in out.getvalue()


# -- rulespec new: every example validates, without a warning ----------------------------------------------------
# `rulespec new v --extends kasino`, "Change the points of an event (mokki: 0)" uncommented: an error (mokki is only
# counted, it has no category to score in). `--extends basra`, "Optional captures: capture: {forced: false}": a
# warning that basra's option optional_capture is no longer read. `--extends cuarenta`, "Remove a hand bonus":
# two warnings (the ronda category and the declarations left with nothing).

FISHING = ["basra", "casino", "casino-royal", "chkobba", "cuarenta", "kasino", "kasino-solo", "kontsina", "kseri",
           "pishti", "scopa-a-15", "seep", "tablanette", "zwicker"]


@pytest.mark.parametrize("base", FISHING)
def test_each_example_of_new_validates_without_a_warning(tmp_path, monkeypatch, base):
    monkeypatch.chdir(tmp_path)
    assert run(["new", "mine", "--extends", base], io.StringIO(), io.StringIO()) == 0
    text = (tmp_path / "mine.yaml").read_text(encoding="utf-8")
    blocks = text.split("\n#\n")[1:]
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        title, *lines = block.splitlines()
        if title.startswith("# Another deal"):
            continue                        # the base's deal written out to edit: as written it changes nothing
        path = tmp_path / f"example{i}.yaml"
        path.write_text(text.replace("id: mine", f"id: example{i}") + "\n".join(line[2:] for line in lines) + "\n",
                        encoding="utf-8")
        code, said = _validate(path)
        assert code == 0 and "warning" not in said, (base, title, said)


def test_new_sets_the_bases_own_option_for_optional_captures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run(["new", "mine", "--extends", "basra"], io.StringIO(), io.StringIO())
    text = (tmp_path / "mine.yaml").read_text(encoding="utf-8")
    assert ("# Optional captures (option optional_capture, also --option optional_capture=...):\n# options:\n"
            "#   optional_capture: {default: true}\n") in text


# -- an unknown command --------------------------------------------------------------------------------------------
# `rulespec check casino-house.yaml` (the word other tools use) got argparse's "invalid choice" and the list of
# every command; no spelling brings "check" near "validate".

@pytest.mark.parametrize("typed, meant", [("check", "validate"), ("lint", "validate"), ("init", "new")])
def test_another_tools_word_for_a_command_gets_a_did_you_mean(typed, meant):
    out, err = io.StringIO(), io.StringIO()
    assert run([typed, "casino"], out, err) == 2
    assert (out.getvalue(), err.getvalue()) == ("", f"rulespec: unknown command '{typed}'; did you mean '{meant}'?\n")


# -- the house variants themselves -------------------------------------------------------------------------------
# tests/newcomer23/: the variants written for this pass (each from the docs alone), their hand-verified
# transcripts (a build raised where raising is off; the 7D a plain seven; a Seep house of 8, refused by seep) and
# a recorded hand of each.

from pathlib import Path  # noqa: E402

HOUSE = Path(__file__).parent / "newcomer23"
VARIANTS = {"casino-house": "casino", "seep-house": "seep", "cuarenta-30": "cuarenta", "basra-plain7": "basra",
            "kasino-house": "kasino", "royal-house": "casino-royal"}


def test_the_house_folder_validates_and_its_transcripts_replay():
    out, err = io.StringIO(), io.StringIO()
    assert run(["validate", str(HOUSE)], out, err) == 0, err.getvalue()
    assert "warning" not in out.getvalue() + err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert run(["test", str(HOUSE / "golden")], out, err) == 0, out.getvalue() + err.getvalue()
    assert out.getvalue().endswith("12 passed, 0 failed\n")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_house_variant_differs_from_its_base_and_plays(variant):
    out = io.StringIO()
    assert run(["diff", VARIANTS[variant], str(HOUSE / f"{variant}.yaml")], out, io.StringIO()) == 1
    for bots in ("random", "greedy"):
        out, err = io.StringIO(), io.StringIO()
        assert run(["simulate", str(HOUSE / f"{variant}.yaml"), "--hands", "4", "--bots", bots, "--no-timings",
                    "--json", "--engine", "python"], out, err) == 0, err.getvalue()


def test_play_says_a_trail_to_the_table_with_builds_as_without():
    # Casino's play said "seat 3 (greedy) plays QS" for a trail, Cuarenta's "plays KH, to the table"
    out = io.StringIO()
    TerminalGame(compile_ruleset("casino"), inp=io.StringIO("1\n" * 200), out=out, seed=3, seats=4, hands=1).run()
    plays = [line for line in out.getvalue().splitlines() if " (greedy) plays " in line or line.startswith("your move")]
    assert plays and all(", to the table" in line or ": " in line.split(" plays ")[-1] for line in plays
                         if " plays " in line), plays
    assert any(line.endswith(", to the table") for line in plays)


def test_explain_of_builds_that_are_never_raised_does_not_say_fixed_ones_are_no_longer_raised():
    # casino-house (raise: false) read "A build cannot be raised to another value. Another set ... makes a multiple
    # build, which is fixed: it can no longer be raised", as if single builds could be
    out = io.StringIO()
    assert run(["explain", str(HOUSE / "casino-house.yaml")], out, io.StringIO()) == 0
    text = out.getvalue()
    assert "A build cannot be raised to another value. Another set of the build's value may be joined to it (a " \
           "multiple build)." in text and "no longer be raised" not in text


def test_docs_lists_the_topics_in_one_column():
    # "fishing-family The fishing family ..." ran into its title: the names were padded to 12 characters
    out = io.StringIO()
    assert run(["docs"], out, io.StringIO()) == 0
    rows = out.getvalue().splitlines()[1:]
    starts = {len(row) - len(row.split("  ", 2)[-1].lstrip()) for row in rows}
    assert len(rows) >= 9 and len(starts) == 1, rows
