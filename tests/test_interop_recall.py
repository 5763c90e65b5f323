"""What the game-AI adapters tell each seat: perfect recall, and nothing a seat cannot know.

Two directions, checked on every state of tiny decks (every deal, every action) and on random states of every
shipped ruleset:
- perfect recall: states a seat can tell apart (its own cards, its own choices, everything played face up, who
  acted when) give it different information-state strings and tensors;
- hidden information: states whose public histories are equal give equal public information: the same seats to
  act in the same order, the same public observation, whatever the hidden cards (a declare phase, opened only
  for a seat holding a bonus, used to show that it held one).

They need the `rl` extra (`pip install '.[rl]'`); OpenSpiel's parts skip without it.
"""
import hashlib
import random
from itertools import permutations
from types import SimpleNamespace

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")

import rulespec  # noqa: E402
from rulespec.interop.decisions import DECLARE, Decisions  # noqa: E402
from rulespec.interop.observation import Observer  # noqa: E402
from rulespec.run.engine import DealSource  # noqa: E402
from rulespec.source.rulesets import shipped_ids  # noqa: E402

SHIPPED = shipped_ids()

# Six cards, two seats: two cards each, then one more each; a pair, and two cards worth 5 or more, are bonuses (a
# pair of threes makes both). Every deal and every action of it is enumerated (about ten thousand states a timing).
TINY = """id: tiny
deck:
  id: tiny6
  ranks: [{rank: A, value: 1}, {rank: '2', value: 2}, {rank: '3', value: 3}]
  suits: [H, D]
players: {counts: [2], default: 2, sides: {2: 2}}
deal: {rounds: [[{each: 2}], [{each: 1}]], repeat_last: false}
hand_bonuses:
  pair: {size: 2, when: same_value(cards), points: 1, category: scope}
  high: {size: 2, when: total(cards) >= 5, points: 2, category: scope}
declarations: {timing: TIMING}
capture: {kinds: [{kind: match}, {kind: sum}]}
events:
  scopa: {when: not empty(captured) and empty(table) and not last_play, points: 1, category: scope}
scoring:
  scope: {from_events: true}
  carte: {points: '1 if most(count(pile)) else 0'}
game: {target: 11}
"""
TIMINGS = ["first_turn", "own_turn", "before_first_turn", "after_deal"]


def tiny_rules(tmp_path, timing):
    """The tiny ruleset with this declaration timing, and the path it was compiled from."""
    path = tmp_path / f"tiny-{timing}.yaml"
    path.write_text(TINY.replace("TIMING", timing), encoding="utf-8")
    return rulespec.compile(str(path)), str(path)


def _info_states(ruleset, seats):
    """A function (Decisions, seat) -> OpenSpiel's information-state string and tensor (as bytes), or None
    without pyspiel."""
    try:
        import pyspiel
        from rulespec.interop.openspiel import _Observer
    except ImportError:
        return None
    game = pyspiel.load_game("rulespec", {"ruleset": ruleset, "seats": seats})
    strings, tensors = _Observer(game, perfect_recall=True), _Observer(game, perfect_recall=True)

    def info(d, seat):
        state = SimpleNamespace(decisions=d)
        tensors.set_from(state, seat)
        return strings.string_from(state, seat), tensors.tensor.tobytes()
    return info


def _entries(d, start, seat):
    """The log entries from `start` as `seat` sees them (None for the public): a deal shows the table laid and
    only the seat's own cards; plays and knocks are made face up."""
    out = []
    for entry in d.log[start:]:
        if entry[0] == "deal" and entry[1] is not None:
            out.append(("deal", entry[1], None if seat is None else entry[2][seat]))
        else:
            out.append(entry)
    return tuple(out)


