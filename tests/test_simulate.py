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


@pytest.mark.parametrize("argv,message", [
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--workers=-1"], "--workers must be at least 1, not -1"),
    (["--seats", "0"], "played by 2, 3, 4 players, not 0"),
    (["--seats", "0", "--engine", "native"], "played by 2, 3, 4 players, not 0"),
    (["--seats", "0", "--compare", "cirulla-short"], "played by 2, 3, 4 players, not 0"),
    (["--workers", "0", "--compare", "cirulla-short"], "--workers must be at least 1, not 0"),
    (["--workers", "0", "--engine", "native"], "--workers must be at least 1, not 0"),
])
def test_bad_counts_are_one_error_line_not_a_traceback_or_a_default(argv, message):
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "2", *argv], out, err) == 2
    assert err.getvalue().strip() == message or message in err.getvalue().strip().splitlines()[-1]
    assert "Traceback" not in err.getvalue() and err.getvalue().count("\n") == 1


def test_a_huge_number_of_hands_is_cut_into_chunks_without_floats():
    from rulespec.bots.simulate import _chunks
    chunks = _chunks(10 ** 400, 2)
    assert len(chunks) == 32 and chunks[0] == (0, 10 ** 400 // 32) and chunks[-1][1] == 10 ** 400
    for total in (1, 7, 31, 32, 33, 1000, 4001, 2 ** 40 + 3):
        for workers in (1, 2, 3, 8):
            import math
            assert _chunks(total, workers) == [(a, min(a + max(1, math.ceil(total / (workers * 16))), total))
                                               for a in range(0, total, max(1, math.ceil(total / (workers * 16))))]


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


# -- how many processes a run uses (bots/simulate.py run_chunks) ------------------------------------
def test_worth_spreading_only_long_runs_on_several_cores():
    from rulespec.bots.simulate import PARALLEL_SECONDS, worth_spreading
    per_hand = 0.0002                                      # about a random Cirulla hand
    assert not worth_spreading(125, 125 * per_hand, 3875, cores=2)      # 4000 hands: under a second
    assert worth_spreading(125, 125 * per_hand, 100_000, cores=2)       # 20 s of work
    assert not worth_spreading(125, 125 * per_hand, 100_000, cores=1)   # one core: nothing to gain
    assert not worth_spreading(1, PARALLEL_SECONDS, 1, cores=8)         # one unit left
    assert worth_spreading(2, PARALLEL_SECONDS, 3, cores=2) and not worth_spreading(3, PARALLEL_SECONDS, 2, cores=2)


def _clock(monkeypatch, seconds_per_call):
    """A CPU clock for run_chunks that advances by `seconds_per_call` each time it is read."""
    from rulespec.bots import simulate as sim
    ticks = iter(range(1000))
    monkeypatch.setattr(sim, "_cpu_seconds", lambda: next(ticks) * seconds_per_call)
    monkeypatch.setattr(sim, "default_workers", lambda: 2)


def test_a_short_run_stays_in_one_process(monkeypatch):
    from rulespec.bots import simulate as sim
    _clock(monkeypatch, 0.001)

    def no_pool(*args, **kwargs):
        raise AssertionError("a short run started worker processes")
    monkeypatch.setattr(sim, "_run_processes", no_pool)
    stats = simulate("cirulla", hands=64, seed=4)
    assert stats.workers == 1 and stats.hands == 64
    assert to_dict(stats) == to_dict(simulate("cirulla", hands=64, seed=4, workers=1))


def test_a_long_run_spreads_over_the_cores_with_the_same_figures(monkeypatch):
    from rulespec.bots import simulate as sim
    _clock(monkeypatch, 1000.0)                            # the first chunk "took" 1000 s
    pooled = []
    real = sim._run_processes

    def pool(job, chunks, workers, progress, work=None):
        pooled.append((chunks[0], workers))
        return real(job, chunks, workers, progress, work)
    monkeypatch.setattr(sim, "_run_processes", pool)
    stats = simulate("cirulla", hands=64, seed=4, bots="random,greedy")
    assert pooled == [((2, 4), 2)]                         # chunks of 2 hands: the first one played here
    assert stats.workers == 2
    assert to_dict(stats) == to_dict(simulate("cirulla", hands=64, seed=4, bots="random,greedy", workers=1))


def test_explicit_workers_are_kept(monkeypatch):
    from rulespec.bots import simulate as sim
    _clock(monkeypatch, 0.0)
    assert simulate("cirulla", hands=8, seed=1, workers=2).workers == 2
    assert simulate("cirulla", hands=8, seed=1, workers=1).workers == 1


def test_the_json_says_how_many_processes_played():
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla-short", "--hands", "6", "--json"], out, err) == 0
    assert json.loads(out.getvalue())["workers"] == 1


# -- the tables without rich (bots/simulate.py render_text) ------------------------------------------
def _rich_text(stats, title, bots):
    from rich.console import Console

    from rulespec.bots.simulate import render
    buffer = io.StringIO()
    render(stats, Console(file=buffer, width=80), title=title, bots=bots)
    return buffer.getvalue()


def _every_shipped_run():
    from rulespec.compiler.build import compile_ruleset
    from rulespec.source.rulesets import shipped_ids
    for rid in shipped_ids():
        rules = compile_ruleset(rid).module
        for seats in rules.SEATS_ALLOWED:
            yield rid, seats


def test_the_tables_without_rich_are_richs_bytes():
    from rulespec.bots.registry import parse_bots
    from rulespec.bots.simulate import render_text
    drawn = 0
    for k, (rid, seats) in enumerate(_every_shipped_run()):
        spec = ("random", "greedy", ",".join(("random", "greedy")[i % 2] for i in range(seats)))[k % 3]
        games = k % 4 == 1
        stats = simulate(rid, seats=seats, seed=k, workers=1, bots=spec, **({"games": 1} if games else {"hands": 3}))
        bots = parse_bots(spec, seats, stats.sides)
        # As the command's titles, some long enough for rich to wrap them over the table.
        title = f"{rid}: {1 if games else 3 * 10 ** (k % 6)} {'games' if games else 'hands'}, seed {k}, " \
                f"bots {','.join(bots)}"
        text = render_text(stats, title=title, bots=bots)
        if text is not None:
            assert text == _rich_text(stats, title, bots), (rid, seats)
            drawn += 1
    assert drawn > 70                     # most shipped rulesets' tables are drawn without rich


@pytest.mark.parametrize("title, bots", [
    ("a-title-with-one-word-longer-than-the-table-it-stands-above-which-rich-would-fold", None),
    ("two  spaces", None),
    ("markup [bold]here[/bold]", None),
    ("an :emoji: code", None),
    ("wide characters 牌", None),
    ("bots too long for 80 columns", ["random-" * 6, "greedy", "random", "greedy"]),
])
def test_what_only_rich_draws_right_is_left_to_rich(title, bots):
    from rulespec.bots.simulate import render_text
    stats = simulate("cirulla", hands=2, seed=1, workers=1)
    assert render_text(stats, title=title, bots=bots or ["random"] * 4) is None
    assert render_text(stats, title="a short title", bots=["random"] * 4) is not None


def test_the_command_prints_richs_bytes_without_rich(monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "5", "--seed", "3", "--no-timings"], out, err) == 0
    monkeypatch.setenv("FORCE_COLOR", "")            # rich draws (FORCE_COLOR empty: still no styles)
    forced = io.StringIO()
    assert run(["simulate", "cirulla", "--hands", "5", "--seed", "3", "--no-timings"], forced, err) == 0
    assert out.getvalue() == forced.getvalue() and "┏" in out.getvalue()


