"""Stages do not change their input: the check stage returns a new, frozen ruleset."""
import dataclasses
import textwrap

import pytest

from rulespec.checks import stage
from rulespec.lang import model
from rulespec.lang.expressions import walk

OPTIONAL = """\
    id: v
    extends: cirulla
    options:
      extra: {type: bool, default: false}
      target: {type: int, default: 51}
    events:
      extra: {when: 'count(captured) >= 4', enabled: options.extra, category: scope}
    game: {target: options.target}
    """


def _loaded(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(textwrap.dedent(OPTIONAL), encoding="utf-8")
    return model.load(path)


def _annotations(rs):
    """Every expression tree node's annotations (type, option value), by node."""
    out = []
    for f in ("deal_checks", "dealer_bonuses", "kinds", "outcomes"):
        items = getattr(rs, f)
        for item in (items.values() if isinstance(items, dict) else items):
            for expr in (getattr(item, "when", None), item.enabled):
                if isinstance(expr, model.Expression):
                    out += [(type(n).__name__, n.type, getattr(n, "value", None)) for n in walk(expr.tree)]
    for e in rs.events.values():
        out += [(type(n).__name__, n.type, getattr(n, "value", None)) for n in walk(e.when.tree)]
    return out


def test_check_leaves_its_input_as_it_was(tmp_path):
    rs = _loaded(tmp_path)
    before = (_annotations(rs), list(rs.events), rs.target, rs.option_values, rs.schedules, rs.warnings)
    checked = stage.check(rs, {"extra": False})
    assert checked is not rs
    assert "extra" not in checked.events and checked.target == 51 and checked.schedules
    assert (_annotations(rs), list(rs.events), rs.target, rs.option_values, rs.schedules, rs.warnings) == before
    assert all(t is None for _, t, _ in _annotations(rs))      # the loaded trees are not typed in place


def test_two_checks_of_one_ruleset_are_independent(tmp_path):
    rs = _loaded(tmp_path)
    on = stage.check(rs, {"extra": True, "target": 26})
    off = stage.check(rs, {"extra": False, "target": 31})
    assert "extra" in on.events and "extra" not in off.events
    assert (on.target, off.target) == (26, 31)
    assert on.option_values["target"] == 26


def test_the_checked_ruleset_is_frozen(tmp_path):
    checked = stage.check(_loaded(tmp_path))
    with pytest.raises(dataclasses.FrozenInstanceError):
        checked.kinds = []


def test_the_chain_documents_are_a_field(tmp_path):
    rs = _loaded(tmp_path)
    assert [d["id"] for d in rs.chain_docs] == ["v", "cirulla"]
    assert not hasattr(rs.doc, "chain_docs")
