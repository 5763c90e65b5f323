"""Issue 14 gap 4: `explain` and `diff` say every construct in words, never as raw code.

`Words.raw` records each expression that had no phrase and was written as code; for every
shipped ruleset (and a ruleset gathering the constructs the shipped ones do not use) it stays
empty."""
import textwrap

import pytest

from rulespec.authoring.diff import _Facts, report
from rulespec.authoring.explain import _Book, explain
from rulespec.compiler.build import compile_ruleset
from rulespec.source.rulesets import shipped_ids


def _raw(rs):
    book, facts = _Book(rs), _Facts(rs)
    book.build()
    facts.build()
    return book.words.raw + book.scoring.raw + facts.words.raw + facts.scoring.raw


@pytest.mark.parametrize("rid", shipped_ids())
def test_shipped_rulesets_in_words(rid):
    assert _raw(compile_ruleset(rid).ruleset) == []


CONSTRUCTS = """\
    id: constructs
    extends: scopa
    name: Every construct
    options:
      bonus: {type: int, default: 2}
      mode: {type: str, default: plain, choices: [plain, double]}
    capture:
      prefer: fewest_cards
      kinds:
        - kind: sweep
          when: 'rank(played) == "A" and play > 1 and turn in [1, 2] and (round == 1 or not empty(table))'
          exclusive: true
        - kind: match
        - kind: sum
    events:
      scopa:
        when: 'not empty(captured) and empty(table) and (last_play or suit(played) == suit(previous))'
      odd: {when: 'last_play != empty(captured) and count(captured, card != played and value > 2) > 0 and play % 2 == 1 and captured == [AD, 2D] and (total(captured) * 2) // 3 > -1', points: 1, category: scope}
      chosen: {when: 'holds(captured, 7D) if options.mode == "double" else subset_total(table_before, 15)', category: scope}
    scoring:
      extra: {points: '(options.bonus + 1 if options.mode == "double" else max(count(pile), 3) - 3) if most(count(pile)) else abs(side - 1)'}
    """


def test_a_ruleset_of_every_construct_in_words(tmp_path):
    path = tmp_path / "constructs.yaml"
    path.write_text(textwrap.dedent(CONSTRUCTS), encoding="utf-8")
    rs = compile_ruleset(path).ruleset
    assert _raw(rs) == []
    text = explain(rs)
    assert "only those that take the fewest table cards" in text
    assert "the play's number in the hand (1 for the hand's first card) is more than 1" in text
    assert "either the deal round (1 for the first deal) is exactly 1 or" in text
    assert 'if option mode is double: option bonus (2) plus 1' in text


def test_option_if_else_in_words():
    text = explain(compile_ruleset("escoba").ruleset)
    assert "if option sevens is most\\_sevens: 1 point to the side with the most sevens" in text
    assert "options.sevens" not in text


def test_diff_shows_an_added_sweep_with_its_condition():
    out = report(compile_ruleset("scopa").ruleset, compile_ruleset("scopa-d-assi").ruleset)
    assert ("added: capture sweep: takes the whole table, only when the played card is an ace; "
            "when it applies, the only capture offered") in out
    assert "and either option ace_scopa is on or the played card is not an ace" in out


def test_diff_shows_a_changed_capture_condition_alone():
    a = compile_ruleset("cirulla").ruleset
    b = compile_ruleset("cirulla-ace-always-sweeps").ruleset
    out = report(a, b)
    assert "capture sweep: only when" in out
