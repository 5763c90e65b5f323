"""The OpenSpiel game's completeness: the information-state tensor, resample_from_infostate, option parameters.

Needs OpenSpiel (the `rl` extra: `pip install '.[rl]'`); skipped without it, saying so.
"""
import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")
pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[rl]')")

import rulespec.interop.openspiel  # noqa: E402,F401  (registers the game)
from rulespec.interop.decisions import DECLARE  # noqa: E402
from tests.test_interop_recall import TIMINGS, tiny_rules  # noqa: E402


def _dealt(game, seed):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize("timing", TIMINGS)
def test_the_information_state_tensor_is_declared_and_passes_openspiels_own_checks(timing, tmp_path):
    """The game type says it provides the tensor, and it does: of the declared size, for every player, at every
    state (it used to return [] silently, with the type saying none was provided). OpenSpiel's random
    simulation checks it, and its observation helper (as OpenSpiel's python game tests use it) gives the same
    arrays as the state."""
    from open_spiel.python.observation import make_observation
    _, path = tiny_rules(tmp_path, timing)
    for params in ({"ruleset": path, "seats": 2}, {"ruleset": "cirullone", "seats": 4}):
        game = pyspiel.load_game("rulespec", params)
        assert game.get_type().provides_information_state_tensor
        size = game.information_state_tensor_size()
        assert size > 0 and game.information_state_tensor_shape() == [size]
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
        recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        present = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
        state = _dealt(game, 1)
        rng = random.Random(1)
        while not state.is_terminal():
            for player in range(game.num_players()):
                tensor = state.information_state_tensor(player)
                assert len(tensor) == size and any(tensor)
                recall.set_from(state, player)
                assert recall.tensor.tolist() == tensor
                assert recall.string_from(state, player) == state.information_state_string(player)
                present.set_from(state, player)
                assert present.tensor.tolist() == state.observation_tensor(player)
            state.apply_action(rng.choice(state.legal_actions()))


def test_resample_from_infostate_keeps_the_players_view_and_follows_the_sampler():
    """OpenSpiel's resample_from_infostate (ISMCTS calls it when no resampler is set) redraws what the player
    cannot see: its information state (string and tensor) and its cards stay, the others' change; the same
    draw of the sampler gives the same world. It used to be missing (SpielError: not implemented)."""
    game = pyspiel.load_game("rulespec(ruleset=cirullone,seats=4)")
    state = _dealt(game, 2)
    rng = random.Random(2)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    checked = 0
    for player in range(4):
        worlds = {}
        for seed in range(4):
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0., 1.))
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(player)
            assert world.decisions.hand.hands[player] == state.decisions.hand.hands[player]
            again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0., 1.))
            assert str(again) == str(world)
            worlds[str(world)] = world
            checked += 1
        assert len(worlds) > 1
    assert checked == 16


def test_ismcts_without_a_resampler_searches_declare_phases_mid_hand():
    """OpenSpiel's ISMCTS with no resampler set asks the state's resample_from_infostate: it searches from
    declare phases in the middle of cirullone hands and answers a legal action."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("rulespec", {"ruleset": "cirullone", "seats": 4})
    stream = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=stream)
    rng = random.Random(3)
    searched = 0
    for seed in range(4):
        state = _dealt(game, seed)
        while not state.is_terminal() and searched < 6:
            if state.decisions.phase == DECLARE and state.decisions.hand.round == 2:
                bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=stream)
                assert bot.step(state) in state.legal_actions()
                searched += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched == 6


def test_the_game_string_takes_the_rulesets_options():
    """`rulespec(ruleset=scopa,seats=2,target=21)`: an option by name in the game string (OpenSpiel refused it
    as an unknown parameter), or in `options` with pairs that a game string can carry (its commas separate
    parameters). An option left out keeps the ruleset's default; one the ruleset does not declare, one given
    twice, or a pair without a value is refused by name."""
    game = pyspiel.load_game("rulespec(ruleset=scopa,seats=2,target=21)")
    assert game.rules.options == {"target": 21} and game.rules.module.TARGET == 21 and game.num_players() == 2
    assert pyspiel.load_game("rulespec(ruleset=escoba,sevens=most_sevens)").rules.options == {"sevens": "most_sevens"}
    assert pyspiel.load_game("rulespec(ruleset=escoba)").rules.module.TARGET == 15
    game = pyspiel.load_game("rulespec(ruleset=scopone,options=napola:true;target:16)")
    assert game.rules.options == {"napola": True, "target": 16}
    assert pyspiel.load_game("rulespec", {"ruleset": "scopa", "options": "target=16"}).rules.module.TARGET == 16
    state = game.new_initial_state()
    assert not state.is_terminal()
    for wrong, message in (("rulespec(ruleset=cirulla,target=21)", "unknown option 'target' for ruleset cirulla"),
                           ("rulespec(ruleset=scopa,target=21,options=target:3)", "option target is given twice"),
                           ("rulespec(ruleset=scopa,options=target)", "options takes NAME=VALUE or NAME:VALUE"),
                           ("rulespec(ruleset=scopa,colour=red)", "Unknown parameter 'colour'")):
        with pytest.raises(Exception, match=message):
            pyspiel.load_game(wrong)


def test_the_observation_string_shows_the_builds_with_owners_and_the_bid():
    """A game with builds and a bid: the observation string (the present, not a record) names each build by
    value, cards, owners and fixed flag, and the bid with its bidder; it used to show their cards only as
    loose table cards, and no bid."""
    game = pyspiel.load_game("rulespec(ruleset=seep,seats=4)")
    rng = random.Random(3)
    for seed in range(40):
        state = _dealt(game, seed)
        seen_bid = seen_build = False
        while not state.is_terminal() and not seen_build:
            hand = state.decisions.hand if state.decisions is not None else None
            text = state.observation_string(0)
            if hand is not None and hand.bid is not None:
                seen_bid = True
                assert f" bid {hand.bid} s{hand.bidder} " in text
            if hand is not None and hand.builds:
                seen_build = True
                for b in hand.builds:
                    owners = ",".join(f"s{o}" for o in b.owners)
                    said = f"{b.value}:{hand.rules.card_names(b.cards)} {owners}{' fixed' if b.fixed else ''}"
                    assert said in text.split(" builds[", 1)[1].split("]", 1)[0].split("; ")
            state.apply_action(rng.choice(state.legal_actions()))
        if seen_bid and seen_build:
            return
    pytest.fail("no seep hand of 40 made a build")


def test_a_game_without_builds_or_a_bid_keeps_its_observation_string():
    game = pyspiel.load_game("rulespec(ruleset=scopa,seats=2)")
    state = _dealt(game, 1)
    assert " builds[" not in state.observation_string(0) and " bid " not in state.observation_string(0)
