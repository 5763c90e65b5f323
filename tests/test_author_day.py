"""An author's day: what validate catches in a transcript, and where replay puts its caret.

The fixtures are in tests/author_day/: full-hand.yaml is a whole recorded hand of cirulla (two seats)
that each test changes one thing in; misspelt-names.yaml is that hand with the names an author
mistypes.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.transcripts.replay import replay

HERE = Path(__file__).parent / "author_day"
FULL = (HERE / "full-hand.yaml").read_text(encoding="utf-8")


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def headlines(err: str) -> list[str]:
    return [line for line in err.splitlines() if not line.startswith("    ")]


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_whole_hand_replays():
    assert replay(HERE / "full-hand.yaml").ok


def test_validate_names_every_event_bonus_category_and_outcome_the_ruleset_lacks(monkeypatch):
    # They passed validate and failed only at replay, one at a time, without a suggestion.
    monkeypatch.chdir(HERE)
    code, out, err = cli("validate", "misspelt-names.yaml")
    assert code == 1 and out == ""
    assert headlines(err) == [
        "misspelt-names.yaml:25:44: unknown event 'scopaa'; did you mean 'scopa'? "
        "(a play's events in cirulla: scopa, barsega, decino)",
        "misspelt-names.yaml:40:47: unknown bonus 'decimo'; did you mean 'decino'? (cirulla's bonuses: barsega, decino)",
        "misspelt-names.yaml:52:19: unknown dealer event 'dealer_16'; did you mean 'dealer_15'? "
        "(cirulla's dealer events: dealer_15, dealer_30, redeal)",
        "misspelt-names.yaml:55:30: unknown event 'rebello' (a side's events in cirulla: scopa, barsega, decino, "
        "dealer_15, dealer_30)",
        "misspelt-names.yaml:58:9: unknown category 'figura' (cirulla's categories: scope, carte, denari, "
        "settebello, primiera, grande, piccola, total)",
        "misspelt-names.yaml:59:12: unknown outcome 'capotun'; did you mean 'cappotto'? (cirulla's outcomes: "
        "cappotto)",
    ]
    # Each message quotes its line with a caret under the name.
    lines = err.splitlines()
    assert lines[1].strip().startswith("- {capture: [JD, 6S], card: AS, events: [scopaa]")
    assert lines[2].index("^") == lines[1].index("scopaa")


def test_replay_reports_the_same_names_as_failures_before_playing(monkeypatch):
    monkeypatch.chdir(HERE)
    result = replay("misspelt-names.yaml")
    assert not result.ok and result.plays == 0
    assert [f.split(": ", 1)[0] for f in result.failures] == [
        "misspelt-names.yaml:25:44", "misspelt-names.yaml:40:47", "misspelt-names.yaml:52:19",
        "misspelt-names.yaml:55:30", "misspelt-names.yaml:58:9", "misspelt-names.yaml:59:12"]
    assert result.failures[0].endswith("unknown event 'scopaa'; did you mean 'scopa'? "
                                       "(a play's events in cirulla: scopa, barsega, decino)")


def test_the_names_are_read_against_the_ruleset_the_transcript_names(tmp_path):
    # re_bello is a category of cirulla-re-bello, not of cirulla.
    text = FULL.replace("1: {scope: 3,", "1: {re_bello: 0, scope: 3,")
    code, _, err = cli("validate", write(tmp_path, text))
    assert code == 1 and "unknown category 're_bello'" in err
    code, _, err = cli("validate", write(tmp_path, text.replace("ruleset: cirulla", "ruleset: cirulla-re-bello")))
    assert (code, err) == (0, "")


def test_validate_takes_a_folder_as_replay_and_test_do(tmp_path):
    (tmp_path / "house.yaml").write_text("id: house\nextends: cirulla\nname: House\ndescription: d\n",
                                         encoding="utf-8")
    (tmp_path / "golden").mkdir()
    write(tmp_path / "golden", FULL, "hand.yaml")
    code, out, err = cli("validate", tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"ok   {tmp_path / 'golden' / 'hand.yaml'} (transcript)",
                                f"ok   {tmp_path / 'house.yaml'} (ruleset house)"]
    write(tmp_path / "golden", FULL.replace("events: [scopa], seat: 1}", "events: [scopaa], seat: 1}", 1), "bad.yaml")
    code, out, err = cli("validate", tmp_path)
    assert code == 1
    assert headlines(err)[0].startswith(f"{tmp_path / 'golden' / 'bad.yaml'}:25:44: unknown event 'scopaa'")
    assert out.count("ok   ") == 2


def test_validate_of_an_empty_folder_says_so(tmp_path):
    code, out, err = cli("validate", tmp_path)
    assert code == 2
    assert err == f"rulespec validate: no rulesets or transcripts under {tmp_path}\n"


@pytest.mark.parametrize("old, new, line, column, message", [
    # (the total raised with it: a total that is not its categories' sum is reported before any play)
    ("carte: 0, denari: 0, settebello: 1, primiera: 1, grande: 0, piccola: 0, total: 5",
     "carte: 1, denari: 0, settebello: 1, primiera: 1, grande: 0, piccola: 0, total: 6", 58, 26,
     "expect.score: side 1 carte: expected 1, got 0"),
    ("1: [scopa, scopa, scopa]", "1: [scopa, scopa]", 55, 8,
     "expect.events: side 1: expected [scopa, scopa], got [scopa, scopa, scopa]"),
])
def test_a_mismatch_for_side_1_is_reported_at_side_1s_line(tmp_path, old, new, line, column, message):
    # It was reported at side 0's line (the start of the mapping), whichever side differed.
    assert old in FULL
    path = write(tmp_path, FULL.replace(old, new))
    result = replay(path)
    assert result.failures[0] == f"{path}:{line}:{column}: {message}"
    assert result.failures[1:] == ([f"{path}:58:98: expect.score: side 1 total: expected 6, got 5"]
                                   if "total: 6" in new else [])


def test_a_play_past_the_listed_rounds_is_refused_at_that_play(tmp_path):
    # Cirulla's rounds 2 to 6 repeat round 2's shape; with rounds 3 to 6 left out, play 13 needs round 3.
    # The caret was on round 1 (the deal's first line); the play is where the hand ran out.
    lines = FULL.splitlines(keepends=True)
    text = "".join(lines[:9] + lines[13:])
    path = write(tmp_path, text)
    with pytest.raises(RulespecError) as info:
        replay(path)
    message = f"{path}:23:5: play 13 (seat 1, 3D) needs round 3, which the transcript's deal does not list " \
              f"(it lists 2 rounds)"
    assert info.value.headline() == message
    # validate sees it without playing: the listed rounds deal 12 cards, the plays play 36.
    code, out, err = cli("validate", path)
    assert code == 1
    assert headlines(err) == [message]


def test_a_thousand_unknown_names_give_twenty_messages(tmp_path):
    text = FULL.replace("1: [scopa, scopa, scopa]", "1: [" + ", ".join(f"x{i}" for i in range(1000)) + "]")
    code, _, err = cli("validate", write(tmp_path, text))
    assert code == 1 and len(headlines(err)) == 20


# ------------------------------------------------------------------ suggestions that fit the context


@pytest.mark.parametrize("name, expected", [
    # The target was told "did you mean 'suit'?": a builtin that needs cards, never a target.
    ("target-sixty", "target-sixty.yaml:6:16: unknown name 'sixty': the target is a whole number such as 61, or "
                     "an expression of the options such as '31 if options.short else 51'"),
    # `rank == J` was told "did you mean 'JS'?": a card, where a rank symbol is meant.
    ("rank-j", "rank-j.yaml:7:40: 'J' is a rank here: quote it, \"J\" (unquoted, J reads as a card)"),
    # `= 1` had no hint at all.
    ("single-equals", "single-equals.yaml:7:35: unexpected character '=' in expression; to compare, write '==' "
                      "(an expression assigns nothing)"),
    # Reported at line 8 (`tie`, correctly indented), a line after the one that is off.
    ("three-space-indent", "three-space-indent.yaml:7:4: indented 3 spaces, but line 8 below it, in the same "
                           "block, 2: the lines of a block line up (this file indents by 2); check the "
                           "indentation"),
    # The odd line under a block in step: it was "this file indents by 1" (the odd line's own step counted)
    # and the caret on `when`, the line above, which is right.
    ("three-space-indent-below", "three-space-indent-below.yaml:7:4: indented 3 spaces, but line 6 above it, in "
                                 "the same block, 4: the lines of a block line up (this file indents by 2); "
                                 "check the indentation"),
])
def test_a_suggestion_fits_where_the_mistake_is(monkeypatch, name, expected):
    monkeypatch.chdir(HERE)
    code, out, err = cli("validate", f"{name}.yaml")
    assert code == 1
    assert headlines(err) == [expected]


@pytest.mark.parametrize("expression, hint", [
    ("count(played, suit in [D, H]) >= 1", "'D' is a suit here: quote it, \"D\" (unquoted, D reads as a card)"),
    ("rank(card) == 7", "'7' is a rank here: quote it, \"7\" (unquoted, 7 is a number)"),
    ("count(table) == 1 && true", "unexpected '&' in expression; expected a value, name or '('; write 'and'"),
    ("!true", "unexpected character '!' in expression; write 'not' (or '!=' to compare)"),
])
def test_what_another_language_writes_gets_this_ones_spelling(tmp_path, expression, hint):
    path = write(tmp_path, "id: v\nextends: cirulla\nname: V\ndescription: d\nevents:\n"
                           f"  e: {{when: '{expression}', points: 1, category: scope}}\n", "v.yaml")
    code, _, err = cli("validate", path)
    assert code == 1 and headlines(err)[0].split(": ", 1)[1] == hint


def test_a_rank_compared_with_a_quoted_symbol_still_validates(tmp_path):
    path = write(tmp_path, "id: v\nextends: cirulla\nname: V\ndescription: d\nscoring:\n"
                           "  fanti: {points: 'count(pile, rank == \"J\")'}\n", "v.yaml")
    assert cli("validate", path)[0] == 0


def test_an_indent_off_on_the_line_yaml_names_is_still_reported_there(tmp_path):
    path = write(tmp_path, "id: v\nextends: cirulla\nname: V\ndescription: d\ngame:\n  target: 61\n tie: play_on\n",
                 "v.yaml")
    code, _, err = cli("validate", path)
    assert headlines(err) == [f"{path}:7:2: indented 1 space, but line 6 above it, in the same block, 2: the lines "
                              f"of a block line up (this file indents by 2); check the indentation"]


@pytest.mark.parametrize("value, message", [
    ("maybe", "option 'corta' is bool, found 'maybe'; on the command line write yes or no (or true/false, on/off)"),
    ("", "option 'corta' is bool, found ''; on the command line write yes or no (or true/false, on/off)"),
])
def test_an_option_value_not_understood_lists_the_spellings_taken(monkeypatch, value, message):
    monkeypatch.chdir(HERE)
    code, out, err = cli("validate", "corta.yaml", "--option", f"corta={value}")
    assert (code, out, err) == (1, "", message + "\n")
    assert cli("validate", "corta.yaml", "--option", "corta=on")[0] == 0


def test_an_int_option_says_to_write_a_number():
    code, _, err = cli("validate", "scopa", "--option", "target=eleven")
    assert (code, err) == (1, "option 'target' is int, found 'eleven'; write a whole number\n")


def test_a_yaml_default_of_the_wrong_type_says_how_yaml_writes_it(tmp_path):
    path = write(tmp_path, "id: v\nextends: cirulla\nname: V\ndescription: d\noptions:\n"
                           "  corta: {type: bool, default: yes}\n", "v.yaml")
    code, _, err = cli("validate", path)
    assert headlines(err) == [f"{path}:6:32: the default of option 'corta' is bool, found 'yes'; write true or false"]


@pytest.mark.parametrize("typed, meant", [("valdate", "validate"), ("simualte", "simulate"), ("explian", "explain")])
def test_a_mistyped_command_gets_a_did_you_mean(typed, meant):
    code, out, err = cli(typed, "cirulla")
    assert (code, out, err) == (2, "", f"rulespec: unknown command '{typed}'; did you mean '{meant}'?\n")


def test_a_command_nothing_like_any_is_left_to_argparse_which_lists_them(capsys):
    code, _, _ = cli("zzz")
    assert code == 2
    assert "invalid choice: 'zzz' (choose from 'validate'" in capsys.readouterr().err


# ------------------------------------------------------------------ words


def diff_lines(a, b) -> list[str]:
    code, out, err = cli("diff", HERE / a, HERE / b)
    assert err == "" and code == (1 if "differences in the rules" not in out.splitlines()[0] else 0)
    return out.splitlines()[1:]


def test_diff_compares_decks_by_what_is_in_them():
    # A changed card value was "no differences"; a renamed deck id was a change.
    assert diff_lines("house-deck.yaml", "house-deck-renamed.yaml") == []
    assert diff_lines("house-deck.yaml", "house-deck-k11.yaml") == ["  changed: the capture value of rank K: 10 → 11"]


def test_diff_of_two_shipped_decks_names_the_ranks_and_suits():
    code, out, _ = cli("diff", "cirulla", "cirulla-latin")
    lines = out.splitlines()
    assert "  changed: the deck's ranks: A 2 3 4 5 6 7 J Q K → A 2 3 4 5 6 7 F C R" in lines
    assert "  changed: the deck's suits: H hearts, D diamonds, C clubs, S spades → C coppe, D denari, B bastoni, " \
           "S spade" in lines
    assert not any("capture value of rank" in line for line in lines)      # A to 7 keep their values


def test_a_target_that_depends_on_an_option_is_shown_whole():
    # "51 → 61" hid "31 with corta".
    assert diff_lines("corta.yaml", "corta-61.yaml") == [
        "  changed: points to win the game: 31 if option corta is on, otherwise 51 → 31 if option corta is on, "
        "otherwise 61"]
    code, out, _ = cli("explain", HERE / "corta.yaml", "--option", "corta=yes")
    assert "if a side has 31 or more points in all (the target: 31 if option corta is on, otherwise 51), " in out
    code, out, _ = cli("explain", "scopa")
    assert "if a side has 11 or more points in all (the target: option target (11 by default))" in out
    code, out, _ = cli("explain", "cirulla")
    assert "if a side has 51 or more points in all, the side" in out


def test_a_fifteen_kind_to_another_total_is_not_labelled_fifteen():
    code, out, _ = cli("explain", HERE / "sum-to-17.yaml")
    assert "- **sum to 17** (kind `fifteen`, total 17): one or more table cards that, with the played card, " \
           "total 17." in out
    assert "**fifteen**" not in out
    code, out, _ = cli("explain", "cirulla")
    assert "- **fifteen**: one or more table cards that, with the played card, total 15." in out


# ------------------------------------------------------------------ reading coverage


def club(tmp_path, monkeypatch) -> Path:
    """examples/club (a variant of cirulla and its one golden hand), copied to a folder outside the checkout."""
    import shutil
    folder = tmp_path / "club"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "club", folder)
    monkeypatch.chdir(folder)
    return folder


def test_coverage_names_inherited_rules_by_ruleset_not_by_a_path_into_the_package(tmp_path, monkeypatch):
    # Survivors were listed as /…/site-packages/rulespec/rulesets/cirulla.yaml:26:5, mixed with the variant's own.
    club(tmp_path, monkeypatch)
    code, out, err = cli("test", "golden", "--coverage", "my-variant.yaml")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert not any("/" in line or "rulesets" in line for line in lines), out
    start = lines.index("survivors (no transcript notices the change):")
    heading = lines.index("  inherited from cirulla (`rulespec show cirulla` prints the file, with these lines):")
    assert start < heading
    own, inherited = lines[start + 1:heading], [x for x in lines[heading + 1:] if x.startswith("    ")]
    assert all(x.startswith("  my-variant.yaml:") for x in own)
    assert "    cirulla:26:5: deal_checks[0] (redeal): disabled" in inherited
    assert all(x.startswith("    cirulla:") for x in inherited)


def test_coverage_of_the_variants_own_rules_only(tmp_path, monkeypatch):
    club(tmp_path, monkeypatch)
    code, out, err = cli("test", "golden", "--coverage", "my-variant.yaml", "--own")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "rule coverage of my-variant, its own rules (40 inherited left out): 4 mutations, 1 transcript",
        "killed 4, survived 0, invalid 0",
        "every valid mutation is caught by a transcript"]


# ------------------------------------------------------------------ sources a user can open


def test_a_rulesets_source_says_where_its_rules_come_from_not_a_file_the_user_lacks():
    # `rulespec list` and explain showed "cirulla.md (variant 18)": a file that ships nowhere, a numbering in it.
    import re
    from rulespec.lang import model
    from rulespec.source.rulesets import shipped_ids
    docs = {p.stem for p in (Path(__file__).parent.parent / "docs").glob("*.md")}
    for rid in shipped_ids():
        source = model.load(rid).source
        assert source and not re.search(r"\.md\b|variant \d", source), (rid, source)
        shown = re.fullmatch(r"rulespec docs ([\w-]+)( \(.*\))?", source)
        assert shown is None or shown.group(1) in docs, (rid, source)       # a shipped page it names exists
    code, out, _ = cli("list")
    assert "[pagat.com, Cirulla (the base rules)]" in out and ".md" not in out
    code, out, _ = cli("explain", "scopa")
    assert "; source: rulespec docs scopa-family (Scopa)." in out


def test_the_shipped_docs_cite_nothing_outside_the_package():
    import re
    folder = Path(__file__).parent.parent / "docs"
    shipped = {p.name for p in folder.glob("*.md")}
    for page in folder.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "shared/" not in text, page.name
        cited = set(re.findall(r"\b([\w-]+\.md)\b", text)) - shipped
        assert not cited, (page.name, cited)


def test_the_shipped_rulesets_and_schemas_cite_nothing_outside_the_package():
    # `rulespec show cirulla` printed "(shared/rules/cirulla.md, ...)" and scopa's "(docs/scopa-family.md,
    # ...)": files an installed package does not have; the transcript schema's description "shared/spec/".
    import re
    root = Path(__file__).parent.parent
    for path in [*(root / "rulesets").glob("*.yaml"), *(root / "schemas").glob("*.json")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"shared/|docs/|[\w-]+\.md\b", text), path.name
    code, out, _ = cli("show", "cirulla")
    assert code == 0 and "pagat.com" in out.splitlines()[1]
    code, out, _ = cli("show", "scopa")
    assert code == 0 and "rulespec docs scopa-family" in out.splitlines()[1]


def test_an_unquoted_expression_cut_at_a_comma_is_told_to_be_quoted(tmp_path):
    # `{points: 1 if most(count(pile, rank == "K")) else 0}`: YAML ends the value at the ',' and reads the
    # rest as a key; it was "unknown key ... expected one of: description, from_events, points".
    path = write(tmp_path, 'id: v\nextends: cirulla\nscoring:\n  re: {points: 1 if most(count(pile, rank == "K")) '
                           'else 0}\n', "v.yaml")
    code, _, err = cli("validate", path)
    assert code == 1
    assert headlines(err) == [f"{path}:4:38: unknown key 'rank == \"K\")) else 0' in scoring.re: inside {{...}} a "
                              f"',' ends a value, and the text after it reads as a key; quote the expression ('...')"]
    path = write(tmp_path, "id: v\nextends: cirulla\nhand bonuses: {}\n", "w.yaml")
    code, _, err = cli("validate", path)             # a key with a space is still a misspelt key
    assert "did you mean 'hand_bonuses'?" in headlines(err)[0]


def test_explain_does_not_give_a_house_variant_its_bases_source(tmp_path):
    # `rulespec new`'s variant writes no source: explain said "source: pagat.com, Cirulla (the base rules)",
    # as if pagat.com described the house rule.
    path = write(tmp_path, "id: house\nextends: cirulla\nevents:\n  scopa: {points: 2}\n", "house.yaml")
    code, out, _ = cli("explain", path)
    assert code == 0
    assert ("Ruleset `house`, a variant of `cirulla`; no source of its own (that of `cirulla`: pagat.com, "
            "Cirulla (the base rules)).") in out
    code, out, _ = cli("explain", "cirulla-buffoni")     # a variant with its own source keeps it
    assert "a variant of `cirulla`; source: Italian Wikipedia, Cirulla (a variant it gives)." in out


def test_the_transcript_checklist_cites_no_file_of_the_repository():
    # The authors' conventions said "`tests/test_golden.py` enforces both" and "Files live in
    # `tests/golden/<game>/`": a user of the installed package has neither; they have `rulespec test`.
    text = (Path(__file__).parent.parent / "docs" / "transcripts.md").read_text(encoding="utf-8")
    conventions = text.split("### Conventions", 1)[1]
    assert "test_golden.py" not in conventions and "tests/golden/scopa/" not in conventions
    assert "rulespec test --update` reads the first line" in " ".join(conventions.split())


def test_validate_finds_a_total_that_is_not_the_sum_of_its_categories(tmp_path, monkeypatch):
    """A hand's total is the sum of its categories: where every category is written, a wrong sum is the
    author's arithmetic, located at the total before any play; with a category left out it is not checked."""
    monkeypatch.chdir(tmp_path)
    text = FULL.replace("piccola: 6, total: 23}", "piccola: 6, total: 22}")
    write(tmp_path, text)
    code, _, err = cli("validate", "t.yaml")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "total: 22" in t)
    assert code == 1 and headlines(err) == [
        f"t.yaml:{line}:{text.splitlines()[line - 1].index('22') + 1}: side 0's total is 22, but its categories "
        "add up to 23 (15 + 1 + 1 + 0 + 0 + 0 + 6): a hand's total is the sum of its categories"], err
    partial = text.replace("grande: 0, piccola: 6, total: 22", "grande: 0, total: 22")
    assert cli("validate", write(tmp_path, partial))[0] == 0
    assert cli("validate", write(tmp_path, FULL))[0] == 0


