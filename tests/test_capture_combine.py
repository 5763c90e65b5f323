"""Several sets in one capture (capture.combine), cards with several values (deck value lists, hand_value,
card_values) and event points as an expression (played_value, sets): docs/language.md."""
import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.codegen_c import unsupported
from rulespec.compiler.support import playout_unsupported
from rulespec.errors import RulespecError
from rulespec.run import runtime
from rulespec.run.engine import IllegalMove
from tests.conftest import card_of, explicit_hand, mask_of

# Kontsina (52 cards, 4 each, match and sum, capture optional) with a line or two changed.
BASE = "id: {id}\nextends: kontsina\n"


def _compile(tmp_path, text: str, name: str = "variant"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(BASE.format(id=name) + text)
    return compile_ruleset(str(path), disk=False)


def _sets(rules, hand, card):
    return sorted(sorted(rules.card_names(m).split()) for m in hand.captures_for(card_of(rules, card)))


def _hand(rules, table, first):
    other = [c for c in ["KS", "KH", "KD", "KC", "QS", "QD", "QC", "QH", "JS"] if c not in table + first][:4]
    return explicit_hand(rules, 0, table, {1: first, 0: other}, seats=2)


# -- capture.combine -------------------------------------------------------------------------------------

def test_combine_one_is_the_default_and_offers_each_set_alone(tmp_path):
    rules = _compile(tmp_path, "").module
    h = _hand(rules, ["2C", "3C", "AC", "4D"], ["5C", "6H", "7H", "8H"])
    assert _sets(rules, h, "5C") == [["2C", "3C"], ["4D", "AC"]]


def test_combine_union_offers_every_union_of_disjoint_sets(tmp_path):
    rules = _compile(tmp_path, "capture: {combine: union}\n").module
    h = _hand(rules, ["2C", "3C", "AC", "4D"], ["5C", "6H", "7H", "8H"])
    assert _sets(rules, h, "5C") == [["2C", "3C"], ["2C", "3C", "4D", "AC"], ["4D", "AC"]]


def test_an_alone_kind_offers_each_of_its_sets_by_itself(tmp_path):
    # Courts (no value) match by rank: with alone, a king takes one of the two kings, never both; the numeral
    # cards' sets still join (5C takes 2C+3C and 4D+AC at once).
    kinds = ("capture: {combine: union, kinds: [{kind: match, when: value(played) > 0}, "
             "{kind: match, when: value(played) == 0, alone: true}, {kind: sum}]}\n")
    rules = _compile(tmp_path, kinds).module
    h = _hand(rules, ["KD", "KC", "2C", "3C"], ["KS", "5C", "7H", "8H"])
    assert _sets(rules, h, "KS") == [["KC"], ["KD"]]
    assert ("KS", ["KC", "KD"]) not in [(rules.CARD_NAMES[c], sorted(rules.card_names(m).split()))
                                        for c, m in h.legal_moves()]
    without = _compile(tmp_path, kinds.replace(", alone: true", ""), name="joined").module
    assert _sets(without, _hand(without, ["KD", "KC", "2C", "3C"], ["KS", "5C", "7H", "8H"]), "KS") == \
        [["KC"], ["KC", "KD"], ["KD"]]


def test_combine_all_offers_only_the_largest_unions(tmp_path):
    # 5C on 2, 3, A, 4: 2 + 3 and A + 4, both at once; one of them alone is refused.
    rules = _compile(tmp_path, "capture: {combine: all}\n").module
    h = _hand(rules, ["2C", "3C", "AC", "4D"], ["5C", "6H", "7H", "8H"])
    assert _sets(rules, h, "5C") == [["2C", "3C", "4D", "AC"]]
    with pytest.raises(IllegalMove, match="cannot take"):
        h.play(1, card_of(rules, "5C"), mask_of(rules, "2C", "3C"))
    h.play(1, card_of(rules, "5C"), mask_of(rules, "2C", "3C", "AC", "4D"))
    assert h.table == 0


def test_combine_all_with_overlapping_sets_gives_each_maximal_union():
    # Sets {a, b}, {b, c}, {d}: the unions of disjoint sets are ab, bc, d, abd, bcd; `all` keeps abd and bcd.
    a, b, c, d = 1, 2, 4, 8
    assert runtime.combine([a | b, b | c, d], "all") == [a | b | d, b | c | d]
    assert runtime.combine([a | b, b | c, d], "union") == sorted([a | b, b | c, d, a | b | d, b | c | d])
    assert runtime.combine([a | b], "all") == [a | b]


def test_combine_refuses_more_unions_than_the_bound():
    # 18 disjoint sets make 2**18 - 1 unions, more than runtime.MAX_SUBSETS: refused, never listed for minutes.
    with pytest.raises(RulespecError, match="unions of capture sets"):
        runtime.combine([1 << i for i in range(18)], "union")


def test_partition_sets_counts_the_fewest_disjoint_sets():
    a, b, c, d = 1, 2, 4, 8
    assert runtime.partition_sets(a | b | c | d, [a | b, c | d, a, b, c, d]) == 2
    assert runtime.partition_sets(a | b | c, [a | b, b | c]) == 0
    assert runtime.partition_sets(0, [a]) == 0


def test_combine_legal_moves_list_the_combined_masks_and_the_plain_lay(tmp_path):
    rules = _compile(tmp_path, "capture: {combine: all}\n").module
    h = _hand(rules, ["2C", "3C", "AC", "4D"], ["5C", "6H", "7H", "8H"])
    five = card_of(rules, "5C")
    assert [m for c, m in h.legal_moves() if c == five] == [0, mask_of(rules, "2C", "3C", "AC", "4D")]


def test_combine_is_refused_by_the_playout_and_the_native_back_end_located(tmp_path):
    compiled = _compile(tmp_path, "capture:\n  combine: all\n")
    [(what, span)] = playout_unsupported(compiled.ruleset)
    assert "capture.combine: all" in what and (span.line, span.column) == (4, 12)
    assert any("capture.combine: all" in what for what, _ in unsupported(compiled.ruleset))


def test_combine_bad_value_is_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE.format(id="bad") + "capture:\n  combine: every\n")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(str(path), disk=False)
    assert "bad.yaml:4:12" in str(err.value) and "one" in str(err.value) and "union" in str(err.value)


