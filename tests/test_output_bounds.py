"""What a stranger's file makes rulespec print or write is bounded (security issue, item 12): symbols and
names have schema limits that the messages state, long values are cut in messages, and `record` writes
nothing `replay` refuses."""
import io

import pytest

from rulespec.cli.main import run
from rulespec.source.yamlsafe import MAX_BYTES

OUTPUT_MAX = 16_000       # twenty errors, each a message and a quoted line cut to 160 characters


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def _long_ranks(length: int = 95_000) -> str:
    """A 1.9 MB ruleset: twenty rank symbols of `length` characters each (every other bound kept)."""
    ranks = "".join(f"    - {{rank: {chr(65 + i) * length}, value: {i % 10 + 1}}}\n" for i in range(20))
    return f"id: longranks\nextends: cirulla\ndeck:\n  id: long\n  suits: [H, D, C, S]\n  ranks:\n{ranks}"


@pytest.fixture(scope="module")
def long_ranks(tmp_path_factory):
    path = tmp_path_factory.mktemp("long") / "longranks.yaml"
    path.write_text(_long_ranks(), encoding="utf-8")
    assert 1_800_000 < path.stat().st_size < MAX_BYTES
    return path


@pytest.mark.parametrize("argv", [["validate"], ["explain"], ["compile"], ["record"], ["show", "--merged"],
                                  ["simulate", "--hands", "1", "--workers", "1"]])
def test_long_rank_symbols_are_refused_with_bounded_output(long_ranks, argv):
    code, out, err = _cli(argv[0], long_ranks, *argv[1:])
    assert code == (1 if argv[0] == "validate" else 2) and len(out) + len(err) < OUTPUT_MAX, (len(out), len(err))
    assert f"{long_ranks}:7:14: a rank symbol is 1 to 3 capital letters or digits" in err, err[:400]
    assert "found 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...'" in err


def test_rank_symbols_of_three_characters_are_the_limit(tmp_path):
    path = tmp_path / "r.yaml"
    for rank, ok in (("ABC", True), ("ABCD", False), (999, True), (1000, False)):
        path.write_text(f"id: r\nextends: cirulla\nwild: {{card: 7H, declare_as: [{rank!r}]}}\n".replace("'", '"'),
                        encoding="utf-8")
        code, out, err = _cli("validate", path)
        limit = "a rank symbol is 1 to 3 capital letters or digits"
        assert (limit not in err) == ok, (rank, err)


def test_long_keys_and_values_are_cut_in_messages(tmp_path):
    path = tmp_path / "k.yaml"
    key = "k" * 1000          # YAML's longest plain key
    path.write_text(f"id: k\nextends: cirulla\n{key}: 1\nhand_bonuses:\n  {key}: {{bogus: 1}}\n"
                    f"{'j' * 1000}: 1\n{'j' * 1000}: 2\n", encoding="utf-8")
    code, out, err = _cli("validate", path)
    assert code == 1 and len(err) < 1_000, len(err)
    assert "duplicate key '" + "j" * 77 + "...'" in err, err
    path.write_text(f"id: k\nextends: cirulla\n{key}: 1\nhand_bonuses:\n  {key}: {{bogus: 1}}\n", encoding="utf-8")
    code, out, err = _cli("validate", path)
    assert code == 1 and len(err) < 2_000, len(err)
    assert "unknown key '" + "k" * 77 + "...' in ruleset" in err, err
    assert "unknown key 'bogus' in hand_bonuses." + "k" * 77 + "...;" in err, err


def test_a_transcript_s_cards_and_names_have_limits(tmp_path):
    from pathlib import Path
    golden = (Path(__file__).parent / "golden" / "recorded" / "cirulla-seed7.yaml").read_text(encoding="utf-8")
    path = tmp_path / "t.yaml"
    for old, new, message in (
            ("card: JC", "card: " + "J" * 100_000 + "C", "a card is at most 4 characters"),
            ("0: [scopa, scopa]", "0: [scopa, " + "s" * 100_000 + "]", "an event name is at most 64 characters"),
            ("ruleset: cirulla", "ruleset: cirulla\noptions: {target: " + "x" * 100_000 + "}",
             "an option value is at most 64 characters")):
        assert old in golden
        path.write_text(golden.replace(old, new, 1), encoding="utf-8")
        code, out, err = _cli("replay", path)
        assert code == 1 and message in out and len(out) + len(err) < 2_000, (message, out[:500])


# ------------------------------------------------------------------ record writes what replay reads

NAME = "n" * 64           # the longest name the schema allows (ids, events, categories, options)


def _widest() -> str:
    """A ruleset at the schema's widest: rank symbols of three characters, names of 64, a str option."""
    values = ["AAA", "222", "333", "444", "555", "666", "777", "FFF", "CCC", "RRR"]
    ranks = "".join(f"    - {{rank: \"{r}\", value: {v}}}\n" for v, r in enumerate(values, 1))
    event = "e" + NAME[1:]
    category = "c" + NAME[1:]
    return f"""id: widest
extends: scopa
options:
  {NAME}: {{type: str, default: plain, description: "any text, at most 64 characters"}}
deck:
  id: wide
  suits: [C, D, B, S]
  ranks:
{ranks}deal_checks: null
events:
  {event}: {{when: not empty(captured), points: 1, category: {category}}}
scoring:
  settebello: {{points: '1 if holds(pile, 777D) else 0'}}
  primiera:
    points: >-
      1 if most(best_per_suit(pile, {{"777": 21, "666": 18, "AAA": 16, "555": 15, "444": 14,
      "333": 13, "222": 12, "FFF": 10, "CCC": 10, "RRR": 10}})) else 0
  {category}: {{from_events: true}}
"""


def test_record_writes_a_transcript_replay_reads(tmp_path):
    ruleset = tmp_path / "widest.yaml"
    ruleset.write_text(_widest(), encoding="utf-8")
    transcript = tmp_path / "t.yaml"
    code, out, err = _cli("record", ruleset, "--seed", "1", "--option", f"{NAME}={'v' * 64}", "-o", transcript)
    assert code == 0, err
    text = transcript.read_text(encoding="utf-8")
    assert "777D" in text and "e" + NAME[1:] in text and "v" * 64 in text
    code, out, err = _cli("replay", transcript)
    assert code == 0 and "1 passed" in out, out + err


def test_record_refuses_an_option_value_replay_would_refuse(tmp_path):
    ruleset = tmp_path / "widest.yaml"
    ruleset.write_text(_widest(), encoding="utf-8")
    transcript = tmp_path / "t.yaml"
    code, out, err = _cli("record", ruleset, "--seed", "1", "--option", f"{NAME}={'v' * 5000}", "-o", transcript)
    assert code == 2 and f"option '{NAME}' is at most 64 characters, found 'vvvv" in err, err
    assert len(err) < 600 and not transcript.exists()
    # The command line reads at most 18 digits as an int; an API caller's int is bounded alike.
    from rulespec.checks.check import resolve_options
    from rulespec.errors import RulespecError
    from rulespec.lang import model
    with pytest.raises(RulespecError) as info:
        resolve_options(model.load("scopa"), {"target": 10 ** 18})
    assert info.value.message == "option 'target' has at most 18 digits, found 1000000000000000000"
