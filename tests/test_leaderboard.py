"""Baselines and the leaderboard (issue 25 item 5): saved policies (bots/saved.py) as `policy:FILE` bots, the
cross-play (bots/leaderboard.py, `rulespec leaderboard`) with its table, JSON and HTML page, and the baselines
as OpenSpiel bots and PettingZoo policies (interop/baselines.py)."""
import io
import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rulespec
from rulespec.bots.leaderboard import cross_play, parse_entrants
from rulespec.bots.registry import make_bot
from rulespec.bots.saved import TabularBot, load_policy, train_tabular, write_tabular
from rulespec.cli.main import run
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, shuffled_source
from tests.browser import CHROMIUM, SKIP_REASON, Browser, assert_fits

try:
    import rulespec.interop.mlp  # noqa: F401 - the .npz reader (the rl extra)
except ImportError:
    pass


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def scopa():
    return rulespec.compile("scopa").module


@pytest.fixture(scope="module")
def table_file(tmp_path_factory, scopa):
    bot = train_tabular(scopa, 2, 60, random.Random(1))
    path = tmp_path_factory.mktemp("policies") / "scopa-tabular.json"
    write_tabular(bot, path)
    return path


def _mlp_file(path, rules, seats, seed=0):
    np = pytest.importorskip("numpy")
    from rulespec.interop.mlp import write_mlp
    from rulespec.interop.decisions import ActionLayout
    from rulespec.interop.observation import Observer
    rng = np.random.default_rng(seed)
    n_in, n_out = Observer(rules, seats).size, ActionLayout(rules, seats).size
    layers = [(rng.normal(size=(16, n_in)), rng.normal(size=16)), (rng.normal(size=(n_out, 16)), np.zeros(n_out))]
    write_mlp(layers, path, ruleset=rules.RULESET_ID, seats=seats)
    return path


def _play_hand(rules, bots, seed):
    from rulespec.bots.policy import play_out
    hand = Hand(rules, len(bots), 0, shuffled_source(rules.N_CARDS, random.Random(seed)))
    play_out(hand, bots)
    return hand


def test_a_trained_table_saves_as_json_loads_back_and_plays(table_file, scopa):
    data = json.loads(table_file.read_text())
    assert data["format"] == "rulespec-policy" and data["kind"] == "tabular" and data["ruleset"] == "scopa"
    assert len(data["table"]) > 5
    bot = make_bot(f"policy:{table_file}", random.Random(0))
    assert isinstance(bot, TabularBot) and len(bot.table) == len(data["table"])
    hand = _play_hand(scopa, [bot, make_bot("random", random.Random(1))], 3)
    assert hand.is_over and not bot.trace            # playing records nothing
    # The best key of the table is what it plays where that key is on offer.
    best = max(bot.table, key=lambda k: bot.table[k][0] / bot.table[k][1])
    assert bot._value(best) == max(bot._value(k) for k in bot.table)


def test_a_perceptron_file_plays_legal_moves_through_the_observation(tmp_path, scopa):
    path = _mlp_file(tmp_path / "mlp.npz", scopa, 2)
    bot = make_bot(f"policy:{path}", random.Random(0))
    for seed in range(3):
        assert _play_hand(scopa, [bot, make_bot("greedy", random.Random(seed))], seed).is_over


def test_a_policy_plays_only_the_game_it_was_trained_for(table_file, tmp_path):
    cirulla = rulespec.compile("cirulla").module
    with pytest.raises(RulespecError, match="trained for scopa at 2 seats, not cirulla at 2"):
        _play_hand(cirulla, [make_bot(f"policy:{table_file}", random.Random(0)), make_bot("random", random.Random(0))], 1)
    path = _mlp_file(tmp_path / "wrong.npz", cirulla, 2)
    data = dict(np_load(path))
    data["ruleset"] = __import__("numpy").array("scopa")
    bad = tmp_path / "shape.npz"
    __import__("numpy").savez(bad, **data)
    scopa = rulespec.compile("scopa").module
    with pytest.raises(RulespecError, match="the policy maps .* inputs to .* actions; scopa at 2 seats has"):
        _play_hand(scopa, [load_policy(bad), make_bot("random", random.Random(0))], 1)


