"""Self-play in the game-AI adapters (rulespec/interop/selfplay.py): opponents, seats and dealers, game episodes,
teams, registered ids, rewards, the wild card's rank as a choice, afterstate features, vector autoreset."""
import contextlib
import io
import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")
gym = pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")

import rulespec  # noqa: E402
from rulespec.interop.decisions import DECLARE, ActionLayout, Decisions  # noqa: E402
from rulespec.interop.gymnasium import RulespecEnv  # noqa: E402
from rulespec.interop.selfplay import AFTERSTATE_FEATURES, snapshot  # noqa: E402


def _play(env, obs, rng, limit=100_000):
    """Random legal actions to the episode's end; the rewards and the infos seen."""
    rewards, infos = [], []
    for _ in range(limit):
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        rewards.append(reward)
        infos.append(info)
        if terminated or truncated:
            return obs, rewards, infos
    raise AssertionError("the episode did not end")


class FirstLegal:
    """A policy as a callable: the lowest legal action; remembers the observations it was given."""

    def __init__(self):
        self.seen = []

    def __call__(self, obs):
        self.seen.append(obs)
        return int(np.flatnonzero(obs["action_mask"])[0])


class Predictor:
    """A policy with SB3's predict(): the highest legal action, or a fixed one."""

    def __init__(self, fixed=None):
        self.fixed, self.calls = fixed, 0

    def predict(self, obs, action_masks=None, deterministic=False):
        self.calls += 1
        assert deterministic and (action_masks == obs["action_mask"]).all()
        return np.array(self.fixed if self.fixed is not None else np.flatnonzero(action_masks)[-1]), None


def test_opponents_as_callables_policies_and_bots_play_the_other_seats():
    first, predictor = FirstLegal(), Predictor()
    env = RulespecEnv("cirulla", seats=3, opponents=[first, predictor])
    obs, _ = env.reset(seed=3)
    _play(env, obs, random.Random(3))
    assert env.decisions.is_over and first.seen and predictor.calls
    # The callable saw its own seat's view: its mask had legal actions, and its hand is seat 1's.
    assert all(o["action_mask"].any() for o in first.seen)
    moved = {entry[1] for entry in env.decisions.log if entry[0] == "play"}
    assert moved == {0, 1, 2}
    env.set_opponents("greedy")
    obs, _ = env.reset(seed=3)
    assert [type(b.player).__name__ for b in env.bots] == ["GreedyBot"] * 3
    with pytest.raises(ValueError, match="one for all seats, one per seat"):
        env.set_opponents([first, first, first, first])
    with pytest.raises(TypeError, match="an opponent is"):
        env.set_opponents([3, 4])


def test_an_opponent_choosing_an_illegal_action_is_named():
    # Scopa has no declarations: DONE (40) is never legal at the start of a play; seat 1 plays first.
    env = RulespecEnv("scopa", seats=2, seat=0, opponents=Predictor(fixed=40))
    with pytest.raises(ValueError, match="opponent at seat 1 chose action 40, which is not legal"):
        env.reset(seed=1)


def test_a_snapshot_plays_on_as_it_was_while_the_original_changes():
    class Biased:
        def __init__(self):
            self.last = False

        def __call__(self, obs):
            legal = np.flatnonzero(obs["action_mask"])
            return int(legal[-1] if self.last else legal[0])

    live = Biased()
    frozen = snapshot(live)
    live.last = True
    assert frozen.last is False and frozen is not live
    env = RulespecEnv("scopa", seats=2, opponents=frozen)
    obs, _ = env.reset(seed=2)
    _play(env, obs, random.Random(2))
    with pytest.raises(TypeError, match="a snapshot is taken of a policy"):
        snapshot(42)


def test_random_seat_and_dealer_per_episode_from_the_seeded_stream():
    env = RulespecEnv("cirulla", seats=3, seat="random", dealer="random")
    seen = set()
    _, info = env.reset(seed=5)
    for _ in range(30):
        seen.add((env.seat, env.decisions.hand.dealer))
        assert info["seat"] == env.seat
        obs, info = env.reset()
    assert {s for s, _ in seen} == {0, 1, 2} and {d for _, d in seen} == {0, 1, 2}
    again = RulespecEnv("cirulla", seats=3, seat="random", dealer="random")
    pairs = []
    for e in (env, again):
        e.reset(seed=9)
        pairs.append((e.seat, e.decisions.hand.dealer, e.decisions.hand.hands))
    assert pairs[0] == pairs[1]
    _, _ = env.reset(seed=9, options={"dealer": 1})
    assert env.decisions.hand.dealer == 1
    with pytest.raises(ValueError, match='seat is an integer or "random", found .any.'):
        RulespecEnv("cirulla", seat="any")
    with pytest.raises(ValueError, match="dealer must be from 0 to 1"):
        RulespecEnv("cirulla", seats=2, dealer=2)


