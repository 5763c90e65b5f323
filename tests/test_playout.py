"""The generated whole-hand playouts agree with `Hand` move by move (compiler/playout.py).

Same deck order, same per-seat random streams: the playout and `Hand` driven by
the random and greedy bots must make the same moves and declarations, the
same events, the same score and the same counts of legal moves, for every
shipped ruleset and every player count it allows, declarations on.
"""
import random

import pytest

from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot
from rulespec.bots.simulate import simulate, to_dict
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.playout import POLICIES, generate, playout_for
from rulespec.compiler.support import playout_unsupported
from rulespec.run.engine import Hand, shuffled_source
from rulespec.source.rulesets import shipped_ids

# The shipped rulesets the playout plays; those with a construct it refuses (compiler/support.py: several sets
# in one capture, cards of several values, event points as expressions) are played by Hand, and are checked by
# test_a_shipped_ruleset_the_playout_refuses_plays_through_hand below.
PLAYED = [rid for rid in shipped_ids() if not playout_unsupported(compile_ruleset(rid).ruleset)]
REFUSED = [rid for rid in shipped_ids() if rid not in PLAYED]

# The pile games among them: a pile, face-down cards and deal.bury.
PILE_GAMES = {"pishti", "kseri"}
HANDS = 6          # per ruleset and player count: random bots, then every third seat greedy


def _bots(i: int, n: int) -> list[str]:
    return ["random"] * n if i % 2 == 0 else ["greedy" if (i + s) % 3 == 0 else "random" for s in range(n)]


def via_hand(rules, n: int, dealer: int, seed: str, specs: list[str]):
    rng = random.Random(seed)
    hand = Hand(rules, n, dealer, shuffled_source(rules.N_CARDS, rng))
    bots = [make_bot(spec, random.Random(f"{seed}:bot{s}")) for s, spec in enumerate(specs)]
    moves, counts = [], [0, 0]

    def on_play(seat, decls, card, capture, events):
        moves.append((seat, tuple(decls), card, capture))

    def on_turn(h, seat):
        counts[0] += 1
        counts[1] += len(h.legal_moves())

    play_out(hand, bots, on_play=on_play, on_turn=on_turn)
    events = [(e.play, e.seat, e.name, e.points) for e in hand.events]
    return moves, events, hand.plays, hand.outcome, hand.score() if hand.plays else None, counts


def via_playout(compiled, n: int, dealer: int, seed: str, specs: list[str]):
    rules = compiled.module
    rng = random.Random(seed)
    order = list(range(rules.N_CARDS))
    rng.shuffle(order)
    record = []
    plays, outcome, piles, points, turns, offered = playout_for(compiled)(
        n, dealer, order, rng, [POLICIES[s] for s in specs], [random.Random(f"{seed}:bot{s}") for s in range(n)],
        True, record)
    moves = [(seat, tuple(decls), card, capture) for kind, seat, decls, card, capture in
             (r for r in record if r[0] == "move")]
    events = [r[1:] for r in record if r[0] == "event"]
    return moves, events, plays, outcome, rules.score(piles, points) if plays else None, [turns, offered]


@pytest.mark.parametrize("rid", PLAYED)
def test_playout_agrees_with_hand_move_by_move(rid):
    compiled = compile_ruleset(rid)
    rules = compiled.module
    declared = 0
    for n in rules.SEATS_ALLOWED:
        for i in range(HANDS):
            seed = f"lockstep:{rid}:{n}:{i}"
            specs = _bots(i, n)
            want = via_hand(rules, n, i % n, seed, specs)
            got = via_playout(compiled, n, i % n, seed, specs)
            for what, a, b in zip(("moves", "events", "plays", "outcome", "score", "legal moves"), want, got):
                assert a == b, f"{rid}, {n} players, hand {i} ({','.join(specs)}): {what} differ"
            declared += sum(1 for _, decls, _, _ in want[0] if decls)
    if rules.HAND_BONUSES:
        # The check means something only if declarations were made (wild ranks, knocks included).
        assert declared, f"{rid}: no declaration in {HANDS} hands per player count; pick other seeds"


def test_declared_wild_card_and_knocks_are_exercised():
    """The lockstep seeds reach the rare paths: a wild card declared as a rank, and card-less knocks."""
    wild = knocked = 0
    for rid in shipped_ids():
        compiled = compile_ruleset(rid)
        rules = compiled.module
        if not rules.HAND_BONUSES:
            continue
        for n in rules.SEATS_ALLOWED:
            for i in range(HANDS):
                moves = via_hand(rules, n, i % n, f"lockstep:{rid}:{n}:{i}", _bots(i, n))[0]
                wild += sum(1 for _, decls, _, _ in moves for d in decls if d.wild_rank is not None)
                knocked += sum(1 for _, decls, card, _ in moves if decls and card is None)
    assert wild >= 5 and knocked >= 5, (wild, knocked)