def np_load(path):
    np = pytest.importorskip("numpy")
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@pytest.mark.parametrize("name,content,message", [
    ("a.pkl", b"x", "a policy file is .json"),
    ("a.json", b"{not json", "not valid JSON"),
    ("a.json", b'{"format": "other"}', 'not a rulespec policy file'),
    ("a.json", b'{"format": "rulespec-policy", "version": 9}', "version 9"),
    ("a.json", b'{"format": "rulespec-policy", "version": 1, "ruleset": "scopa", "seats": 2, "kind": "tabular", '
               b'"key": ["points", "takes", "sweeps", "left", "lays"], "table": [[[1, 2], 3.0, 1]]}', "row 0"),
    ("a.json", b'{"format": "rulespec-policy", "version": 1, "ruleset": "scopa", "seats": 2, "kind": "tabular", '
               b'"key": ["points"], "table": []}', '"key" must be'),
    ("a.npz", b"PK\x03\x04 broken", "not a readable .npz"),
])
def test_a_bad_policy_file_is_one_message_naming_it(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(RulespecError, match=message) as got:
        make_bot(f"policy:{path}", random.Random(0))
    assert str(path) in str(got.value)


def test_a_pickled_object_inside_an_npz_is_refused_unrun(tmp_path):
    np = pytest.importorskip("numpy")
    path = tmp_path / "evil.npz"
    np.savez(path, format=np.array("rulespec-policy"), version=np.array(1), kind=np.array("mlp"),
             ruleset=np.array("scopa"), seats=np.array(2), activation=np.array("tanh"), layers=np.array(1),
             weight_0=np.array([object()], dtype=object), bias_0=np.zeros(1))
    with pytest.raises(RulespecError, match="without pickled objects"):
        load_policy(path)
    assert zipfile.is_zipfile(path)
    with pytest.raises(RulespecError, match="cannot read the policy file"):
        make_bot(f"policy:{tmp_path / 'missing.json'}", random.Random(0))
    with pytest.raises(RulespecError, match="policy:FILE"):
        make_bot("policy", random.Random(0))


def test_play_takes_a_trained_agent_as_a_bot(table_file, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 60))
    code, out, err = _cli(["play", "scopa", "--seed", "3", "--hands", "1", "--bots", f"policy:{table_file}"])
    assert code == 0, err
    assert "hand 1 score" in out and f"seat 1 (policy:{table_file})" in out


def test_cross_play_is_duplicate_deterministic_and_antisymmetric(scopa):
    board = cross_play(scopa, ["random", "greedy", "ismcts:4"], hands=3, seed=5)
    again = cross_play(scopa, ["random", "greedy", "ismcts:4"], hands=3, seed=5)
    assert board.to_dict() == again.to_dict()
    assert set(board.pairs) == {("random", "greedy"), ("random", "ismcts:4"), ("greedy", "ismcts:4")}
    for pair in board.pairs.values():
        assert pair.deals == 3 and pair.hands == 6
    m, hw = board.versus("greedy", "random")
    assert (m, hw) == (-board.versus("random", "greedy")[0], board.versus("random", "greedy")[1])
    assert board.ranking()[0] != "random" or board.score("random")[0] >= board.score("greedy")[0]


def test_duplicate_deals_cancel_the_cards(scopa, table_file, tmp_path):
    """Each deal is played twice, the seats swapped, from the same cards: a deterministic agent against a copy
    of itself (the same table under another file name) comes out exactly even on every deal."""
    twin = tmp_path / "twin.json"
    twin.write_bytes(table_file.read_bytes())
    board = cross_play(scopa, [f"policy:{table_file}", f"policy:{twin}"], hands=4, seed=2)
    pair = next(iter(board.pairs.values()))
    assert (pair.deals, pair.total, pair.squares) == (4, 0, 0)
    assert pair.wins <= pair.deals          # a side that wins one hand of a deal loses its twin


@pytest.mark.parametrize("argv,message", [
    (["--bots", "random"], "two entrants at least"),
    (["--bots", "random,random"], "named twice: random"),
    (["--bots", "random,bogus"], "unknown bot 'bogus'"),
    (["--hands", "0"], "deals per pair, from 1"),
])
def test_leaderboard_refuses_what_it_cannot_run(argv, message):
    code, out, err = _cli(["leaderboard", "scopa", *argv])
    assert code != 0 and message in err and "Traceback" not in err


def test_leaderboard_needs_two_sides():
    code, _, err = _cli(["leaderboard", "cirulla", "--seats", "3", "--bots", "random,greedy", "--hands", "1"])
    assert code != 0 and "3 sides" in err