def test_a_whole_game_as_an_episode_rewards_each_hand_and_ends_at_the_target():
    env = RulespecEnv("cirulla-short", seats=2, episode="game", bots="greedy")
    obs, _ = env.reset(seed=11)
    assert obs["game"].tolist() == [0.0, 0.0] and env.observation_space.contains(obs)
    obs, rewards, _ = _play(env, obs, random.Random(11))
    game = env.game
    assert game.is_over and game.hands_played > 1
    assert sum(r != 0 for r in rewards) >= 1
    # Each hand's margin was given as it ended; the final observation shows the totals, the agent's side first.
    assert obs["game"].tolist() == [float(t) for t in game.totals]
    win = RulespecEnv("cirulla-short", seats=2, episode="game", bots="greedy", reward="win")
    obs, _ = win.reset(seed=11)
    _, rewards, _ = _play(win, obs, random.Random(11))
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == (1.0 if 0 in win.game.winners else -1.0)
    assert win.game.totals == game.totals           # the same deals and moves: only the reward differs
    with pytest.raises(ValueError, match="episode must be one of 'hand', 'game'"):
        RulespecEnv("cirulla", episode="match")


def test_rewards_margin_scaled_and_win_of_one_hand():
    results = {}
    for kind in ("margin", "scaled", "win"):
        env = RulespecEnv("cirulla", seats=2, reward=kind)
        obs, _ = env.reset(seed=21)
        _, rewards, _ = _play(env, obs, random.Random(21))
        results[kind] = rewards[-1]
    margin = results["margin"]
    assert margin != 0
    assert results["scaled"] == pytest.approx(margin / 51)
    assert results["win"] == (1.0 if margin > 0 else -1.0)
    with pytest.raises(ValueError, match="reward must be one of 'margin', 'scaled', 'win'"):
        RulespecEnv("cirulla", reward="points")


def test_two_against_two_the_agent_plays_both_seats_of_its_side():
    env = RulespecEnv("scopone", seats=4, team=True, bots="greedy")
    obs, info = env.reset(seed=4)
    acted = set()
    rng = random.Random(4)
    terminated = False
    while not terminated:
        acted.add(info["seat"])
        assert env.decisions.current_seat == info["seat"]
        hand_bits = obs["observation"][:env.observer.N]
        assert (np.flatnonzero(hand_bits) == [c for c in range(40) if env.decisions.hand.hands[info["seat"]] >> c & 1]).all()
        obs, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert acted == {0, 2}
    assert reward == env.decisions.returns()[0] == env.decisions.returns()[2]
    assert {e[1] for e in env.decisions.log if e[0] == "play"} == {0, 1, 2, 3}


def test_registered_ids_take_the_ruleset_seats_options_and_keywords():
    env = gym.make("rulespec/scopa-v0", seats=3, target=21, reward="win", afterstate=True)
    assert env.unwrapped.rules.module.TARGET == 21 and env.unwrapped.seats == 3
    assert env.unwrapped.reward_kind == "win"
    obs, _ = env.reset(seed=1)
    assert obs["afterstate"].shape == (env.unwrapped.layout.size, len(AFTERSTATE_FEATURES))
    generic = gym.make("rulespec/Rulespec-v0", ruleset="cirulla", seats=2)
    assert generic.unwrapped.rules.module.RULESET_ID == "cirulla"
    ids = [i for i in gym.registry if i.startswith("rulespec/")]
    assert "rulespec/scopone-scientifico-v0" in ids and len(ids) == len(rulespec.source.rulesets.shipped_ids()) + 1
    # The module-prefixed id imports the module first (a fresh interpreter needs nothing more).
    assert gym.make("rulespec.interop.gymnasium:rulespec/scopa-v0").unwrapped.seats == 2


def _double_bonus_phase(layout=None):
    from tests.conftest import explicit_hand
    module = rulespec.compile("cirulla-double-bonus").module
    hands = {1: ["2C", "2D", "7H"], 2: ["JD", "4S", "5D"], 3: ["QD", "4H", "5H"], 0: ["6S", "6H", "QH"]}
    d = Decisions(explicit_hand(module, 0, ["5S", "6C", "JC", "KS"], hands),
                  layout or ActionLayout(module, 4, wild_ranks=True))
    assert d.phase == DECLARE and d.seat == 1
    return module, d


