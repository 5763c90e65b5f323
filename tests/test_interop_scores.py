"""The game's running scores in every observation (issue 23: "the adapters' observations show the running
scores"): `Hand.observation`'s `game_totals` and `target`, the arrays' `game_totals` and `target` blocks
(rulespec/interop/observation.py, infostate.py), in the Gymnasium, PettingZoo and OpenSpiel adapters; full
games as episodes see the totals move between hands. The vector environment's lockstep is tests/test_vector.py."""
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")

import rulespec  # noqa: E402
from rulespec.compiler.build import compile_ruleset  # noqa: E402
from rulespec.interop.decisions import Decisions  # noqa: E402
from rulespec.interop.gymnasium import RulespecEnv  # noqa: E402
from rulespec.interop.observation import Observer  # noqa: E402
from rulespec.run.engine import DealSource, ExplicitRound, GameState, Hand  # noqa: E402

RACE = Path(__file__).parent / "running" / "race.yaml"       # game.points: as_made, target 40


def _scores(observer, array):
    return array[observer.blocks["game_totals"]].tolist(), array[observer.blocks["target"]].tolist()


def test_a_hand_of_a_game_shows_the_totals_its_own_side_first_and_the_target():
    rules = rulespec.compile("scopone")                    # four seats, two sides
    hand = rules.new_hand(seats=4, dealer=0, seed=3, game=GameState((7, 3)))
    observer = Observer(rules.module, 4)
    d = Decisions(hand)
    for seat, want in [(0, [7, 3]), (1, [3, 7]), (2, [7, 3]), (3, [3, 7])]:
        obs = hand.observation(seat)
        assert obs["game_totals"] == want and obs["target"] == rules.module.TARGET
        assert _scores(observer, observer.array(d, seat)) == ([float(t) for t in want], [float(rules.module.TARGET)])
    alone = rules.new_hand(seats=4, dealer=0, seed=3)      # a hand on its own starts every side at 0
    assert alone.observation(1)["game_totals"] == [0, 0]


def test_a_game_of_a_number_of_hands_has_no_target():
    rules = rulespec.compile("kontsina")                   # the agreed number of hands; then the highest total
    assert rules.module.TARGET is None
    hand = rules.new_hand(seats=2, dealer=1, seed=2, game=GameState((5, 9)))
    assert hand.observation(1)["game_totals"] == [9, 5] and hand.observation(1)["target"] is None
    observer = Observer(rules.module, 2)
    assert _scores(observer, observer.array(Decisions(hand), 1)) == ([9.0, 5.0], [0.0])


def test_points_made_as_they_count_move_the_totals_within_the_hand():
    rules = compile_ruleset(RACE).module
    idx = rules.CARD_NAMES.index
    first = {1: ["3H", "5C", "6C", "7C", "JC"], 0: ["3S", "AD", "2D", "4D", "QD"]}
    source = DealSource(rounds=[ExplicitRound(None, {s: [idx(c) for c in cs] for s, cs in first.items()})])
    hand = Hand(rules, 2, 0, source, GameState((20, 12)))
    observer = Observer(rules, 2)
    hand.play(1, idx("3H"), 0)
    hand.play(0, idx("3S"), 1 << idx("3H"))                # a caida and a limpia: 4 points at once
    assert hand.observation(0)["game_totals"] == [24, 12] and hand.observation(1)["game_totals"] == [12, 24]
    d = Decisions(hand)
    assert _scores(observer, observer.array(d, 1)) == ([12.0, 24.0], [40.0])
    assert hand.observation(0)["target"] == 40


def _totals_block(env, obs):
    return obs["observation"][env.observer.blocks["game_totals"]].tolist()


def test_gymnasium_full_games_see_the_totals_move_between_hands():
    env = RulespecEnv("cirulla-short", seats=2, seat=1, episode="game", bots="greedy")
    obs, _ = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert _totals_block(env, obs) == [0.0, 0.0]
    assert obs["observation"][env.observer.blocks["target"]].tolist() == [float(env.rules.module.TARGET)]
    rng, seen, hands = random.Random(5), [], 0
    done = False
    while not done:
        hand = env.decisions.hand
        me = env.game.totals[1], env.game.totals[0]                 # seat 1's side first
        if not hand.is_over:
            assert _totals_block(env, obs) == [float(t) for t in me], hands
            seen.append(tuple(_totals_block(env, obs)))
        obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        hands = env.game.hands_played
    assert hands > 1 and len(set(seen)) > 1                         # the totals moved from hand to hand
    assert max(max(t) for t in seen) > 0


def test_pettingzoo_full_games_see_the_totals_move_between_hands():
    from rulespec.interop.pettingzoo import env as aec
    e = aec("cirulla-short", seats=2, episode="game")
    e.reset(seed=4)
    rng, seen = random.Random(4), set()
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if not (term or trunc):
            seat = int(agent.split("_")[1])
            totals = e.game.totals
            want = [totals[seat % 2], totals[(seat + 1) % 2]]
            assert obs["observation"][e.observer.blocks["game_totals"]].tolist() == [float(t) for t in want]
            view = e.observe_dict(agent)
            assert view["game_totals"] == want and view["target"] == e.rules.module.TARGET
            seen.add(tuple(want))
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert e.game.is_over and len(seen) > 1


def test_openspiel_strings_and_tensors_show_the_scores():
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed (pip install '.[rl]')")
    import rulespec.interop.openspiel  # noqa: F401 - registers the game
    game = pyspiel.load_game("rulespec(ruleset=scopa,seats=2,target=21)")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert state.observation_string(0).endswith(" | totals 0/0 target 21")
    assert state.information_state_string(1).endswith(" | totals 0/0 target 21")
    observer, infostate = game.observer, game.infostate
    tensor = np.array(state.observation_tensor(0), np.float32)
    assert _scores(observer, tensor) == ([0.0, 0.0], [21.0])
    recall = np.array(state.information_state_tensor(0), np.float32)
    assert recall[infostate.blocks["game_totals"]].tolist() == [0.0, 0.0]
    assert recall[infostate.blocks["target"]].tolist() == [21.0]
    # While the deal is drawn, the target is already known.
    dealing = game.new_initial_state()
    assert np.array(dealing.observation_tensor(0))[observer.blocks["target"]].tolist() == [21.0]
    assert np.array(dealing.information_state_tensor(0))[infostate.blocks["target"]].tolist() == [21.0]


def test_the_observation_space_bounds_hold_the_scores():
    env = RulespecEnv("cirulla", seats=2)
    space = env.observation_space["observation"]
    totals, target = env.observer.blocks["game_totals"], env.observer.blocks["target"]
    assert np.all(np.isinf(space.low[totals])) and np.all(np.isinf(space.high[totals]))
    assert space.low[target].tolist() == [0.0] and np.isinf(space.high[target]).all()