def test_simulate_gives_the_same_figures_through_playouts_and_through_hand():
    for rid, kw in (("cirulla", {"hands": 60}), ("cirulla", {"games": 2}),
                    ("cicera", {"hands": 40, "bots": "greedy,random"})):
        fast = to_dict(simulate(rid, seed=5, workers=1, **kw))
        slow = to_dict(simulate(rid, seed=5, workers=1, playout=False, **kw))
        assert fast == slow, (rid, kw)


def test_playout_source_is_specialised_to_the_ruleset():
    """What a ruleset lacks is not in its playout: no knock loop without knocks, no wild-card path without a wild card."""
    plain = generate(compile_ruleset("cirulla").ruleset)
    assert "knocks, in seat order" not in plain
    assert "def _wild_options" in plain
    assert "# cirulla.yaml:" in plain             # the events' conditions, located like the compiled module's
    knocking = [rid for rid in shipped_ids()
                if compile_ruleset(rid).module.TIMING in ("after_deal", "before_first_turn")
                and compile_ruleset(rid).module.HAND_BONUSES]
    assert knocking
    assert "knocks, in seat order" in generate(compile_ruleset(knocking[0]).ruleset)
    no_wild = [rid for rid in shipped_ids() if compile_ruleset(rid).module.WILD_INDEX < 0]
    if no_wild:
        assert "def _wild_options" not in generate(compile_ruleset(no_wild[0]).ruleset)


@pytest.mark.parametrize("rid", ["cirulla", "cirullone", "cirulla-dossena"])
def test_ismcts_rollouts_through_playouts_choose_as_through_hand(rid):
    """ISMCTS rollouts resumed from mid-hand states by the playout make the bot choose exactly as Hand rollouts."""
    from rulespec.bots.ismcts import ISMCTSBot
    rules = compile_ruleset(rid).module
    chosen = {}
    for fast in (True, False):
        hand = Hand(rules, rules.DEFAULT_SEATS, 1, shuffled_source(rules.N_CARDS, random.Random(f"ismcts:{rid}")))
        bots = [ISMCTSBot(random.Random(f"ismcts:{rid}:{s}"), 12, playouts=fast) for s in range(hand.n)]
        moves = []
        play_out(hand, bots, on_play=lambda seat, decls, card, capture, events: moves.append((seat, card, capture)))
        chosen[fast] = (moves, hand.score())
    assert chosen[True] == chosen[False]


@pytest.mark.parametrize("rid", ["cirulla", "cirullone", "cicera", "cirulla-dossena", "cirulla-buffoni"])
def test_playout_resumed_mid_hand_finishes_as_a_hand_rollout(rid):
    """From every state of some bot-played hands (declarations, a declared wild card included), the
    playout resumed there reaches the value a `Hand` rollout with the same stream reaches."""
    from rulespec.bots.ismcts import playout_value, result_for, rollout
    from rulespec.compiler.playout import resume_for
    compiled = compile_ruleset(rid)
    rules = compiled.module
    resume = resume_for(compiled)
    checked = 0
    for i in range(3):
        hand = Hand(rules, rules.DEFAULT_SEATS, i % rules.DEFAULT_SEATS,
                    shuffled_source(rules.N_CARDS, random.Random(f"resume:{rid}:{i}")))
        bots = [make_bot("random", random.Random(f"resume:{rid}:{i}:{s}")) for s in range(hand.n)]

        def on_turn(h, seat):
            nonlocal checked
            for side in range(h.k):
                probe = h.clone()
                rollout(probe, random.Random(f"{checked}"))
                assert playout_value(h, side, random.Random(f"{checked}"), resume) == result_for(probe, side)
            checked += 1
        play_out(hand, bots, on_turn=on_turn)
    assert checked > 20


MOMENT_RULES = """\
    id: moment-playout
    extends: scopa-d-assi
    name: Scopa d'assi, the ace sweeps from the second turn; events that watch the clock
    capture:
      kinds:
        - kind: sweep
          when: 'rank(played) == "A" and turn > 1'
          exclusive: true
        - kind: match
        - kind: sum
          unless_match: true
    events:
      third_play: {when: play == 3, points: 1, category: scope}
      second_turn: {when: turn == 2 and not empty(captured), points: 1, category: scope}
      second_round: {when: round == 2 and turn == 1, points: 1, category: scope}
    """


