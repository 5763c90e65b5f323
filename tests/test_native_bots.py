"""The native engine beyond random bots on single hands: whole games (`--games`) and the greedy bot, in C.

Lockstep: the Python engine's `Game`, `Hand` and the bots themselves (RandomBot, GreedyBot, through
bots/policy.py's play_out) are driven by the same streams the C draws from (rulespec/run/stream.py's Stream, at
the paths simulate gives them: a hand's one stream, or a game's deals and one per seat's bot); every move (seat,
card, capture, declared cards, wild rank), every hand's scores and every game's length and winners must be
the same. Then the statistics of a native game run against the Python engine's, in distribution.
"""
import math

import pytest

from rulespec.bots.policy import knocks, play_out
from rulespec.bots.registry import make_bot
from rulespec.bots.simulate import simulate
from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.run.engine import Game, Hand, shuffled_source
from rulespec.run.stream import Stream

HAS_CC = native.find_compiler() is not None
pytestmark = pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine (the native engine needs one)")

# A game to a target (cirulla, scopa), of a number of hands with ties playing on (kontsina), ended by the
# deal (cirulla-luzzati: the dealer wins, a third misdeal loses), by an outcome (cirulla-tournament-cappotto),
# with knocks before the turn (cirulla-knock-after-deal), and four-seat partnerships (scopone).
GAME_RULESETS = ["cirulla", "scopa", "kontsina", "cirulla-luzzati", "cirulla-tournament-cappotto",
                 "cirulla-knock-after-deal", "scopone"]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Builds go to one cache for the session (never the user's), at -O0: a quarter of -O2's compile time."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "native-cache"))
    monkeypatch.setenv("RULESPEC_NATIVE_OPT", "-O0")


def _recorder(unit: int, moves: list):
    """play_out's on_play, keeping each play as the C's trace has it (knocks, which play no card, left out)."""
    def on_play(seat, decls, card, capture, events):
        if card is None:
            return
        declared, wild = 0, -1
        for d in decls:
            declared |= d.cards
            wild = d.wild_rank if d.wild_rank is not None else wild
        moves.append((unit, seat, card, capture, declared, wild))
    return on_play


def python_game(rules, seats: int, seed: int, i: int, bots: list[str]):
    """Game i of a native game run, played by Game and the bots with the same streams; (game, hands, moves)."""
    game = Game(rules, seats, dealer=i % seats)
    game.rng = Stream.for_game(seed, i)
    players = [make_bot(spec, Stream.for_game_bot(seed, i, s)) for s, spec in enumerate(bots)]
    hands, moves = [], []
    while not game.is_over:
        hand = game.new_hand()
        play_out(hand, players, on_play=_recorder(i, moves))
        game.finish_hand()
        hands.append(hand)
    return game, hands, moves


def python_hand(rules, seats: int, seed: int, i: int, bots: list[str]):
    """Hand i of a native hand run, played by Hand and the bots on the hand's one stream; (hand, moves)."""
    rng = Stream.for_hand(seed, i)
    hand = Hand(rules, seats, i % seats, shuffled_source(rules.N_CARDS, rng))
    moves = []
    play_out(hand, [make_bot(spec, rng) for spec in bots], on_play=_recorder(i, moves))
    return hand, moves


def same_hand(row: dict, hand: Hand, where) -> None:
    """A native per-hand row says what the Python hand did: plays, outcome, events, scores."""
    events: dict = {}
    for e in hand.events:
        events[e.name] = events.get(e.name, 0) + 1
    assert row["plays"] == hand.plays, where
    assert row["outcome"] == (hand.outcome[0] if hand.outcome else None), where
    assert {k: v for k, v in row["events"].items() if v} == events, where
    if hand.plays:
        assert row["scores"] == hand.score(), where


@pytest.mark.parametrize("rid", GAME_RULESETS)
def test_games_lockstep_with_the_python_engine(rid):
    compiled = compile_ruleset(rid)
    rules = compiled.module
    nat = native.load(compiled)
    seats = rules.DEFAULT_SEATS
    games, seed = 4, 5
    for bots in (["random"] * seats, ["greedy", "random"] * (seats // 2) + ["greedy"] * (seats % 2)):
        batch = nat.run(seed, 0, games, seats, per_hand=True, trace_cap=games * 400, bots=bots, games=True)
        rows = iter(batch.per_hand)
        expected, wins, lengths = [], [0] * rules.SIDES[seats], 0
        for i in range(games):
            game, hands, moves = python_game(rules, seats, seed, i, bots)
            expected += moves
            for k, hand in enumerate(hands):
                same_hand(next(rows), hand, (rid, bots, i, k))
            lengths += game.hands_played
            for side in game.winners:
                wins[side] += 1
        assert next(rows, None) is None
        assert (batch.games, batch.game_hands, batch.game_wins) == (games, lengths, wins), (rid, bots)
        assert [tuple(t) for t in batch.trace] == expected, (rid, bots)


def test_a_tied_game_of_a_number_of_hands_plays_on_and_an_outcome_ends_a_game():
    """kontsina's game is 4 hands, one more while the top is tied; cirulla-luzzati's deal can end it."""
    for rid, ended in (("kontsina", lambda g: g.hands_played > 4), ("cirulla-luzzati", lambda g: g.outcome)):
        compiled = compile_ruleset(rid)
        rules = compiled.module
        nat = native.load(compiled)
        seats = rules.DEFAULT_SEATS
        for i in range(400):
            game, hands, _ = python_game(rules, seats, 3, i, ["random"] * seats)
            if ended(game):
                break
        else:
            pytest.fail(f"no game of {rid} in 400 shows it")
        batch = nat.run(3, i, 1, seats, games=True)
        assert (batch.game_hands, batch.game_wins) == \
            (game.hands_played, [int(s in game.winners) for s in range(rules.SIDES[seats])])


# Later rounds deal to the table too: a greedy bot's trial of a round's last card deals the next round into
# its copy of the hand, never into the hand itself.
TABLE_EACH_ROUND = """id: table-each-round
extends: cirulla
players: {counts: [2], default: 2, sides: {2: 2}}
deal:
  rounds:
    - [{each: 3}, {table: 4}]
    - [{each: 2}, {table: 2}]
  repeat_last: true
"""


@pytest.mark.parametrize("rid", ["cirulla", "scopa", "cirulla-knock-after-deal", "cirulla-matta-queen",
                                 "escoba", "cicera", "table-each-round"])
def test_greedy_lockstep_with_greedybot(rid, tmp_path):
    if rid == "table-each-round":
        rid = tmp_path / "table-each-round.yaml"
        rid.write_text(TABLE_EACH_ROUND, encoding="utf-8")
    compiled = compile_ruleset(rid)
    rules = compiled.module
    nat = native.load(compiled)
    seats = rules.DEFAULT_SEATS
    hands, seed = 25, 9
    for bots in (["greedy"] * seats, ["random", "greedy"] * (seats // 2) + ["random"] * (seats % 2)):
        batch = nat.run(seed, 0, hands, seats, per_hand=True, trace_cap=hands * 60, bots=bots)
        expected = []
        for i in range(hands):
            hand, moves = python_hand(rules, seats, seed, i, bots)
            expected += moves
            same_hand(batch.per_hand[i], hand, (rid, bots, i))
        assert [tuple(t) for t in batch.trace] == expected, (rid, bots)


def test_an_endless_game_is_the_python_engines_located_error(tmp_path):
    path = tmp_path / "far.yaml"
    path.write_text("id: far\nextends: scopa\ngame: {target: 1000000}\n", encoding="utf-8")
    from rulespec.bots.games import MAX_HANDS_PER_GAME
    from rulespec.bots.native_sim import simulate_native
    assert native.MAX_HANDS_PER_GAME == MAX_HANDS_PER_GAME      # the C's limit is the Python engine's
    compiled = compile_ruleset(path)
    nat = native.load(compiled)
    with pytest.raises(native.NativeEndless):
        nat.run(0, 0, 2, 2, games=True)
    with pytest.raises(RulespecError) as native_error:
        simulate_native(nat, games=2, seats=2)
    with pytest.raises(RulespecError) as python_error:
        simulate(path, games=1, workers=1)
    assert native_error.value.message == python_error.value.message
    assert "game 0 has not ended after 1000 hands" in native_error.value.message
    assert native_error.value.span is not None and native_error.value.span.line == 3


def test_native_games_agree_in_distribution_with_the_python_engine():
    """Mean hands per game, points per hand and the first side's game wins: |z| below 4.5 (a 1e-5 chance)."""
    py = simulate("cirulla", games=150, seed=1, workers=1)
    nat = native.load(compile_ruleset("cirulla"))
    b = nat.run(1, 0, 3000, 4, games=True)
    assert b.games == 3000 and py.games == 150
    p_py, p_nat = py.game_wins[0] / py.games, b.game_wins[0] / b.games
    pooled = (py.game_wins[0] + b.game_wins[0]) / (py.games + b.games)
    z = (p_py - p_nat) / math.sqrt(pooled * (1 - pooled) * (1 / py.games + 1 / b.games))
    assert abs(z) < 4.5, z
    m_py, m_nat = py.sums[(0, "total")] / py.hands, b.sums[(0, "total")] / b.hands
    var = py.squares[(0, "total")] / py.hands - m_py ** 2
    assert abs(m_py - m_nat) / math.sqrt(var / py.hands + var / b.hands) < 4.5
    h_py, h_nat = py.game_hands / py.games, b.game_hands / b.games
    assert abs(h_py - h_nat) < 4.5 * h_py / math.sqrt(py.games)    # hands per game spread about their mean


# -------------------------------------------------------------------- ISMCTS rollouts in C


def midhand(rules, seed: int, plays: int) -> Hand:
    """Hand `seed` of a run after `plays` plays of random bots (declarations and knocks included)."""
    rng = Stream.for_hand(seed, seed)
    hand = Hand(rules, rules.DEFAULT_SEATS, seed % rules.DEFAULT_SEATS, shuffled_source(rules.N_CARDS, rng))
    players = [make_bot("random", rng) for _ in range(hand.n)]
    while not hand.is_over and hand.plays < plays:
        knocks(hand)
        seat = hand.current_seat
        decls, card, capture = players[seat].choose(hand, seat)
        hand.play(seat, card, capture, decls)
    return hand


@pytest.mark.parametrize("rid", ["cirulla", "scopa", "cirulla-matta-queen", "cirulla-knock-after-deal", "escoba",
                                 "cirulla-tournament-cappotto"])
def test_ismcts_weighs_every_move_alike_with_c_and_python_rollouts(rid):
    from rulespec.bots.ismcts import ISMCTSBot
    from rulespec.bots.policy import declared_moves
    compiled = compile_ruleset(rid)
    rules = compiled.module
    nat = native.load(compiled)
    checked = 0
    for seed in range(8):
        for plays in (0, 3, 11, 22, 30):
            hand = midhand(rules, seed, plays)
            if hand.is_over:
                continue
            seat = hand.current_seat
            decls, moves = declared_moves(hand, seat)
            scores = []
            for how in ({"native": nat}, {"playouts": False}, {"playouts": True}):
                bot = ISMCTSBot(Stream(seed * 31 + plays), budget=20, **how)
                scores.append(bot.evaluate(hand, seat, decls, moves))
            assert scores[0] == scores[1] == scores[2], (rid, seed, plays)
            choices = {repr(ISMCTSBot(Stream(seed), budget=20, **how).choose(hand, seat))
                       for how in ({"native": nat}, {"playouts": False})}
            assert len(choices) == 1
            checked += 1
    assert checked >= 30


# -------------------------------------------------------------------- workers and Ray


class _FakeRay:
    """The part of Ray's API bots/simulate.py uses, running each task at once in this process."""

    def __init__(self):
        self.tasks = 0

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        pass

    def shutdown(self):
        pass

    def remote(self, fn):
        ray = self

        class Remote:
            def remote(self, *args):
                ray.tasks += 1
                return _Ref(fn(*args))
        return Remote()

    def wait(self, refs, num_returns=1):
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref):
        return ref.value


class _Ref:
    """A task's result, as a Ray object reference (hashable, whatever it holds)."""

    def __init__(self, value):
        self.value = value


def simulate_json(*argv) -> dict:
    import io
    import json

    from rulespec.cli.main import run
    out, err = io.StringIO(), io.StringIO()
    assert run(["simulate", *argv, "--engine", "native", "--json", "--no-timings"], out, err) == 0, err.getvalue()
    doc = json.loads(out.getvalue())
    assert doc["engine"] == "native"
    return doc


@pytest.mark.parametrize("unit", [["--hands", "3000"], ["--games", "60", "--bots", "greedy,random"]])
def test_native_runs_spread_over_workers_and_ray_give_the_figures_of_one_process(unit, monkeypatch):
    import sys
    one = simulate_json("cirulla", *unit, "--seed", "6")
    two = simulate_json("cirulla", *unit, "--seed", "6", "--workers", "2")
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    on_ray = simulate_json("cirulla", *unit, "--seed", "6", "--workers", "2", "--backend", "ray")
    assert fake.tasks > 1
    assert one == two == {**on_ray, "backend": "local"}


# -------------------------------------------------------------------- per-event counts


@pytest.mark.parametrize("rid", ["cirulla", "scopa", "cirulla-knock-after-deal", "cirulla-tournament-cappotto",
                                 "cirulla-luzzati"])
def test_native_event_counts_are_the_python_engines_for_the_same_hands(rid):
    """Per side and event the times, hands and points, captures and play events per hand: as Stats counts
    the Python engine's hands played from the same streams."""
    from rulespec.bots.native_sim import simulate_native
    from rulespec.bots.simulate import Stats
    compiled = compile_ruleset(rid)
    rules = compiled.module
    seats = rules.DEFAULT_SEATS
    hands, seed = 60, 21
    for bots in (["random"] * seats, ["greedy"] * seats):
        got = simulate_native(native.load(compiled), hands=hands, seed=seed, bots=bots)
        want = Stats(rules.SIDES[seats], seats, tuple(rules.CATEGORIES) + ("total", "margin"), events=rules.EVENTS)
        for i in range(hands):
            hand, moves = python_hand(rules, seats, seed, i, bots)
            want.add_hand(hand, sum(1 for m in moves if m[3]))
        assert got.events == want.events
        for field in ("fired", "fired_hands", "fired_points", "captures", "sweeps", "sums"):
            assert getattr(got, field) == getattr(want, field), (rid, bots, field)


def test_the_c_rollouts_refuse_a_state_they_cannot_play():
    """Every number rs_rollouts uses as an index or a shift is checked on entry: a bad one plays nothing."""
    from rulespec.bots.policy import declared_moves
    from rulespec.compiler.native_rollouts import Rollouts
    compiled = compile_ruleset("cirulla")
    nat = native.load(compiled)
    hand = midhand(compiled.module, 1, 5)
    seat = hand.current_seat
    decls, moves = declared_moves(hand, seat)
    for spoil in (lambda r: setattr(r, "seat", 7), lambda r: r.cards.__setitem__(0, 200),
                  lambda r: r.state.__setitem__(2, 9), lambda r: r.state.__setitem__(6, 3)):
        batch = Rollouts(nat, hand, seat, decls, moves, 51)
        spoil(batch)
        with pytest.raises(native.NativeUnavailable, match="cannot play"):
            batch.add({s: hand.hands[s] for s in range(hand.n) if s != seat}, hand.source.order[hand.source.pos:], 1,
                      [0.0] * len(moves))
    with pytest.raises(native.NativeUnavailable, match="cannot play"):
        Rollouts(nat, hand, seat, decls, moves, 51).add({}, [99], 1, [0.0] * len(moves))