def test_the_wild_cards_rank_is_the_agents_choice_with_wild_ranks():
    """cirulla-double-bonus: 2C 2D and the matta (7H) make a barsega with the matta as A..5. By default the
    engine takes the first rank (A); with wild_ranks the agent names it, here a 4, and the hand keeps it."""
    module, d = _double_bonus_phase()
    layout = d.layout
    assert layout.size == ActionLayout(module, 4).size + len(module.RANK_NAMES)
    barsega = next(a for a in d.legal_actions() if a > layout.done and d._decl_by_action[a].bonus == "barsega")
    d.apply(barsega)
    ranks = [layout.describe(a, module) for a in d.legal_actions()]
    assert ranks == ["wild as A", "wild as 2", "wild as 3", "wild as 4", "wild as 5"]
    assert d.chosen[-1].wild_rank is None and d.chosen[-1].bonus == "barsega"     # cards chosen, rank not yet
    d.apply(layout.rank_offset + module.RANK_NAMES.index("4"))
    assert [(x.bonus, module.RANK_NAMES[x.wild_rank]) for x in d.pending] == [("barsega", "4")]
    d.apply(layout.done)
    while d.hand.plays == 0:
        d.apply(d.legal_actions()[0])
    assert module.RANK_NAMES[d.hand.declared_wild[1]] == "4"
    # Without the option: the same slot takes the first rank at once.
    module, d = _double_bonus_phase(ActionLayout(module, 4))
    d.apply(barsega)
    assert [module.RANK_NAMES[x.wild_rank] for x in d.pending] == ["A"]
    # A ruleset with no wild card keeps its action space.
    scopa = rulespec.compile("scopa").module
    assert ActionLayout(scopa, 2, wild_ranks=True).size == ActionLayout(scopa, 2).size
    assert RulespecEnv("cirulla", wild_ranks=True).action_space.n == RulespecEnv("cirulla").action_space.n + 10


def test_wild_ranks_environments_pass_the_checkers():
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test
    from rulespec.interop.pettingzoo import env as aec
    check_env(RulespecEnv("cirulla-double-bonus", seats=4, wild_ranks=True), skip_render_check=True)
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(aec("cirulla-double-bonus", seats=4, wild_ranks=True), num_cycles=200)


def test_afterstate_features_say_what_each_card_would_capture():
    env = RulespecEnv("scopa", seats=2, afterstate=True)
    obs, _ = env.reset(seed=8)
    rng = random.Random(8)
    checked = 0
    while True:
        d = env.decisions
        feats = obs["afterstate"]
        if d.phase == 1 and not d.is_over:            # the card phase
            moves = {}
            for card, capture in d.hand.legal_moves():
                moves.setdefault(card, []).append(capture)
            for card in range(env.layout.size):
                row = feats[card]
                if card not in moves:
                    assert not row.any()
                    continue
                caps = moves[card]
                table = d.hand.table
                assert row[0] == 1 and row[1] == len(caps)
                assert row[2] == max(c.bit_count() for c in caps)
                assert row[4] == any(c and c == table for c in caps)
                assert row[5] == min((table & ~c).bit_count() + (not c) for c in caps)
                checked += 1
        obs, _, terminated, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if terminated:
            break
    assert checked > 10 and not obs["afterstate"].any()


def test_afterstate_points_are_the_immediate_score():
    """A scopa sweep scores a point at once: its row says so."""
    env = RulespecEnv("scopa", seats=2, afterstate=True)
    for seed in range(200):
        obs, _ = env.reset(seed=seed)
        sweeps = np.flatnonzero(obs["afterstate"][:, 4])
        if len(sweeps):
            assert (obs["afterstate"][sweeps, 3] >= 1).all()
            return
    raise AssertionError("no sweep offered in 200 deals")


def test_next_step_autoreset_gives_a_zero_mask_then_resets_whatever_the_action():
    from gymnasium.vector import AutoresetMode, SyncVectorEnv
    venv = SyncVectorEnv([lambda: RulespecEnv("scopa", seats=2)], autoreset_mode=AutoresetMode.NEXT_STEP)
    obs, _ = venv.reset(seed=3)
    rng = random.Random(3)
    while True:
        obs, reward, terminated, _, _ = venv.step([rng.choice(np.flatnonzero(obs["action_mask"][0]).tolist())])
        if terminated[0]:
            break
    assert not obs["action_mask"][0].any()            # the final observation: nothing is legal
    obs, reward, terminated, _, _ = venv.step([0])    # any action: it is ignored, the sub-environment resets
    assert obs["action_mask"][0].any() and reward[0] == 0 and not terminated[0]


def test_pettingzoo_game_episodes_random_dealer_and_afterstate():
    from pettingzoo.test import api_test
    from rulespec.interop.pettingzoo import env as aec
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(aec("cirulla-short", seats=2, episode="game", dealer="random", afterstate=True), num_cycles=400)
    e = aec("cirulla-short", seats=2, episode="game", reward="win")
    e.reset(seed=2)
    rng = random.Random(2)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert e.game.is_over and e.game.hands_played > 1
    winner = e.game.winners[0]
    assert totals == {f"player_{s}": (1.0 if s == winner else -1.0) for s in range(2)}
    dealers = set()
    e = aec("cirulla", seats=3, dealer="random")
    e.reset(seed=1)
    for _ in range(20):
        dealers.add(e.dealer)
        e.reset()
    assert dealers == {0, 1, 2}
