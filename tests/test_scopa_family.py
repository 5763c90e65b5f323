"""Issue 14: the Scopa family's names are a contract (transcripts written by others use them against
the shipped ids): categories, events, deal checks, options and player counts, as the issue names them."""
import pytest

from rulespec.compiler.build import compile_ruleset

SCOPA = ["scope", "carte", "denari", "settebello", "primiera"]
FAMILY = {
    # id: (categories, events, deal checks, dealer events, options, player counts)
    "scopa": (SCOPA, {"scopa"}, ["three_kings"], [], {"target": 11}, [2, 3, 4, 6]),
    "scopa-d-assi": (SCOPA, {"scopa"}, ["three_kings"], [], {"target": 11, "ace_scopa": False}, [2, 3, 4, 6]),
    "scopone": (SCOPA + ["napola"], {"scopa"}, ["three_kings"], [], {"target": 11, "napola": False}, [4]),
    "scopone-scientifico": (SCOPA + ["napola"], {"scopa"}, [], [], {"target": 11, "napola": False}, [4]),
    "re-bello": (SCOPA + ["re_bello"], {"scopa"}, ["three_kings"], [], {"target": 11}, [2, 3, 4, 6]),
    "escoba": (["escobas", "cartas", "oros", "siete_de_oros", "setenta"], {"escoba"}, [],
               ["dos_escobas_de_mano", "escoba_de_mano"], {"target": 15, "sevens": "setenta"}, [2, 3, 4, 6]),
}


@pytest.mark.parametrize("rid", sorted(FAMILY))
def test_contract_names(rid):
    categories, events, checks, dealer, options, counts = FAMILY[rid]
    rs = compile_ruleset(rid).ruleset
    assert list(rs.categories) == categories
    assert set(rs.events) == events
    assert [c.name for c in rs.deal_checks] == checks
    assert [b.event for b in rs.dealer_bonuses] == dealer
    assert {name: o.default for name, o in rs.options.items()} == options
    assert rs.player_counts == counts
    assert rs.deck.id == "latin40"
    assert rs.source.startswith("rulespec docs scopa-family") and rs.description


def test_option_values_from_the_issue():
    assert compile_ruleset("scopa", {"target": 21}).ruleset.option_values["target"] == 21
    assert compile_ruleset("escoba", {"sevens": "most_sevens"}).ruleset.option_values["sevens"] == "most_sevens"
