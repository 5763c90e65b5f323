"""The native back end's compile stage: a checked ruleset becomes one C file of whole-hand playouts.

The file holds the ruleset's tables (card values, ranks, suits as numbers,
deal schedules, bonuses, capture kinds), one C function per deal check,
bonus, capture condition, event, scoring category and outcome (expressions
through emit_c.py), then a fixed engine (`_ENGINE`) that plays hands with
random bots that declare their best bonuses, exactly as the Python engine
(run/engine.py with bots/policy.py) does, and a batch entry point
`rs_simulate` (many hands per call). Cards are 64-bit masks.

`unsupported(rs)` is the one decision of what the back end can do: every
construct it cannot compile, each with where the ruleset writes it. Only
numbers, identifiers made up here, sanitised comments and escaped C string
literals (`c_string`) reach the C source.
"""
from __future__ import annotations

import re
from math import comb
from pathlib import Path

from rulespec.checks.check import (
    BONUS_NAMES,
    CAPTURE_NAMES,
    EVENT_NAMES,
    OUTCOME_NAMES,
    SCORE_NAMES,
    TABLE_NAMES,
    context,
)
from rulespec.checks import running
from rulespec.compiler.emit_c import Aux, Strings, Unsupported, emit, int_bounds, strings_of
from rulespec.compiler.support import (
    bid_before_play, builds_on_table, event_points_expressions, several_sets, several_values,
)
from rulespec.compiler.pile_support import pile_constructs, table_redeals
from rulespec.compiler.plan import run_tables
from rulespec.errors import Span
from rulespec.lang.model import Expression, Ruleset
from rulespec.lang.typecheck import BOOL, INT

MAX_INDICES = 64          # card indices, the wild card's declared ranks included
MAX_SEATS = 8
MAX_OPTS = 4096           # bonus declarations one seat could make at once (the C's OPTS array)
# A side's score in a category, its total and its margin over the best other side stay within
# ±MAX_SCORE in every hand: rs_simulate keeps them as int32 per hand and adds their squares in int64
# over a batch of at most native.MAX_BATCH hands (MAX_SCORE**2 * MAX_BATCH < 2**63).
MAX_SCORE = 1 << 20
# Declarations with a play (0, 1) or apart from it, as knocks before a turn (2, 3).
TIMINGS = {"first_turn": 0, "own_turn": 1, "before_first_turn": 2, "after_deal": 3}
UNIQUE_BY = {None: 0, "value": 1, "rank": 2}
RESULTS = {"redeal": 0, "misdeal": 1, "dealer_wins": 2}
# Error codes of rs_simulate (compiler/native.py turns them into messages).
ERRORS = {1: "redeals", 2: "subsets", 3: "division", 4: "declarations", 5: "moves", 6: "no card", 7: "events",
          8: "endless game"}
# The bots rs_play plays, per seat (bots/registry.py's names).
BOTS = {"random": 0, "greedy": 1}


def c_string(text: str) -> str:
    """A C string literal holding `text` (UTF-8): printable ASCII as is, every other byte as an octal escape."""
    out = []
    for b in text.encode("utf-8"):
        ch = chr(b)
        # '?' is escaped too: "??/" would be a trigraph for a backslash under -trigraphs.
        if 32 <= b < 127 and ch not in '"\\?':
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def c_comment(text: str) -> str:
    """Text safe inside a C block comment: letters, digits and harmless punctuation; the rest becomes '_'."""
    flat = " ".join(str(text).split())
    flat = flat[:100] + "..." if len(flat) > 100 else flat
    return re.sub(r"[^A-Za-z0-9 _.,:;()\[\]{}<>=!+\-'\"|&%#@^~$]", "_", flat)


def _where(span: Span | None) -> str:
    if span is None:
        return ""
    return f"{Path(str(span.file)).name}:{span.line}"


# ------------------------------------------------------------------ support


def _expressions(rs: Ruleset):
    """(expression, runtime names, allow most()) of every expression the playout evaluates."""
    for c in rs.deal_checks:
        yield c.when, TABLE_NAMES, False
    for b in rs.dealer_bonuses:
        yield b.when, TABLE_NAMES, False
    for b in rs.hand_bonuses.values():
        yield b.when, BONUS_NAMES, False
    for k in rs.kinds:
        if k.when is not None:
            yield k.when, CAPTURE_NAMES, False
    for e in rs.events.values():
        yield e.when, EVENT_NAMES, False
    for c in rs.categories.values():
        if isinstance(c.points, Expression):
            yield c.points, SCORE_NAMES, True
    for o in rs.outcomes.values():
        yield o.when, OUTCOME_NAMES, False


def _n_indices(rs: Ruleset) -> int:
    return rs.deck.size + (len(rs.deck.ranks) if rs.wild is not None else 0)


def _strings(rs: Ruleset) -> Strings:
    return Strings(strings_of([e.tree for e, _, _ in _expressions(rs)], rs.deck, rs.option_values))