def walk(d, seats, views=None, public=None, actors=(), quiet=0):
    """Every state reachable from `d`, each as (state, what each seat has seen, the public history, who acted).

    A seat's view is its sequence of steps: who acted, its own action when it acted, and the log entries that
    step added as the seat sees them. The public history is the log as all see it and the number of steps
    since its last entry (`quiet`: choices of a seat still deciding); `actors` is the sequence of seats that
    acted (public in OpenSpiel and PettingZoo: the seat to act is announced).
    """
    if views is None:
        views = tuple((_entries(d, 0, s),) for s in range(seats))
        public = _entries(d, 0, None)
    yield d, views, (public, quiet), actors
    if d.is_over:
        return
    seat = d.current_seat
    for action in d.legal_actions():
        child = d.clone()
        start = len(child.log)
        child.apply(action)
        new_views = tuple(views[s] + ((seat, action if s == seat else None, _entries(child, start, s)),)
                          for s in range(seats))
        added = _entries(child, start, None)
        yield from walk(child, seats, new_views, public + added, actors + (seat,), 0 if added else quiet + 1)


def tiny_deals(rules, seats=2):
    """A Decisions for every deal of the tiny deck (every order of its cards giving a different deal)."""
    seen = set()
    for order in permutations(range(rules.module.N_CARDS)):
        hand = rules.new_hand(seats=seats, source=DealSource(order=list(order), rng=random.Random(0)))
        d = Decisions(hand)
        # Which cards each seat gets in which round: the deal's hidden content.
        key = tuple(d.hand.hands) + tuple(order[2 * seats:])
        if key in seen:
            continue
        seen.add(key)
        yield d


@pytest.fixture(scope="module", params=TIMINGS)
def tiny_states(request, tmp_path_factory):
    rules, path = tiny_rules(tmp_path_factory.mktemp("tiny"), request.param)
    states = [s for d in tiny_deals(rules) for s in walk(d, 2)]
    return rules, path, states


def test_the_tiny_deck_offers_every_timing_a_bonus(tiny_states):
    """The enumeration meets declare phases with a bonus declared and declined (else it would test nothing)."""
    _, _, states = tiny_states
    declare_phases = sum(1 for d, *_ in states if not d.is_over and d.phase == DECLARE)
    scored = sum(1 for d, *_ in states if d.is_over and any(e.name in ("pair", "high") for e in d.hand.events))
    assert len(states) > 1000 and declare_phases > 100 and scored > 10


def test_perfect_recall_on_every_state_of_a_tiny_deck(tiny_states):
    """At every decision, the information-state string and tensor of the seat to act tell apart exactly the
    states it can tell apart: equal views give equal ones (nothing hidden shows) and different views different
    ones (it remembers its own cards and choices: declaring and declining used to look the same; the tensor
    was empty)."""
    _, path, states = tiny_states
    info = _info_states(path, 2)
    if info is None:
        pytest.skip("open_spiel is not installed (pip install '.[rl]')")
    by_view, by_string, by_tensor = {}, {}, {}
    for d, views, _, _ in states:
        if d.is_over:
            continue
        seat = d.current_seat
        text, tensor = info(d, seat)
        assert by_view.setdefault(views[seat], (text, tensor)) == (text, tensor), "equal views, different states"
        other = by_string.setdefault(text, views[seat])
        assert other == views[seat], f"two views alias as {text!r}"
        assert by_tensor.setdefault(tensor, views[seat]) == views[seat], f"two views alias in the tensor ({text!r})"


def _public_observation(observer, d):
    """Every seat's observation array with its own hand taken out, for the seats not deciding: what all see."""
    hand_block = observer.blocks["hand"]
    out = []
    for seat in range(observer.n):
        if seat == d.current_seat:
            continue
        a = observer.array(d, seat).copy()
        a[hand_block] = 0
        out.append(a.tobytes())
    return tuple(out)


def test_equal_public_histories_give_equal_public_information_on_a_tiny_deck(tiny_states):
    """Whatever the hidden cards, states with equal public events and equally many steps since the last one
    have had the same seats act in the same order, have the same seat to act and the same public observation.
    A declare phase opened only for a seat holding a bonus, so the seat to act (public in OpenSpiel and
    PettingZoo) told that it held one; now every seat is asked when the rules let it declare."""
    rules, _, states = tiny_states
    observer = Observer(rules.module, 2)
    groups = {}
    for d, _, public, actors in states:
        got = (actors, d.current_seat, _public_observation(observer, d))
        assert groups.setdefault(public, got) == got, (public, got, groups[public])
    assert len(groups) > 100


