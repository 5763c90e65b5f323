"""The vector environments (rulespec/interop/vector.py, compiler/emit_vector.py): the native engine in lockstep
with `Decisions` over `Hand` (same deals, moves, observations, masks, rewards), Gymnasium's vector conventions,
the fallback to Python."""
from __future__ import annotations

import numpy as np
import pytest

from rulespec.api import compile as compile_rules
from rulespec.compiler import native
from rulespec.compiler.native import NativeUnavailable
from rulespec.run.stream import Stream
from rulespec.interop.decisions import Decisions
from rulespec.interop.vector import VectorEnv
from rulespec.run.engine import DealSource, Hand
from tests.test_native import BIG_DECK, needs_cc, written


@pytest.fixture(autouse=True)
def _native_at_o0(tmp_path_factory, monkeypatch):
    """Builds go to the session's cache, at -O0 (as tests/test_native.py builds)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def pair(rid: str, seats: int, envs: int, **kw):
    rules = compile_rules(rid)
    return (VectorEnv(rules, envs, seats, engine="native", **kw),
            VectorEnv(rules, envs, seats, engine="python", **kw))


def same(x, y, what):
    for key in x:
        assert x[key].dtype == y[key].dtype and np.array_equal(x[key], y[key]), (what, key)


# (ruleset, seats, agent seat): two and four players, scopa, cicera's many captures, declarations with the play
# (cirulla, cirullone), knocks after the deal and before the first turn, a wild card declared as a rank.
LOCKSTEP = [("cirulla", 2, 0), ("cirulla", 4, 1), ("scopa", 2, 1), ("cicera", 4, 0), ("cirullone", 4, 2),
            ("cirulla-knock-after-deal", 4, 3), ("cirulla-knock-early", 2, 0), ("cirulla-matta-queen", 2, 1)]


@needs_cc
@pytest.mark.parametrize("rid,seats,seat", LOCKSTEP)
def test_the_native_engine_steps_in_lockstep_with_decisions_over_hand(rid, seats, seat):
    native, python = pair(rid, seats, 6, seat=seat)
    assert native.engine == "native" and python.engine == "python"
    obs_n, _ = native.reset(seed=17)
    obs_p, _ = python.reset(seed=17)
    same(obs_n, obs_p, "reset")
    blocks = native.observer.blocks
    seen = {"capture": 0, "pending_declared": 0, "bonuses": 0, "illegal": 0, "episodes": 0}
    wild = np.random.default_rng(3)
    for t in range(250):
        acts = native.sample_actions()
        assert np.array_equal(acts, python.sample_actions()), t
        if t % 37 == 5:                       # now and then an action outside the mask (or any number)
            acts[t % 6] = wild.integers(0, native.layout.size)
        got_n, got_p = native.step(acts), python.step(acts)
        same(got_n[0], got_p[0], t)
        for j in (1, 2, 3):
            assert got_n[j].dtype == got_p[j].dtype and np.array_equal(got_n[j], got_p[j]), (t, j)
        assert got_n[4].keys() == got_p[4].keys(), t
        if "illegal_action" in got_n[4]:
            assert np.array_equal(got_n[4]["illegal_action"], got_p[4]["illegal_action"]), t
            seen["illegal"] += int(got_n[4]["illegal_action"].sum())
        o = got_n[0]["observation"]
        seen["capture"] += int(o[:, blocks["phase"]][:, 2].sum())
        seen["pending_declared"] += int(o[:, blocks["pending_declared"]].sum() > 0)
        seen["bonuses"] += int(o[:, blocks["bonuses"]].sum() > 0)
        seen["episodes"] += int(got_n[2].sum())
    assert seen["episodes"] >= 6 and seen["illegal"] >= 1, seen
    if rid in ("cicera", "scopa"):
        assert seen["capture"] > 0, seen          # captures built card by card were played
    if rid in ("cirulla", "cirullone"):
        assert seen["pending_declared"] > 0 and seen["bonuses"] > 0, seen


@needs_cc
@pytest.mark.parametrize("rid,seats", [("cirulla", 4), ("cirullone", 4), ("scopa", 2), ("cirulla-knock-after-deal", 2)])
def test_every_seat_an_agents_steps_in_lockstep_too(rid, seats):
    native, python = pair(rid, seats, 5, seat="all")
    obs_n, info_n = native.reset(seed=8)
    obs_p, info_p = python.reset(seed=8)
    same(obs_n, obs_p, "reset")
    assert np.array_equal(info_n["seat"], info_p["seat"])
    seats_seen, ends = set(), 0
    for t in range(200):
        acts = native.sample_actions()
        if t % 41 == 9:
            acts[t % 5] = native.layout.size + 3              # out of range: illegal
        got_n, got_p = native.step(acts), python.step(acts)
        same(got_n[0], got_p[0], t)
        assert got_n[1].shape == (5, seats) and np.array_equal(got_n[1], got_p[1]), t
        assert np.array_equal(got_n[2], got_p[2]) and np.array_equal(got_n[4]["seat"], got_p[4]["seat"]), t
        seats_seen |= set(got_n[4]["seat"].tolist())
        for i in np.flatnonzero(got_n[2] & ~got_n[4].get("illegal_action", np.zeros(5, bool))):
            ends += 1
            side_values = got_n[1][i][:python.rules.module.SIDES[seats]]
            assert np.array_equal(got_n[1][i], np.array([side_values[s % len(side_values)] for s in range(seats)]))
    assert seats_seen == set(range(seats)) and ends >= 3


@needs_cc
def test_each_envs_deal_read_from_c_replays_on_a_hand():
    env = VectorEnv("scopa", 5, 2, engine="native", seat=1)
    rules = env.rules.module
    obs, _ = env.reset(seed=99)
    index, order = env.deals()
    assert index.tolist() == [0, 1, 2, 3, 4]
    for i in range(5):
        hand = Hand(rules, 2, i % 2, DealSource(order=order[i].tolist()))
        held = obs["observation"][i][env.observer.blocks["hand"]]
        # at its first decision the agent has played nothing: it holds what the replayed deal gave it
        assert [c for c in range(rules.N_CARDS) if hand.hands[1] >> c & 1] == np.flatnonzero(held).tolist()
    for _ in range(60):
        env.step(env.sample_actions())
    index, order = env.deals()
    assert (index % 5).tolist() == [0, 1, 2, 3, 4] and index.max() >= 5     # env i plays hands i, i + 5, ...
    for i in range(5):
        expected = list(range(rules.N_CARDS))
        Stream.for_hand(99, int(index[i])).shuffle(expected)
        assert order[i].tolist() == expected               # the run's hand, shuffled as run/stream.py's Stream does


@needs_cc
def test_spaces_shapes_dtypes_and_next_step_autoreset():
    env = VectorEnv("cirulla", 4, 2, engine="native")
    obs, infos = env.reset(seed=5)
    assert infos == {}
    assert obs["observation"].shape == (4, env.observer.size) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (4, env.layout.size) and obs["action_mask"].dtype == np.int8
    assert env.single_action_space.n == env.layout.size and env.action_space.shape == (4,)
    assert env.observation_space["observation"].shape == (4, env.observer.size)
    assert env.metadata["autoreset_mode"].name == "NEXT_STEP"
    assert obs["action_mask"].sum(axis=1).min() >= 1
    ended = None
    for _ in range(200):
        obs, rewards, terms, truncs, _ = env.step(env.sample_actions())
        assert rewards.dtype == np.float32 and terms.dtype == bool and not truncs.any()
        assert not rewards[~terms].any()           # a reward only at a hand's end
        if terms.any():
            ended = int(np.flatnonzero(terms)[0])
            assert not obs["action_mask"][ended].any()      # the final observation: nothing to do
            break
    assert ended is not None
    obs, rewards, terms, _, _ = env.step(np.full(4, 10_000))   # the ended env ignores its action
    assert not terms[ended] and rewards[ended] == 0 and obs["action_mask"][ended].any()


@needs_cc
def test_an_action_outside_the_mask_ends_the_episode_with_the_illegal_reward():
    env = VectorEnv("scopa", 2, 2, engine="native", illegal_reward=-7)
    obs, _ = env.reset(seed=1)
    acts = env.sample_actions()
    before = obs["observation"][0].copy()
    acts[0] = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    obs, rewards, terms, _, infos = env.step(acts)
    assert terms[0] and rewards[0] == -7 and infos["illegal_action"].tolist() == [True, False]
    assert np.array_equal(obs["observation"][0], before)       # the state unchanged


def test_bad_arguments_are_clear_errors():
    env = VectorEnv("scopa", 2, 2, engine="python")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    env.reset(seed=0)
    with pytest.raises(TypeError, match="2 integers"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="2 integers"):
        env.step(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("scopa", 0, 2)
    with pytest.raises(ValueError, match="engine"):
        VectorEnv("scopa", 1, 2, engine="gpu")
    with pytest.raises(ValueError, match="played by"):
        VectorEnv("cicera", 1, 2)


def test_auto_falls_back_to_python_and_says_why(tmp_path, monkeypatch):
    path = written(tmp_path, BIG_DECK)                  # a deck past the C back end's 64 card indices
    with pytest.warns(RuntimeWarning, match="Python engine"):
        env = VectorEnv(str(path), 2, engine="auto")
    assert env.engine == "python" and "native engine does not support" in env.fallback_reason
    with pytest.raises(NativeUnavailable):
        VectorEnv(str(path), 2, engine="native")
    monkeypatch.setenv("RULESPEC_CC", "")                # no C compiler at all (and no library loaded before)
    monkeypatch.setattr(native, "_LOADED", {})
    with pytest.warns(RuntimeWarning):
        env = VectorEnv("scopa", 2, 2)
    assert env.engine == "python" and "C compiler" in env.fallback_reason
    obs, _ = env.reset(seed=4)
    obs, *_ = env.step(env.sample_actions())
    assert obs["action_mask"].any()


@needs_cc
def test_declarations_left_to_the_agent_play_python_with_the_slots_in_the_mask():
    with pytest.warns(RuntimeWarning, match="declarations"):
        env = VectorEnv("cirulla", 4, 2, declarations="agent")
    assert env.engine == "python"
    first_slot = env.layout.n_cards + 1
    obs, _ = env.reset(seed=2)
    offered = 0
    for _ in range(200):
        offered += int(obs["action_mask"][:, first_slot:].sum())
        obs, *_ = env.step(env.sample_actions())
    assert offered > 0
    assert VectorEnv("scopa", 2, 2, declarations="agent").engine == "native"    # no hand bonuses: native


@needs_cc
@pytest.mark.parametrize("rid,options,target", [("scopa", {"target": 21}, 21.0), ("cirulla", {}, 51.0),
                                                ("kontsina", {}, 0.0)])
def test_the_running_scores_blocks_step_in_lockstep_with_the_hands(rid, options, target):
    """The game_totals and target blocks: the C's, the Python fallback's and `Hand.observation`'s agree (an
    option's target included; 0 for a game of a number of hands). Every hand here starts a game: 0 each."""
    rules = compile_rules(rid, **options)
    native_env = VectorEnv(rules, 4, 2, engine="native", seat=1)
    python_env = VectorEnv(rules, 4, 2, engine="python", seat=1)
    assert native_env.engine == "native"
    totals, at = native_env.observer.blocks["game_totals"], native_env.observer.blocks["target"]
    got_n, got_p = native_env.reset(seed=3)[0], python_env.reset(seed=3)[0]
    for t in range(80):
        same(got_n, got_p, t)
        o = got_n["observation"]
        assert (o[:, at] == target).all() and not o[:, totals].any(), t
        for i, d in enumerate(python_env._batch.games):
            view = d.hand.observation(1)
            assert view["game_totals"] == [0, 0] and (view["target"] or 0) == target
        acts = native_env.sample_actions()
        got_n, got_p = native_env.step(acts)[0], python_env.step(acts)[0]


