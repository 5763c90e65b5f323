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
    assert code == 2 and out == ""
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


def test_the_names_are_read_against_the_ruleset_the_transcript_names(tmp_path):
    # re_bello is a category of cirulla-re-bello, not of cirulla.
    text = FULL.replace("1: {scope: 3,", "1: {re_bello: 0, scope: 3,")
    code, _, err = cli("validate", write(tmp_path, text))
    assert code == 2 and "unknown category 're_bello'" in err
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
    assert code == 2
    assert headlines(err)[0].startswith(f"{tmp_path / 'golden' / 'bad.yaml'}:25:44: unknown event 'scopaa'")
    assert out.count("ok   ") == 2


def test_validate_of_an_empty_folder_says_so(tmp_path):
    code, out, err = cli("validate", tmp_path)
    assert code == 2
    assert err == f"rulespec validate: no rulesets or transcripts under {tmp_path}\n"


@pytest.mark.parametrize("old, new, line, column, message", [
    ("carte: 0, denari: 0, settebello: 1", "carte: 1, denari: 0, settebello: 1", 58, 26,
     "expect.score: side 1 carte: expected 1, got 0"),
    ("1: [scopa, scopa, scopa]", "1: [scopa, scopa]", 55, 8,
     "expect.events: side 1: expected [scopa, scopa], got [scopa, scopa, scopa]"),
])
def test_a_mismatch_for_side_1_is_reported_at_side_1s_line(tmp_path, old, new, line, column, message):
    # It was reported at side 0's line (the start of the mapping), whichever side differed.
    assert old in FULL
    path = write(tmp_path, FULL.replace(old, new))
    result = replay(path)
    assert result.failures == [f"{path}:{line}:{column}: {message}"]


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
    assert code == 2
    assert headlines(err) == [message]


def test_a_thousand_unknown_names_give_twenty_messages(tmp_path):
    text = FULL.replace("1: [scopa, scopa, scopa]", "1: [" + ", ".join(f"x{i}" for i in range(1000)) + "]")
    code, _, err = cli("validate", write(tmp_path, text))
    assert code == 2 and len(headlines(err)) == 20