def test_playout_agrees_where_captures_and_events_read_the_moment(tmp_path):
    """Capture kinds and events reading round, turn and play: no options memo, the same moves as Hand."""
    import textwrap
    path = tmp_path / "moment-playout.yaml"
    path.write_text(textwrap.dedent(MOMENT_RULES), encoding="utf-8")
    compiled = compile_ruleset(path)
    rules = compiled.module
    assert "_MEMO_TABLE = -1" in generate(compiled.ruleset)
    clock = 0
    for n in rules.SEATS_ALLOWED:
        for i in range(4):
            seed = f"moment:{n}:{i}"
            want = via_hand(rules, n, i % n, seed, _bots(i, n))
            assert via_playout(compiled, n, i % n, seed, _bots(i, n)) == want, (n, i)
            clock += sum(1 for e in want[1] if e[2] in ("third_play", "second_turn", "second_round"))
    assert clock


def test_counted_moves_are_legal_moves_in_order():
    """The counting path (Cicera: long hands, optional captures) counts exactly legal()'s moves and
    finds each by its number, in legal()'s order, from the table and hand polynomials alone."""
    compiled = compile_ruleset("cicera")
    rules = compiled.module
    space = playout_for(compiled).__globals__
    pick, table_of, hands_of = space["_k_pick"], space["_k_table"], space["_k_hands"]
    assert space["_K_ON"]               # no table of the deck has more sets than runtime.subset_sums lists
    rng = random.Random("counted")
    checked = captures = 0
    for i in range(300):
        cards = rng.sample(range(rules.N_CARDS), rng.randint(1, 36))
        cut = rng.randint(1, min(12, len(cards)))
        hand = sum(1 << c for c in cards[:cut])
        tab = sum(1 << c for c in cards[cut:])
        tp, tc = table_of(tab)
        want = rules.legal(hand, tab, 1, 1, 1)
        assert hand.bit_count() + ((tp + tc) * hands_of([hand])[0] >> space["_K_TOP"] & space["_K_DIGIT"]) \
            == len(want), i
        for r, move in enumerate(want):
            assert pick(hand, tab, tp + tc, r) == move, (i, r)
            checked += 1
            captures += move[1] != 0
    assert checked > 3000 and captures > 1000


def test_counting_path_only_where_it_applies():
    """The counting path is generated for Cicera's optional match+sum captures, not for forced,
    wild-card or fifteen rulesets (their moves are listed or memoised)."""
    assert "def _k_pick" in generate(compile_ruleset("cicera").ruleset)
    for rid in ("cirulla", "scopone", "escoba"):
        assert "def _k_pick" not in generate(compile_ruleset(rid).ruleset), rid