def unsupported(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every construct of a checked ruleset the native back end cannot compile: (what, where)."""
    piles = pile_constructs(rs)
    out = piles + [found for check in _REFUSED for found in check(rs)]
    if piles:
        return out         # a pile's `top` is no name the C expressions know: nothing else is asked
    doc = rs.doc or {}
    n = _n_indices(rs)
    if n > MAX_INDICES:
        deck_span = getattr(doc, "value_spans", {}).get("deck", rs.span)
        out.append((f"a deck of {rs.deck.size} cards ({n} card indices with the wild card's declared ranks); "
                    f"the native back end handles up to {MAX_INDICES}", deck_span))
    if rs.hand_bonuses and rs.timing not in TIMINGS:
        decl = doc.get("declarations") or {}
        span = getattr(decl, "value_spans", {}).get("timing", rs.span)
        out.append((f"declarations.timing: {rs.timing}; the native back end does {', '.join(TIMINGS)}", span))
    for b in rs.hand_bonuses.values():
        if b.unique_by not in UNIQUE_BY:
            out.append((f"hand bonus '{b.name}': unique_by {b.unique_by}", b.span))
    if max(rs.player_counts) > MAX_SEATS:
        out.append((f"more than {MAX_SEATS} players", rs.span))
    out += _declaration_room(rs)
    state = running.constructs(rs)     # the game's running state: only Hand keeps it
    out += state
    if n <= MAX_INDICES and not state and rs.bid is None:     # (their names and builtins have no C to emit)
        strings = _strings(rs)
        for expr, names, allow_most in _expressions(rs):
            try:
                emit(expr.tree, context(rs, names, allow_most=allow_most), strings, Aux())
            except Unsupported as why:
                span = why.node.span if why.node is not None and why.node.span is not None else expr.span
                out.append((why.construct, span))
        if not out:
            out += _score_range(rs, strings)
    return out


# The constructs of capture.combine, several card values, event points as expressions, a deal check that
# deals the table again, builds and a bid, which the native back end does not play (compiler/support.py finds
# them for the Python playout likewise).
_REFUSED = (several_sets, several_values, event_points_expressions, table_redeals, builds_on_table, bid_before_play)


def _declaration_room(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Hand bonuses that could offer one seat more declarations at once than the C lists (none, or one)."""
    hand = max([seat for s in rs.schedules.values() for seat, _table, _steps in s.rounds] + [0])
    # A seat's options are the bonuses' card sets of its hand (one each, whatever the wild card declares).
    most = sum(comb(hand, b.size) for b in rs.hand_bonuses.values())
    if most <= MAX_OPTS:
        return []
    span = getattr(rs.doc or {}, "value_spans", {}).get("hand_bonuses", rs.span)
    return [(f"hand bonuses that could offer a seat {most} declarations at once (hands of {hand} cards); the "
             f"native back end lists at most {MAX_OPTS}", span)]


def _score_range(rs: Ruleset, strings: Strings) -> list[tuple[str, Span | None]]:
    """The scores past ±MAX_SCORE a hand could give a side, as unsupported() reports them (none, or one
    at the rule that could bring the most)."""
    # An event, bonus or dealer bonus scores at most once per card index and seat in a hand.
    times = _n_indices(rs) * MAX_SEATS
    parts: list[tuple[int, Span | None]] = []      # (how far from 0 it can bring a side's total, where)
    counted = {name for name, c in rs.categories.items() if c.from_events}
    for item in [*rs.events.values(), *rs.hand_bonuses.values(), *rs.dealer_bonuses]:
        if item.category in counted:
            parts.append((abs(item.points) * times, getattr(item, "span", None) or item.when.span))
    for c in rs.categories.values():
        if isinstance(c.points, Expression):
            lo, hi = int_bounds(c.points.tree, context(rs, SCORE_NAMES, allow_most=True), strings)
            parts.append((max(-lo, hi), c.points.span))
        elif not c.from_events:
            parts.append((abs(int(c.points or 0)), c.span))
    total = sum(amount for amount, _ in parts)
    if 2 * total <= MAX_SCORE:      # a margin is a side's total less another's
        return []
    _, where = max(parts, key=lambda p: p[0])
    return [(f"scores that may pass ±{MAX_SCORE} in a hand (the native back end keeps them in 32 and 64 bits; "
             f"the ruleset's points could add up to {total}; the most from here)", where)]


# ------------------------------------------------------------------ generate


class _Writer:
    def __init__(self):
        self.lines: list[str] = []

    def __call__(self, line: str = "") -> None:
        self.lines.append(line)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


_CTYPE = {BOOL: "int", INT: "int64_t"}

# The play's place in the hand (check.PLAY_CONTEXT) while the seat to play chooses: the deal round, its
# turn in the round and the play's number in the hand, each from 1 (Hand._moment).
_MOMENT = {"round": "h->round", "turn": "(h->played_this_round[seat] + 1)", "play": "(h->plays + 1)"}
# play_events' arguments, in play_card after the play is counted (the same moment: already + 1).
_EVENT_ARGS = {"played": "eff_card", "captured": "eff_capture", "table": "eff(h, h->table)",
               "table_before": "table_before", "last_play": "last_play", "previous": "previous",
               "round": "h->round", "turn": "h->played_this_round[seat]", "play": "h->plays",
               "last_round": "(h->round == h->n_rounds)", "players": "h->n"}


def _params(names: dict) -> str:
    return ", ".join(f"{_CTYPE.get(t, 'uint64_t')} v_{n}" for n, t in names.items())


def _array(ctype: str, name: str, values) -> str:
    values = list(values)
    return f"static const {ctype} {name}[{max(len(values), 1)}] = {{{', '.join(str(v) for v in values) or '0'}}};"


def _u64(v: int) -> str:
    return f"UINT64_C({hex(v)})"


class Layout:
    """Names and sizes the C file and its Python caller share (event names, categories, outcomes)."""

    def __init__(self, rs: Ruleset):
        self.categories = list(rs.categories)
        names = [b.event for b in rs.dealer_bonuses] + list(rs.hand_bonuses) + list(rs.events)
        self.events = sorted(set(names))
        outcomes = [c.name for c in rs.deal_checks if c.result == "dealer_wins"]
        if rs.misdeal_limit and any(c.result == "misdeal" for c in rs.deal_checks):
            outcomes.append("misdeal")
        outcomes += list(rs.outcomes)
        self.outcomes = list(dict.fromkeys(outcomes))
        self.sides = dict(rs.sides)

    def category(self, name: str) -> int:
        """The index of a from-events scoring category an event's points go to, -1 for none."""
        return self.categories.index(name) if name in self.categories else -1


def generate(rs: Ruleset, aux: Aux | None = None, checked: bool = False) -> str:
    """C source of the native playout for a checked ruleset that `unsupported()` accepts.

    `aux` (optional) receives the auxiliary definitions and the spans of run-time failures;
    `checked`: the caller has just asked `unsupported()` (not asked again).
    """
    problems = [] if checked else unsupported(rs)
    if problems:
        what, span = problems[0]
        raise Unsupported(f"{span}: {what}" if span else what)
    deck = rs.deck
    nr = len(deck.ranks)
    n_all = _n_indices(rs)
    strings = _strings(rs)
    layout = Layout(rs)
    aux = aux if aux is not None else Aux()
    tables = _Tables(rs, strings)
    w = _Writer()
    w(f"/* Native playouts of ruleset {c_comment(rs.id)} (generated by rulespec from "
      f"{c_comment(', '.join(Path(str(p)).name for p in rs.files))}; do not edit). */")
    w(_PRELUDE)
    w(f"static const char RS_RULESET_ID[] = {c_string(rs.id)};")
    w(f"#define N_CARDS {deck.size}")
    w(f"#define N_ALL {n_all}")
    w(f"#define N_RANKS {nr}")
    w(f"#define WILD_INDEX {rs.wild if rs.wild is not None else -1}")
    w(f"#define WILD_BIT {_u64(1 << rs.wild) if rs.wild is not None else 'UINT64_C(0)'}")
    w(f"#define DECLARE_WILD {int(bool(rs.declare_wild))}")
    w(f"#define FORCED {int(bool(rs.forced))}")
    w(f"#define LEFTOVERS_LAST {int(rs.leftovers == 'last_capturer')}")
    w(f"#define DECLARED_FIRST {int(bool(rs.declared_first))}")
    w(f"#define PER_TURN_ONE {int(rs.per_turn == 'one')}")
    w(f"#define TIMING {TIMINGS.get(rs.timing, 0)}")
    w(f"#define MISDEAL_LIMIT {rs.misdeal_limit or 0}")
    # A game's end (Game.finish_hand): the target and the number of hands, -1 where the ruleset has none.
    w(f"#define GAME_TARGET {rs.target if isinstance(rs.target, int) else -1}")
    w(f"#define GAME_HANDS {rs.hands if isinstance(rs.hands, int) else -1}")
    w(f"#define N_CAT {len(layout.categories)}")
    w(f"#define N_EV {len(layout.events)}")
    # which event names are a play's (kind "event"): simulate's play events per hand count them
    play_names = {e.name for e in rs.events.values()}
    w(f"static const int8_t EV_PLAY[N_EV + 1] = {{{', '.join(str(int(n in play_names)) for n in layout.events)}"
      f"{', ' if layout.events else ''}0}};")
    w("#define SW_N (2 * N_CARDS * (N_EV + 1) + 1)    /* play events in a hand: at most one per event and play, "
      "one per card declared */")
    w(f"#define N_OUT {len(layout.outcomes)}")
    w(f"#define N_BONUS {len(rs.hand_bonuses)}")
    w(f"#define LIMIT {tables.limit}")
    w(f"#define LANES {max(4, 1 << tables.limit.bit_length())}")
    # The rows' counts: 16 bits, and no count of sets past MAX_SUBS to watch for, where no table of this
    # deck can have more (half the vector work, and no check per row); else 32 bits, checked.
    small = tables.sets_bound() <= MAX_SUBS and max(tables.sets_by_total()) <= 0xFFFF
    w(f"typedef {'uint16_t' if small else 'int32_t'} RowT;")
    w(f"#define ROW_CHECK {int(not small)}")
    # The arguments of the capture and event functions, in the order of the check stage's names.
    w("#define CARD_OPTIONS_MOMENT " + "".join(f"{_MOMENT[n]}, " for n in CAPTURE_NAMES
                                                 if n not in ("played", "table")))
    w("#define PLAY_EVENTS_ARGS " + ", ".join(_EVENT_ARGS[n] for n in EVENT_NAMES))
    # As the Python engine's capture plan (compiler/plan.py): two kinds can offer the same set only if a
    # fifteen's total is twice a played value, or a sweep is offered beside other kinds.
    overlap = any(k.kind == "fifteen" and k.total % 2 == 0 for k in rs.kinds) or \
        any(k.kind == "sweep" and not k.exclusive for k in rs.kinds) or any(k.kind == "run" for k in rs.kinds)
    w(f"#define OVERLAP {int(overlap)}")
    # A uniform choice needs only each card's number of moves, then the chosen card's sorted list: where
    # no set can be offered twice and no preference filters the sets, the number is a sum of counts.
    w(f"#define COUNTABLE {int(countable(rs))}")
    w(f"#define MAX_VALUE {tables.max_value}")
    # No set of cards totals more than every card index's value together, the wild card's 10 more.
    w(f"#define SUBSET_TOTAL_MAX {sum(tables.val) + 10}")
    tables.write(w)
    w(_HELPERS)
    body = _Writer()
    _deal_functions(body, rs, strings, aux, layout)
    _bonus_functions(body, rs, strings, aux, layout)
    _capture_function(body, rs, strings, aux)
    _event_function(body, rs, strings, aux, layout)
    _score_functions(body, rs, strings, aux, layout)
    w("/* ---- constants of the expressions ---- */")
    for line in aux.lines:
        w(line)
    w(f"#define N_EXPR_ERRORS {len(aux.errors)}")
    w(body.text())
    w("/* the seat after each seat (0 after the last) per number of seats: play_card's next turn */")
    w("static const int8_t NEXT_SEAT[MAX_SEATS + 1][MAX_SEATS] = {" + ", ".join(
        "{" + ", ".join(str((s + 1) % n if s < n else 0) for s in range(MAX_SEATS)) + "}" if n else
        "{" + ", ".join("0" for _ in range(MAX_SEATS)) + "}" for n in range(MAX_SEATS + 1)) + "};")
    _write_hand_ranks(w, deck.size)
    w(_ENGINE)
    w(_vector_section(rs, layout))
    return w.text()


# Hands of up to RANKED_CARDS cards have a place each in best_declarations' memo of one byte a hand, as long
# as all of them together take no more places than this (64 KiB: the hands of three cards of a 40- or
# 52-card deck, 10,701 or 23,479 places, lie within a few KiB of the level-1 and level-2 caches, where the
# hashed table of 8-byte keys they replace missed them).
RANKED_PLACES = 1 << 16


def _write_hand_ranks(w, n_cards: int) -> None:
    """best_declarations' ranked memo: RANKED_CARDS, the most cards a ranked hand holds; RANKED_N places;
    RANKED_OFF[s], the first place of the hands of s cards; RANKED_BIN[i][c] = C(c, i), so that a hand of
    cards c_0 < ... < c_(s-1) is place RANKED_OFF[s] + sum C(c_i, i + 1), below RANKED_OFF[s] + C(n_cards, s)
    (the combinatorial number system), itself at most RANKED_N."""
    sizes = [1]                                  # the one hand of no cards
    while len(sizes) <= n_cards and sum(sizes) + comb(n_cards, len(sizes)) <= RANKED_PLACES:
        sizes.append(comb(n_cards, len(sizes)))
    most = len(sizes) - 1
    offsets = [sum(sizes[:s]) for s in range(most + 1)]
    w(f"#define RANKED_CARDS {most}")
    w(f"#define RANKED_N {sum(sizes)}")
    w(f"#define RANKED_REAL {_u64((1 << n_cards) - 1)}      /* the deck's cards (no wild card's stand-in) */")
    w(f"static const int32_t RANKED_OFF[RANKED_CARDS + 1] = {{{', '.join(map(str, offsets))}}};")
    w("static const int32_t RANKED_BIN[RANKED_CARDS + 1][N_CARDS] = {" + ", ".join(
        "{" + ", ".join(str(comb(c, i) if i else 0) for c in range(n_cards)) + "}" for i in range(most + 1)) + "};")


def _vector_section(rs: Ruleset, layout: Layout) -> str:
    """The vector environments' entry points (compiler/emit_vector.py), after the engine they drive."""
    from rulespec.compiler.emit_vector import vector_section
    return vector_section(rs, layout, _array)


class _Tables:
    """Per-card and per-seat-count tables."""

    def __init__(self, rs: Ruleset, strings: Strings):
        self.rs = rs
        deck = rs.deck
        n_all = _n_indices(rs)
        nr = len(deck.ranks)
        self.values = [deck.value_of(i) for i in range(n_all)]
        self.val = [v or 0 for v in self.values]
        self.numbered = [v is not None for v in self.values]
        self.rank_id = [strings.id(deck.rank_of(i)) for i in range(n_all)]
        suits = [deck.suit_of(i, rs.wild) for i in range(n_all)]
        self.suit_id = [strings.id(s) for s in suits]
        # an extra card's rank: its place among every rank symbol (the deck's first, so a regular card's is i % nr)
        self.rank_no = [i % nr if i < deck.regular else deck.all_ranks.index(deck.rank_of(i)) if i < deck.size
                        else i - deck.size for i in range(n_all)]
        self.max_value = max([v for v in self.values if v is not None] + [0])
        self.limit = max([self.max_value] + [k.total for k in rs.kinds if k.kind == "fifteen"])

    def sets_by_total(self) -> list[int]:
        """Per total 0..limit, at most how many sets of one table's numbered cards make it: every numbered
        card of the deck, and one more for an index past the deck (the wild card as declared: a table never
        holds more than one of them, beside the wild card itself, counted too)."""
        count = [1] + [0] * self.limit
        size = self.rs.deck.size
        for i, v in enumerate(self.val[:size]):
            if self.numbered[i]:
                for s in range(self.limit, v - 1, -1):
                    count[s] += count[s - v]
        extra = {v for i, v in enumerate(self.val) if i >= size and self.numbered[i]}
        if extra:
            count = [count[s] + max((count[s - v] for v in extra if v <= s), default=0)
                     for s in range(self.limit + 1)]
        return count

    def sets_bound(self) -> int:
        """At most how many sets of one table's numbered cards total 0..limit (sub_check's MAX_SUBS check)."""
        return sum(self.sets_by_total())

    def write(self, w) -> None:
        rs = self.rs
        n_all = len(self.val)
        w(_array("int64_t", "VAL", self.val))
        w(_array("int", "NUMBERED", [int(x) for x in self.numbered]))
        w(_array("int64_t", "RANK_ID", self.rank_id))
        w(_array("int64_t", "SUIT_ID", self.suit_id))
        w(_array("int", "RANK_NO", self.rank_no))
        w(_array("uint8_t", "IDENTITY", list(range(rs.deck.size))))   # the deck before a shuffle
        numbered_mask = sum(1 << i for i in range(n_all) if self.numbered[i])
        w(f"#define NUMBERED_MASK {_u64(numbered_mask)}")
        w(f"#define ALL_NUMBERED {int(all(self.numbered))}      /* every card index has a value */")
        w(_array("uint64_t", "VALUE_MASK", [_u64(sum(1 << i for i in range(n_all)
                                                         if self.numbered[i] and self.val[i] == v))
                                             for v in range(self.max_value + 1)]))
        rank_masks = [sum(1 << i for i in range(n_all) if self.rank_no[i] == r) for r in range(len(rs.deck.all_ranks))]
        w(_array("uint64_t", "RANK_MASK", [_u64(m) for m in rank_masks]))
        # What a card matches on the table: the numbered cards of its value, or (a card with no value) the
        # cards of its rank with no value.
        w(_array("uint64_t", "MATCH_MASK", [
            _u64(sum(1 << j for j in range(n_all) if self.numbered[j] and self.val[j] == self.val[i])
                 if self.numbered[i] else rank_masks[self.rank_no[i]] & ~numbered_mask)
            for i in range(n_all)]))
        w(_array("int", "DECLARE_AS", rs.wild_declare_as))
        w(f"#define N_DECLARE_AS {len(rs.wild_declare_as)}")
        # Deal schedules per number of players: rounds of steps (kind 0: each, 1: table; count; packet).
        max_steps = max([len(steps) for s in rs.schedules.values() for _, _, steps in s.rounds] + [1])
        w(f"#define MAX_STEPS {max_steps}")
        w("typedef struct { int kind, count, packet; } Step;")
        w("typedef struct { int n_steps; Step steps[MAX_STEPS]; } Round;")
        rounds_of = {}
        for n, sched in sorted(rs.schedules.items()):
            items = []
            for _, _, steps in sched.rounds:
                parts = ", ".join(f"{{{0 if kind == 'each' else 1}, {count}, {packet}}}"
                                  for kind, count, packet in steps)
                items.append(f"{{{len(steps)}, {{{parts or '{0, 0, 1}'}}}}}")
            w(f"static const Round SCHED_{n}[{max(len(items), 1)}] = {{{', '.join(items)}}};")
            rounds_of[n] = len(sched.rounds)
        w("static const Round *const SCHEDULE[MAX_SEATS + 1] = {"
          + ", ".join(f"SCHED_{n}" if n in rounds_of else "0" for n in range(MAX_SEATS + 1)) + "};")
        w(_array("int", "N_ROUNDS", [rounds_of.get(n, 0) for n in range(MAX_SEATS + 1)]))
        w(f"#define MAX_ROUNDS {max(list(rounds_of.values()) + [1])}")
        w(_array("int", "SIDES", [rs.sides.get(n, 0) if n in rounds_of else 0 for n in range(MAX_SEATS + 1)]))


def _deal_functions(w, rs, strings, aux, layout):
    w("/* ---- deal checks and dealer bonuses ---- */")
    w(_array("int", "DC_RESULT", [RESULTS[c.result] for c in rs.deal_checks]))
    w(_array("int", "DC_OUTCOME", [layout.outcomes.index(c.name) if c.result == "dealer_wins" else -1
                                   for c in rs.deal_checks]))
    w(f"#define OUT_MISDEAL {layout.outcomes.index('misdeal') if 'misdeal' in layout.outcomes else -1}")
    w(f"static int deal_check({_params(TABLE_NAMES)}) {{")
    for i, c in enumerate(rs.deal_checks):
        w(f"    /* {_where(c.when.span)}: {c_comment(c.when.text)} */")
        w(f"    if ({emit(c.when.tree, context(rs, TABLE_NAMES), strings, aux)}) return {i};")
    w("    return -1;")
    w("}")
    w(_array("int", "DB_EVENT", [layout.events.index(b.event) for b in rs.dealer_bonuses]))
    w(_array("int64_t", "DB_POINTS", [b.points for b in rs.dealer_bonuses]))
    w(_array("int", "DB_CAT", [layout.category(b.category) for b in rs.dealer_bonuses]))
    w(_array("int", "DB_CAPTURE", [int(bool(b.capture_table)) for b in rs.dealer_bonuses]))
    w(f"static int dealer_bonus({_params(TABLE_NAMES)}) {{")
    for i, b in enumerate(rs.dealer_bonuses):
        w(f"    /* {_where(b.when.span)}: {c_comment(b.when.text)} */")
        w(f"    if ({emit(b.when.tree, context(rs, TABLE_NAMES), strings, aux)}) return {i};")
    w("    return -1;")
    w("}")


def _bonus_functions(w, rs, strings, aux, layout):
    w("/* ---- hand bonuses ---- */")
    bonuses = list(rs.hand_bonuses.values())
    names = [b.name for b in bonuses]
    cards_only, reads = [], []
    for i, b in enumerate(bonuses):
        w(f"/* hand bonus {i} ({_where(b.span)}): {c_comment(b.when.text)} */")
        w(f"static inline int bonus_{i}({_params(BONUS_NAMES)}) {{")
        code = emit(b.when.tree, context(rs, BONUS_NAMES), strings, aux)
        w(f"    return {code};")
        w("}")
        # A condition that reads nothing but its cards, and cannot fail, gives the same answer for the same
        # cards: memoised for the wild card's declared ranks (up to 63 of them, one bit each).
        reads_more = re.search(r"\bv_(?!cards\b)\w+", code) or re.search(r"rs_floordiv|rs_floormod|rs_subset_total", code)
        cards_only.append(int(not reads_more and len(rs.wild_declare_as) < 64))
        reads.append(bool(reads_more))
    # A switch rather than a table of function pointers: the checks are inlined, no indirect calls.
    args = ", ".join(f"v_{n}" for n in BONUS_NAMES)
    w(f"RS_INLINE int bonus_check(int b, {_params(BONUS_NAMES)}) {{")
    w("    switch (b) {")
    for i in range(len(bonuses)):
        w(f"    case {i}: return bonus_{i}({args});")
    w("    }")
    w("    " + " ".join(f"(void)v_{n};" for n in BONUS_NAMES))
    w("    return 0;")
    w("}")
    w(_array("int", "B_CARDS_ONLY", cards_only))
    # Every bonus reads its cards alone, cannot fail, is declared in any round and asks no other seat
    # (unique_by): a seat's best declarations depend on its undeclared cards alone (best_declarations' memo).
    pure = bool(bonuses) and not any(reads) and all(not b.rounds and not b.unique_by for b in bonuses)
    w(f"#define DECL_PURE {int(pure)}")
    w(_array("int", "B_SIZE", [b.size for b in bonuses]))
    w(_array("int64_t", "B_POINTS", [b.points for b in bonuses]))
    w(_array("int", "B_CAT", [layout.category(b.category) for b in bonuses]))
    w(_array("int", "B_EVENT", [layout.events.index(b.name) for b in bonuses]))
    w(_array("int", "B_WILD", [int(bool(b.wild)) for b in bonuses]))
    w(_array("int", "B_UNIQUE", [UNIQUE_BY.get(b.unique_by, 0) for b in bonuses]))
    # Rounds a bonus may be declared in: bit r for round r (1-based), bit 0 for "last"; all bits: any.
    masks = []
    for b in bonuses:
        if not b.rounds:
            masks.append(_u64((1 << 64) - 1))
            continue
        m = 0
        for r in b.rounds:
            m |= 1 if r == "last" else (1 << r if 1 <= int(r) < 64 else 0)
        masks.append(_u64(m))
    w(_array("uint64_t", "B_ROUNDS", masks))
    w(_array("uint64_t", "B_EXCLUDED_BY", [_u64(sum(1 << names.index(o) for o in b.excluded_by if o in names))
                                            for b in bonuses]))
    w(_array("uint64_t", "B_SHARES", [_u64(sum(1 << names.index(o) for o in b.shares_cards_with if o in names))
                                       for b in bonuses]))


def _played_index(code: str) -> str:
    """A capture condition's C with the played card's index read directly (v_played is always 1 << p)."""
    return code.replace("rs_high(v_played)", "p")


def countable(rs: Ruleset) -> bool:
    """Whether a card's number of capture options is the sum of its kinds' counts (card_count)."""
    overlap = any(k.kind == "fifteen" and k.total % 2 == 0 for k in rs.kinds) or \
        any(k.kind == "sweep" and not k.exclusive for k in rs.kinds) or any(k.kind == "run" for k in rs.kinds)
    return rs.prefer == "any" and not overlap


def _run_helper(w, rs) -> None:
    """Capture kind run's tables (plan.run_tables, as the Python engine's) and its extension of a base set."""
    rank_no, masks = run_tables(rs)
    w("/* ---- capture kind run: per card index its place in the rank order; per rank its cards ---- */")
    w(_array("int", "RUN_NO", rank_no))
    w(_array("uint64_t", "RUN_MASK", [_u64(m) for m in masks]))
    w(f"#define RUN_RANKS {len(masks)}")
    w("""/* `set` with the table's cards of ranks r, r + 1, ... one per rank (each pick a set), as far as the table
 * goes, appended to out (runtime.run_sets) */
static int run_from(uint64_t set, uint64_t table, int r, uint64_t *out, int n) {
    uint64_t avail = r < RUN_RANKS ? table & ~set & RUN_MASK[r] : 0;
    if (!avail) {
        if (n >= MAX_MOVES) return rs_too_many(n);
        out[n++] = set;
        return n;
    }
    for (; avail && !rs_err_code; avail &= avail - 1) n = run_from(set | (avail & (~avail + 1)), table, r + 1, out, n);
    return n;
}
/* the base sets out[n0..n) each continued by its run: the runs written after them, then moved down */
static int run_extend(uint64_t *out, int n0, int n, uint64_t table, int p, int min_cards) {
    int nb = n;
    for (int i = n0; i < nb && !rs_err_code; i++) n = run_from(out[i], table, RUN_NO[p] + 1, out, n);
    int k = n0;
    for (int i = nb; i < n; i++) if (rs_popcount(out[i]) >= min_cards) out[k++] = out[i];
    return k;
}""")


def _capture_function(w, rs, strings, aux):
    if any(k.kind == "run" for k in rs.kinds):
        _run_helper(w, rs)
    w("/* ---- capture kinds: the capture sets of card index p (mask v_played) against a table ---- */")
    extra = {n: t for n, t in CAPTURE_NAMES.items() if n not in ("played", "table")}
    unknown = set(extra) - set(_MOMENT)
    if unknown:
        raise ValueError(f"capture conditions read {sorted(unknown)}, which the native playout does not provide")
    w(f"RS_INLINE int card_options(int p, uint64_t v_played, uint64_t v_table, "
      f"{''.join(_params({n: t}) + ', ' for n, t in extra.items())}uint64_t *out) {{")
    w("    " + " ".join(f"(void)v_{n};" for n in extra))
    w("    int64_t v = VAL[p];")
    w("    int numbered = ALL_NUMBERED || NUMBERED[p];")
    w("    int n = 0, n0;")
    w("    (void)n0; (void)v_played;")
    w("    /* a match: one table card of the same value (a card with no value: of the same rank) */")
    w("    uint64_t matches = v_table & MATCH_MASK[p];")
    w("    (void)matches;")
    for i, k in enumerate(rs.kinds):
        w(f"    /* capture kind {i + 1}: {k.kind} ({_where(k.span)}) */")
        if k.when is not None:
            w(f"    /* {_where(k.when.span)}: {c_comment(k.when.text)} */")
        w(f"    if ({_kind_condition(rs, k, strings, aux)}) {{")
        w("        n0 = n;")
        if k.kind == "sweep":
            w("        if (n >= MAX_MOVES) return rs_too_many(n);")
            w("        out[n++] = v_table;")
        elif k.kind == "match":
            w("        for (uint64_t m = matches; m; m &= m - 1) {")
            w("            if (n >= MAX_MOVES) return rs_too_many(n);")
            w("            out[n++] = m & (~m + 1);")
            w("        }")
        elif k.kind == "sum":
            w(f"        n = subsets_into(v_table, v, {max(k.min_cards, 2)}, out, n);")
        elif k.kind == "run":
            if "match" in k.after:
                w("        for (uint64_t m = matches; m; m &= m - 1) {")
                w("            if (n >= MAX_MOVES) return rs_too_many(n);")
                w("            out[n++] = m & (~m + 1);")
                w("        }")
            if "sum" in k.after:
                w(f"        if (numbered{' && matches == 0' if k.unless_match else ''}) "
                  f"n = subsets_into(v_table, v, 2, out, n);")
            w(f"        n = run_extend(out, n0, n, v_table, p, {k.min_cards});")
            w("        if (rs_err_code) return n;")
        else:
            w(f"        n = subsets_into(v_table, {k.total} - v, {k.min_cards}, out, n);")
        if k.exclusive:
            w("        if (n > n0) { memmove(out, out + n0, (size_t)(n - n0) * sizeof *out); return n - n0; }")
        w("    }")
    if rs.prefer != "any":
        # capture.prefer: of the sets offered (an exclusive kind's aside), only those with the fewest/most cards
        better = "<" if rs.prefer == "fewest_cards" else ">"
        w(f"    /* capture.prefer: {rs.prefer} */")
        w("    if (n > 1) {")
        w("        int best = rs_popcount(out[0]), k = 0;")
        w(f"        for (int i = 1; i < n; i++) if (rs_popcount(out[i]) {better} best) best = rs_popcount(out[i]);")
        w("        for (int i = 0; i < n; i++) if (rs_popcount(out[i]) == best) out[k++] = out[i];")
        w("        n = k;")
        w("    }")
    w("    return n;")
    w("}")
    if countable(rs):
        _count_function(w, rs, strings, aux, extra)
        _pick_function(w, rs, strings, aux, extra)
    else:
        w("/* (not COUNTABLE: every move is listed; card_count and card_pick are never called) */")
        w(f"RS_INLINE int card_count(int p, uint64_t v_played, uint64_t v_table, "
          f"{''.join(_params({n: t}) + ', ' for n, t in extra.items())}int n) {{")
        w("    (void)p; (void)v_played; (void)v_table; " + " ".join(f"(void)v_{n};" for n in extra))
        w("    return n;")
        w("}")
        w(f"RS_INLINE int card_pick(int p, uint64_t v_played, uint64_t v_table, "
          f"{''.join(_params({n: t}) + ', ' for n, t in extra.items())}int r, uint64_t *capture) {{")
        w("    (void)p; (void)v_played; (void)v_table; (void)r; (void)capture; "
          + " ".join(f"(void)v_{n};" for n in extra))
        w("    return 0;")
        w("}")


def _kind_condition(rs, k, strings, aux) -> str:
    """The C test for a capture kind applying to the played card (the same in card_options and card_count)."""
    cond = []
    if k.when is not None:
        cond.append(_played_index(emit(k.when.tree, context(rs, CAPTURE_NAMES), strings, aux)))
    if k.kind in ("sum", "fifteen"):
        cond.insert(0, "numbered")
    if k.unless_match and k.kind != "run":      # a run's sums wait for no match, not its matches
        cond.append("matches == 0")
    return " && ".join(cond) or "1"


def _count_function(w, rs, strings, aux, extra):
    """card_count: how many sets card_options lists, counted (the same kinds, conditions and order)."""
    w("/* how many capture sets card_options lists for card index p (no set twice, no preference: a sum) */")
    w("/* (called as card_options is, the output array replaced by the count so far: 0) */")
    w(f"RS_INLINE int card_count(int p, uint64_t v_played, uint64_t v_table, "
      f"{''.join(_params({n: t}) + ', ' for n, t in extra.items())}int n) {{")
    w("    " + " ".join(f"(void)v_{n};" for n in extra))
    w("    int64_t v = VAL[p];")
    w("    int numbered = ALL_NUMBERED || NUMBERED[p];")
    w("    int k;")
    w("    (void)k; (void)v_played;")
    w("    uint64_t matches = v_table & MATCH_MASK[p];")
    w("    (void)matches;")
    w("    const RowT *sums = ROW[tab_n] + PAD;       /* the table's sets by total (the caller ran sub_sync) */")
    w("    (void)sums;")
    max_value = max([v for v in (rs.deck.value_of(i) for i in range(_n_indices(rs))) if v is not None] + [0])
    folded = _match_and_sum(rs)
    for i, k in enumerate(rs.kinds):
        if folded and k is folded[0]:
            w(f"    /* capture kind {i + 1}: match, counted with kind {rs.kinds.index(folded[1]) + 1} */")
            continue
        w(f"    /* capture kind {i + 1}: {k.kind} */")
        if folded and k is folded[1]:
            # A numbered card's matches are the table's one-card sets of its value, and the sum's sets are
            # that value's other sets: together every set of the value, one row entry.
            w("    if (numbered) n += sums[v];")
            w("    else n += rs_popcount(matches);")
            continue
        w(f"    if ({_kind_condition(rs, k, strings, aux)}) {{")
        if k.kind == "sweep":
            w("        k = 1;")
        elif k.kind == "match":
            w("        k = rs_popcount(matches);")
        elif k.kind == "sum":              # a numbered card's value is 1..MAX_VALUE, within 1..LIMIT
            w(f"        k = {_count_of('v', max(k.min_cards, 2))};")
        elif k.total > max_value:           # total - v is within 1..LIMIT
            w(f"        k = {_count_of(f'{k.total} - v', k.min_cards)};")
        else:
            w(f"        k = subsets_count(v_table, {k.total} - v, {k.min_cards});")
        w("        if (k) return k;" if k.exclusive else "        n += k;")
        w("    }")
    w("    return n;")
    w("}")


def _match_and_sum(rs):
    """(match kind, sum kind) where the ruleset has one of each, both offered whenever they apply (no condition,
    not exclusive, no unless_match) and the sum's sets have 2 cards or more: card_count counts them together as
    every set of the card's value. None otherwise."""
    matches = [k for k in rs.kinds if k.kind == "match"]
    sums = [k for k in rs.kinds if k.kind == "sum"]
    if len(matches) != 1 or len(sums) != 1:
        return None
    m, s = matches[0], sums[0]
    if any(k.exclusive or k.when is not None or k.unless_match for k in (m, s)) or s.min_cards > 2:
        return None
    return m, s


def _pick_function(w, rs, strings, aux, extra):
    """card_pick: the r-th of card_options' sets in ascending order, found from the rows without listing them,
    where every set offered is a set of numbered table cards making one of a few totals (a match and a sum
    together: every set of the card's value; a fifteen: every set of its total) or an exclusive sweep's one set;
    0 where another kind applies (the caller lists and sorts)."""
    w("/* the r-th (from 0) of card_options' sets for card index p in ascending order, where the sets offered are")
    w(" * those of the numbered table cards making one of a few totals (the caller ran sub_sync, and no declared")
    w(" * wild card is on the table), or an exclusive sweep's whole table: 1 with *capture set; 0 where another")
    w(" * kind applies (the caller lists them).")
    w(" * Deciding each card of TAB from the highest: the sets without it come first, ROW[j] counting them. */")
    w(f"RS_INLINE int card_pick(int p, uint64_t v_played, uint64_t v_table, "
      f"{''.join(_params({n: t}) + ', ' for n, t in extra.items())}int r, uint64_t *capture) {{")
    w("    " + " ".join(f"(void)v_{n};" for n in extra))
    w("    int64_t v = VAL[p];")
    w("    int numbered = ALL_NUMBERED || NUMBERED[p];")
    w("    (void)v_played;")
    w("    uint64_t matches = v_table & MATCH_MASK[p];")
    w("    (void)matches;")
    conds = [(k, _kind_condition(rs, k, strings, aux)) for k in rs.kinds]
    # The exclusive kinds first, in their order: the first that offers a set offers the only ones, whatever
    # the kinds that add sets offer (as card_options and card_count take them).
    for i, (k, cond) in enumerate(conds):
        if k.exclusive:
            w(f"    /* capture kind {i + 1}: {k.kind} */")
            _pick_exclusive(w, k, cond)
    w("    if (!numbered) return 0;")
    # Where every kind that adds a total applies to every numbered card (no condition read in play), the
    # totals are known here: held in locals, the walk unrolled over them.
    adds = [(k, c) for k, c in conds if not k.exclusive and (k.kind == "match" or (k.kind == "sum" and k.min_cards <= 2)
                                                          or (k.kind == "fifteen" and k.min_cards <= 1))]
    single = any(k.kind == "match" for k, _ in adds)
    several = any(k.kind == "sum" for k, _ in adds)
    totals = [f"{k.total} - v" for k, _ in adds if k.kind == "fifteen"] + (["v"] if single and several else [])
    if all(c in ("1", "numbered") for _, c in adds) and single == several and totals:
        _pick_known(w, conds, totals)
        return
    w(f"    int64_t T[{len(rs.kinds) + 1}];")
    w("    int nt = 0, single = 0, several = 0;")
    for i, (k, cond) in enumerate(conds):
        if k.exclusive:                         # asked above
            continue
        w(f"    /* capture kind {i + 1}: {k.kind} */")
        if k.kind == "match":                 # the numbered cards of the card's value, one at a time
            w(f"    if ({cond}) single = 1;")
        elif k.kind == "sum" and k.min_cards <= 2:
            w(f"    if ({cond}) several = 1;")
        elif k.kind == "fifteen" and k.min_cards <= 1:
            w(f"    if ({cond}) T[nt++] = {k.total} - v;")
        else:
            w(f"    if ({cond}) return 0;")
    w("    if (single != several) return 0;            /* one card or several of the value: not every set */")
    w("    if (single) T[nt++] = v;")
    w("    for (int i = 0; i < nt; i++) {")
    w("        if (T[i] < 1 || T[i] > LIMIT) T[i] = -1;     /* no set makes it */")
    w("        for (int j = 0; j < i; j++) if (T[i] > 0 && T[j] == T[i]) return 0;    /* one set offered twice */")
    w("    }")
    w("    uint64_t set = 0;")
    w("    for (int j = tab_n - 1; j >= 0; j--) {")
    w("        int64_t below = 0;                     /* the sets that leave TAB[j] out */")
    w("        int open = 0;")
    w("        for (int i = 0; i < nt; i++) {")
    w("            if (T[i] > 0) { below += ROW[j][PAD + T[i]]; open = 1; }")
    w("            else if (T[i] == 0) below++;         /* made: the set so far */")
    w("        }")
    w("        if (!open) break;                      /* every total made or passed: the set so far */")
    w("        if (r < below) continue;")
    w("        r -= (int)below;")
    w("        set |= UINT64_C(1) << TAB[j];")
    w("        for (int i = 0; i < nt; i++) if (T[i] >= 0) T[i] = T[i] >= TW[j] ? T[i] - TW[j] : -1;")
    w("    }")
    w("    *capture = set;")
    w("    return 1;")
    w("}")


def _pick_exclusive(w, k, cond: str) -> None:
    """card_pick for an exclusive kind: where it offers a set, its sets alone. A sweep's one set is the whole
    table (the real cards: card_pick is not asked with a declared wild card on the table); another kind's
    are listed by the caller."""
    if k.kind == "sweep":
        w(f"    if ({cond}) {{ *capture = v_table; return 1; }}     /* its one set (r is 0) */")
    elif k.kind == "match":
        w(f"    if (({cond}) && matches) return 0;")
    else:
        w(f"    if ({cond}) return 0;")


def _pick_known(w, conds, totals) -> None:
    """card_pick's walk (as the general one) for totals known when the C is generated: one local per total."""
    for i, (k, cond) in enumerate(conds):
        if k.exclusive:                         # asked above
            continue
        if k.kind not in ("match", "sum", "fifteen") or (k.kind == "sum" and k.min_cards > 2) or \
                (k.kind == "fifteen" and k.min_cards > 1):
            w(f"    /* capture kind {i + 1}: {k.kind} */")
            w(f"    if ({cond}) return 0;")
    ts = [f"t{i}" for i in range(len(totals))]
    w(f"    int64_t {', '.join(f'{t} = {e}' for t, e in zip(ts, totals))};     /* the totals still to make */")
    for t in ts:
        w(f"    if ({t} < 1 || {t} > LIMIT) {t} = -1;     /* no set makes it */")
    for i, t in enumerate(ts):
        for u in ts[:i]:
            w(f"    if ({t} > 0 && {u} == {t}) return 0;    /* one set offered twice */")
    w("    uint64_t set = 0;")
    w("    int64_t left = r;                          /* r, as wide as the counts: no widening in the walk */")
    # No branch on the counts (which the processor cannot predict): a total t is -1 (passed), 0 (made) or
    # 1..LIMIT, and row[t] counts its sets in every case, row[0] being 1 (the empty set) and row[-1] one of
    # the PAD zeros in front of every row.
    w("    for (int j = tab_n - 1; j >= 0; j--) {")
    w(f"        if (!({' | '.join(f'({t} > 0)' for t in ts)})) break;     /* every total made or passed: the set so far */")
    w("        const RowT *row = ROW[j] + PAD;        /* row[0] = 1: a total made (the set so far); row[-1] = 0 */")
    w(f"        int64_t below = {' + '.join(f'(int64_t)row[{t}]' for t in ts)};     /* the sets that leave TAB[j] out */")
    w("        int64_t take = ~((left - below) >> 63);     /* all ones where TAB[j] is in the set (left >= below) */")
    w("        left -= below & take;")
    w("        set |= (uint64_t)(take & 1) << TAB[j];")
    w("        int64_t tw = TW[j] & take;")
    for t in ts:
        w(f"        {t} -= tw; {t} |= {t} >> 63;              /* passed: -1 */")
    w("    }")
    w("    *capture = set;")
    w("    return 1;")
    w("}")


def _count_of(target: str, min_cards: int) -> str:
    """C for subsets_count(table, target, min_cards) where target is known to be within 1..LIMIT (card_count's `sums`)."""
    if min_cards <= 1:
        return f"sums[{target}]"
    if min_cards == 2:
        return f"sums[{target}] - one_sets({target})"
    return f"subsets_count(v_table, {target}, {min_cards})"


def _event_function(w, rs, strings, aux, layout):
    w("/* ---- events of a play ---- */")
    w(f"static void play_events(Hand *h, int side, {_params(EVENT_NAMES)}) {{")
    w("    (void)h; (void)side;")
    for e in rs.events.values():
        w(f"    /* {_where(e.when.span)}: {c_comment(e.when.text)} */")
        w(f"    if ({emit(e.when.tree, context(rs, EVENT_NAMES), strings, aux)}) "
          f"add_event(h, {layout.events.index(e.name)}, side, INT64_C({e.points}), {layout.category(e.category)}, 1);")
    w("}")


def _score_functions(w, rs, strings, aux, layout):
    w("/* ---- scoring and outcomes ---- */")
    hoisted: list = []
    lines = []
    for i, c in enumerate(rs.categories.values()):
        if c.from_events:
            lines.append(f"        out[s][{i}] = evp[s][{i}];")
        elif isinstance(c.points, Expression):
            lines.append(f"        /* {_where(c.points.span)}: {c_comment(c.points.text)} */")
            text = emit(c.points.tree, context(rs, SCORE_NAMES, allow_most=True), strings, aux, hoisted)
            lines.append(f"        out[s][{i}] = {text};")
        else:
            lines.append(f"        out[s][{i}] = INT64_C({int(c.points or 0)});")
        lines.append(f"        total += out[s][{i}];")
    w("static void score(const uint64_t *piles, int k, int64_t evp[][N_CAT + 1], int64_t out[][N_CAT + 1]) {")
    for name, value in hoisted:     # most() values the same for every side: once, before the sides
        w(f"    int64_t {name}[MAX_SIDES];")
        w(f"    for (int s = 0; s < k; s++) {{ uint64_t v_pile = piles[s]; {name}[s] = {value}; }}")
        w(f"    int {name}_top = rs_top({name}, k);")
    w("    for (int s = 0; s < k; s++) {")
    w("        uint64_t v_pile = piles[s]; int64_t v_side = s; int64_t total = 0;")
    w("        (void)v_pile; (void)v_side;")
    for line in lines:
        w(line)
    w("        out[s][N_CAT] = total;")
    w("    }")
    w("}")
    w("static int outcome(const uint64_t *piles, int k, int *side) {")
    w("    for (int s = 0; s < k; s++) {")
    w("        uint64_t v_pile = piles[s]; (void)v_pile;")
    for o in rs.outcomes.values():
        w(f"        /* {_where(o.when.span)}: {c_comment(o.when.text)} */")
        w(f"        if ({emit(o.when.tree, context(rs, OUTCOME_NAMES), strings, aux)}) "
          f"{{ *side = s; return {layout.outcomes.index(o.name)}; }}")
    w("    }")
    w("    return -1;")
    w("}")


# The fixed parts of every generated file. They name no game: everything game-specific comes from
# the tables and functions generated above.
_PRELUDE = r"""
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS 8
#define MAX_SIDES 8
#define MAX_SUBS 200000      /* capture sets listed for one target on one table */
#define MAX_MOVES 200000
#define MAX_OPTS 4096        /* (MAX_OPTS above) bonus declarations one seat could make at once */
#define MAX_REDEALS 1000

typedef struct Hand Hand;
#define RS_INLINE static inline __attribute__((always_inline))

static int rs_err_code, rs_err_where;
static int64_t rs_err_index;      /* the game of error 8 */
/* Where rs_play adds simulate's per-event figures (rs_count_events; NULL: not counted) */
static int64_t *rs_evagg;
/* Where rs_play writes each hand's paired-comparison row (rs_pair_rows; NULL: none), moved on per row */
static int64_t *rs_pairs;
/* a capture list (OPT) holds at most MAX_MOVES sets: one more is the error of too many moves */
static inline int rs_too_many(int n) { rs_err_code = 5; return n; }

/* ---- the random streams: "rulespec stream 1" (RS_STREAM_VERSION), exactly as rulespec/run/stream.py ----
 * A stream is splitmix64 (each word: s += GOLDEN, then rs_mix(s)) read through a pool of bits: rs_bits(k)
 * takes the k lowest bits of the pool, first refilling it with a new word (the old one's rest dropped)
 * when it holds fewer than k. rs_below(n): 0 for n = 1 (nothing drawn), else bit_length(n - 1) bits,
 * drawn again while n or more. rs_shuffle: Fisher-Yates from the top, x[i] with x[rs_below(i + 1)].
 * rs_random: rs_bits(53) / 2^53. A stream starts at rs_stream_seed(seed, path): h = seed, then for
 * each x of the path h = rs_mix(h ^ rs_mix(x + GOLDEN)); hand i of a hand run: path (RS_HAND, i). */
#define RS_STREAM_VERSION 1
#define RS_GOLDEN UINT64_C(0x9E3779B97F4A7C15)
#define RS_HAND 1
#define RS_GAME 2
#define RS_GAME_BOT 3
typedef struct { uint64_t s, w; int left; } Rng;
static inline uint64_t rs_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
/* one step of a stream's path: the state of the stream at x below the stream at h */
static inline uint64_t rs_stream_step(uint64_t h, uint64_t x) { return rs_mix(h ^ rs_mix(x + RS_GOLDEN)); }
static inline void rs_stream_start(Rng *r, uint64_t state) { r->s = state; r->w = 0; r->left = 0; }
static inline uint64_t rs_next(Rng *r) { return rs_mix(r->s += RS_GOLDEN); }
/* k bits, 0 <= k <= 64 */
static inline uint64_t rs_bits(Rng *r, int k) {
    if (r->left < k) { r->w = rs_next(r); r->left = 64; }
    uint64_t v = k == 64 ? r->w : r->w & ((UINT64_C(1) << k) - 1);
    r->w = k == 64 ? 0 : r->w >> k;
    r->left -= k;
    return v;
}
static inline uint32_t rs_below(Rng *r, uint32_t n) {
    if (n == 0) return 0;
    int k = 63 - __builtin_clzll(((uint64_t)(n - 1) << 1) | 1);     /* bit_length(n - 1), no branch: 0 bits for n = 1 */
    /* rs_bits(k) drawn again while n or more, the pool in locals and k <= 32 (rs_bits' k == 64 never) */
    uint64_t w = r->w, mask = (UINT64_C(1) << k) - 1, v;
    int left = r->left;
    do {
        if (left < k) { w = rs_next(r); left = 64; }
        v = w & mask; w >>= k; left -= k;
    } while (v >= n);
    r->w = w; r->left = left;
    return (uint32_t)v;
}
static inline double rs_random(Rng *r) { return (double)rs_bits(r, 53) * (1.0 / 9007199254740992.0); }
/* rs_below(i + 1) for each i, drawn as rs_below draws; the pool kept in locals (a byte written to x could
 * be *r's, so the compiler would otherwise reload it after every swap). Where the pool holds two draws
 * (2k bits, k <= 31: a shift of at most 62), the second is taken by a select where the first is refused
 * (i is below 2^k, so up to half are): the same bits drawn, with no branch on a random draw but a refusal
 * of both. */
static inline void rs_shuffle(Rng *r, uint8_t *x, int len) {
    uint64_t w = r->w;
    int left = r->left;
    for (int i = len - 1; i > 0;) {
        int k = 32 - __builtin_clz((uint32_t)i);           /* bit_length(i): 1..31, the same down to 2^(k-1) */
        uint64_t mask = (UINT64_C(1) << k) - 1, v;
        for (int low = 1 << (k - 1); i >= low; i--) {
            if (left < k) { w = rs_next(r); left = 64; }
            v = w & mask;
            if (left >= 2 * k) {                  /* the first refused: the second, in the same word */
                int refused = v > (uint64_t)i, used = k << refused;
                v = refused ? (w >> k) & mask : v;
                w >>= used; left -= used;
            } else { w >>= k; left -= k; }
            while (v > (uint64_t)i) {             /* refused twice, or at the word's end: drawn on */
                if (left < k) { w = rs_next(r); left = 64; }
                v = w & mask; w >>= k; left -= k;
            }
            uint8_t t = x[i]; x[i] = x[v]; x[v] = t;
        }
    }
    r->w = w; r->left = left;
}
"""

# capture sets one table may have (the prelude's MAX_SUBS, runtime.MAX_SUBSETS)
MAX_SUBS = int(re.search(r"#define MAX_SUBS (\d+)", _PRELUDE).group(1))
MAX_SEATS = int(re.search(r"#define MAX_SEATS (\d+)", _PRELUDE).group(1))

_HELPERS = r"""
/* ---- helpers of the expressions and the capture kinds ---- */
static inline int rs_popcount(uint64_t m) { return __builtin_popcountll(m); }
static inline int rs_low(uint64_t m) { return __builtin_ctzll(m); }
/* the index of a one-card mask (its highest bit, as Python's bit_length() - 1) */
static inline int rs_high(uint64_t m) { return m ? 63 - __builtin_clzll(m) : N_ALL - 1; }
static inline int64_t rs_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t rs_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t rs_abs(int64_t a) { return a < 0 ? -a : a; }
static inline int64_t rs_floordiv(int64_t a, int64_t b, int where) {
    if (b == 0) { rs_err_code = 3; rs_err_where = where; return 0; }
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;
    return q;
}
static inline int64_t rs_floormod(int64_t a, int64_t b, int where) {
    if (b == 0) { rs_err_code = 3; rs_err_where = where; return 0; }
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static inline int64_t rs_total(uint64_t m) { int64_t t = 0; for (; m; m &= m - 1) t += VAL[rs_low(m)]; return t; }
static int rs_can_total(uint64_t m, int64_t target) {
    if (m & WILD_BIT) { int64_t rest = target - rs_total(m & ~WILD_BIT); return 1 <= rest && rest <= 10; }
    return rs_total(m) == target;
}
/* runtime.subset_total: whether one or more cards of the set total `target` (the real wild card, if
 * held, as any value 1..10; a card with no value counts 0) */
static int rs_subset_total(uint64_t m, int64_t target) {
    if (target < 0 || target > SUBSET_TOTAL_MAX) return 0;      /* no set reaches it */
    uint8_t reach[SUBSET_TOTAL_MAX + 1], before[SUBSET_TOTAL_MAX + 1];
    int t = (int)target;
    memset(reach, 0, (size_t)t + 1);
    for (uint64_t c = m & ~WILD_BIT; c; c &= c - 1) {
        int v = (int)VAL[rs_low(c)];
        for (int s = t - v; s >= 0; s--) if (reach[s]) reach[s + v] = 1;
        if (v <= t) reach[v] = 1;
    }
    if (m & WILD_BIT) {
        memcpy(before, reach, (size_t)t + 1);
        for (int v = 1; v <= 10; v++) {
            for (int s = 0; s + v <= t; s++) if (before[s]) reach[s + v] = 1;
            if (v <= t) reach[v] = 1;
        }
    }
    return reach[t];
}
static int64_t rs_run(uint64_t m, const uint64_t *seq, int n) {
    int64_t k = 0;
    for (int i = 0; i < n; i++) { if (!(m & seq[i])) break; k++; }
    return k;
}
/* best_per_suit(): per suit, the highest score level (levels[l] the cards scoring values[l], highest
 * first; every card is in one) the set's cards of that suit reach, summed; 0 if a suit has none */
static int64_t rs_best_per_suit(uint64_t m, const uint64_t *suits, int n, const uint64_t *levels,
                                const int64_t *values, int n_levels) {
    int64_t result = 0;
    for (int s = 0; s < n; s++) {
        uint64_t held = m & suits[s];
        if (!held) return 0;
        uint64_t reached = UINT64_C(1) << (n_levels - 1);    /* the levels its cards reach (at most 64 indices) */
        for (int l = 0; l < n_levels - 1; l++) reached |= (uint64_t)((held & levels[l]) != 0) << l;
        result += values[rs_low(reached)];
    }
    return result;
}
static int64_t rs_max_same_rank(uint64_t m) {
    int counts[N_ALL > 0 ? N_ALL : 1]; int best = 0;
    memset(counts, 0, sizeof counts);
    for (; m; m &= m - 1) { int r = RANK_NO[rs_low(m)]; if (++counts[r] > best) best = counts[r]; }
    return best;
}
static inline int rs_same(uint64_t m, const int64_t *attr) {
    if (!m) return 0;
    int64_t a = attr[rs_low(m)];
    for (m &= m - 1; m; m &= m - 1) if (attr[rs_low(m)] != a) return 0;
    return 1;
}
static inline int rs_same_value(uint64_t m) {
    if (!m) return 0;
    int64_t a = VAL[rs_low(m)];
    if (a == 0) return 0;
    for (m &= m - 1; m; m &= m - 1) if (VAL[rs_low(m)] != a) return 0;
    return 1;
}
static inline int64_t rs_first(uint64_t m, const int64_t *table, int64_t none) { return m ? table[rs_low(m)] : none; }
/* most(): whether this side's value is strictly greater than every other side's */
static inline int rs_most(const int64_t *vals, int k, int64_t side) {
    for (int s = 0; s < k; s++) if (s != side && !(vals[side] > vals[s])) return 0;
    return 1;
}
/* the side whose value is strictly greater than every other side's, -1 if none: most() of each side at once */
static inline int rs_top(const int64_t *vals, int k) {
    int top = 0, unique = 1;
    for (int s = 1; s < k; s++) {
        if (vals[s] > vals[top]) { top = s; unique = 1; }
        else if (vals[s] == vals[top]) unique = 0;
    }
    return unique ? top : -1;
}

/* ---- capture sets by total ----
 * The table's numbered cards in card order (TAB, their values TW), with prefix counts: ROW[i][PAD + s]
 * is how many sets of the first i cards total s (s = 0..LIMIT; the PAD zeros in front serve a card worth
 * more than the row), ROW[i + 1][s] = ROW[i][s] + ROW[i][s - w]. When the table changes, the cards below
 * the lowest that joined or left keep their places and rows; the rows from there on are made again. A
 * total's sets are listed by a walk down the rows that enters only branches holding a set (the callers
 * sort), or the r-th in ascending order found directly (card_pick: card order makes the rows count the
 * sets below each card). More than MAX_SUBS sets in all is an error, as the Python engine's
 * runtime.subset_sums makes it (ROW_CHECK 0: no table of the deck has so many, nor a count past RowT). */
#define PAD LANES                          /* LANES: a row's totals 0..LIMIT, rounded up to a power of two */
static uint64_t sub_t;                     /* the numbered table cards the rows are for (tab_n of them) */
static int tab_n;
static uint8_t TAB[N_ALL];
static int64_t TW[N_ALL];
static RowT ROW[N_ALL + 1][PAD + LANES] = {{[PAD] = 1}};     /* no cards: one set, the empty one, totalling 0 */
/* the rows made again from the first card on at the next sub_sync (ROW[0] is never written) */
static inline void sub_reset(void) { sub_t = 0; tab_n = 0; }
/* a row is made in parts of at most 16 bytes (one SSE/NEON register each: a wider vector type, with no AVX
 * to hold it, is kept in memory by the compiler), the row being made held in registers from one card to
 * the next (only the row before it, at the card's offset, is read back) */
#define ROW_BYTES (LANES * (int)sizeof(RowT))
#define ROW_PART (ROW_BYTES < 16 ? ROW_BYTES : 16)
#define ROW_PARTS (ROW_BYTES / ROW_PART)
typedef RowT RowVec __attribute__((vector_size(ROW_PART)));     /* a part of a row (gcc and clang) */

/* the checks of row i + 1 just made (ROW_CHECK): totals past LIMIT are never asked for and only feed higher
 * ones, kept 0, so that no count can pass int32 (those up to LIMIT stop at the first row past MAX_SUBS) */
static void sub_check(int i) {
    RowT *b = ROW[i + 1] + PAD;
    for (int s = LIMIT + 1; s < LANES; s++) b[s] = 0;
    if (i + 1 > 17) {                             /* i + 1 cards make at most 2^(i + 1) sets */
        int64_t all = 0;
        for (int s = 0; s <= LIMIT; s++) all += b[s];
        if (all > MAX_SUBS) rs_err_code = 2;
    }
}

/* the rows of the numbered table cards t from card j on (those below keep theirs): TAB, TW, ROW[j + 1..] */
RS_INLINE void sub_make(uint64_t t, uint64_t m, int j) {
    RowVec x[ROW_PARTS];                          /* ROW[j], then each row as it is made */
    memcpy(x, ROW[j] + PAD, sizeof x);
    for (; m; m &= m - 1, j++) {
        int c = rs_low(m);
        int64_t w = VAL[c];                       /* 1..MAX_VALUE: within the PAD zeros */
        TAB[j] = (uint8_t)c; TW[j] = w;
        const char *a = (const char *)(ROW[j] + PAD - w);
        for (int q = 0; q < ROW_PARTS; q++) {
            RowVec y;
            memcpy(&y, a + q * ROW_PART, sizeof y);
            x[q] += y;
        }
        memcpy(ROW[j + 1] + PAD, x, sizeof x);
        if (ROW_CHECK) {
            sub_check(j);
            if (rs_err_code) { sub_reset(); return; }     /* none joins past MAX_SUBS */
            memcpy(x, ROW[j + 1] + PAD, sizeof x);
        }
    }
    tab_n = j;
    sub_t = t;
}

RS_INLINE void sub_sync(uint64_t table) {
    uint64_t t = table & NUMBERED_MASK;
    if (t == sub_t) return;
    uint64_t below = (UINT64_C(1) << rs_low(t ^ sub_t)) - 1;     /* the cards that keep their rows */
    sub_make(t, t & ~below, rs_popcount(t & below));
}

/* the one-card sets of the table (as sub_sync last saw it) totalling `total` (1 or more) */
RS_INLINE int one_sets(int64_t total) { return total <= MAX_VALUE ? rs_popcount(sub_t & VALUE_MASK[total]) : 0; }

/* the sets of the first i table cards totalling T (1 or more), each with `m` added (and `cards` more cards),
 * with at least min_cards cards: appended to out (count: only counted). Each set is found once, by its
 * last card in TAB order: a card j can be that card only if the first j cards make the rest of T. */
static int sub_walk(int i, int T, uint64_t m, int cards, int min_cards, uint64_t *out, int n, int count) {
    for (int j = i - 1; j >= 0 && ROW[j + 1][PAD + T]; j--) {
        int w = (int)TW[j];
        if (w > T || !ROW[j][PAD + T - w]) continue;
        uint64_t with = m | UINT64_C(1) << TAB[j];
        if (w < T) { n = sub_walk(j, T - w, with, cards + 1, min_cards, out, n, count); continue; }
        if (cards + 1 < min_cards) continue;
        if (count) { n++; continue; }
        if (n >= MAX_MOVES) { rs_err_code = 5; return n; }
        out[n++] = with;
    }
    return n;
}

/* how many of the table's sets of numbered cards total `target` with at least `min_cards` cards */
RS_INLINE int subsets_count(uint64_t table, int64_t target, int min_cards) {
    (void)table;                              /* the rows are the table's: the caller ran sub_sync */
    if (target < 1 || target > LIMIT) return 0;
    if (min_cards <= 1) return ROW[tab_n][PAD + target];
    if (min_cards == 2) return ROW[tab_n][PAD + target] - one_sets(target);
    return sub_walk(tab_n, (int)target, 0, 0, min_cards, 0, 0, 1);
}

/* appends the table's sets of numbered cards totalling `target` with at least `min_cards` cards */
RS_INLINE int subsets_into(uint64_t table, int64_t target, int min_cards, uint64_t *out, int n) {
    (void)table;                              /* the rows are the table's: the caller ran sub_sync */
    if (target < 1 || target > LIMIT || !ROW[tab_n][PAD + target]) return n;
    if (min_cards == 2 && ROW[tab_n][PAD + target] == one_sets(target)) return n;     /* only single cards */
    return sub_walk(tab_n, (int)target, 0, 0, min_cards, out, n, 0);
}

/* ---- the hand ---- */
struct Hand {
    int n, k, dealer, turn, round, n_rounds, plays, over, outcome, last_capturer, wild_as, pos, misdeals;
    int in_hands;                             /* cards in the seats' hands */
    const Round *sched;
    uint64_t *dst[MAX_SEATS + 1];             /* the deal's places: the seats from the dealer's left, the table */
    uint64_t hands[MAX_SEATS], piles[MAX_SIDES], table, previous, declared[MAX_SEATS], shown[MAX_SEATS];
    int played_this_round[MAX_SEATS];
    int side_of[MAX_SEATS];                   /* seat % k */
    int knocked_round[MAX_SEATS];             /* declared since this round's deal */
    int declared_wild[MAX_SEATS];             /* 1 + the rank a seat declared the wild card as, 0: none */
    uint64_t round_dealt[MAX_SEATS];          /* each seat's hand as this round dealt it */
    uint8_t order[N_CARDS];
    uint64_t kept[MAX_SEATS + 1];             /* the kept deal's first round: the table laid, each seat's hand */
    int64_t evp[MAX_SIDES][N_CAT + 1];
    int64_t evsum;                            /* every event's points, scored in a category or not */
    int32_t evn[N_EV + 1];
    int32_t evs[MAX_SIDES][N_EV + 1];         /* per side and event: times fired, */
    int64_t evq[MAX_SIDES][N_EV + 1];         /* and points (simulate's per-event figures) */
    int swept;                                /* play events (EV_PLAY) fired with a play, every side's */
    int captures;                             /* plays that captured */
    int winners;                              /* with an outcome: the sides it gives the game (a mask) */
    Rng rng;                                  /* the deals' stream */
    Rng *bot[MAX_SEATS];                      /* each seat's bot's stream (a hand's: rng itself) */
};

/* a copy of a hand whose deal places are its own (dst points into the hand it belongs to) */
static inline void hand_copy(Hand *to, const Hand *from) {
    *to = *from;
    for (int s = 0; s < from->n; s++) to->dst[s] = to->hands + (from->dst[s] - from->hands);
    to->dst[from->n] = &to->table;
}

/* `at_play`: fired with a play or a declaration (not the dealer's, on the table dealt) */
static void add_event(Hand *h, int name, int side, int64_t points, int cat, int at_play) {
    h->evn[name]++;
    h->evs[side][name]++;
    h->evq[side][name] += points;
    h->evsum += points;
    h->swept += at_play && EV_PLAY[name];
    if (cat >= 0) h->evp[side][cat] += points;
}
"""

_ENGINE = r"""
/* ==================================================================== engine === */

static inline uint64_t eff(const Hand *h, uint64_t m) {
    if (h->wild_as >= 0 && (m & WILD_BIT)) return (m ^ WILD_BIT) | (UINT64_C(1) << h->wild_as);
    return m;
}
static inline uint64_t real(const Hand *h, uint64_t m) {
    if (h->wild_as >= 0 && (m >> h->wild_as & 1)) return (m ^ (UINT64_C(1) << h->wild_as)) | WILD_BIT;
    return m;
}

static void shuffle(Hand *h) {
    memcpy(h->order, IDENTITY, sizeof h->order);
    rs_shuffle(&h->rng, h->order, N_CARDS);
    h->pos = 0;
}

/* Each round's deal as a plan for one seat count: where the round's cards go, in order (0..n-1: the
 * seats from the dealer's left, n: the table), made once per batch from the schedule. */
static int8_t PLAN[MAX_ROUNDS][N_CARDS];
static int PLAN_N[MAX_ROUNDS], PLAN_HANDS[MAX_ROUNDS];

static void make_plan(int n) {
    for (int r = 0; r < N_ROUNDS[n]; r++) {
        const Round *rd = &SCHEDULE[n][r];
        int k = 0, hands = 0;
        for (int s = 0; s < rd->n_steps; s++) {
            const Step *st = &rd->steps[s];
            if (st->kind == 1) {
                for (int i = 0; i < st->count && k < N_CARDS; i++) PLAN[r][k++] = (int8_t)n;
                continue;
            }
            hands += st->count * n;
            /* `packet` cards at a time to each seat in turn, from the dealer's left */
            for (int q = 0, seat = 0, given = 0; q < st->count * n && k < N_CARDS; q++) {
                PLAN[r][k++] = (int8_t)seat;
                if (++given == st->packet) { given = 0; seat = seat + 1 == n ? 0 : seat + 1; }
            }
        }
        PLAN_N[r] = k; PLAN_HANDS[r] = hands;
    }
}

/* card c's bit, read from memory: a load in place of a shift by a variable count (lay_round, per card) */
static const uint64_t RS_BIT[64] = {
    UINT64_C(0x1), UINT64_C(0x2), UINT64_C(0x4), UINT64_C(0x8),
    UINT64_C(0x10), UINT64_C(0x20), UINT64_C(0x40), UINT64_C(0x80),
    UINT64_C(0x100), UINT64_C(0x200), UINT64_C(0x400), UINT64_C(0x800),
    UINT64_C(0x1000), UINT64_C(0x2000), UINT64_C(0x4000), UINT64_C(0x8000),
    UINT64_C(0x10000), UINT64_C(0x20000), UINT64_C(0x40000), UINT64_C(0x80000),
    UINT64_C(0x100000), UINT64_C(0x200000), UINT64_C(0x400000), UINT64_C(0x800000),
    UINT64_C(0x1000000), UINT64_C(0x2000000), UINT64_C(0x4000000), UINT64_C(0x8000000),
    UINT64_C(0x10000000), UINT64_C(0x20000000), UINT64_C(0x40000000), UINT64_C(0x80000000),
    UINT64_C(0x100000000), UINT64_C(0x200000000), UINT64_C(0x400000000), UINT64_C(0x800000000),
    UINT64_C(0x1000000000), UINT64_C(0x2000000000), UINT64_C(0x4000000000), UINT64_C(0x8000000000),
    UINT64_C(0x10000000000), UINT64_C(0x20000000000), UINT64_C(0x40000000000), UINT64_C(0x80000000000),
    UINT64_C(0x100000000000), UINT64_C(0x200000000000), UINT64_C(0x400000000000), UINT64_C(0x800000000000),
    UINT64_C(0x1000000000000), UINT64_C(0x2000000000000), UINT64_C(0x4000000000000), UINT64_C(0x8000000000000),
    UINT64_C(0x10000000000000), UINT64_C(0x20000000000000), UINT64_C(0x40000000000000), UINT64_C(0x80000000000000),
    UINT64_C(0x100000000000000), UINT64_C(0x200000000000000), UINT64_C(0x400000000000000), UINT64_C(0x800000000000000),
    UINT64_C(0x1000000000000000), UINT64_C(0x2000000000000000), UINT64_C(0x4000000000000000), UINT64_C(0x8000000000000000)};

static void lay_round(Hand *h) {
    int r = h->round++, cards = PLAN_N[r];
    const int8_t *plan = PLAN[r];
    const uint8_t *order = h->order + h->pos;
    h->pos += cards;
    h->in_hands += PLAN_HANDS[r];
    uint64_t *const *dst = h->dst;
    int i = 0;
    for (; i + 4 <= cards; i += 4) {           /* four cards a step: fewer loop tests than cards */
        *dst[plan[i]] |= RS_BIT[order[i]];
        *dst[plan[i + 1]] |= RS_BIT[order[i + 1]];
        *dst[plan[i + 2]] |= RS_BIT[order[i + 2]];
        *dst[plan[i + 3]] |= RS_BIT[order[i + 3]];
    }
    for (; i < cards; i++) *dst[plan[i]] |= RS_BIT[order[i]];
    /* every seat's entry, not just the n in play: a fixed size the compiler writes in a few moves (the
     * others are read by no one, and hands[s] of a seat not in play is 0) */
    for (int s = 0; s < MAX_SEATS; s++) { h->played_this_round[s] = 0; h->knocked_round[s] = 0; h->round_dealt[s] = h->hands[s]; }
}

static int start(Hand *h) {
    int thrown = 0;
    for (;;) {
        lay_round(h);
        /* the deal's first round, as the Python engine's deal_log has it (a paired comparison's same deal) */
        h->kept[0] = h->table;
        memcpy(h->kept + 1, h->hands, sizeof h->hands);      /* every seat's: a fixed size (0 beyond n) */
        int c = deal_check(h->table);
        if (c < 0) break;
        if (++thrown > MAX_REDEALS) { rs_err_code = 1; rs_err_where = c + 1; return 1; }
        if (DC_RESULT[c] == 2) {
            h->outcome = DC_OUTCOME[c]; h->over = 1; h->winners = 1 << (h->dealer % h->k);
            return 0;
        }
        if (DC_RESULT[c] == 1) {
            h->misdeals++;
            if (MISDEAL_LIMIT && h->misdeals >= MISDEAL_LIMIT) {      /* every side but the dealer's */
                h->outcome = OUT_MISDEAL; h->over = 1; h->winners = ((1 << h->k) - 1) & ~(1 << (h->dealer % h->k));
                return 0;
            }
        }
        shuffle(h);
        for (int s = 0; s < h->n; s++) h->hands[s] = 0;
        h->table = 0; h->round = 0; h->in_hands = 0;
    }
    int b = dealer_bonus(h->table);
    if (b >= 0) {
        int side = h->dealer % h->k;
        add_event(h, DB_EVENT[b], side, DB_POINTS[b], DB_CAT[b], 0);
        if (DB_CAPTURE[b]) { h->piles[side] |= h->table; h->table = 0; h->last_capturer = side; }
    }
    h->turn = h->dealer + 1 == h->n ? 0 : h->dealer + 1;
    return 0;
}

/* ---- moves: (card, capture) pairs in ascending order, as sorted() orders the Python engine's ---- */
static uint8_t MV_CARD[MAX_MOVES];
static uint64_t MV_CAP[MAX_MOVES];
static int rs_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static uint64_t OPT[MAX_MOVES + 1];             /* card_options' sets (each write checked), and the card laid */

/* card c's moves into OPT, ascending: its capture sets (real cards), and 0 where it may be laid; how many */
static int card_moves(Hand *h, int seat, int c, uint64_t table) {
    (void)seat;                                   /* read by CARD_OPTIONS_MOMENT where a capture reads the moment */
    int p = (c == WILD_INDEX && h->wild_as >= 0) ? h->wild_as : c;
    int k = card_options(p, UINT64_C(1) << p, table, CARD_OPTIONS_MOMENT OPT);
    if (rs_err_code) return 0;                    /* too many sets: the list is not played from */
    if (h->wild_as >= 0) for (int i = 0; i < k; i++) OPT[i] = real(h, OPT[i]);
    if (k == 0 || !FORCED) OPT[k++] = 0;
    if (k > 64) { qsort(OPT, (size_t)k, sizeof *OPT, rs_cmp_u64); return k; }    /* never quadratic */
    for (int i = 1; i < k; i++) {             /* insertion sort: a few masks, mostly in order */
        uint64_t x = OPT[i]; int j = i - 1;
        while (j >= 0 && OPT[j] > x) { OPT[j + 1] = OPT[j]; j--; }
        OPT[j + 1] = x;
    }
    return k;
}

static int gen_moves(Hand *h, int seat) {
    uint64_t hand = h->hands[seat];
    uint64_t pending = h->declared[seat] & hand;
    if (DECLARED_FIRST && pending) hand = pending;
    int n = 0;
    uint64_t table = eff(h, h->table);
    if (table) { sub_sync(table); if (rs_err_code) return 0; }  /* the capture lists of this table, once a turn */
    for (uint64_t m = hand; m; m &= m - 1) {
        int c = rs_low(m);
        if (!h->table) { MV_CARD[n] = (uint8_t)c; MV_CAP[n++] = 0; continue; }
        int k = card_moves(h, seat, c, table);
        if (rs_err_code) return 0;
        if (n + k > MAX_MOVES) { rs_err_code = 5; return 0; }
        for (int i = 0; i < k; i++) {
            if (OVERLAP && i && OPT[i] == OPT[i - 1]) continue;     /* as the Python engine: only there */
            MV_CARD[n] = (uint8_t)c; MV_CAP[n++] = OPT[i];
        }
    }
    return n;
}

/* ---- a uniform choice: how many moves, then the r-th of gen_moves' order ----
 * COUNTABLE: each card's number of moves from card_count, then only the chosen card's sets listed and
 * sorted; otherwise every move listed by gen_moves. */
/* per card of a hand, ascending (n_held of them): the moves of the cards before it, its card, its capture
 * sets; count_moves' in COUNTED for pick_move, a random bot's own in a local (random_move) */
typedef struct { int n_held, from[64], card[64], caps[64]; } Counted;
static Counted COUNTED;

RS_INLINE uint64_t playable(const Hand *h, int seat) {
    uint64_t hand = h->hands[seat];
    uint64_t pending = h->declared[seat] & hand;
    return DECLARED_FIRST && pending ? pending : hand;
}

/* COUNTABLE: how many moves `hand` has against the non-empty table (`table`: as the wild card counts), each
 * card's into *k */
RS_INLINE int count_cards(Hand *h, int seat, uint64_t hand, uint64_t table, Counted *k) {
    sub_sync(table);                              /* the capture lists of this table, once a turn */
    if (rs_err_code) return 0;
    int wild_p = h->wild_as >= 0 ? h->wild_as : WILD_INDEX;     /* the index the wild card plays as */
    int n = 0, j = 0;
    for (uint64_t m = hand; m; m &= m - 1, j++) {
        int c = rs_low(m);
        int p = c == WILD_INDEX ? wild_p : c;
        int caps = card_count(p, UINT64_C(1) << p, table, CARD_OPTIONS_MOMENT 0);
        k->caps[j] = caps; k->card[j] = c; k->from[j] = n;
        n += caps + ((caps == 0) | !FORCED);     /* the card laid without a capture */
    }
    k->n_held = j;
    if (rs_err_code) return 0;
    if (n > MAX_MOVES) { rs_err_code = 5; return 0; }
    return n;
}

/* the r-th move (0 <= r < count_cards' number, counted into *k against the same non-empty table) */
RS_INLINE void pick_from(Hand *h, int seat, uint64_t table, const Counted *k, int r, int *card, uint64_t *capture) {
    int j = 0;                                    /* the card whose moves hold the r-th: counted, no branch */
    for (int i = 1; i < k->n_held; i++) j += r >= k->from[i];
    r -= k->from[j];
    int c = k->card[j];
    *card = c;
    /* laid on the table: the card captures nothing, or (capture not forced) the first move, sorted */
    if (k->caps[j] == 0 || (!FORCED && r == 0)) { *capture = 0; return; }
    /* the r-th capture found from the rows, where the card's sets allow it and the sets are the real
     * cards' (a declared wild card on the table is another index there: listed and sorted) */
    int p = (c == WILD_INDEX && h->wild_as >= 0) ? h->wild_as : c;
    if (!(h->wild_as >= 0 && (h->table & WILD_BIT)) &&
        card_pick(p, UINT64_C(1) << p, table, CARD_OPTIONS_MOMENT FORCED ? r : r - 1, capture)) return;
    card_moves(h, seat, c, table);
    *capture = OPT[r];
}

/* the r-th of `hand`'s moves on an empty table: its r-th card, laid */
RS_INLINE void pick_laid(uint64_t hand, int r, int *card, uint64_t *capture) {
    for (; r; r--) hand &= hand - 1;
    *card = rs_low(hand); *capture = 0;
}

static int count_moves(Hand *h, int seat) {
    if (!COUNTABLE) return gen_moves(h, seat);
    uint64_t hand = playable(h, seat);
    if (!h->table) return rs_popcount(hand);
    return count_cards(h, seat, hand, eff(h, h->table), &COUNTED);
}

/* the r-th move (0 <= r < count_moves' number, which it follows) */
RS_INLINE void pick_move(Hand *h, int seat, int r, int *card, uint64_t *capture) {
    if (!COUNTABLE) { *card = MV_CARD[r]; *capture = MV_CAP[r]; return; }
    if (!h->table) { pick_laid(playable(h, seat), r, card, capture); return; }
    uint64_t table = eff(h, h->table);
    sub_sync(table);                              /* as count_moves left it: a comparison */
    pick_from(h, seat, table, &COUNTED, r, card, capture);
}

/* a random bot's move: count_moves' number of moves (returned), then (where no error and 1 or more) the
 * r-th of them with r = rs_below(rng, number): count_moves then pick_move, the counts held in a local */
RS_INLINE int random_move(Hand *h, int seat, Rng *rng, int *card, uint64_t *capture) {
    if (!COUNTABLE) {
        int n = gen_moves(h, seat);
        if (!rs_err_code && n >= 1) pick_move(h, seat, (int)rs_below(rng, (uint32_t)n), card, capture);
        return n;
    }
    uint64_t hand = playable(h, seat);
    if (!h->table) {
        int n = rs_popcount(hand);
        if (n >= 1) pick_laid(hand, (int)rs_below(rng, (uint32_t)n), card, capture);
        return n;
    }
    uint64_t table = eff(h, h->table);
    Counted k;
    int n = count_cards(h, seat, hand, table, &k);
    if (!rs_err_code && n >= 1) pick_from(h, seat, table, &k, (int)rs_below(rng, (uint32_t)n), card, capture);
    return n;
}

/* ---- declarations: bots/policy.py best_declarations over Hand.bonus_options ---- */
typedef struct { int bonus; uint64_t cards; int wild_rank; } Decl;
static Decl OPTS[MAX_OPTS];

static inline int order_of(const Hand *h, int seat) { return (seat - h->dealer - 1 + h->n) % h->n; }

/* Hand._declaration_window: with a play (TIMING 0, 1) or as a knock (2, 3) */
static int window(const Hand *h, int seat) {
    if (TIMING == 0 || TIMING == 2) return h->played_this_round[seat] == 0;
    if (TIMING == 1) return (h->declared[seat] & h->hands[seat]) == 0;
    for (int s = 0; s < h->n; s++) if (h->played_this_round[s]) return 0;
    for (int s = 0; s < h->n; s++) if (h->knocked_round[s] && order_of(h, s) > order_of(h, seat)) return 0;
    return 1;
}

/* runtime unique_key: the value or rank a bonus is made with (the wild card as declared) */
static inline int64_t unique_key(int by, uint64_t cards, int wild_rank) {
    int i = wild_rank < 0 ? rs_high(cards) : N_CARDS + wild_rank;
    return by == 1 ? VAL[i] : RANK_ID[i];
}

/* Hand._check_unique: no seat earlier in dealing order holds a qualifying card of the same value/rank */
static int unique_ok(const Hand *h, int seat, int b, uint64_t cards, int wild_rank, int64_t round, int last) {
    int by = B_UNIQUE[b];
    int64_t key = unique_key(by, cards, wild_rank);
    for (int o = 0; o < h->n; o++) {
        if (order_of(h, o) >= order_of(h, seat)) continue;
        /* what the declaring seat can know: cards played this round and declared cards still held
         * (declarations.unique_holder), never hidden ones */
        uint64_t held = (h->round_dealt[o] & ~h->hands[o]) | (h->shown[o] & h->hands[o]);
        for (uint64_t m = held; m; m &= m - 1) {
            int c = rs_low(m);
            int rank = (c == WILD_INDEX && h->declared_wild[o]) ? h->declared_wild[o] - 1 : -1;
            uint64_t probe = rank < 0 ? UINT64_C(1) << c : UINT64_C(1) << (N_CARDS + rank);
            if (unique_key(by, UINT64_C(1) << c, rank) == key && bonus_check(b, probe, held, round, last)) return 0;
        }
    }
    return 1;
}

static inline uint64_t virt(uint64_t m, int r) { return (m ^ WILD_BIT) | (UINT64_C(1) << (N_CARDS + r)); }

/* The wild card's tries for bonus b on a set holding it: bit 0 as itself, bit 1 + i declared as
 * DECLARE_AS[i]. For a bonus whose condition reads only its cards the answer depends on the cards alone:
 * kept per bonus in a direct-mapped table (a set holding the wild card is never 0, the empty key). */
#define WM_BITS 10
static uint64_t WM_KEY[N_BONUS + 1][1 << WM_BITS], WM_TRIES[N_BONUS + 1][1 << WM_BITS];

static uint64_t wild_tries(int b, uint64_t cards, uint64_t hand, int64_t round, int last) {
    unsigned slot = (unsigned)((cards * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - WM_BITS));
    if (WM_KEY[b][slot] == cards) return WM_TRIES[b][slot];
    uint64_t bits = (uint64_t)(bonus_check(b, cards, hand, round, last) != 0);
    for (int i = 0; i < N_DECLARE_AS; i++)
        if (bonus_check(b, virt(cards, DECLARE_AS[i]), hand, round, last)) bits |= UINT64_C(2) << i;
    WM_KEY[b][slot] = cards; WM_TRIES[b][slot] = bits;
    return bits;
}

static int can_make(int b, uint64_t cards, uint64_t hand, int64_t round, int last) {
    int wild = (cards & WILD_BIT) && B_WILD[b] && DECLARE_WILD;
    if (wild && B_CARDS_ONLY[b]) return wild_tries(b, cards, hand, round, last) != 0;
    if (bonus_check(b, cards, hand, round, last)) return 1;
    if (wild)
        for (int i = 0; i < N_DECLARE_AS; i++) if (bonus_check(b, virt(cards, DECLARE_AS[i]), hand, round, last)) return 1;
    return 0;
}

/* bonus b made of the cards `mask`: offered (OPTS) as Hand.bonus_options offers it, with the first try
 * that makes it and that no other bonus excludes; 0, or -1 past MAX_OPTS */
RS_INLINE int bonus_try(const Hand *h, int seat, int b, uint64_t mask, int64_t round, int last, int *n) {
    /* the tries: the wild card (if held and declarable) as itself (t = -1), then as each rank; a bonus of
     * its cards only knows at once which make it (memo), another is asked try by try */
    int tries = (mask & WILD_BIT) && B_WILD[b] && DECLARE_WILD ? N_DECLARE_AS : 0;
    int memo = tries && B_CARDS_ONLY[b];
    uint64_t made = memo ? wild_tries(b, mask, h->hands[seat], round, last) : 0;
    int excluded = -1;                            /* whether a bonus excluding b can be made of these cards */
    for (int t = -1; t < tries; t++) {
        if (memo) {                               /* the next try that makes b, if any */
            if (!made) break;
            t = rs_low(made) - 1;
            made &= made - 1;
        } else {
            uint64_t probe = t < 0 ? mask : virt(mask, DECLARE_AS[t]);
            if (!bonus_check(b, probe, h->hands[seat], round, last)) continue;
        }
        if (excluded < 0) {                       /* the same for every declared rank: asked once */
            excluded = 0;
            for (int o = 0; o < N_BONUS; o++)
                if ((B_EXCLUDED_BY[b] >> o & 1) && can_make(o, mask, h->hands[seat], round, last)) { excluded = 1; break; }
        }
        if (excluded) break;
        if (B_UNIQUE[b] && !unique_ok(h, seat, b, mask, t < 0 ? -1 : DECLARE_AS[t], round, last)) continue;
        if (*n >= MAX_OPTS) { rs_err_code = 4; return -1; }
        OPTS[*n].bonus = b; OPTS[*n].cards = mask; OPTS[*n].wild_rank = t < 0 ? -1 : DECLARE_AS[t];
        (*n)++;
        break;
    }
    return 0;
}

RS_INLINE int bonus_options(const Hand *h, int seat) {
    uint64_t hand = h->hands[seat] & ~h->shown[seat];
    int cards[64], nc = rs_popcount(hand), listed = 0;     /* the cards listed when a bonus takes fewer */
    int64_t round = h->round;
    int last = h->round == h->n_rounds;
    int n = 0;
    for (int b = 0; b < N_BONUS; b++) {
        int size = B_SIZE[b];
        if (size > nc || size < 1) continue;
        uint64_t allowed = B_ROUNDS[b];
        if (~allowed && !((round < 64 && (allowed >> round & 1)) || ((allowed & 1) && last))) continue;
        if (size == nc) {                         /* the whole hand: its only combination */
            if (bonus_try(h, seat, b, hand, round, last, &n) < 0) return 0;
            continue;
        }
        if (!listed) { int k = 0; for (uint64_t m = hand; m; m &= m - 1) cards[k++] = rs_low(m); listed = 1; }
        int idx[64];
        for (int i = 0; i < size; i++) idx[i] = i;
        for (;;) {                                /* the combinations in lexicographic order */
            uint64_t mask = 0;
            for (int i = 0; i < size; i++) mask |= UINT64_C(1) << cards[idx[i]];
            if (bonus_try(h, seat, b, mask, round, last, &n) < 0) return 0;
            int i = size - 1;
            while (i >= 0 && idx[i] == nc - size + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    return n;
}

#define CLASH (-2)
/* declarations.same_rank: the rank a declaration of bonus b on cards holding the wild card takes beside
 * others that gave it `wild_rank` (-1: none, or as itself); CLASH where it cannot (a bonus that cannot
 * declare the wild card, or unique_by, never can) */
static int same_rank(const Hand *h, int seat, int b, uint64_t cards, int wild_rank) {
    if (!(B_WILD[b] && DECLARE_WILD) || B_UNIQUE[b]) return CLASH;
    if (wild_rank < 0) return CLASH;
    return bonus_check(b, virt(cards, wild_rank), h->hands[seat], h->round, h->round == h->n_rounds) ? wild_rank : CLASH;
}

/* The declarations Hand.bonus_options offers and bots/policy.py best_declarations chooses of them (in
 * `chosen`): how many. */
static int choose_declarations(const Hand *h, int seat, Decl *chosen) {
    int n = bonus_options(h, seat);
    if (!n) return 0;
    for (int i = 1; i < n; i++) {                 /* stable sort, most points first */
        Decl x = OPTS[i]; int j = i - 1;
        while (j >= 0 && B_POINTS[OPTS[j].bonus] < B_POINTS[x.bonus]) { OPTS[j + 1] = OPTS[j]; j--; }
        OPTS[j + 1] = x;
    }
    int nc = 0, wild_rank = -1;
    uint64_t used = 0;
    for (int i = 0; i < n; i++) {
        Decl d = OPTS[i];
        int shares = 1;
        for (int j = 0; j < nc; j++)
            if ((chosen[j].cards & d.cards) && !(B_SHARES[d.bonus] >> chosen[j].bonus & 1)) { shares = 0; break; }
        if ((d.cards & used) && !shares) continue;
        if ((d.cards & used & WILD_BIT) && d.wild_rank != wild_rank) {
            /* one rank for the wild card in all of a turn's declarations: this one takes the others'
             * (declarations.same_rank), else they take its (declarations.rerank) */
            int rank = same_rank(h, seat, d.bonus, d.cards, wild_rank);
            if (rank != CLASH) d.wild_rank = rank;
            else {
                if (d.wild_rank < 0) continue;
                static int ranks[MAX_OPTS];       /* j < nc <= n <= MAX_OPTS */
                int ok = 1;
                for (int j = 0; j < nc && ok; j++) {
                    ranks[j] = chosen[j].wild_rank;
                    if ((chosen[j].cards & WILD_BIT) && chosen[j].wild_rank != d.wild_rank) {
                        ranks[j] = same_rank(h, seat, chosen[j].bonus, chosen[j].cards, d.wild_rank);
                        ok = ranks[j] != CLASH;
                    }
                }
                if (!ok) continue;
                for (int j = 0; j < nc; j++) chosen[j].wild_rank = ranks[j];
            }
        }
        if (PER_TURN_ONE && nc) break;
        chosen[nc++] = d;
        used |= d.cards;
        if (d.wild_rank >= 0) wild_rank = d.wild_rank;
    }
    return nc;
}

/* DECL_PURE: a seat's best declarations depend on its undeclared cards alone, kept by a hash of the cards
 * (direct-mapped, the same hash's top bits): NODECL the hands known to make none (0, the empty hand, makes
 * none either), asked for hands of more than RANKED_CARDS cards (smaller ones: RANKED below); DMEMO those
 * that make some (DMEMO_K declarations at most), with what they make. A miss asks every bonus. */
#define NODECL_BITS 16
#define DMEMO_BITS 12
#define DMEMO_K 2
static uint64_t NODECL[DECL_PURE ? 1 << NODECL_BITS : 1];
typedef struct { uint64_t key; int n; Decl d[DMEMO_K]; } DMemo;
static DMemo DMEMO[DECL_PURE ? 1 << DMEMO_BITS : 1];

/* Hands of at most RANKED_CARDS of the deck's cards: each its own place (hand_place), RANKED[place] 0 where
 * not yet known, 1 where the hand makes no declaration, 2 where it makes some (found in DMEMO or chosen) */
static uint8_t RANKED[DECL_PURE ? RANKED_N : 1];
/* the place of a hand of at most RANKED_CARDS of the deck's cards (the caller counted them) */
RS_INLINE int hand_place(uint64_t m) {
    int s = 0, at = 0;
    for (; m; m &= m - 1) at += RANKED_BIN[++s][rs_low(m)];
    return RANKED_OFF[s] + at;
}

/* best_declarations past NODECL: from DMEMO, else chosen and kept (not where choosing failed) */
static __attribute__((noinline)) int declarations_memo(const Hand *h, int seat, Decl *chosen, uint64_t undeclared, uint64_t hash) {
    DMemo *e = &DMEMO[DECL_PURE ? hash >> (64 - DMEMO_BITS) : 0];
    if (e->key == undeclared) {
        for (int i = 0; i < e->n; i++) chosen[i] = e->d[i];
        return e->n;
    }
    int n = choose_declarations(h, seat, chosen);
    if (rs_err_code) return n;
    if (!n) NODECL[DECL_PURE ? hash >> (64 - NODECL_BITS) : 0] = undeclared;
    else if (n <= DMEMO_K) {
        e->key = undeclared; e->n = n;
        for (int i = 0; i < n; i++) e->d[i] = chosen[i];
    }
    return n;
}

/* The declarations a bot makes now (in `chosen`): how many. Inlined where a hand that makes none is known
 * (its byte in RANKED, else its key in NODECL): a few loads and comparisons at each round's first turn. */
RS_INLINE int best_declarations(const Hand *h, int seat, Decl *chosen) {
    if (!DECL_PURE) return choose_declarations(h, seat, chosen);
    uint64_t undeclared = h->hands[seat] & ~h->shown[seat], hash = undeclared * RS_GOLDEN;
    if (rs_popcount(undeclared) <= RANKED_CARDS && !(undeclared & ~RANKED_REAL)) {
        int at = hand_place(undeclared);
        if (at < RANKED_N && RANKED[at] == 1) return 0;
        int n = declarations_memo(h, seat, chosen, undeclared, hash);
        if (!rs_err_code && at < RANKED_N) RANKED[at] = n ? 2 : 1;
        return n;
    }
    if (NODECL[hash >> (64 - NODECL_BITS)] == undeclared) return 0;
    return declarations_memo(h, seat, chosen, undeclared, hash);
}

static void apply_declarations(Hand *h, int seat, const Decl *ds, int n) {
    int side = h->side_of[seat], wild_rank = -1;
    for (int i = 0; i < n; i++) {
        add_event(h, B_EVENT[ds[i].bonus], side, B_POINTS[ds[i].bonus], B_CAT[ds[i].bonus], 1);
        h->shown[seat] |= ds[i].cards;
        h->declared[seat] |= ds[i].cards;
        if (ds[i].wild_rank >= 0) wild_rank = ds[i].wild_rank;
    }
    if (wild_rank >= 0) { h->wild_as = N_CARDS + wild_rank; h->declared_wild[seat] = wild_rank + 1; }
    if (n) h->knocked_round[seat] = 1;
}

/* ---- a play ---- */
static void finish(Hand *h) {
    if (h->table && h->last_capturer >= 0 && LEFTOVERS_LAST) {
        h->piles[h->last_capturer] |= h->table; h->table = 0; h->wild_as = -1;
    }
    h->over = 1;
    int side = 0;
    h->outcome = outcome(h->piles, h->k, &side);
    h->winners = h->outcome >= 0 ? 1 << side : 0;
}

RS_INLINE void play_card(Hand *h, int seat, int card, uint64_t capture) {
    uint64_t bit = UINT64_C(1) << card;
    h->plays++;
    int side = h->side_of[seat];
    uint64_t eff_card = eff(h, bit), table_before = eff(h, h->table), eff_capture = eff(h, capture);
    uint64_t previous = eff(h, h->previous);
    h->hands[seat] ^= bit;
    h->declared[seat] &= ~bit;
    h->played_this_round[seat]++;
    if (capture) {
        h->captures++;
        h->table ^= capture;
        h->piles[side] |= capture | bit;
        h->last_capturer = side;
        h->previous = 0;
    } else {
        h->table |= bit;
        h->previous = bit;
    }
    int hands_empty = --h->in_hands == 0;
    int last_play = hands_empty && h->round >= h->n_rounds;
    play_events(h, side, PLAY_EVENTS_ARGS);
    if (h->wild_as >= 0 && capture && ((capture | bit) & WILD_BIT)) h->wild_as = -1;
    h->turn = NEXT_SEAT[h->n][seat];
    if (hands_empty) { if (last_play) finish(h); else lay_round(h); }
}

/* ---- the bots: a random bot, and the greedy bot (bots/greedy.py) ---- */
#define BOT_RANDOM 0
#define BOT_GREEDY 1
#define MAX_HANDS_PER_GAME 1000      /* bots/simulate.py: a game not over by then is an error */

/* GreedyBot.choose: of the moves in gen_moves' (sorted) order, the one whose play scores the most event
 * points, then captures the most cards, then draws the highest rs_random (one draw per move, in order) */
static void greedy_pick(Hand *h, int seat, int n, int *card, uint64_t *capture) {
    static Hand probe;
    int best = 0; int64_t best_pts = 0; int best_bits = 0; double best_x = 0;
    for (int j = 0; j < n; j++) {
        hand_copy(&probe, h);
        play_card(&probe, seat, MV_CARD[j], MV_CAP[j]);
        if (rs_err_code) return;
        int64_t pts = probe.evsum - h->evsum;
        int bits = rs_popcount(MV_CAP[j]);
        double x = rs_random(h->bot[seat]);
        if (j == 0 || pts > best_pts || (pts == best_pts && (bits > best_bits || (bits == best_bits && x > best_x)))) {
            best = j; best_pts = pts; best_bits = bits; best_x = x;
        }
    }
    *card = MV_CARD[best]; *capture = MV_CAP[best];
}

/* trace (int64, may be NULL): per play unit, seat, card, capture, declared cards, declared wild rank;
 *   at most trace_cap plays, *tl counting them */
typedef struct { int64_t *trace, cap, *tl; } Trace;

/* Plays a dealt hand out (h set up by new_hand) with the bots of `bots` (per seat; NULL: every one random),
 * adding its decisions and legal moves; 0, or an error code. */
RS_INLINE int play_hand(Hand *h, const int32_t *bots, int64_t unit, Trace *tr, int64_t *decisions, int64_t *legal) {
    static Decl ds[MAX_OPTS];                     /* best_declarations chooses at most every option */
    shuffle(h);
    if (start(h)) return rs_err_code;
    while (!h->over) {
        if (TIMING >= 2 && N_BONUS)               /* knocks due before the turn (bots/policy.py knocks) */
            for (int j = 0, s = (h->dealer + 1) % h->n; j < h->n; j++, s = s + 1 == h->n ? 0 : s + 1) {
                if (!window(h, s)) continue;
                int nk = best_declarations(h, s, ds);
                if (rs_err_code) return rs_err_code;
                if (nk) apply_declarations(h, s, ds, nk);
            }
        int seat = h->turn, nd = 0, nm, card;
        uint64_t capture;
        int greedy = bots && bots[seat] == BOT_GREEDY;
        ++*decisions;
        if (TIMING < 2 && N_BONUS && window(h, seat)) {
            nd = best_declarations(h, seat, ds);
            if (rs_err_code) return rs_err_code;
        }
        int counted = -1;                         /* the moves counted before the declarations, if still so */
        if (nd) {
            int wild_as = h->wild_as;
            counted = count_moves(h, seat);
            *legal += counted;
            apply_declarations(h, seat, ds, nd);
            /* the moves change only where a declared wild card takes another value or declared cards go first */
            if (greedy || DECLARED_FIRST || h->wild_as != wild_as) counted = -1;
        }
        if (greedy) nm = gen_moves(h, seat);
        else if (counted < 0) nm = random_move(h, seat, h->bot[seat], &card, &capture);
        else if ((nm = counted) >= 1 && !rs_err_code)
            pick_move(h, seat, (int)rs_below(h->bot[seat], (uint32_t)nm), &card, &capture);
        if (rs_err_code) return rs_err_code;
        if (nm < 1) return rs_err_code = 6;       /* a bot chooses among nm >= 1 moves */
        if (!nd) *legal += nm;
        if (greedy) greedy_pick(h, seat, nm, &card, &capture);
        if (rs_err_code) return rs_err_code;
        if (tr->trace && *tr->tl < tr->cap) {
            int64_t *t = tr->trace + 6 * (*tr->tl)++;
            uint64_t dc = 0; int wr = -1;
            for (int j = 0; j < nd; j++) { dc |= ds[j].cards; if (ds[j].wild_rank >= 0) wr = ds[j].wild_rank; }
            t[0] = unit; t[1] = seat; t[2] = card; t[3] = (int64_t)capture; t[4] = (int64_t)dc; t[5] = wr;
        }
        play_card(h, seat, card, capture);
        if (rs_err_code) return rs_err_code;
    }
    return 0;
}

/* A new hand for `seats` players dealt by `dealer`, its deals drawn from `deal`, seat s's bot from bot[s]
 * (NULL: the deals' stream, as a hand of a hand run draws everything from one stream). */
static void new_hand(Hand *h, int seats, int dealer, const Rng *deal, Rng *bot) {
    /* all zero but the per-side event rows (evp, evs, evq: in this order in Hand) of sides not in play,
     * which no one reads: the hand's k rows of each, not MAX_SIDES */
    char *z = (char *)h;
    size_t evp_end = offsetof(Hand, evp) + sizeof h->evp, evs_end = offsetof(Hand, evs) + sizeof h->evs,
           evq_end = offsetof(Hand, evq) + sizeof h->evq;
    memset(z, 0, offsetof(Hand, evp));
    memset(z + evp_end, 0, offsetof(Hand, evs) - evp_end);
    memset(z + evs_end, 0, offsetof(Hand, evq) - evs_end);
    memset(z + evq_end, 0, sizeof *h - evq_end);
    for (int s = 0; s < SIDES[seats]; s++) {
        memset(h->evp[s], 0, sizeof h->evp[s]); memset(h->evs[s], 0, sizeof h->evs[s]); memset(h->evq[s], 0, sizeof h->evq[s]);
    }
    h->n = seats; h->k = SIDES[seats]; h->dealer = dealer;
    for (int s = 0, side = 0; s < seats; s++, side = side + 1 == h->k ? 0 : side + 1) {     /* s % k */
        h->side_of[s] = side; h->bot[s] = bot ? &bot[s] : &h->rng;
    }
    h->sched = SCHEDULE[seats]; h->n_rounds = N_ROUNDS[seats];
    for (int s = 0, seat = dealer + 1 == seats ? 0 : dealer + 1; s < seats; s++, seat = seat + 1 == seats ? 0 : seat + 1)
        h->dst[s] = &h->hands[seat];
    h->dst[seats] = &h->table;
    h->outcome = -1; h->last_capturer = -1; h->wild_as = -1;
    h->rng = *deal;
}

/* a loop of a few iterations, fixed by the ruleset: unrolled (gcc 8 and later, clang; a compiler that does
 * not know the pragma ignores it) */
#define RS_UNROLL _Pragma("GCC unroll 16")

/* Adds a finished hand to agg (the layout of rs_play) and its row to ph (may be NULL); its scores into
 * rows (when it had plays). 0, or an error code. */
RS_INLINE int tally(Hand *h, int64_t *agg, int32_t *ph, int64_t decisions, int64_t legal, int64_t rows[][N_CAT + 1]) {
    int K = h->k;
    int64_t *a_wins = agg + 4, *a_out = a_wins + K, *a_sum = a_out + N_OUT, *a_sq = a_sum + K * (N_CAT + 2);
    int64_t *a_ev = a_sq + K * (N_CAT + 2);
    int stride = 2 + K * (N_CAT + 1) + N_EV;
    agg[0]++; agg[1] += h->plays; agg[2] += decisions; agg[3] += legal;
    if (h->outcome >= 0) a_out[h->outcome]++;
    RS_UNROLL for (int e = 0; e < N_EV; e++) a_ev[e] += h->evn[e];
    if (ph) {
        memset(ph, 0, sizeof *ph * (size_t)stride);
        ph[0] = h->plays; ph[1] = h->outcome;
        for (int e = 0; e < N_EV; e++) ph[2 + K * (N_CAT + 1) + e] = h->evn[e];
        if (rs_pairs) {
            for (int s = 0; s < K; s++)
                for (int e = 0; e < N_EV; e++) {
                    rs_pairs[s * N_EV + e] = h->evs[s][e];
                    rs_pairs[(K + s) * N_EV + e] = h->evq[s][e];
                }
            rs_pairs += 2 * K * N_EV;
            for (int s = 0; s <= h->n; s++) *rs_pairs++ = (int64_t)h->kept[s];
        }
    }
    if (h->plays == 0) { memset(rows, 0, sizeof(int64_t) * (size_t)K * (N_CAT + 1)); return 0; }
    if (rs_evagg) {                               /* as bots/simulate.py Stats counts a played hand */
        int64_t *times = rs_evagg, *in_hands = times + K * N_EV, *points = in_hands + K * N_EV;
        int64_t *a_caps = points + K * N_EV, *a_swept = a_caps + N_CARDS + 1;
        for (int s = 0; s < K; s++) {
            const int32_t *fired = h->evs[s]; const int64_t *q = h->evq[s];
            int64_t *t = times + s * N_EV, *in = in_hands + s * N_EV, *p = points + s * N_EV;
            RS_UNROLL for (int e = 0; e < N_EV; e++) { t[e] += fired[e]; in[e] += fired[e] > 0; p[e] += q[e]; }
        }
        if (h->captures > N_CARDS || h->swept >= SW_N) return rs_err_code = 7;
        a_caps[h->captures]++;
        a_swept[h->swept]++;
    }
    score(h->piles, K, h->evp, rows);
    if (rs_err_code) return rs_err_code;
    /* the best total (first held by side `first`) and the best of the others: each side's margin is its
     * total less the best other side's, the second best for `first`, the best for the rest */
    int64_t top = rows[0][N_CAT], second = INT64_MIN; int first = 0, tops = 1;
    for (int s = 1; s < K; s++) {
        int64_t t = rows[s][N_CAT];
        if (t > top) { second = top; top = t; first = s; tops = 1; }
        else { tops += t == top; if (t > second) second = t; }
    }
    if (tops == 1) a_wins[first]++;
    for (int s = 0; s < K; s++) {
        const int64_t *row = rows[s];
        int64_t *sum = a_sum + s * (N_CAT + 2), *sq = a_sq + s * (N_CAT + 2);
        int64_t margin = K > 1 ? row[N_CAT] - (s == first ? second : top) : 0;
        RS_UNROLL for (int c = 0; c <= N_CAT; c++) { sum[c] += row[c]; sq[c] += row[c] * row[c]; }
        sum[N_CAT + 1] += margin; sq[N_CAT + 1] += margin * margin;
        if (ph) for (int c = 0; c <= N_CAT; c++) ph[2 + s * (N_CAT + 1) + c] = (int32_t)row[c];
    }
    return 0;
}

/* Game i (Game.finish_hand): hands dealt in turn from dealer i % seats until an outcome ends it, or a
 * side alone has the most points once one reaches GAME_TARGET or GAME_HANDS hands are played (a tie
 * plays on); gagg: games, hands, wins [K] added to. */
static int play_game(int64_t i, uint64_t seed, int seats, const int32_t *bots, int64_t *agg, int64_t *gagg,
                     int32_t *per_hand, int64_t ph_cap, int64_t *ph_len, Trace *tr) {
    static Hand gh;
    Hand *h = &gh;
    Rng deal, bot[MAX_SEATS];
    int K = SIDES[seats], dealer = (int)(i % seats), winners = 0, stride = 2 + K * (N_CAT + 1) + N_EV;
    int64_t totals[MAX_SIDES] = {0}, played = 0;
    uint64_t bot_key = rs_stream_step(rs_stream_step(seed, RS_GAME_BOT), (uint64_t)i);
    rs_stream_start(&deal, rs_stream_step(rs_stream_step(seed, RS_GAME), (uint64_t)i));    /* path (RS_GAME, i) */
    for (int s = 0; s < seats; s++) rs_stream_start(&bot[s], rs_stream_step(bot_key, (uint64_t)s)); /* (RS_GAME_BOT, i, s) */
    while (!winners) {
        if (played >= MAX_HANDS_PER_GAME) { rs_err_index = i; return rs_err_code = 8; }
        int64_t decisions = 0, legal = 0, rows[MAX_SIDES][N_CAT + 1];
        new_hand(h, seats, dealer, &deal, bot);
        if (play_hand(h, bots, i, tr, &decisions, &legal)) return rs_err_code;
        deal = h->rng;
        int32_t *ph = per_hand && *ph_len < ph_cap ? per_hand + *ph_len * stride : 0;
        if (per_hand) ++*ph_len;
        if (tally(h, agg, ph, decisions, legal, rows)) return rs_err_code;
        played++;
        if (h->outcome >= 0) {
            winners = h->winners;
            if (h->plays == 0) break;             /* the deal itself ended the game */
        }
        for (int s = 0; s < K; s++) totals[s] += rows[s][N_CAT];
        dealer = dealer + 1 == seats ? 0 : dealer + 1;
        if (winners) break;
        if ((GAME_TARGET >= 0 || GAME_HANDS >= 0)) {
            int64_t best = totals[0];
            for (int s = 1; s < K; s++) if (totals[s] > best) best = totals[s];
            if ((GAME_TARGET >= 0 && best >= GAME_TARGET) || (GAME_HANDS >= 0 && played >= GAME_HANDS)) {
                int tops = 0, who = 0;
                for (int s = 0; s < K; s++) if (totals[s] == best) { tops++; who = s; }
                if (tops == 1) winners = 1 << who;
            }
        }
    }
    gagg[0]++; gagg[1] += played;
    for (int s = 0; s < K; s++) if (winners >> s & 1) gagg[2 + s]++;
    return 0;
}

int rs_abi(void) { return 2; }
const char *rs_ruleset_id(void) { return RS_RULESET_ID; }
int rs_error_where(void) { return rs_err_where; }
int rs_stream_version(void) { return RS_STREAM_VERSION; }
/* Where rs_simulate adds simulate's per-event figures (NULL: not counted), for a played hand (plays > 0):
 * per side and event times fired [K][N_EV], hands fired in [K][N_EV], points [K][N_EV], then hands per
 * number of captures [N_CARDS + 1] and per number of play events [SW_N]; rs_event_counts_size(seats) long. */
void rs_count_events(int64_t *buf) { rs_evagg = buf; }
int64_t rs_event_counts_size(int seats) { return 3 * (int64_t)SIDES[seats] * N_EV + N_CARDS + 1 + SW_N; }
/* Where rs_play writes, beside each per_hand row (NULL: not written), what a paired comparison
 * (bots/compare.py) reads of the hand: per side and event times fired [K][N_EV] and points [K][N_EV], then
 * the kept deal's first round: the table laid, each seat's hand [seats]; rs_pair_row_size(seats) long. */
void rs_pair_rows(int64_t *buf) { rs_pairs = buf; }
int64_t rs_pair_row_size(int seats) { return 2 * (int64_t)SIDES[seats] * N_EV + 1 + seats; }
/* Draws of the stream at `path` (length n_path) of `seed`, for tests/test_stream.py: per op, 0..64 is
 * rs_bits(op), below 0 rs_below(-op), 65 rs_random (its double's bytes in out); out gets each value. */
void rs_stream_draws(uint64_t seed, const uint64_t *path, int n_path, const int32_t *ops, int n_ops, uint64_t *out) {
    uint64_t h = seed;
    for (int i = 0; i < n_path; i++) h = rs_stream_step(h, path[i]);
    Rng r;
    rs_stream_start(&r, h);
    for (int i = 0; i < n_ops; i++) {
        if (ops[i] == 65) { double d = rs_random(&r); memcpy(&out[i], &d, sizeof d); }
        else out[i] = ops[i] >= 0 ? rs_bits(&r, ops[i]) : rs_below(&r, (uint32_t)-ops[i]);
    }
}
int64_t rs_error_index(void) { return rs_err_index; }
/* the sizes rs_play writes with for `seats` (sides, categories, events, outcomes): the caller's arrays
 * are checked against them (compiler/native.py) before a hand is played */
int rs_shape(int seats, int32_t *out) {
    if (seats < 1 || seats > MAX_SEATS || !SCHEDULE[seats]) return -1;
    out[0] = SIDES[seats]; out[1] = N_CAT; out[2] = N_EV; out[3] = N_OUT;
    return 0;
}

/* Plays units first..first+count-1 of a run with `seed`: hands (games == 0; hand i: its own stream, path
 * (RS_HAND, i) of `seed`, for its deal and every bot, dealer i % seats) or games (play_game). bots: per seat,
 * BOT_RANDOM or BOT_GREEDY (NULL: every seat random); every bot declares its best bonuses.
 * agg (int64): hands, plays, decisions, legal moves, hand wins [K], outcomes [N_OUT],
 *   sums [K][N_CAT + 2], squares [K][N_CAT + 2] (categories, total, margin), events [N_EV], : added to
 *   (rs_count_events: the per-event figures).
 * gagg (int64, games only): games, hands of the games, game wins [K]: added to.
 * per_hand (int32, may be NULL): per hand plays, outcome, scores [K][N_CAT + 1], events [N_EV]; at most
 *   ph_cap rows written, *ph_len set to the hands played (more than ph_cap: the caller asks again).
 * trace: as Trace says, the unit the hand or game's index.
 * Returns 0, or an error code (1 redeals, 2 capture sets, 3 division by zero, 4 declarations, 5 moves,
 * 6 no card to play, 7 more captures or play events in a hand than rs_count_events' lists hold, 8 a game
 * of MAX_HANDS_PER_GAME hands; rs_error_where() the deal check of 1, the expression of 3; rs_error_index()
 * the game of 8). */
int rs_play(uint64_t seed, int64_t first, int64_t count, int seats, const int32_t *bots, int games, int64_t *agg,
            int64_t *gagg, int32_t *per_hand, int64_t ph_cap, int64_t *ph_len, int64_t *trace, int64_t trace_cap,
            int64_t *trace_len) {
    if (seats < 1 || seats > MAX_SEATS || !SCHEDULE[seats]) return -1;
    int K = SIDES[seats], stride = 2 + K * (N_CAT + 1) + N_EV;
    int64_t tl = 0, phl = 0;
    Trace tr = {trace, trace_cap, &tl};
    static Hand hs;
    Hand *h = &hs;
    rs_err_code = 0;
    sub_reset();
    make_plan(seats);
    uint64_t run_key = rs_stream_step(seed, RS_HAND);     /* hand i's stream: path (RS_HAND, i) */
    for (int64_t i = first; i < first + count; i++) {
        if (games) {
            if (play_game(i, seed, seats, bots, agg, gagg, per_hand, ph_cap, &phl, &tr)) return rs_err_code;
            continue;
        }
        Rng rng;
        int64_t decisions = 0, legal = 0, rows[MAX_SIDES][N_CAT + 1];
        rs_stream_start(&rng, rs_stream_step(run_key, (uint64_t)i));
        new_hand(h, seats, (int)(i % seats), &rng, 0);
        if (play_hand(h, bots, i, &tr, &decisions, &legal)) return rs_err_code;
        int32_t *ph = per_hand && phl < ph_cap ? per_hand + phl * stride : 0;
        if (per_hand) phl++;
        if (tally(h, agg, ph, decisions, legal, rows)) return rs_err_code;
    }
    if (trace_len) *trace_len = tl;
    if (ph_len) *ph_len = phl;
    return 0;
}

/* ---- ISMCTS rollouts (bots/ismcts.py): a determinised mid-hand state, each candidate move, then random play ----
 * st (int64): seats, dealer, turn, round, plays, last capturer (-1: none), wild_as (-1: none), previous, table,
 *   then per seat: hand, declared, shown, played this round, knocked this round, declared wild rank + 1 (0: none),
 *   dealt this round, played this round (cards); then the piles [K]; then the event points [K][N_CAT].
 * hidden: every seat's hand in this determinisation (seat `seat`'s as st has it); stock: the cards still to be
 * dealt, in order. For each move i (card, capture, after the declarations decl_* of bonus index, cards, wild
 * rank or -1), the hand is played on by random bots without declarations (Hand.legal_moves order, one
 * rs_below per turn) from the stream whose state is `stream` (stream.py's Stream(stream)), the same for every move; sums[i] gets the result for
 * seat's side: its total less the best other side's, +stake if an outcome gives the side the game, -stake
 * if it gives it to others. Returns 0, or an error code (as rs_play's). */
int rs_rollouts(const int64_t *st, const uint64_t *hidden, const uint8_t *stock, int stock_n, int seat, int n_moves,
                const int32_t *cards, const uint64_t *caps, int nd, const int32_t *decl_bonus,
                const uint64_t *decl_cards, const int32_t *decl_wild, uint64_t stream, int64_t stake, int64_t *sums) {
    static Hand base, hs;
    static Decl ds[MAX_OPTS];
    int n = (int)st[0];
    /* every number used as an index or a shift is checked: -1, nothing played */
    if (n < 1 || n > MAX_SEATS || !SCHEDULE[n] || stock_n < 0 || stock_n > N_CARDS || nd < 0 || nd > MAX_OPTS ||
        seat < 0 || seat >= n || st[1] < 0 || st[1] >= n || st[2] < 0 || st[2] >= n || st[3] < 0 ||
        st[3] > N_ROUNDS[n] || st[5] < -1 || st[5] >= SIDES[n] || (st[6] != -1 && (st[6] < N_CARDS || st[6] >= N_ALL)))
        return -1;
    for (int i = 0; i < stock_n; i++) if (stock[i] >= N_CARDS) return -1;
    for (int i = 0; i < n_moves; i++) if (cards[i] < 0 || cards[i] >= N_CARDS) return -1;
    for (int s = 0; s < n; s++) if (st[9 + 8 * s + 5] < 0 || st[9 + 8 * s + 5] > N_RANKS) return -1;
    Hand *b = &base;
    Rng rng = {0};
    rs_err_code = 0;
    make_plan(n);
    new_hand(b, n, (int)st[1], &rng, 0);
    b->turn = (int)st[2]; b->round = (int)st[3]; b->plays = (int)st[4]; b->last_capturer = (int)st[5];
    b->wild_as = (int)st[6]; b->previous = (uint64_t)st[7]; b->table = (uint64_t)st[8];
    const int64_t *ps = st + 9;
    for (int s = 0; s < n; s++, ps += 8) {
        b->hands[s] = s == seat ? (uint64_t)ps[0] : hidden[s];
        b->declared[s] = (uint64_t)ps[1]; b->shown[s] = (uint64_t)ps[2];
        b->played_this_round[s] = (int)ps[3]; b->knocked_round[s] = (int)ps[4]; b->declared_wild[s] = (int)ps[5];
        /* Hand.with_hidden: what a redrawn seat was dealt this round is its hand and what it played */
        b->round_dealt[s] = s == seat ? (uint64_t)ps[6] : hidden[s] | (uint64_t)ps[7];
        b->in_hands += rs_popcount(b->hands[s]);
    }
    for (int s = 0; s < b->k; s++) b->piles[s] = (uint64_t)*ps++;
    for (int s = 0; s < b->k; s++) for (int c = 0; c < N_CAT; c++) b->evp[s][c] = *ps++;
    for (int i = 0; i < stock_n; i++) b->order[i] = stock[i];
    b->pos = 0;
    for (int j = 0; j < nd; j++) {
        if (decl_bonus[j] < 0 || decl_bonus[j] >= N_BONUS || decl_wild[j] < -1 || decl_wild[j] >= N_RANKS) return -1;
        ds[j].bonus = decl_bonus[j]; ds[j].cards = decl_cards[j]; ds[j].wild_rank = decl_wild[j];
    }
    int side = seat % b->k;
    for (int i = 0; i < n_moves; i++) {
        Hand *h = &hs;
        hand_copy(h, b);
        rs_stream_start(&rng, stream);
        for (int s = 0; s < n; s++) h->bot[s] = &rng;
        if (nd) apply_declarations(h, seat, ds, nd);
        play_card(h, seat, cards[i], caps[i]);
        if (rs_err_code) return rs_err_code;
        while (!h->over) {
            int who = h->turn, card;
            uint64_t capture;
            int nm = random_move(h, who, h->bot[who], &card, &capture);
            if (rs_err_code) return rs_err_code;
            if (nm < 1) return rs_err_code = 6;
            play_card(h, who, card, capture);
            if (rs_err_code) return rs_err_code;
        }
        int64_t rows[MAX_SIDES][N_CAT + 1], value = 0, other = h->k > 1 ? INT64_MIN : 0;
        if (h->plays) {
            score(h->piles, h->k, h->evp, rows);
            if (rs_err_code) return rs_err_code;
        } else memset(rows, 0, sizeof rows);
        for (int s = 0; s < h->k; s++) if (s != side && rows[s][N_CAT] > other) other = rows[s][N_CAT];
        value = rows[side][N_CAT] - other;
        if (h->outcome >= 0) value += (h->winners >> side & 1) ? stake : -stake;
        sums[i] += value;
    }
    return 0;
}

/* rs_play of `count` hands with random bots (the entry point of the first native engine, kept for C
 * callers such as bench/native.py's): per_hand, when given, holds `count` rows. */
int rs_simulate(uint64_t seed, int64_t first, int64_t count, int seats, int64_t *agg, int32_t *per_hand,
                int64_t *trace, int64_t trace_cap, int64_t *trace_len) {
    return rs_play(seed, first, count, seats, 0, 0, agg, 0, per_hand, per_hand ? count : 0, 0, trace, trace_cap,
                  trace_len);
}
"""
