"""`rulespec simulate`: reproducible per seed whatever the workers, tables and JSON, bots per seat, Ray."""
import io
import json
import sys

import pytest

from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.bots.simulate import simulate, to_dict


def sim_json(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(["simulate", *argv, "--json"], out, err)
    assert code == 0, err.getvalue()
    doc = json.loads(out.getvalue())
    for volatile in ("seconds", "hands_per_second", "workers", "backend"):
        doc.pop(volatile)
    return doc


def test_same_seed_same_statistics_with_one_and_two_workers():
    one = sim_json("cirulla", "--hands", "30", "--seed", "5", "--workers", "1", "--bots", "random,greedy")
    two = sim_json("cirulla", "--hands", "30", "--seed", "5", "--workers", "2", "--bots", "random,greedy")
    assert one == two
    assert one["hands"] == 30
    other = sim_json("cirulla", "--hands", "30", "--seed", "6", "--workers", "2", "--bots", "random,greedy")
    assert other["mean"] != one["mean"]


def test_games_are_reproducible_across_workers():
    one = sim_json("cirulla-short", "--games", "4", "--seed", "2", "--workers", "1")
    two = sim_json("cirulla-short", "--games", "4", "--seed", "2", "--workers", "2")
    assert one == two
    assert one["games"] == 4 and sum(one["game_wins"]) == 4
    assert one["win_rate"]["by"] == "games"
    assert one["mean_hands_per_game"] * 4 == one["hands"]


def test_json_has_every_statistic():
    doc = sim_json("cirulla", "--hands", "20", "--seed", "1", "--bots", "random,greedy,random,greedy")
    assert doc["bots"] == ["random", "greedy", "random", "greedy"]
    assert set(doc["mean"]["0"]) == {"scope", "carte", "denari", "settebello", "primiera", "grande",
                                     "piccola", "total", "margin"}
    assert set(doc["ci95"]) == {"0", "1"}
    assert set(doc["win_rate"]["seat"]) == {"0", "1", "2", "3"}
    assert doc["mean_plays_per_hand"] == 36.0          # 4 players, 40 cards, 4 on the table at the start
    assert doc["mean_legal_moves"] >= 1
    assert doc["mean"]["0"]["margin"] == -doc["mean"]["1"]["margin"]


def test_table_output():
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "30", "--seed", "1", "--seats", "3", "--workers", "1"],
               out, err) == 0
    text = out.getvalue()
    for want in ("mean points", "±", "hands won per seat", "legal moves per turn", "side 2"):
        assert want in text, text


@pytest.mark.parametrize("argv", [["cirulla"], ["cirulla", "--seats", "3"],
                                  ["cirulla-a-cinque", "--bots", "greedy,ismcts:4,random,random,greedy"]])
def test_tables_fit_80_columns(argv):
    out = io.StringIO()
    assert run(["simulate", *argv, "--hands", "6", "--seed", "1", "--workers", "1"], out, io.StringIO()) == 0
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80, out.getvalue()


def test_json_without_timings_is_byte_stable():
    argv = ["simulate", "cirulla", "--hands", "12", "--seed", "3", "--json", "--no-timings"]
    outs = []
    for workers in ("1", "2"):
        out = io.StringIO()
        assert run([*argv, "--workers", workers], out, io.StringIO()) == 0
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    assert not {"seconds", "hands_per_second", "workers"} & set(json.loads(outs[0]))


def test_win_rates_have_wilson_intervals():
    from rulespec.bots.simulate import wilson
    # Wilson (1927): 0 of 10 is not "0% ± 0%"; 5 of 10 is 23.7%-76.3%.
    assert [round(x, 4) for x in wilson(0, 10)] == [0.0, 0.2775]
    assert [round(x, 4) for x in wilson(5, 10)] == [0.2366, 0.7634]
    assert [round(x, 4) for x in wilson(10, 10)] == [0.7225, 1.0]
    doc = sim_json("cirulla-short", "--games", "3", "--seed", "2", "--workers", "1")
    for side, (low, high) in doc["win_rate"]["side_interval95"].items():
        rate = doc["win_rate"]["side"][side]
        assert 0 <= low <= rate <= high <= 1 and high - low > 0.2  # three games decide little


def test_readme_command_still_works():
    # README line 1 (and CI): `rulespec simulate cirulla --hands 200 --seed 1`, with the old --bot spelling too.
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "20", "--seed", "1", "--bot", "greedy"], out, err) == 0


@pytest.mark.parametrize("bots,message", [
    ("random,clever", "unknown bot 'clever'"),
    ("random,greedy,random", "3 bots for 4 seats"),
    ("greedy:5", "only ismcts takes a budget"),
])
def test_bad_bots_are_located_errors(bots, message):
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "2", "--bots", bots], out, err) == 2
    assert message in err.getvalue()


def test_simulate_api_accepts_a_compiled_ruleset(cirulla):
    a = simulate(cirulla, hands=10, seed=3, workers=1)
    b = simulate("cirulla", hands=10, seed=3, workers=2)
    assert to_dict(a) == to_dict(b)
    with pytest.raises(RulespecError):
        simulate("cirulla", seed=1)


def test_ray_backend_gives_the_same_statistics():
    pytest.importorskip("ray")
    local = sim_json("cirulla", "--hands", "24", "--seed", "4", "--workers", "1")
    on_ray = sim_json("cirulla", "--hands", "24", "--seed", "4", "--workers", "2", "--backend", "ray")
    assert local == on_ray


def test_ray_backend_without_ray_says_how_to_install_it(monkeypatch):
    # Both forms: an installed rulespec's extra, and a checkout's.
    from rulespec.cli.main import run
    monkeypatch.setitem(sys.modules, "ray", None)            # `import ray` raises ImportError
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "4", "--seed", "1", "--workers", "2", "--backend", "ray"],
               out, err) == 2
    assert "pip install 'rulespec[ray]'" in err.getvalue() and "pip install '.[ray]'" in err.getvalue()