def test_two_syntax_errors_in_a_variant_are_each_reported_once(tmp_path, monkeypatch):
    """A variant's errors passed on with their base's name noted were reported with the last one twice."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "id: two\nextends: scopa\nname: Two\ndescription: d\n"
                    "events:\n  scopa:\n    when: not empty(captured) and and empty(table)\n"
                    "scoring:\n  denari: {points: '1 if most(count(pile)) else 0 +'}\n", "two.yaml")
    code, _, err = cli("validate", "two.yaml")
    assert code == 1 and headlines(err) == [
        "two.yaml:7:35: unexpected 'and' in expression; expected a value, name or '('",
        "two.yaml:9:52: unexpected end of expression; expected a value, name or '('"], err


def test_a_syntax_error_does_not_hide_the_other_expressions_type_errors(tmp_path, monkeypatch):
    """The expressions that parse are typed beside those that do not, all reported in file order (the
    unknown name appeared only once the syntax errors were fixed, a second round trip)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "id: three\nextends: scopa\nname: Three\ndescription: d\n"
                    "events:\n  scopa:\n    when: not empty(captured) and and empty(table)\n"
                    "scoring:\n  carte: {points: '1 if most(count(pile)) else zz'}\n"
                    "  denari: {points: '1 if most(count(pile)) else 0 +'}\n", "three.yaml")
    code, _, err = cli("validate", "three.yaml")
    assert code == 1 and headlines(err) == [
        "three.yaml:7:35: unexpected 'and' in expression; expected a value, name or '('",
        "three.yaml:9:48: unknown name 'zz'",
        "three.yaml:10:52: unexpected end of expression; expected a value, name or '('"], err
    # A structural problem beside a syntax error: the types are not checked (the model is not whole).
    write(tmp_path, "id: three\nextends: scopa\nname: Three\ndescription: d\nplayers: {default: 5}\n"
                    "scoring:\n  carte: {points: '1 if most(count(pile)) else zz'}\n"
                    "  denari: {points: '1 if most(count(pile)) else 0 +'}\n", "three.yaml")
    code, _, err = cli("validate", "three.yaml")
    assert code == 1 and "unexpected end of expression" in err and "'zz'" not in err, err