# -- several values --------------------------------------------------------------------------------------

ACE_1_11 = """deck:
  id: aces
  ranks: [{rank: A, value: [1, 11]}, {rank: "2", value: 2}, {rank: "3", value: 3}, {rank: "4", value: 4},
          {rank: "5", value: 5}, {rank: "6", value: 6}, {rank: "7", value: 7}, {rank: "8", value: 8},
          {rank: "9", value: 9}, {rank: "10", value: 10}, {rank: J, value: null}, {rank: Q, value: null},
          {rank: K, value: 14}]
  suits: [H, D, C, S]
"""


def test_an_ace_of_two_values_counts_as_either_played_and_on_the_table(tmp_path):
    rules = _compile(tmp_path, ACE_1_11).module
    h = _hand(rules, ["3D", "8C", "AS", "10H"], ["AH", "4C", "9H", "QH"])
    # played as 11: 3 + 8, or 10 + the ace AS as 1; as 1 (or 11): the ace AS alone
    assert _sets(rules, h, "AH") == [["10H", "AS"], ["3D", "8C"], ["AS"]]
    # on the table: 4 takes 3 + A (as 1); 9 takes 8 + A (as 1)
    assert _sets(rules, h, "4C") == [["3D", "AS"]]
    assert _sets(rules, h, "9H") == [["8C", "AS"]]


def test_an_ace_on_the_table_counts_as_11_in_a_sum(tmp_path):
    rules = _compile(tmp_path, ACE_1_11).module
    h = _hand(rules, ["3D", "AS", "6H", "7C"], ["KH", "4C", "9H", "QH"])
    assert _sets(rules, h, "KH") == [["3D", "AS"], ["6H", "7C", "AS"]]       # 11 + 3 = 14; 1 + 6 + 7 = 14


HAND_VALUES = """deck:
  id: kasino52
  ranks: [{rank: A, value: 1, hand_value: 14}, {rank: "2", value: 2}, {rank: "3", value: 3}, {rank: "4", value: 4},
          {rank: "5", value: 5}, {rank: "6", value: 6}, {rank: "7", value: 7}, {rank: "8", value: 8},
          {rank: "9", value: 9}, {rank: "10", value: 10}, {rank: J, value: 11}, {rank: Q, value: 12},
          {rank: K, value: 13}]
  suits: [H, D, C, S]
  card_values: {2S: {hand_value: 15}, 10D: {hand_value: 16}}
"""


def test_a_hand_value_counts_from_the_hand_and_the_value_on_the_table(tmp_path):
    rules = _compile(tmp_path, HAND_VALUES).module
    h = _hand(rules, ["AS", "10C", "4C", "6D"], ["AH", "2S", "10D", "5H"])
    assert _sets(rules, h, "AH") == [["10C", "4C"]]           # 14 from the hand; AS on the table is 1, no match
    assert _sets(rules, h, "2S") == [["10C", "4C", "AS"]]      # 15 = 10 + 4 + 1
    assert _sets(rules, h, "10D") == [["10C", "6D"]]          # 16; 10C on the table is 10, not 16
    assert _sets(rules, h, "5H") == [["4C", "AS"]]            # 4 + the ace as 1


