"""The tutorials (examples/tutorials/) run, with small budgets: MaskablePPO on the Gymnasium environment (needs
the `tutorials` extra: sb3-contrib and torch; skipped without, saying so), OpenSpiel's CFR+ on the tiny deck,
OpenSpiel's ISMCTS, and a PettingZoo self-play loop."""
import importlib.util
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pyspiel", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")

import rulespec  # noqa: E402

TUTORIALS = Path(__file__).resolve().parent.parent / "examples" / "tutorials"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"tutorial_{name}", TUTORIALS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cfr_on_the_tiny_deck_measures_nashconv(capsys):
    curve = _load("cfr_tiny").main(["--iterations", "1", "--every", "1"])
    # One iteration (each costs a walk of the whole tree): NashConv is measured, between 0 and its bound
    # (returns in [-1, 1]: a best response gains at most 2 per player).
    assert [i for i, _ in curve] == [1] and 0 < curve[0][1] <= 4
    assert "NashConv" in capsys.readouterr().out


def test_the_tiny_deck_is_small_enough_to_enumerate():
    """scopa-tiny (shipped for exact solving): six cards, two each then one each, one hand a game; after the
    first deal a seat sees 2 of the 6 cards, so the other's are hidden (not known by elimination)."""
    module = rulespec.compile("scopa-tiny").module
    assert module.N_CARDS == 6 and module.SEATS_ALLOWED == (2,) and module.HANDS == 1
    assert [(c, t) for c, t, _ in module.schedule(2)] == [(2, 0), (1, 0)]


def test_ismcts_plays_whole_hands_against_a_rulespec_bot(capsys):
    got = _load("ismcts_openspiel").main(["--games", "2", "--simulations", "6", "--ruleset", "scopa"])
    assert got["hands"] == 2 and -1 <= got["mean"] <= 1
    assert "ISMCTS (6 simulations) against random" in capsys.readouterr().out


def test_the_selfplay_loop_trains_and_evaluates(capsys):
    got = _load("selfplay_pettingzoo").main(["--hands", "30", "--eval-hands", "6", "--snapshot-every", "10"])
    assert got["hands"] == 6 and len(got["weights"]) == 6 and any(got["weights"])
    out = capsys.readouterr().out
    assert "4 snapshots" in out and "learner against the random bot" in out


def test_maskable_ppo_trains_saves_and_plays_as_a_policy_file(tmp_path, capsys):
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install '.[tutorials]': "
                                              "sb3-contrib and a CPU build of torch)")
    path = tmp_path / "agent.npz"
    got = _load("ppo_gymnasium").main(["--ruleset", "scopa", "--timesteps", "128", "--n-steps", "64",
                                       "--eval-hands", "2", "--save", str(path)])
    assert got["hands"] == 2 and path.stat().st_size > 0
    assert f"wrote {path}" in capsys.readouterr().out
    # The file plays exactly as the model does: the legal action of the highest logit.
    from rulespec.bots.registry import make_bot
    from rulespec.interop.gymnasium import RulespecEnv
    from rulespec.interop.policies import FlatObservation
    bot = make_bot(f"policy:{path}", random.Random(0))
    env = FlatObservation(RulespecEnv("scopa", seats=2))
    obs, _ = env.reset(seed=3)
    import torch
    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=2)
    from rulespec.interop.policies import export_sb3
    export_sb3(model, tmp_path / "fresh.npz", ruleset="scopa", seats=2)
    fresh = make_bot(f"policy:{tmp_path / 'fresh.npz'}", random.Random(0))
    done, checked = False, 0
    while not done:
        mask = env.action_masks()
        with torch.no_grad():
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert fresh.act(obs, mask) == int(action)
        assert mask[bot.act(obs, mask)]
        checked += 1
        obs, _, done, _, _ = env.step(int(action))
    assert checked >= 5


def test_maskable_ppo_trains_on_the_vector_environment_and_its_file_computes_the_models_logits(tmp_path, capsys):
    """--vector: MaskablePPO trains on the native vector environment (the tutorial's Vectorised, an SB3 VecEnv,
    the hand's end and the ignored reset step included), and the exported file computes the actor's logits
    themselves, not only its choices, on observations of every phase."""
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install '.[tutorials]': "
                                              "sb3-contrib and a CPU build of torch)")
    import torch
    from rulespec.bots.registry import make_bot
    from rulespec.interop.vector import VectorEnv
    path = tmp_path / "agent.npz"
    got = _load("ppo_gymnasium").main(["--ruleset", "scopa", "--vector", "4", "--n-steps", "32", "--batch-size", "64",
                                       "--timesteps", "256", "--net", "16,8", "--eval-hands", "2",
                                       "--save", str(path)])
    model = got["model"]
    assert model.num_timesteps == 256 and got["hands"] == 2
    out = capsys.readouterr().out
    assert "MaskablePPO after 256 steps" in out and f"wrote {path}" in out
    bot = make_bot(f"policy:{path}", random.Random(0))
    assert [w.shape for w, _ in bot.layers] == [(16, 488), (8, 16), (41, 8)]
    envs = VectorEnv("scopa", num_envs=8, seats=2)
    obs, _ = envs.reset(seed=5)
    for _ in range(30):
        live = obs["action_mask"].any(axis=1)
        x = obs["observation"][live]
        with torch.no_grad():
            ours = model.policy.action_net(model.policy.mlp_extractor.forward_actor(torch.as_tensor(x))).numpy()
        assert np.allclose(bot.logits(x), ours, atol=1e-5)
        obs, *_ = envs.step(envs.sample_actions())
