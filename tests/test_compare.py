"""`rulespec simulate VARIANT --compare BASE`: paired hands from the same seeds, differences with 95% intervals."""
import io
import json
import textwrap

import pytest

from rulespec.bots.compare import compare
from rulespec.bots.simulate import simulate
from rulespec.cli.main import run
from rulespec.errors import RulespecError

DOUBLE_SCOPA = """\
id: double-scopa
extends: cirulla
events:
  scopa: {points: 2}
"""


@pytest.fixture
def double_scopa(tmp_path):
    path = tmp_path / "double-scopa.yaml"
    path.write_text(textwrap.dedent(DOUBLE_SCOPA), encoding="utf-8")
    return path


def test_a_ruleset_against_itself_differs_by_exactly_nothing():
    p = compare("cirulla", "cirulla", hands=40, seed=2, workers=1)
    assert p.hands == 40 and p.same_deal == 40
    for cat in p.categories:
        for side in range(p.sides):
            assert p.difference(side, cat) == (0.0, 0.0)
            assert not p.significant(side, cat)


def test_points_of_an_event_change_only_that_category(double_scopa):
    # Random bots ignore points, so both hands are played alike: carte, denari... do not move at all,
    # and the scope difference is exactly the number of scopas of each hand (> 0 on average).
    p = compare(double_scopa, "cirulla", hands=60, seed=5, workers=1)
    for cat in ("carte", "denari", "settebello", "primiera", "grande", "piccola"):
        assert [p.difference(s, cat) for s in range(2)] == [(0.0, 0.0), (0.0, 0.0)]
    for side in range(2):
        m, half = p.difference(side, "scope")
        assert m > 0 and half < m and p.significant(side, "scope")
        # variant scope = base scope + scopas; the base scope counts scopas plus the dealer bonuses.
        assert p.mean("variant", side, "scope") - p.mean("base", side, "scope") == pytest.approx(m)
        assert p.difference(side, "total") == pytest.approx(p.difference(side, "scope"))


def test_the_base_is_played_as_simulate_plays_it():
    p = compare("cirulla-no-decino", "cirulla", hands=30, seed=9, workers=1)
    s = simulate("cirulla", hands=30, seed=9, workers=1)
    for side in range(2):
        for cat in ("scope", "carte", "total"):
            assert p.mean("base", side, cat) == pytest.approx(s.mean(side, cat))


def test_figures_do_not_depend_on_the_workers():
    a = compare("cirulla-no-decino", "cirulla", hands=24, seed=3, workers=1)
    b = compare("cirulla-no-decino", "cirulla", hands=24, seed=3, workers=2)
    assert (a.diff, a.diff_sq, a.base, a.variant) == (b.diff, b.diff_sq, b.base, b.variant)


def test_categories_of_one_ruleset_only_count_zero_in_the_other():
    p = compare("cirulla-tournament-cappotto", "cirulla", hands=10, seed=1, workers=1)
    assert p.only_variant == ("cappotto",)
    assert all(p.mean("base", s, "cappotto") == 0 for s in range(2))


def test_cli_table_and_json(double_scopa):
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", str(double_scopa), "--compare", "cirulla", "--hands", "20", "--seed", "1",
                "--workers", "1"], out, err) == 0
    text = out.getvalue()
    assert "double-scopa against cirulla: 20 paired hands" in text and "variant - base (95%)" in text
    scope = next(line for line in text.splitlines() if "scope" in line)
    assert scope.rstrip("│ ").endswith("yes")
    out = io.StringIO()
    assert run(["simulate", str(double_scopa), "--compare", "cirulla", "--hands", "20", "--seed", "1",
                "--workers", "1", "--json"], out, err) == 0
    doc = json.loads(out.getvalue())
    assert doc["variant"] == "double-scopa" and doc["base"] == "cirulla" and doc["hands"] == 20
    assert doc["categories"]["carte"]["0"] == {"base": doc["categories"]["carte"]["0"]["base"],
                                               "variant": doc["categories"]["carte"]["0"]["base"],
                                               "difference": 0.0, "ci95": 0.0, "significant": False}
    assert doc["categories"]["scope"]["1"]["significant"] is True


def test_cli_refuses_what_cannot_be_paired(capsys):
    assert run(["simulate", "cirulla", "--compare", "cirulla", "--games", "2"]) == 2
    assert "--compare plays paired hands: give --hands, not --games" in capsys.readouterr().err
    assert run(["simulate", "cirulla", "--compare", "cirulla-a-cinque", "--hands", "4"]) == 2
    assert "cirulla-a-cinque is played by" in capsys.readouterr().err
    with pytest.raises(RulespecError, match="at least 2 hands"):
        compare("cirulla", "cirulla", hands=1)