def _fresh_playout(compiled):
    """A playout module of its own (its memo rows empty), as a new process loads it."""
    from rulespec.compiler.playout import generate_with_spans
    source, _spans = generate_with_spans(compiled.ruleset)
    namespace = dict(compiled.module.__dict__)
    namespace["_MODULE"] = compiled.module
    exec(compile(source, f"<fresh playout {compiled.module.RULESET_ID}>", "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("rid", PLAYED)
def test_rows_filled_ahead_play_as_hand_plays(rid):
    """_prefill (what a disk cache entry keeps): rows made from stand-in tables of each mix of card classes,
    then served to the tables of play, which hold other cards of those classes: still Hand's moves."""
    compiled = compile_ruleset(rid)
    rules = compiled.module
    namespace = _fresh_playout(compiled)
    rows = namespace["_prefill"]()
    assert bool(rows) == (namespace["_MEMO_TABLE"] >= 0)
    assert not namespace["_ROWS"]          # tables of play find their rows by their classes

    for n in rules.SEATS_ALLOWED:
        for i in range(3):
            seed = f"prefilled:{rid}:{n}:{i}"
            specs = _bots(i, n)
            want = via_hand(rules, n, i % n, seed, specs)
            rng = random.Random(seed)
            order = list(range(rules.N_CARDS))
            rng.shuffle(order)
            record = []
            plays, outcome, piles, points, _t, _o = namespace["playout"](
                n, i % n, order, rng, [POLICIES[s] for s in specs],
                [random.Random(f"{seed}:bot{s}") for s in range(n)], True, record)
            moves = [(seat, tuple(decls), card, capture) for kind, seat, decls, card, capture in
                     (r for r in record if r[0] == "move")]
            assert moves == want[0], f"{rid}, {n} players, hand {i}"
            assert (rules.score(piles, points) if plays else None) == want[4]


def test_a_prefilled_row_holds_every_class_a_card_can_be_played_from():
    """Cirulla: every table of up to four cards has its row, each filled for every rank not all on the table."""
    compiled = compile_ruleset("cirulla")
    namespace = _fresh_playout(compiled)
    rows = namespace["_prefill"]()
    assert len(rows) == 1000            # 10 + 55 + 220 + 715 multisets of ranks (four of a rank at most)
    n_all = namespace["_N_ALL"]
    for key, row in rows.items():
        for rank in range(10):
            if key.count(rank) < 4:
                assert all(row[i] is not None for i in range(40) if i % 10 == rank), (key, rank)
        assert row[n_all][2:] == (None, None)       # the maker's subsets are not kept


@pytest.mark.parametrize("rid", shipped_ids())
def test_legal_moves_are_listed_in_ascending_order(rid):
    """Hand.legal_moves() (the compiled legal(), or per card with a declared wild card) and the moves
    left after declaring list moves sorted: by card, then by capture mask, the play without capturing
    first: the order every bot and engine draws from."""
    from rulespec.bots.policy import declared_moves
    rules = compile_ruleset(rid).module
    turns = [0]

    def on_turn(hand, seat):
        moves = hand.legal_moves()
        assert moves == sorted(set(moves)), (rid, hand.plays)
        _decls, after = declared_moves(hand, seat)
        assert after == sorted(set(after)), (rid, hand.plays)
        turns[0] += 1

    for n in rules.SEATS_ALLOWED:
        for i in range(2):
            rng = random.Random(f"order:{rid}:{n}:{i}")
            hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
            play_out(hand, [make_bot("random", rng)] * n, on_turn=on_turn)
    assert turns[0]


def test_a_ruleset_the_playout_refuses_is_played_by_hand_with_the_same_figures(monkeypatch):
    """compiler/support.py: a refused construct makes simulate and ISMCTS fall back to `Hand`, never fail."""
    from rulespec.bots.ismcts import _resume
    from rulespec.compiler import support
    compiled = compile_ruleset("scopa", disk=False)
    for kept in ("_playout", "_playout_resume"):          # generated by an earlier test: refused from scratch
        monkeypatch.delattr(compiled, kept, raising=False)
    monkeypatch.setattr(support, "CHECKS", (lambda rs: [("a construct under test", rs.span)],))
    assert playout_for(compiled) is None and _resume(compiled.module) is None
    import rulespec.bots.simulate as sim
    fast = sim._play_fast
    monkeypatch.setattr(sim, "_play_fast", lambda *a: pytest.fail("the refused playout played a hand"))
    refused = to_dict(simulate(compiled, seed=4, workers=1, hands=30))
    monkeypatch.setattr(sim, "_play_fast", fast)
    monkeypatch.setattr(support, "CHECKS", ())
    assert playout_for(compiled) is not None and _resume(compiled.module) is not None
    assert refused == to_dict(simulate(compiled, seed=4, workers=1, hands=30))


def test_the_playout_generator_is_small_emitters():
    """compiler/playout*.py: no function longer than 60 lines (generate_with_spans was one of 834, its
    parts nested closures), so that each construct's text can be read and changed on its own."""
    import ast
    from pathlib import Path

    import rulespec.compiler as compiler_package
    folder = Path(compiler_package.__file__).parent
    files = sorted(folder.glob("playout*.py"))
    assert len(files) >= 5
    long = [(f.name, node.name, node.end_lineno - node.lineno + 1)
            for f in files for node in ast.walk(ast.parse(f.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60]
    assert long == []


def test_a_shipped_ruleset_the_playout_refuses_plays_through_hand():
    """tablanette (deal.bury, capture.combine, an ace of two values, points as an expression): no playout; simulate plays
    it with Hand, and gives the figures a hand-by-hand replay through Hand gives."""
    assert "tablanette" in REFUSED
    compiled = compile_ruleset("tablanette")
    assert [what for what, _ in playout_unsupported(compiled.ruleset)] == [
        "deal.bury (dealt table cards sent back into the stock)",
        "capture.combine: all (several sets in one capture)",
        "cards with several values (deck value lists, hand_value, card_values)",
        "event 'tablanette': points as an expression"]
    assert playout_for(compiled) is None
    assert to_dict(simulate(compiled, seed=3, workers=1, hands=6)) == \
        to_dict(simulate(compiled, seed=3, workers=1, hands=6, playout=False))


def test_the_pile_games_are_refused_and_played_by_hand():
    from rulespec.compiler.support import playout_unsupported
    for rid in sorted(PILE_GAMES):
        compiled = compile_ruleset(rid)
        assert playout_unsupported(compiled.ruleset) and playout_for(compiled) is None, rid
        assert to_dict(simulate(compiled, seed=1, workers=1, hands=5))
