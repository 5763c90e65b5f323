"""The shipped MaskablePPO checkpoint (rulespec/policies/scopa-ppo.npz, issue 25 item 5): named `policy:scopa-ppo`
from Python and the command line, it plays legal moves, beats the random bot (and the same network with its
weights shuffled does not), enters `rulespec leaderboard`, and is refused for a game or seat count it was not
trained for; an unknown name lists the shipped policies."""
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rulespec
from rulespec.bots.registry import make_bot
from rulespec.bots.shipped import shipped_policies
from tests.test_leaderboard import _cli
from rulespec.errors import RulespecError

pytest.importorskip("numpy")      # the .npz checkpoint plays through numpy (the rl extra)

ROOT = Path(rulespec.__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def scopa():
    return rulespec.compile("scopa").module


def test_the_checkpoint_is_shipped_and_named(scopa):
    import rulespec.interop.mlp  # noqa: F401  (from Python, an .npz policy plays once its reader is imported)
    assert "scopa-ppo" in shipped_policies()
    bot = make_bot("policy:scopa-ppo", random.Random(0))
    assert (bot.ruleset, bot.seats) == ("scopa", 2)
    from rulespec.bots.policy import play_out
    from rulespec.run.engine import Hand, shuffled_source
    for seed in range(4):
        hand = Hand(scopa, 2, seed % 2, shuffled_source(scopa.N_CARDS, random.Random(seed)))
        bots = [bot, make_bot("random", random.Random(seed))]
        play_out(hand, bots if seed % 2 else bots[::-1])     # play_out refuses an illegal move
        assert hand.is_over


MARGIN_DEALS = 100          # duplicate deals (200 hands) of the leaderboard's seed 0: the same games every run
MARGIN = 0.25               # points a hand, with the 95% interval above zero besides


def _against_random(spec: str) -> tuple[float, float]:
    """`spec`'s mean points a hand against the random bot and the 95% half-width, as `rulespec leaderboard
    scopa --bots SPEC,random --hands 100` measures them (duplicate deals, seed 0)."""
    import rulespec.interop.mlp  # noqa: F401  (the .npz reader)
    from rulespec.bots.leaderboard import cross_play
    board = cross_play(rulespec.compile("scopa").module, [spec, "random"], hands=MARGIN_DEALS, seed=0)
    return board.versus(spec, "random")


def _beats_random(mean: float, half: float) -> bool:
    return mean >= MARGIN and mean - half > 0


def test_the_checkpoint_beats_the_random_bot():
    mean, half = _against_random("policy:scopa-ppo")
    assert _beats_random(mean, half), f"{mean:+.2f} ± {half:.2f} points a hand against random"


def test_the_same_network_with_shuffled_weights_does_not(tmp_path):
    """The margin above is the training's: each layer's weights and biases, shuffled (the same values, the same
    shapes, in a random order), play no better than the random bot's margin allows."""
    import numpy as np
    from rulespec.interop.mlp import write_mlp
    trained = make_bot("policy:scopa-ppo", random.Random(0))
    rng = np.random.default_rng(0)
    layers = [(rng.permutation(w.reshape(-1)).reshape(w.shape), rng.permutation(b)) for w, b in trained.layers]
    write_mlp(layers, tmp_path / "shuffled.npz", ruleset="scopa", seats=2, activation=trained.activation)
    mean, half = _against_random(f"policy:{tmp_path / 'shuffled.npz'}")
    assert not _beats_random(mean, half), f"{mean:+.2f} ± {half:.2f} points a hand against random"


def test_an_unknown_name_lists_the_shipped_policies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulespecError, match=r"policy:scopa-pp: no such policy file, and no shipped policy of "
                                            r"that name \(shipped: .*scopa-ppo"):
        make_bot("policy:scopa-pp", random.Random(0))
    code, out, err = _cli(["play", "scopa", "--bots", "policy:nope", "--hands", "1"])
    assert code == 2 and "no shipped policy of that name (shipped: " in err and "Traceback" not in err
    # A file of the name, where one exists, is what the spec names: the shipped policy does not shadow it.
    (tmp_path / "scopa-ppo").write_bytes(b"x")
    with pytest.raises(RulespecError, match="scopa-ppo: a policy file is .json"):
        make_bot("policy:scopa-ppo", random.Random(0))


@pytest.mark.parametrize("argv,message", [
    (["leaderboard", "cirulla", "--seats", "2", "--bots", "random,policy:scopa-ppo", "--hands", "1"],
     "policy:scopa-ppo was trained for scopa at 2 seats, not cirulla at 2"),
    (["leaderboard", "scopa", "--seats", "4", "--bots", "random,policy:scopa-ppo", "--hands", "1"],
     "policy:scopa-ppo was trained for scopa at 2 seats, not scopa at 4"),
])
def test_another_game_or_seat_count_is_refused_before_play(argv, message):
    code, out, err = _cli(argv)
    assert code == 2 and message in err and not out


def test_the_leaderboard_takes_it_as_an_entrant():
    code, out, err = _cli(["leaderboard", "scopa", "--bots", "random,policy:scopa-ppo", "--hands", "2"])
    assert code == 0, err
    assert "policy:scopa-ppo" in out and "random" in out


def test_the_command_line_plays_it_by_name(tmp_path):
    """In a fresh process, from a folder without the file: the name alone loads the .npz reader."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "rulespec", "play", "scopa", "--seed", "3", "--hands", "1",
                           "--bots", "policy:scopa-ppo"], input="1\n" * 60, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "hand 1 score" in done.stdout and "seat 1 (policy:scopa-ppo)" in done.stdout
