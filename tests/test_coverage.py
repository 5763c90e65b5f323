"""`rulespec test --coverage RULESET [PATH...]`: mutate each rule, replay its transcripts, report survivors."""
import textwrap
from pathlib import Path

from rulespec.cli.main import run
from rulespec.source.rulesets import load_merged
from rulespec.transcripts.coverage import coverage, mutations
from rulespec.transcripts.testrun import find

GOLDEN = Path(__file__).parent / "golden"
TWO_PLAYERS = GOLDEN / "cirulla" / "02-complete-2p-deck-six-rounds.yaml"


def _by_rule(report):
    return {(r.mutation.rule, r.mutation.change): r.status for r in report.results}


def test_mutations_cover_every_kind_of_rule_of_the_merged_document():
    doc, _, _ = load_merged("cirulla-no-decino")          # extends cirulla: the base's rules are mutated too
    found = {(m.rule, m.change) for m in mutations(doc)}
    assert ("events.scopa", "when negated") in found
    assert ("capture.kinds[3] (fifteen)", "total + 1") in found
    assert ("capture.kinds[0] (sweep)", "dropped") in found
    assert ("deal_checks[0] (redeal)", "disabled") in found
    assert ("dealer_bonuses[1] (dealer_30)", "points + 1") in found
    assert ("scoring.primiera", "scores nothing") in found
    assert ("outcomes.cappotto", "when negated") in found
    assert not any(rule == "hand_bonuses.decino" for rule, _ in found)   # the variant removes it
    spans = [m.span for m in mutations(doc)]
    assert all(s is not None and s.line > 0 for s in spans)


def test_one_complete_hand_pins_down_its_plays_not_the_deal_rules():
    report = coverage("cirulla", [TWO_PLAYERS])
    status = _by_rule(report)
    assert report.transcripts == [TWO_PLAYERS]
    assert report.render()[0] == f"rule coverage of cirulla: {len(report.results)} mutations, 1 transcript"
    # The hand has scope, sums, fifteens and ace sweeps: changing those is noticed.
    assert status[("events.scopa", "when negated")] == "killed"
    assert status[("capture.kinds[3] (fifteen)", "dropped")] == "killed"
    assert status[("capture.kinds[0] (sweep)", "when negated")] == "killed"
    assert status[("scoring.piccola", "scores nothing")] == "killed"
    # Its table holds no two aces and no 15/30, and nobody declares: those rules are not pinned down.
    assert status[("deal_checks[0] (redeal)", "disabled")] == "survived"
    assert status[("dealer_bonuses[0] (dealer_15)", "points + 1")] == "survived"
    assert status[("hand_bonuses.barsega", "points + 1")] == "survived"
    assert status[("outcomes.cappotto", "disabled")] == "survived"
    killed = next(r for r in report.results if r.mutation.rule == "events.scopa")
    assert killed.by == str(TWO_PLAYERS)


def test_the_golden_transcripts_pin_down_every_rule_of_cirulla():
    report = coverage("cirulla", find([GOLDEN]).transcripts)
    assert len(report.transcripts) >= 33
    assert [(r.mutation.rule, r.mutation.change) for r in report.survivors] == []
    assert report.count("invalid") == 0 and report.count("killed") == len(report.results) >= 40


def test_cli_reports_survivors_with_file_line_and_exits_1(capsys):
    code = run(["test", "--coverage", "cirulla", str(TWO_PLAYERS)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("rule coverage of cirulla: ")
    assert "survivors (no transcript notices the change):" in out
    line = next(x for x in out.splitlines() if "deal_checks[0] (redeal): disabled" in x)
    # A shipped ruleset by its id, the lines `rulespec show cirulla` prints (not a path into the package).
    assert line.strip().startswith("cirulla:") and line.strip().split(":")[1].isdigit()


def test_cli_without_survivors_exits_0(capsys):
    assert run(["test", "--coverage", "cicera", str(GOLDEN / "cicera"), str(GOLDEN / "recorded")]) == 0
    assert "every valid mutation is caught by a transcript" in capsys.readouterr().out


def test_no_transcript_of_the_ruleset_is_an_error(capsys):
    assert run(["test", "--coverage", "cicera", str(TWO_PLAYERS)]) == 2
    assert "no transcript among the 1 given replays ruleset cicera" in capsys.readouterr().err


def test_a_variant_in_its_own_folder(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text(textwrap.dedent("""\
        id: mine
        extends: cirulla
        events:
          scopa: {points: 2}
        """), encoding="utf-8")
    text = TWO_PLAYERS.read_text(encoding="utf-8").replace("ruleset: cirulla", "ruleset: mine.yaml")
    # Scope doubled: side 0 has 8 scope, side 1 has 2 (see the transcript's comments).
    text = text.replace("scope: 8", "scope: 16").replace("scope: 2", "scope: 4")
    text = text.replace("total: 15", "total: 23").replace("total: 2}", "total: 4}")
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "hand.yaml").write_text(text.replace("ruleset: mine.yaml", "ruleset: ../mine.yaml"),
                                                   encoding="utf-8")
    report = coverage(tmp_path / "mine.yaml", find([tmp_path / "golden"]).transcripts)
    status = _by_rule(report)
    assert status[("events.scopa", "points + 1")] == "killed"
    mutation = next(r.mutation for r in report.results if r.mutation.rule == "events.scopa"
                    and r.mutation.change == "points + 1")
    assert mutation.span.file.endswith("mine.yaml") and mutation.span.line == 4
