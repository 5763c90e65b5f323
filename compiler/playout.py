"""Whole-hand playouts: one generated function per compiled ruleset plays a hand with bot policies.

`Hand` (rulespec/run/engine.py) is the reference: a state API that checks
every move and keeps every event. A playout only needs the result, so the
function generated here keeps the hand in local variables and does the least
work per turn, specialised to the ruleset:

- the deal as deck positions precomputed per (players, dealer);
- capture options memoised per (table, card class): the table is keyed by
  how many cards of each class it holds (cards of one class, e.g. one value
  and rank, capture alike), and the options are kept as positions in the
  table's cards taken in class order; a uniform choice counts the moves
  instead of listing them, and only the chosen card's captures are turned
  back into cards (and sorted, as legal() orders them). Keyed by the classes
  in card order instead, a row served only tables laid out alike (after
  16,000 hands of a 40-card game: 10,121 rows against 1,565 multisets), and a
  fresh process filled rows for thousands of hands. Where the compile cache
  keeps a playout, the rows of the smallest tables (every multiset of up to
  four classes in a 40-card game: 1,000 rows) are filled when it is stored
  (`_prefill`) and come with every hit. The table's subsets by
  total are listed only on a memo miss (`runtime.subset_sums`, cached per
  table). Keeping them incrementally
  instead (a knapsack step per card joining the table, a filter per capture)
  was measured and cost more than it saved once options are memoised
  (bench/README.md). Tables of more than six cards seldom come back, nor do
  hands of more than twelve: their moves come from the compiled `legal()`
  (a hand of up to twelve is a lookup per card in its table's row: a game's
  six-card hands cost 13% fewer instructions so than listed by `legal()`);
- where the options are every set totalling a number card's value (or a card
  of a valueless card's rank) and capturing is optional, a random
  seat's moves are counted from the table's sets per total, kept as the
  digits of one int as the table changes, and only the chosen move is found
  (`_counting`): no move list, no subset sums, no memo;
- events and declarations as counters per side and category; the bots'
  declarations found once per dealt hand (run/declarations.py);
- branches for what the ruleset does not have (knocks, a wild card, forced
  play, declared-first, leftovers) left out of the source.

`playout()` deals from a deck order; `resume()` plays on from a mid-hand
state (ISMCTS rollouts). Policies per seat: 0 plays uniformly at random among the legal moves as
`RandomBot` does (one `rng.randrange(moves)` per turn), 1 as `GreedyBot`
(one `rng.random()` per legal move, most event points then most cards).
Given the same deck order and the same per-seat random streams, a playout
makes the same moves, events and score as `Hand` driven by those bots
(tests/test_playout.py checks this move by move for every shipped ruleset).

The source is written by emitters, one per part, into a PlayoutWriter (playout_writer.py, which also
works out what of the ruleset the emitters branch on): playout_module.py the module's helpers and entry
points, playout_counting.py the counting path, playout_hand.py the hand's functions and playout_turn.py
their turn. A construct the playout does not play is refused in support.py (`Hand` plays it).
"""
from __future__ import annotations

import linecache

from rulespec.compiler.playout_hand import emit_hands
from rulespec.compiler.playout_module import emit_entry_points, emit_helpers
from rulespec.compiler.playout_writer import PlayoutWriter
from rulespec.lang.model import Ruleset

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}


def generate(rs: Ruleset) -> str:
    """The source of the playout function for a checked ruleset (run in its compiled module's namespace)."""
    return generate_with_spans(rs)[0]


def generate_with_spans(rs: Ruleset) -> tuple[str, dict]:
    """The playout's source, and the YAML span of each line that evaluates a rule inline (1-based)."""
    g = PlayoutWriter(rs)
    emit_helpers(g)
    emit_hands(g)
    emit_entry_points(g)
    return g.source(), g.spans


def failure_span(compiled, exc: BaseException):
    """The span of the rule whose inline code in the playout raised `exc` (innermost), or None."""
    filename = getattr(compiled, "_playout_file", None)
    spans = getattr(compiled, "_playout_spans", {})
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            found = spans.get(tb.tb_lineno, found)
        tb = tb.tb_next
    return found


def resume_for(compiled):
    """The compiled ruleset's `resume` (a playout from a mid-hand state; see the generated source), or None
    when the playout refuses the ruleset (support.py): `Hand` plays those rollouts."""
    if playout_for(compiled) is None:
        return None
    return compiled._playout_resume


def playout_for(compiled):
    """The compiled ruleset's playout function (generated and loaded on first use, then kept), or None when
    the ruleset has a construct the playout does not play (support.py): `Hand` plays it instead."""
    fn = getattr(compiled, "_playout", None)
    if fn is not None:
        return fn
    from rulespec.compiler.support import playout_unsupported
    if playout_unsupported(compiled.ruleset):
        return None
    source, spans = generate_with_spans(compiled.ruleset)
    module = compiled.module
    namespace = dict(module.__dict__)
    namespace["_MODULE"] = module
    filename = f"<rulespec playout {compiled.ruleset.id}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - generated from a checked ruleset
    fn = namespace["playout"]
    compiled._playout = fn
    compiled._playout_resume = namespace["resume"]
    compiled._playout_file = filename
    compiled._playout_spans = spans
    compiled.playout_source = source
    return fn