def test_several_values_are_refused_by_the_playout_and_the_native_back_end(tmp_path):
    rs = _compile(tmp_path, ACE_1_11).ruleset
    assert [what for what, _ in playout_unsupported(rs)] == \
        ["cards with several values (deck value lists, hand_value, card_values)"]
    assert any("several values" in what for what, _ in unsupported(rs))


@pytest.mark.parametrize("text, where, says", [
    ("deck:\n  id: d\n  ranks: [{rank: A, value: [1]}]\n  suits: [H, D, C, S]\n", "5:28", "at least 2"),
    ("deck:\n  id: d\n  ranks: [{rank: A, value: 1, hand_value: [14, x]}]\n  suits: [H, D, C, S]\n", "5:", "x"),
    ("deck:\n  id: d\n  ranks: [{rank: A, value: 1}]\n  suits: [H, D, C, S]\n  card_values: {AH: {worth: 3}}\n",
     "7:", "worth"),
    ("deck:\n  id: d\n  ranks: [{rank: A, value: 1}]\n  suits: [H, D, C, S]\n  card_values: {2H: {value: 3}}\n",
     "7:", "2H"),
    ("deck:\n  id: d\n  ranks: [{rank: A, value: null, hand_value: 3}]\n  suits: [H, D, C, S]\n", "5:",
     "hand_value"),
])
def test_bad_card_values_are_located(tmp_path, text, where, says):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE.format(id="bad") + text)
    with pytest.raises(RulespecError) as err:
        compile_ruleset(str(path), disk=False)
    assert f"bad.yaml:{where}" in str(err.value) and says in str(err.value)


# -- event points as an expression -----------------------------------------------------------------------

SWEEP_VALUE = ACE_1_11 + """capture: {combine: all}
events:
  sweep:
    when: not empty(captured) and empty(table)
    points: 'played_value * (sets + 1)'
scoring:
  sweep: {from_events: true}
"""


def test_event_points_read_the_value_the_capture_used_and_its_sets(tmp_path):
    rules = _compile(tmp_path, SWEEP_VALUE).module
    h = _hand(rules, ["3D", "8C", "5S", "6H"], ["AH", "KC", "9H", "QH"])
    events = h.play(1, card_of(rules, "AH"), mask_of(rules, "3D", "8C", "5S", "6H"))
    assert [(e.name, e.points) for e in events] == [("sweep", 33)]     # the ace as 11: two sets, 11 * 3


def test_event_points_of_a_wrong_type_are_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE.format(id="bad") + "events:\n  e:\n    when: empty(table)\n    points: 'empty(captured)'\n"
                    "scoring:\n  e: {from_events: true}\n")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(str(path), disk=False)
    assert "bad.yaml:6:14" in str(err.value) and "expected int, found bool" in str(err.value)


def test_event_points_names_are_not_visible_elsewhere(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE.format(id="bad") + "events:\n  e:\n    when: sets > 1\n"
                    "scoring:\n  e: {from_events: true}\n")
    with pytest.raises(RulespecError) as err:
        compile_ruleset(str(path), disk=False)
    assert "bad.yaml:5:11" in str(err.value) and "sets" in str(err.value)


def test_event_points_expressions_are_refused_by_the_playout_and_native(tmp_path):
    rs = _compile(tmp_path, "events:\n  e:\n    when: empty(table)\n    points: 'count(captured)'\n"
                  "scoring:\n  e: {from_events: true}\n").ruleset
    [(what, span)] = playout_unsupported(rs)
    assert what == "event 'e': points as an expression" and span.line == 6
    assert any(w == what for w, _ in unsupported(rs))


# -- in words: explain and diff ---------------------------------------------------------------------------

def test_explain_and_diff_say_the_new_constructs_in_words(tmp_path):
    from rulespec.authoring.diff import report
    from rulespec.authoring.explain import explain
    base = compile_ruleset("kontsina").ruleset
    variant = _compile(tmp_path, HAND_VALUES + "capture: {combine: union}\nevents:\n  sweep:\n    when: empty(table)\n"
                       "    points: 'played_value * sets'\nscoring:\n  sweep: {from_events: true}\n").ruleset
    text = explain(variant)
    assert "A = 1 (14 from the hand)" in text and "the card 2S = 2 (15 from the hand)" in text
    assert "any union of disjoint ones" in text
    assert "the value the played card counted as times the number of sets the capture took" in text
    changes = report(base, variant)
    assert "how many of the sets offered one card takes: one → any union of disjoint ones" in changes
    assert "the capture value of rank A: 1 → 1 (14 from the hand)" in changes
    assert "added: the capture value of the card 10D: 10 (16 from the hand)" in changes