def test_leaderboard_prints_a_table_json_and_a_page(tmp_path, table_file):
    code, out, err = _cli(["leaderboard", "scopa", "--bots", f"random,greedy,policy:{table_file}", "--hands", "2"])
    assert code == 0, err
    assert "scopa, 2 seats" in out and "4 hands per pair" in out and "greedy" in out
    code, out, err = _cli(["leaderboard", "scopa", "--bots", "random,greedy", "--hands", "2", "--json",
                           "--html", str(tmp_path / "board.html")])
    assert code == 0, err
    data = json.loads(out)
    assert [r["entrant"] for r in data["ranking"]] == sorted(["random", "greedy"],
                                                           key=lambda a: -next(r["score"] for r in data["ranking"]
                                                                               if r["entrant"] == a))
    assert data["pairs"][0]["hands"] == 4 and data["hands_per_pair"] == 4
    assert f"wrote {tmp_path / 'board.html'}" in err
    text = (tmp_path / "board.html").read_text()
    assert "<script" not in text and 'id="board"' in text


def test_the_page_escapes_entrant_names(tmp_path, scopa, table_file):
    from rulespec.authoring.html_board import render_board
    hostile = tmp_path / "<b>x&.json"
    hostile.write_bytes(table_file.read_bytes())
    board = cross_play(scopa, ["random", f"policy:{hostile}"], hands=1)
    text = render_board(board, '<script>alert(1)</script>')
    assert "<b>x" not in text and "&lt;b&gt;x&amp;.json" in text and "<script>alert" not in text


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_page_in_a_browser(tmp_path):
    page = tmp_path / "board.html"
    code, _, err = _cli(["leaderboard", "scopa", "--bots", "random,greedy,ismcts:3", "--hands", "2",
                         "--html", str(page)])
    assert code == 0, err
    with Browser() as b:
        b.open(page, width=1000)
        assert b.js("document.querySelectorAll('#board tr').length") == 4
        assert b.js("document.querySelectorAll('script').length") == 0
        assert b.js("document.querySelectorAll('#board svg.ci').length") == 3
        assert b.errors == []
        assert_fits(b, page, 400)


def test_the_baselines_as_openspiel_bots_play_whole_games():
    pyspiel = pytest.importorskip("pyspiel")
    import rulespec.interop.openspiel  # noqa: F401 - registers the game
    from rulespec.interop.baselines import openspiel_bot
    game = pyspiel.load_game("rulespec", {"ruleset": "cirulla", "seats": 2})
    for specs in (("greedy", "random"), ("ismcts:4", "greedy")):
        bots = [openspiel_bot(game, p, spec, seed=p) for p, spec in enumerate(specs)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
        assert len(returns) == 2 and returns[0] == -returns[1]


def test_a_perceptron_file_as_an_openspiel_bot_and_pettingzoo_policies(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    import rulespec.interop.openspiel  # noqa: F401
    from rulespec.interop.baselines import openspiel_bot, pettingzoo_policy
    from rulespec.interop.pettingzoo import env as aec
    cicera = rulespec.compile("cirulla-knock-after-deal").module
    path = _mlp_file(tmp_path / "knock.npz", cicera, 3)
    game = pyspiel.load_game("rulespec", {"ruleset": "cirulla-knock-after-deal", "seats": 3})
    bots = [openspiel_bot(game, 0, f"policy:{path}"), openspiel_bot(game, 1, "greedy"),
            openspiel_bot(game, 2, "random", seed=2)]
    assert len(pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)) == 3
    e = aec("cirulla-knock-after-deal", seats=3)
    policies = {"player_0": pettingzoo_policy(e, f"policy:{path}"), "player_1": pettingzoo_policy(e, "ismcts:4"),
                "player_2": pettingzoo_policy(e, "greedy")}
    e.reset(seed=4)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else policies[agent](obs, agent))
    assert e.hand.is_over


def test_parse_entrants_defaults():
    assert parse_entrants(None) == ["random", "greedy", "ismcts:20", "ismcts:80"]


@pytest.mark.parametrize("kind", ["json", "npz"])
def test_the_command_line_plays_json_and_npz_policies(kind, table_file, scopa, tmp_path):
    """`rulespec play --bots policy:FILE` for both formats, in a fresh process: this module imports
    rulespec.interop.mlp, which would hide a command line that cannot read .npz by itself."""
    pytest.importorskip("numpy")
    path = table_file if kind == "json" else _mlp_file(tmp_path / "agent.npz", scopa, 2)
    root = Path(rulespec.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "rulespec", "play", "scopa", "--seed", "3", "--hands", "1",
                           "--bots", f"policy:{path}"], input="1\n" * 60, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "hand 1 score" in done.stdout and f"seat 1 (policy:{path})" in done.stdout
