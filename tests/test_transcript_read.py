"""Transcript reader: the catalogue of broken transcripts, a full valid one, and the built dataclasses.

Catalogue: tests/errors/transcripts/<name>.yaml is refused with exactly the
headlines (`file:line:col: message`, one per problem) in <name>.expected.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.work import count_calls

from rulespec.errors import RulespecError, Span, source_line
from rulespec.transcripts.transcript import (
    CardRef,
    Transcript,
    parse_transcript,
    read_transcript,
    resolve_ruleset_ref,
)

CATALOGUE = Path(__file__).parent / "errors" / "transcripts"
CASES = sorted(p.stem for p in CATALOGUE.glob("*.yaml"))


def test_catalogue_is_complete():
    missing = [name for name in CASES if not (CATALOGUE / f"{name}.expected").exists()]
    orphans = [p.stem for p in CATALOGUE.glob("*.expected") if p.stem not in CASES]
    assert not missing and not orphans
    assert len(CASES) >= 40


@pytest.mark.parametrize("name", CASES)
def test_broken_transcript(name, monkeypatch):
    monkeypatch.chdir(CATALOGUE)
    expected = (CATALOGUE / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    error, calls = count_calls(read_transcript, f"{name}.yaml")
    assert isinstance(error, RulespecError), error
    assert calls < 200_000          # about 17,500 at most today (tests/work.py: work counted, not timed)
    assert [e.headline() for e in error.all] == expected
    # Every problem on an existing line is shown with that line and a caret.
    shown = [e for e in error.all if source_line(e.span) is not None]
    assert len(shown) == len(expected) - (name == "empty")


FULL = """\
# hand-verified: the example of shared/spec/transcripts.md
ruleset: cirulla            # a ruleset id
options: {}
seats: 4
dealer: 0
deal:
  - table: [4C, 7H, 3C, 6D]
    hands:
      1: [5H, AC, KS]
      2: [2D, 2S, 9H]
      3: [QS, QD, QC]
      0: [JH, JD, 10S]
  - hands: {1: [AH], 2: [AD], 3: [AS], 0: [2C]}
plays:
  - seat: 1
    declare:
      - {bonus: barsega, matta: "2"}
      - {bonus: decino, cards: [QS, QD, QC]}
    card: 5H
    capture: [KD]
    events: [scopa]
    legal:
      - [KD]
      - []
  - seat: 2
    card: 2D
    error: illegal capture
  - seat: 3
    declare: [{bonus: decino}]
    events: [decino]
  - seat: 0
    card: JH
    capture: []
expect:
  dealer_events: [dealer_15]
  table: [3C, 6D]
  events: {0: [scopa, barsega], 1: []}
  score:
    0: {scope: 2, carte: 1, denari: 0, settebello: 1, primiera: 1, grande: 0, piccola: 0, total: 5}
    1: {scope: 0, carte: 0, denari: 1, settebello: 0, primiera: 0, grande: 5, piccola: 3, total: 9}
  outcome: cappotto
  winner: 0
