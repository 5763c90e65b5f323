"""Issue 9: untrusted rulesets and transcripts (file references, odd files, engine API edges, budgets,
hidden information, the compile cache, command-line values). Each test failed before its fix."""
import io

import pytest

from rulespec.cli.main import run


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- item 12: --bots values

@pytest.mark.parametrize("bots", ["ismcts:²", "ismcts:١٢", "ismcts:0", "ismcts:99999999999", "ismcts:-3"])
def test_a_bad_bot_budget_is_one_error_line(bots):
    code, _, err = cli("simulate", "cirulla", "--hands", "1", "--workers", "1", "--bots", bots)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "ismcts" in err


# ---------------------------------------------------------------- item 9: Hand API edges

def _fresh_hand(rid="cirulla", seed=3):
    import random

    from rulespec.compiler.build import compile_ruleset
    from rulespec.run.engine import Hand, shuffled_source
    rules = compile_ruleset(rid).module
    return Hand(rules, rules.DEFAULT_SEATS, 0, shuffled_source(rules.N_CARDS, random.Random(seed)))


def _state(hand):
    return (list(hand.hands), hand.table, list(hand.piles), hand.turn, hand.plays, list(hand.events),
            list(hand.shown), list(hand.declared), hand.wild_as, hand.over)


def _bad_calls(hand):
    from rulespec.run.engine import Declaration
    seat = hand.current_seat
    card = hand.legal_moves()[0][0]
    wild = hand.rules.WILD_INDEX if hand.rules.WILD_INDEX is not None else card
    return {
        "capture -1": lambda: hand.play(seat, card, -1),
        "capture beyond the deck": lambda: hand.play(seat, card, 1 << 200),
        "card 999": lambda: hand.play(seat, 999, 0),
        "card -1": lambda: hand.play(seat, -1, 0),
        "card as text": lambda: hand.play(seat, "7H", 0),
        "card True": lambda: hand.play(seat, True, 0),
        "seat -1": lambda: hand.play(-1, card, 0),
        "seat 99": lambda: hand.play(99, card, 0),
        "seat as text": lambda: hand.play("0", card, 0),
        "wild rank 99": lambda: hand.play(seat, card, 0, [Declaration("decino", 1 << wild, 99)]),
        "wild rank -1": lambda: hand.play(seat, card, 0, [Declaration("decino", 1 << wild, -1)]),
        "declaration cards -1": lambda: hand.play(seat, card, 0, [Declaration("decino", -1)]),
        "declaration not a list": lambda: hand.play(seat, card, 0, 5),
        "declaration garbage": lambda: hand.play(seat, card, 0, ["decino"]),
        "declare seat 99": lambda: hand.declare(99, [Declaration("decino", 7)]),
        "declare seat -1": lambda: hand.declare(-1, []),
        "bonus_options seat 99": lambda: hand.bonus_options(99),
        "observation -1": lambda: hand.observation(-1),
        "observation 4": lambda: hand.observation(hand.n),
        "with_declarations seat 99": lambda: hand.with_declarations(99, []),
        "with_hidden stock -1": lambda: hand.with_hidden({}, [-1] * hand.stock_size()),
        "with_hidden too short": lambda: hand.with_hidden({}, []),
        "options_for 999": lambda: hand.options_for(999),
    }


@pytest.mark.parametrize("call", sorted(_bad_calls(_fresh_hand())))
def test_a_bad_call_is_an_illegal_move_and_changes_nothing(call):
    from rulespec.run.engine import IllegalMove
    hand = _fresh_hand()
    before = _state(hand)
    with pytest.raises(IllegalMove):
        _bad_calls(hand)[call]()
    assert _state(hand) == before
    # The hand goes on as if nothing had happened.
    card, capture = hand.legal_moves()[0]
    hand.play(hand.current_seat, card, capture)


# ---------------------------------------------------------------- item 10: hidden information

def _decisions(hand, seat, seed):
    """Everything a seat's decision reads or makes: legal moves, bonus options, each bot's choice (seeded)."""
    import random

    from rulespec.bots.greedy import GreedyBot
    from rulespec.bots.ismcts import ISMCTSBot
    from rulespec.bots.random_bot import RandomBot
    out = {"legal": sorted(hand.legal_moves()), "bonus options": sorted(hand.bonus_options(seat))}
    for name, bot in (("random", RandomBot), ("greedy", GreedyBot)):
        out[name] = bot(random.Random(seed)).choose(hand.clone(), seat)
    return out


@pytest.mark.parametrize("rid", __import__("rulespec.source.rulesets", fromlist=["x"]).shipped_ids())
def test_equal_observations_give_equal_decisions(rid):
    """Two states a seat cannot tell apart (its observation equal, the hidden cards dealt otherwise)."""
    import random

    from rulespec.bots.ismcts import ISMCTSBot, determinise
    from rulespec.bots.policy import knocks
    from rulespec.bots.random_bot import RandomBot
    from rulespec.compiler.build import compile_ruleset
    from rulespec.run.engine import Hand, shuffled_source
    rules = compile_ruleset(rid).module
    unique = any(spec.unique_by for spec in rules.HAND_BONUSES.values())
    compared = with_options = 0
    for seed in range(8 if unique else 1):
        n = rules.DEFAULT_SEATS
        hand = Hand(rules, n, seed % n, shuffled_source(rules.N_CARDS, random.Random(seed)))
        bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(n)]
        while not hand.is_over:
            knocks(hand)
            seat = hand.current_seat
            twin = determinise(hand, seat, random.Random(seed * 1000 + hand.plays))
            assert twin.observation(seat) == hand.observation(seat)
            mine, theirs = _decisions(hand, seat, seed), _decisions(twin, seat, seed)
            assert mine == theirs, f"{rid}: play {hand.plays + 1}, seat {seat}"
            compared += 1
            with_options += bool(mine["bonus options"])
            if hand.plays % 9 == 4:    # the search bot, now and then (it costs rollouts)
                assert (ISMCTSBot(random.Random(seed), 6).choose(hand.clone(), seat)
                        == ISMCTSBot(random.Random(seed), 6).choose(twin.clone(), seat))
            decls, card, capture = bots[seat].choose(hand, seat)
            hand.play(seat, card, capture, decls)
    assert compared
    if unique:
        assert with_options, "no position with a bonus to declare: the test would not see unique_by"