def _run_steps(env, steps: int, seed: int, wild_every: int = 0):
    """Every array a run shows: observations, masks, rewards, terminations, illegal flags, seats, deals."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    seen = [obs["observation"].copy(), obs["action_mask"].copy(), infos.get("seat")]
    for t in range(steps):
        acts = env.sample_actions()
        if wild_every and t % wild_every == 0:
            acts = rng.integers(-1, env.layout.size + 1, env.num_envs)     # some outside the mask
        obs, rewards, terms, truncs, infos = env.step(acts)
        seen += [obs["observation"].copy(), obs["action_mask"].copy(), rewards.copy(), terms.copy(),
                 infos.get("illegal_action"), infos.get("seat")]
    seen += list(env.deals())
    return seen


@needs_cc
@pytest.mark.parametrize("rid, seats, seat, envs, workers", [("cirulla", 2, 0, 7, 3), ("scopone", 4, "all", 5, 2)])
def test_envs_split_over_worker_processes_show_what_one_process_shows(rid, seats, seat, envs, workers):
    one = VectorEnv(rid, envs, seats, seat=seat, engine="native")
    split = VectorEnv(rid, envs, seats, seat=seat, engine="native", workers=workers)
    assert split.engine == "native" and len(split._batch.procs) == workers
    try:
        a, b = _run_steps(one, 150, 11, wild_every=17), _run_steps(split, 150, 11, wild_every=17)
        assert len(a) == len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            assert (x is None and y is None) or np.array_equal(x, y), i
        steps = [a[3 + 6 * t: 9 + 6 * t] for t in range(150)]
        assert sum(s[3].sum() for s in steps) > envs and any(s[4] is not None for s in steps)   # ends, illegal
    finally:
        one.close()
        split.close()
    assert not any(p.is_alive() for p in split._batch.procs)


@needs_cc
def test_workers_start_under_spawn_and_close_leaves_the_arrays_readable():
    env = VectorEnv("scopa", 4, 2, engine="native", workers=2, context="spawn")
    procs = list(env._batch.procs)
    obs, _ = env.reset(seed=3)
    obs, *_ = env.step(env.sample_actions())
    env.close()
    assert not any(p.is_alive() for p in procs)
    assert env._obs.shape == obs["observation"].shape and np.array_equal(env._obs, obs["observation"])
    with pytest.raises(ValueError, match="workers"):
        VectorEnv("scopa", 4, 2, workers=0)