"""


@pytest.fixture
def full(tmp_path) -> Transcript:
    path = tmp_path / "full.yaml"
    path.write_text(FULL, encoding="utf-8")
    return read_transcript(path)


def test_full_transcript_top_level(full, tmp_path):
    assert full.path == tmp_path / "full.yaml"
    assert (full.ruleset, full.options, full.seats, full.dealer) == ("cirulla", {}, 4, 0)
    assert full.ruleset_span == Span(str(tmp_path / "full.yaml"), 2, 10)
    assert full.deck is None
    assert full.recorded is False
    assert len(full.plays) == 4
    assert full.dealer_span.line == 5


def test_full_transcript_deal(full):
    first, second = full.deal
    assert [c.name for c in first.table] == ["4C", "7H", "3C", "6D"]
    assert sorted(first.hands) == [0, 1, 2, 3]
    assert [c.name for c in first.hands[0]] == ["JH", "JD", "10S"]
    assert first.hands[0][2].span.line == 12 and first.hands[0][2].span.column == 19
    assert first.hand_spans[1].line == 9
    assert first.redeal is False
    assert second.table is None
    assert [c.name for c in second.hands[3]] == ["AS"]


def test_full_transcript_plays(full):
    p1, p2, p3, p4 = full.plays
    assert [p.number for p in full.plays] == [1, 2, 3, 4]
    assert (p1.seat, p1.card.name) == (1, "5H")
    assert [(d.bonus, d.matta) for d in p1.declare] == [("barsega", "2"), ("decino", None)]
    assert [c.name for c in p1.declare[1].cards] == ["QS", "QD", "QC"]
    assert p1.declare[0].matta_span.column == 34  # inside the quotes
    assert [c.name for c in p1.capture] == ["KD"]
    assert p1.events == ["scopa"]
    assert [[c.name for c in s] for s in p1.legal] == [["KD"], []]
    assert p1.error is None
    assert (p2.card.name, p2.error, p2.capture) == ("2D", "illegal capture", None)
    # A knock: a declaration and no card.
    assert (p3.seat, p3.card, p3.capture, p3.events) == (3, None, None, ["decino"])
    assert p3.declare[0].cards is None
    assert p4.capture == []
    assert p1.span.line == 15 and p1.seat_span.line == 15


def test_full_transcript_expect(full):
    e = full.expect
    assert e.dealer_events == ["dealer_15"]
    assert [c.name for c in e.table] == ["3C", "6D"]
    assert e.events == {0: ["scopa", "barsega"], 1: []}
    assert e.score[1]["grande"] == 5 and e.score[0]["total"] == 5
    assert e.outcome == "cappotto"
    assert e.winner == [0]
    assert e.score_spans[1]["total"].line == 40
    assert e.event_spans[1].line == 37
    assert e.winner_span.line == 42


def test_card_refs_keep_names_as_written():
    # Cards are not checked against a deck here: the deck depends on the ruleset.
    t = parse_transcript("ruleset: x\ndealer: 0\ndeck: [ZZ, 10S, AH]\n", "t.yaml")
    assert t.deck == [CardRef("ZZ", Span("t.yaml", 3, 8)), CardRef("10S", Span("t.yaml", 3, 12)), CardRef("AH", Span("t.yaml", 3, 17))]
    assert str(t.deck[1]) == "10S"


@pytest.mark.parametrize(
    "text, winner",
    [("winner: 0", [0]), ("winner: [1, 2]", [1, 2]), ("outcome: misdeal", None)],
)
def test_winner_forms(text, winner):
    t = parse_transcript(f"ruleset: x\ndealer: 0\ndeck: [AH]\nexpect:\n  {text}\n", "t.yaml")
    assert t.expect.winner == winner


def test_optional_parts_absent():
    t = parse_transcript("ruleset: x\ndealer: 3\ndeck: [AH]\n", "t.yaml")
    assert (t.options, t.seats, t.deal, t.plays, t.expect) == ({}, None, None, [], None)
    assert [c.name for c in t.deck] == ["AH"]


def test_seat_keys_as_digit_strings_and_options():
    t = parse_transcript(
        "ruleset: x\noptions: {target: 51, scopa_d_assi: true, mode: fast}\ndealer: 1\n"
        "deal:\n  - hands: {'0': [AH], \"1\": [2H]}\n    redeal: true\n  - hands: {0: [3H], 1: [4H]}\n",
        "t.yaml",
    )
    assert t.options == {"target": 51, "scopa_d_assi": True, "mode": "fast"}
    assert t.option_spans["target"].line == 2
    assert sorted(t.deal[0].hands) == [0, 1] and t.deal[0].redeal is True
    assert t.deal[1].redeal is False


def test_matta_as_integer_becomes_rank_text():
    t = parse_transcript("ruleset: x\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, declare: [{bonus: barsega, matta: 2}], card: AH}\n", "t.yaml")
    assert t.plays[0].declare[0].matta == "2"


def test_yaml_11_words_stay_strings():
    # `no`, `on` and dates are not booleans or datetimes here.
    t = parse_transcript("ruleset: no\ndealer: 0\ndeck: [AH]\nplays:\n  - {seat: 1, card: AH, events: [on, 2024-01-01]}\n", "t.yaml")
    assert t.ruleset == "no"
    assert t.plays[0].events == ["on", "2024-01-01"]


@pytest.mark.parametrize(
    "head, recorded",
    [
        ("# recorded by rulespec from seed 7\n", True),
        ("# cirulla, four players\n#recorded\n\n", True),
        ("# Recorded\n", True),
        ("# hand-verified against the rules\n", False),
        ("ruleset: x\n# recorded\n", False),
        ("", False),
    ],
)
def test_recorded_flag(head, recorded):
    body = "dealer: 0\ndeck: [AH]\n"
    text = head + ("" if "ruleset" in head else "ruleset: x\n") + body
    assert parse_transcript(text, "t.yaml").recorded is recorded


@pytest.mark.parametrize("ref, expected", [
    ("cirulla", "SHIPPED/cirulla.yaml"),
    ("../rs/house.yaml", "rs/house.yaml"),
    ("house.yaml", "golden/house.yaml"),
    ("./deeper/v.yml", "golden/deeper/v.yml"),
])
def test_resolve_ruleset_ref_once_against_the_transcripts_folder(tmp_path, monkeypatch, ref, expected):
    from rulespec.source.rulesets import rulesets_dir
    for name in ("rs/house.yaml", "golden/house.yaml", "golden/deeper/v.yml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("id: house\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "golden")  # the current folder plays no part
    t = parse_transcript(f"ruleset: {ref}\ndealer: 0\ndeck: [AH]\n", str(tmp_path / "golden" / "hand.yaml"))
    got = resolve_ruleset_ref(t)
    want = rulesets_dir() / "cirulla.yaml" if expected.startswith("SHIPPED") else tmp_path / expected
    assert got.resolve() == want.resolve()


@pytest.mark.parametrize("ref, message", [
    ("cirula", "hand.yaml:1:10: unknown ruleset 'cirula'; expected a shipped id or a path to a .yaml file; "
               "did you mean 'cirulla'?"),
    ("../nowhere.yaml", "hand.yaml:1:10: no ruleset file '../nowhere.yaml'"),
])
def test_resolve_ruleset_ref_errors_at_the_ruleset_line(ref, message):
    t = parse_transcript(f"ruleset: {ref}\ndealer: 0\ndeck: [AH]\n", "hand.yaml")
    with pytest.raises(RulespecError) as exc:
        resolve_ruleset_ref(t)
    assert exc.value.headline() == message


def test_unreadable_file(tmp_path):
    with pytest.raises(RulespecError) as info:
        read_transcript(tmp_path / "nope.yaml")
    assert info.value.message.startswith(f"{tmp_path / 'nope.yaml'}: cannot read transcript")


def test_file_too_large_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"ruleset: x\n" + b"#" * (2 * 1024 * 1024))
    with pytest.raises(RulespecError) as info:
        read_transcript(path)
    assert info.value.headline() == f"{path}:1:1: file too large: 2097163 bytes; the limit is 2 MiB"


def test_dataclasses_are_frozen(full):
    with pytest.raises(AttributeError):
        full.dealer = 2  # type: ignore[misc]