def test_the_openspiel_resampler_draws_from_the_bots_stream_not_numpys_global_one():
    """make_resampler(random_state) takes the bot's own seeded stream: the same seed gives the same worlds, and
    NumPy's global generator is neither read nor moved (the resampler used to draw from it, so a seeded
    ISMCTSBot searched different worlds each run, and moved every other user's global stream)."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[rl]')")
    from rulespec.interop.openspiel import make_resampler
    game = pyspiel.load_game("rulespec", {"ruleset": "cirulla", "seats": 2})
    state = game.new_initial_state()
    for card in range(40):
        state.apply_action(card)
    player = state.current_player()

    def worlds(random_state):
        resampler = make_resampler(random_state)
        return [str(resampler(state, player)) for _ in range(4)]

    np.random.seed(5)
    before = np.random.get_state()[1].copy()
    first = worlds(np.random.RandomState(7))
    np.random.seed(6)                                   # another global state: the same worlds all the same
    assert worlds(np.random.RandomState(7)) == first and worlds(7) == first
    np.random.seed(5)
    worlds(np.random.RandomState(7))
    assert np.array_equal(np.random.get_state()[1], before)
    assert len(set(first)) > 1 and worlds(8) != first


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_different_choices_give_the_chooser_different_information_states(ruleset):
    """Over random states of every shipped ruleset: two different actions of the seat to act lead to states it
    can tell apart (it remembers what it chose), so its information-state strings and tensors differ. Declaring and
    declining used to alias once the declare phase was over (cirulla: every such pair)."""
    rules = rulespec.compile(ruleset)
    seats = rules.default_seats
    info = _info_states(ruleset, seats)
    if info is None:
        pytest.skip("open_spiel is not installed (pip install '.[rl]')")
    rng = random.Random(ruleset)
    states = declare_pairs = 0
    tensors, strings = {}, {}
    seed = 0
    while states < 1000:
        d = Decisions(rules.new_hand(seats=seats, seed=seed))
        seed += 1
        while not d.is_over:
            seat, legal = d.current_seat, d.legal_actions()
            if len(legal) > 1:
                first, second = rng.sample(legal, 2)
                if d.phase == DECLARE:
                    first, second = d.layout.done, next(a for a in legal if a != d.layout.done)
                    declare_pairs += 1
                children = []
                for action in (first, second):
                    child = d.clone()
                    child.apply(action)
                    children.append(info(child, seat))
                    # The tensor holds what the string holds: equal exactly when the strings are.
                    text, tensor = children[-1]
                    digest = hashlib.sha1(tensor).digest()
                    assert tensors.setdefault(text, digest) == digest and strings.setdefault(digest, text) == text
                assert children[0][0] != children[1][0], (d.phase, first, second, children[0][0])
                assert children[0][1] != children[1][1], (d.phase, first, second, children[0][0])
                states += 1
            d.apply(rng.choice(legal))
    if rules.module.HAND_BONUSES:
        assert declare_pairs > 0


def test_openspiel_ismcts_searches_from_declare_phases_mid_hand():
    """OpenSpiel's own ISMCTS keys its tree on information-state strings: where declaring and declining
    aliased, a node built after one was reused after the other, and the search played an action that was no
    longer legal (cirullone, 4 seats: IllegalMove or KeyError in 32 of 36 searches from a declare phase)."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[rl]')")
    from open_spiel.python.algorithms import ismcts, mcts
    from rulespec.interop.openspiel import make_resampler
    game = pyspiel.load_game("rulespec", {"ruleset": "cirullone", "seats": 4})
    rng = random.Random(0)
    searched = 0
    for hand_no in range(6):
        stream = np.random.RandomState(hand_no)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=stream)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(stream.choice([a for a, _ in state.chance_outcomes()])))
        while not state.is_terminal() and searched < 12:
            if state.decisions.phase == DECLARE and state.decisions.hand.bonus_options(state.current_player()):
                bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=40, random_state=stream)
                bot.set_resampler(make_resampler(stream))
                assert bot.step(state) in state.legal_actions()
                searched += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched == 12