def test_hands_are_played_with_fewer_collections_and_the_threshold_put_back(monkeypatch):
    import gc

    from rulespec.bots import simulate as sim
    before = gc.get_threshold()
    seen = []
    real = sim._play_chunk

    def spy(job, a, b):
        seen.append(gc.get_threshold())
        return real(job, a, b)
    monkeypatch.setattr(sim, "_play_chunk", spy)
    simulate("cirulla", hands=4, seed=1, workers=1)
    assert seen and all(t[0] == max(before[0], sim.GC_GENERATION0) and t[1:] == before[1:] for t in seen)
    assert gc.get_threshold() == before

    def failing(job, a, b):
        raise RuntimeError("a hand failed")
    monkeypatch.setattr(sim, "_play_chunk", failing)
    with pytest.raises(RuntimeError):
        simulate("cirulla", hands=4, seed=1, workers=1)
    assert gc.get_threshold() == before


def test_a_game_past_the_hand_limit_is_located_at_its_target(tmp_path):
    """A target the hands can reach but not within MAX_HANDS_PER_GAME: the error points at game.target and
    says the limit (the playouts' path, which whole games of random bots take, said neither)."""
    path = tmp_path / "far.yaml"
    path.write_text("id: far\nextends: scopa\ngame:\n  target: 1000000\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", str(path), "--games", "1", "--workers", "1"], out, err) == 2
    assert err.getvalue().startswith(f"{path}:4:11: game 0 has not ended after 1000 hands, the most a game may "
                                     f"last: can the target 1000000 be reached in fewer?\n")
