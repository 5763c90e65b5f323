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
"""
from __future__ import annotations

import linecache

from rulespec.checks.check import EVENT_NAMES
from rulespec.compiler.emit_expr import emit_rule
from rulespec.compiler.plan import build_plan
from rulespec.compiler.writer import file_name
from rulespec.lang.expressions import Call, Name, walk
from rulespec.lang.model import Ruleset

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}


# What a capture condition may read for cards to be told apart by value and rank alone.
_CLASS_SAFE_CALLS = {"rank", "value", "count", "total", "empty", "max_same_rank", "same_value", "can_total"}
_CLASS_SAFE_NAMES = {"played", "table", "rank", "value"}


def _card_classes(rs: Ruleset) -> tuple[int, ...]:
    """Per card index (virtual wild cards too): a class id; cards of one class capture alike.

    The capture kinds read a card's value, whether it is numbered and its rank. Where a
    condition reads anything else of a card (its suit, a named card, ...) every card is its own class.
    """
    deck = rs.deck
    nr = len(deck.ranks)
    n_all = deck.size + (nr if rs.wild is not None else 0)
    safe = True
    for k in rs.kinds:
        if k.when is None:
            continue
        for node in walk(k.when.tree):
            if isinstance(node, Call) and node.func not in _CLASS_SAFE_CALLS:
                safe = False
            elif isinstance(node, Name) and node.id not in _CLASS_SAFE_NAMES:
                safe = False
            elif type(node).__name__ in ("CardLit", "ListLit", "MapLit", "Attr"):
                safe = False
    classes: dict = {}
    out = []
    for i in range(n_all):
        key = (deck.value_of(i), deck.rank_of(i)) if safe else i
        out.append(classes.setdefault(key, len(classes)))
    return tuple(out)


# The counting path. Per total t up to the plan's limit, the number of sets of table number cards
# totalling t: the digits (base 2**_DIGIT) of one int `tp`, whose polynomial is the product of
# (1 + x**value) over those cards, cut at x**limit; a card joining the table multiplies it by
# (1 + x**value), a card leaving by the inverse series. Beside it `tc`: per rank of the cards
# without a value, how many lie on the table, as the digits above the limit. A hand is a
# polynomial too (`hq`, one per seat): per card x**(K - value), or for a card without a value the
# digit that meets its rank's; the digit K of (tp + tc) * hq is then the hand's capture options.
_DIGIT = 32


def _hex(ints) -> str:
    """A tuple of ints in hex (the counting path's powers of 2**_DIGIT read better so)."""
    return "(" + ", ".join(f"{i:#x}" for i in ints) + ")"


def _counting(rs: Ruleset, capture_plan, moment: bool) -> str | None:
    """The module constants and helpers of the counting path, or None where it does not apply.

    It applies where a number card's options are every set of table number cards totalling its value,
    a card without a value takes one table card of its rank, and it may always be played without
    capturing (a plain match and a plain sum, merged; no other kind; not forced; no wild card; no
    `prefer`; options not depending on the moment; no declared-first hand bonuses, which narrow the
    cards a turn may play). Then a card's option count is the count of sets by total, or of
    same-rank cards, and the chosen option can be found without listing the others. It also needs
    every table to stay under runtime.MAX_SUBSETS sets (checked on the whole deck when the playout
    is loaded, `_K_ON`, so the path never passes a table `Hand` would refuse) and the digits never
    to carry (checked here likewise).
    """
    cp = capture_plan
    kinds = sorted(k.kind for k in cp.kinds)
    if (moment or rs.wild is not None or cp.forced or not cp.merged or kinds != ["match", "sum"]
            or cp.prefer != "any" or cp.overlap or not cp.needs_sums or (rs.hand_bonuses and rs.declared_first)):
        return None
    deck, limit = rs.deck, cp.limit
    values = [deck.value_of(i) for i in range(deck.size)]
    ranks = [deck.rank_of(i) for i in range(deck.size)]
    if any(v is not None and not 1 <= v <= limit for v in values):
        return None
    by_total = [1] + [0] * limit
    for v in values:
        if v is not None:
            for t in range(limit, v - 1, -1):
                by_total[t] += by_total[t - v]
    if (sum(by_total) + deck.size) * deck.size >= 1 << _DIGIT:
        return None
    courts = list(dict.fromkeys(ranks[i] for i in range(deck.size) if values[i] is None))
    top = limit + len(courts)                  # K: the digit a hand's options add up in
    mul, inv, shift, same, table_court, hand = [], [], [], [], [], []
    for i, v in enumerate(values):
        if v is None:
            r = courts.index(ranks[i])
            mul.append(1)
            inv.append(1)
            shift.append(_DIGIT * (limit + 1 + r))
            same.append(sum(1 << j for j in range(deck.size) if values[j] is None and ranks[j] == ranks[i]))
            table_court.append(1 << _DIGIT * (limit + 1 + r))
            hand.append(1 << _DIGIT * (len(courts) - 1 - r))
        else:
            mul.append(1 + (1 << _DIGIT * v))
            inv.append(sum((-1) ** j << _DIGIT * v * j for j in range(limit // v + 1)))
            shift.append(_DIGIT * v)
            same.append(0)
            table_court.append(0)
            hand.append(1 << _DIGIT * (top - v))
    by_byte = "\n            + ".join(f"_K_HQ8[{k}][h >> {8 * k} & 0xff]" if k else "_K_HQ8[0][h & 0xff]"
                         for k in range((deck.size + 7) // 8))
    return f'''

# ---- the counting path (compiler/playout.py, `_counting`): a ruleset whose options are every set
# totalling a number card's value (or one card of a valueless card's rank), never forced. `tp`: per
# total t <= {limit}, how many sets of table number cards total t, as the digits (base 2**{_DIGIT})
# of one int; `tc`: per valueless rank, its cards on the table, as the digits above; `hq[seat]`:
# the hand, one digit per card, so that digit {top} of (tp + tc) * hq counts its capture options.
_K_ON = {sum(by_total)} <= _rt.MAX_SUBSETS    # no table of this deck has more sets than Hand lists
_K_MASK = {(1 << _DIGIT * (limit + 1)) - 1:#x}
_K_DIGIT = {(1 << _DIGIT) - 1:#x}
_K_TOP = {_DIGIT * top}
_K_MUL = {_hex(mul)}        # per card: 1 + x**value (joining the table); 1 without a value
_K_INV = {_hex(inv)}        # per card: 1 / (1 + x**value) cut at x**{limit} (leaving it)
_K_SHIFT = {tuple(shift)!r}     # per card: where its option count sits in tp + tc
_K_SAME = {tuple(same)!r}       # per card without a value: the cards of its rank without a value
_K_TC = {_hex(table_court)}     # per card: its term of tc
_K_HQ = {_hex(hand)}    # per card: its term of a hand's hq
_K_COUNTED = []                  # `flat` on a counted turn: the move is found from the counts (_k_pick)


def _k_table(tab):
    """`tp` and `tc` of a table."""
    tp = 1
    tc = 0
    m = tab
    while m:
        low = m & -m
        i = low.bit_length() - 1
        tp = tp * _K_MUL[i] & _K_MASK
        tc += _K_TC[i]
        m ^= low
    return tp, tc


# per byte of a hand's mask (8 cards), per value of that byte: its cards' terms of hq
_K_HQ8 = tuple(tuple(sum(_K_HQ[i] for i in range(8 * k, min(8 * k + 8, len(_K_HQ))) if b >> (i - 8 * k) & 1)
                     for b in range(256)) for k in range((len(_K_HQ) + 7) // 8))


def _k_hands(hands):
    """`hq` of each hand (the sum of its cards' terms, a byte of the mask at a time)."""
    return [{by_byte} for h in hands]


def _k_pick(hand, tab, kt, r):
    """Move `r` of the hand in legal()'s order (ascending: cards lowest first; per card the play
    without capturing, then its sets as runtime.subset_sums lists them, ascending masks); `kt`: tp + tc."""
    m = hand
    while True:
        low = m & -m
        c = low.bit_length() - 1
        if not r:
            return c, 0
        r -= 1
        x = kt >> _K_SHIFT[c] & _K_DIGIT
        if r < x:
            same = _K_SAME[c]
            if same:
                same &= tab
                for _ in range(r):
                    same &= same - 1
                return c, same & -same
            return c, _k_set(tab, _K_SHIFT[c] // {_DIGIT}, r, kt & _K_MASK)
        r -= x
        m ^= low


def _k_set(tab, t, r, tp):
    """The set `r` (from 0, ascending masks) of table number cards totalling `t`. Sets without the
    table's highest card come first: drop it from the counts, and take it only when `r` is past
    the sets without it; then on down."""
    out = 0
    m = tab
    while t:
        i = m.bit_length() - 1
        m ^= 1 << i
        v = _K_SHIFT[i] // {_DIGIT}
        if v > t or _K_SAME[i]:
            continue            # worth more than is left, or no value: no set here holds it, the counts stay
        tp = tp * _K_INV[i] & _K_MASK
        without = tp >> t * {_DIGIT} & _K_DIGIT
        if r >= without:
            r -= without
            t -= v
            out |= 1 << i
    return out
'''


def _category_names(rs: Ruleset) -> list[str]:
    """Every category an event, a hand bonus or a dealer bonus can score in, in a fixed order."""
    names = list(rs.categories)
    for cat in [e.category for e in rs.events.values()] + [b.category for b in rs.hand_bonuses.values()] + \
            [b.category for b in rs.dealer_bonuses]:
        if cat and cat not in names:
            names.append(cat)
    return names


def generate(rs: Ruleset) -> str:
    """The source of the playout function for a checked ruleset (run in its compiled module's namespace)."""
    return generate_with_spans(rs)[0]


def generate_with_spans(rs: Ruleset) -> tuple[str, dict]:
    """The playout's source, and the YAML span of each line that evaluates a rule inline (1-based)."""
    spans: dict = {}
    capture_plan = build_plan(rs).captures
    needs_sums, limit = capture_plan.needs_sums, capture_plan.limit
    wild = rs.wild is not None
    bonuses = bool(rs.hand_bonuses)
    knocks = bonuses and rs.timing in ("after_deal", "before_first_turn")
    with_play = bonuses and rs.timing in ("first_turn", "own_turn")
    declared_first = bonuses and rs.declared_first
    classes = _card_classes(rs)
    n_classes = len(set(classes))
    cats = _category_names(rs)
    cat_index = {c: i for i, c in enumerate(cats)}
    reads = {n.id for e in rs.events.values() for n in walk(e.when.tree) if isinstance(n, Name)}
    # A seat's plays this round are counted only where something reads them (knocks, an event's `turn`);
    # elsewhere the turn is what the seat was dealt this round less what it holds.
    keep_nplayed = knocks or "turn" in reads
    turn_now = "nplayed[seat] + 1" if keep_nplayed else "round_dealt[seat].bit_count() - hand.bit_count() + 1"
    # The cards a seat may play now: its declared cards where they go first (`mhand`), else its hand.
    playable = "mhand" if declared_first else "hand"

    def t(template: str) -> str:
        """A template of this file with its placeholders filled (never text from a ruleset)."""
        return template.replace("TURN", turn_now).replace("mhand", playable)
    # A capture kind that reads the play's moment (round, turn, play number) offers other sets at
    # other moments of the same table: such a ruleset's options are not memoised.
    moment = any(isinstance(n, Name) and n.id in ("round", "turn", "play")
                 for k in rs.kinds if k.when is not None for n in walk(k.when.tree))
    memo_table = -1 if moment else 6
    counting = _counting(rs, capture_plan, moment)
    L: list[str] = []

    traced = [False]
    inner = [False]     # the playout's template text sits one level deeper in this file than it emits

    def w(text: str, on: bool = True, indent: int = 0) -> None:
        """Add lines (if `on`); a line marked #REC only to the traced playout, which records moves."""
        if not on:
            return
        for line in text.strip("\n").split("\n"):
            if inner[0] and line.startswith("    "):
                line = line[4:]
            if line.endswith("  #REC"):
                if not traced[0]:
                    continue
                line = line[:-len("  #REC")]
            L.append(("    " * indent + line) if line else "")

    w(f'''
"""Whole-hand playout of the ruleset in {", ".join(file_name(p) for p in rs.files)}
(generated by rulespec.compiler.playout; do not edit)."""
from rulespec.errors import RulespecError as _RulespecError
from rulespec.run.declarations import declarer as _declarer, unique_holder as _unique_holder
from rulespec.run.engine import MAX_REDEALS as _MAX_REDEALS
import random as _random
from itertools import combinations_with_replacement as _multisets
from math import comb as _comb
from operator import itemgetter as _itemgetter

_RANDBELOW = getattr(_random.Random, "_randbelow_with_getrandbits", None)


def _getbits(rng):
    """`rng.getrandbits` where `rng._randbelow(n)` is the getrandbits loop the playout inlines
    (n.bit_length() bits, drawn again while >= n); None for any other stream (called as is)."""
    if _RANDBELOW is None or getattr(type(rng), "_randbelow", None) is not _RANDBELOW:
        return None
    return rng.getrandbits

_PLANS = {{}}
_BIG_HANDS = {{}}     # (players, dealer) -> whether a seat is ever dealt more than _MEMO_HAND cards a round
_ROWS_BY_CLASS = {{}}  # the table's card classes, in order -> per class its options as positions
_ROWS = {{}}           # table mask -> its row of _ROWS_BY_CLASS
_ROWS_get = _ROWS.get
_TBS = {{}}            # table mask -> its cards in class order (what the positions of its row count)
_CARDS_OF = _rt.bits_of     # a table's cards, not memoised: most tables are met once, and in runtime.bits'
                            # memo they crowd out the hands, which come back
_BITS = _rt.bits
_BITS_get = _rt._BITS.get
_CLS = {classes!r}
_CATS = {tuple(cats)!r}
_CAT = {cat_index!r}
_ZERO = [0]
_BIT = tuple(1 << i for i in range(N_CARDS)).__getitem__
_N_ALL = len(_CLS)
_MEMBERS = tuple(tuple(i for i, k in enumerate(_CLS) if k == j) for j in range({n_classes}))
_MEMO_TABLE = {memo_table}       # tables of up to this many cards are memoised (-1: none); bigger ones seldom come back
_MEMO_HAND = 12       # and hands of up to this many (longer ones list their moves in one pass, legal())
PREFILL_ROWS = 1500   # rows filled ahead (_prefill) where a disk cache keeps them


def _plan(n, dealer):
    """Deck positions per round: (table positions, positions per seat), the deal done once."""
    pos = 0
    first = (dealer + 1) % n
    plan = []
    for seat_cards, table_cards, steps in SCHEDULES[n]:
        tpos = []
        spos = [[] for _ in range(n)]
        for kind, count, packet in steps:
            if kind == "table":
                tpos += range(pos, pos + count)
                pos += count
                continue
            at = pos
            pos += count * n
            for _ in range(count // packet):
                for j in range(n):
                    spos[(first + j) % n] += range(at, at + packet)
                    at += packet
        plan.append((tuple(tpos), tuple(tuple(p) for p in spos), _taker(tpos), tuple(_taker(p) for p in spos)))
    if pos > N_CARDS:
        raise _RulespecError(f"the deal schedule for {{n}} players takes {{pos}} cards from a deck of {{N_CARDS}}")
    _PLANS[(n, dealer)] = plan = tuple(plan)
    _BIG_HANDS[(n, dealer)] = any(len(p) > _MEMO_HAND for _t, sp, _tg, _sg in plan for p in sp)
    return plan


def _taker(pos):
    """A function from a deck order to the cards at these positions (a list or tuple), in C."""
    if not pos:
        return lambda order: ()
    if list(pos) == list(range(pos[0], pos[-1] + 1)):
        return _itemgetter(slice(pos[0], pos[-1] + 1))      # a packet: one slice
    return _itemgetter(*pos)


def _miss(table, p, sums, moment):
    """Capture options (masks) of card `p` against a non-empty table, as the rules see both."""
    got = _options(p, 1 << p, table, sums, *moment)
    if {"True" if not rs.forced else "not got"}:
        got = got + [0]
    return got


def _row(tab, tb):
    """The memo row of a table: per card index, its options as positions (None until asked); the
    last slot keeps the table that made the row. Cards of one class capture alike, so the row
    serves every table holding as many cards of each class: positions count the table's cards in
    class order (lowest card first within a class), kept per table in `_TBS`."""
    tbs = tuple(sorted(tb, key=_CLS.__getitem__))
    key = tuple(map(_CLS.__getitem__, tbs))
    row = _ROWS_BY_CLASS.get(key)
    if row is None:
        if len(_ROWS_BY_CLASS) > 100000:
            _ROWS_BY_CLASS.clear()      # bounded memory
        row = _ROWS_BY_CLASS[key] = [None] * _N_ALL + [(tab, tbs, None, None)]
    if len(_ROWS) > 100000:
        _ROWS.clear()
        _TBS.clear()
    _ROWS[tab] = row
    _TBS[tab] = tbs
    return row


''')
    w("", needs_sums)
    w("", needs_sums)
    w(f'''
def _sets(tab, tb):
    """The table's subsets of numbered cards by total (as `runtime.subset_sums` lists them: each
    list ascending, totals up to the largest asked for), and each subset's mask as positions in `tb`."""
    subs = [(0, 0, 0)]
    for j, i in enumerate(tb):
        if _NUMBERED[i]:
            v = _VALUE[i]
            b = 1 << i
            pb = 1 << j
            subs += [(m | b, pm | pb, t + v) for m, pm, t in subs if t + v <= {limit}]
    sums = {{}}
    at = {{0: 0}}
    for m, pm, t in subs[1:]:
        at[m] = pm
        got = sums.get(t)
        if got is None:
            sums[t] = [m]
        else:
            got.append(m)
    return sums, at
''', needs_sums)
    w("")
    w("")
    w(f'''
def _fill(row, c, moment):
    """Compute and keep the options of card `c`'s class in the row, as positions in the table's
    cards: those of the table that made the row, played with a card of `c`'s class that is not on
    it (one always is: `c` is not on the table asking, which holds as many cards of that class).
    The options are kept in the order the rules list them; a pick sorts them (`_canon`)."""
    tab, tb, sums, at = row[_N_ALL]
    if at is None:
        sums, at = {"_sets(tab, tb)" if needs_sums else "None, {0: 0}"}
        row[_N_ALL] = (tab, tb, sums, at)
    members = _MEMBERS[_CLS[c]]
    for p in members:
        if not tab >> p & 1:
            break
    else:
        p = c
    got = _options(p, 1 << p, tab, sums, *moment)
    out = list(map(at.get, got))
    if None in out:                 # a set no sum lists (a sweep, a match of court cards)
        out = [at[m] if m in at else _positions(tb, m, at) for m in got]
    if {"True" if not rs.forced else "not out"}:
        out.append(0)               # the play without capturing
    for i in members:
        row[i] = out
    return out


def _prefill(most_rows=PREFILL_ROWS):
    """Fill the memo rows of the smallest tables, every card class of the played card, as a process's
    first hands would one at a time: tables of one card, then two, ... while the multisets of that
    many classes number at most `most_rows` in all. Returns them (`_ROWS_BY_CLASS`), each with only
    its maker table kept (its subsets are listed again where a row is filled later)."""
    real = [tuple(i for i in m if i < N_CARDS) for m in _MEMBERS]
    classes = [k for k, cards in enumerate(real) if cards]
    made = 0
    try:
        for size in range(1, _MEMO_TABLE + 1):
            made += _comb(len(classes) + size - 1, size)
            if made > most_rows:
                break
            for combo in _multisets(classes, size):
                tab = 0
                for k in set(combo):
                    many = combo.count(k)
                    if many > len(real[k]):
                        break
                    tab |= sum(1 << i for i in real[k][:many])
                else:
                    row = _row(tab, _CARDS_OF(tab))
                    for k in classes:
                        if row[real[k][-1]] is None and not tab >> real[k][-1] & 1:
                            _fill(row, real[k][-1], (1, 1, 1))
    except Exception:   # noqa: BLE001 - a rule that fails on some table: play meets it there, located
        pass
    _ROWS.clear()
    _TBS.clear()
    for key, row in _ROWS_BY_CLASS.items():
        row[_N_ALL] = row[_N_ALL][:2] + (None, None)
    return _ROWS_BY_CLASS


def _positions(tb, m, at):
    """A card mask of the table as positions in its cards `tb`, kept in `at`."""
    pm = 0
    for j, i in enumerate(tb):
        if m >> i & 1:
            pm |= 1 << j
    at[m] = pm
    return pm


def _real(tb, pm):
    """Positions in the table's cards (`tb`, in class order, or the table's mask) back to a card mask."""
    if tb.__class__ is int:
        tb = _TBS[tb]
    if not pm & (pm - 1):           # one card (most captures), or none
        return 1 << tb[pm.bit_length() - 1] if pm else 0
    m = 0
    for j in _BITS_get(pm) or _BITS(pm):
        m |= 1 << tb[j]
    return m


def _canon(tb, o):
    """A card's options `o` as real masks in legal()'s order (ascending): positions in `tb` (see
    `_real`), or real masks already where `tb` is None."""
    if tb is None:
        return sorted(o)
    if tb.__class__ is int:
        tb = _TBS[tb]
    return sorted([_real(tb, x) for x in o])
''')
    w(f'''


_SUMS_get = _SUMS.get
_NO_SUMS = {{}}


def _sums_add(s, c):
    """`runtime.subset_sums` of a table with card `c` joined, from the table's own `s` (each list
    ascending, as the knapsack lists them); None where the table has too many sets to keep."""
    if not _NUMBERED[c]:
        return s
    v = _VALUE[c]
    bit = 1 << c
    out = dict(s)
    for t, ms in s.items():
        nt = t + v
        if nt <= {limit}:
            have = s.get(nt)
            ext = [m | bit for m in ms]
            out[nt] = sorted(have + ext) if have else ext
    if v <= {limit}:
        have = out.get(v)
        out[v] = sorted(have + [bit]) if have else [bit]
    if sum(map(len, out.values())) >= _rt.MAX_SUBSETS:
        return None        # left to runtime.subset_sums, which refuses such a table
    return out


def _sums_drop(s, cap):
    """`runtime.subset_sums` of a table once the cards of `cap` have left it, from the table's own `s`."""
    out = {{}}
    for t, ms in s.items():
        kept = [m for m in ms if not m & cap]
        if kept:
            out[t] = kept
    return out
''', needs_sums)
    if counting:
        w("")
        w("")
        w(counting)
    w(f'''

def _wild_options(cards, table, wild_as, moment):
    """Per card: its capture options (real masks) while the wild card is declared as `wild_as`."""
    if not table:
        return [_ZERO] * len(cards)
    vbit = 1 << wild_as
    if table & _WILD:
        teff = (table ^ _WILD) | vbit
        sums = {f"_rt.subset_sums(teff, _VALUE, _NUMBERED, {limit}, _SUMS)" if needs_sums else "None"}
        return [[(m ^ vbit) | _WILD if m & vbit else m for m in _miss(teff, wild_as if c == WILD_INDEX else c, sums, moment)]
                for c in cards]
    sums = {f"_rt.subset_sums(table, _VALUE, _NUMBERED, {limit}, _SUMS)" if needs_sums else "None"}
    return [_miss(table, wild_as if c == WILD_INDEX else c, sums, moment) for c in cards]
''', wild)

    def options_block(indent: int) -> None:
        was, inner[0] = inner[0], False
        try:
            _options_block(indent)
        finally:
            inner[0] = was

    def declare_block(who: str, indent: int) -> None:
        was, inner[0] = inner[0], False
        try:
            _declare_block(who, indent)
        finally:
            inner[0] = was

    def _options_block(indent: int) -> None:
        """`cards`, `opts` (None: every card plays without capturing) and `count` for `mhand`.

        Where `tb` is not None, `opts` holds per card its options as positions in `tb`, the
        table's cards lowest first (`_real` maps them back); otherwise real masks."""
        if counting:
            # a random seat's moves counted, not listed (_k_count), and only the chosen one found
            w(t('''
if kseat[seat]:
    kt = tp + tc
    count = mhand.bit_count() + (kt * hq[seat] >> _K_TOP & _K_DIGIT)
    opts = None
    flat = _K_COUNTED
else:
'''), indent=indent)
            indent += 1
        w(t('''
cards = _BITS_get(mhand) or _BITS(mhand)
if not tab:
    opts = flat = None
    count = len(cards)
'''), indent=indent)
        w(t('''
elif wild_as is None:
    row = _ROWS_get(tab)            # a table met before (only tables small enough are kept)
    if row is not None and (small or len(cards) <= _MEMO_HAND):
        tb = tab                    # the options are positions in the table's cards (_real)
        opts = list(map(row.__getitem__, cards))
        if None in opts:
            opts = [o or _fill(row, c, (rnd, TURN, plays + 1)) for c, o in zip(cards, opts)]
        count = sum(map(len, opts))
    elif (small or len(cards) <= _MEMO_HAND) and tab.bit_count() <= _MEMO_TABLE:
        tb = tab
        row = _row(tab, _CARDS_OF(tab))
        opts = [row[c] or _fill(row, c, (rnd, TURN, plays + 1)) for c in cards]
        count = sum(map(len, opts))
    else:
        # a big table or hand seldom comes back: the compiled legal() lists its moves in one pass
        opts = None
        flat = legal(mhand, tab, rnd, TURN, plays + 1)
        count = len(flat)
'''), indent=indent)
        w(t('''
else:
    # a declared wild card: the memo rows serve it as its declared card (and, lying on the table,
    # as that card there, its position mapped back to the wild card)
    teff = (tab ^ _WILD) | (1 << wild_as) if tab & _WILD else tab
    tb = _CARDS_OF(teff)
    if len(tb) <= _MEMO_TABLE and len(cards) <= _MEMO_HAND:
        row = _ROWS_get(teff)
        if row is None:
            row = _row(teff, tb)
        tb = _TBS[teff]
        opts = [row[wild_as if c == WILD_INDEX else c] or
                _fill(row, wild_as if c == WILD_INDEX else c, (rnd, TURN, plays + 1))
                for c in cards]
        if teff != tab:
            tb = tuple(WILD_INDEX if i == wild_as else i for i in tb)
    else:
        tb = None
        opts = _wild_options(cards, tab, wild_as, (rnd, TURN, plays + 1))
    count = sum(map(len, opts))
'''), wild, indent=indent)

    def _declare_block(who: str, indent: int) -> None:
        w(f'''
hs = hands[{who}]
if by_avail:
    decls = best_get(hs & ~shown[{who}])
    if decls is None:
        decls = best_new(hs, hs & ~shown[{who}], rnd, last_round)
else:
    decls = decider.best(hs, hs & ~shown[{who}], rnd, last_round,
                         _unique(n, dealer, {who}, round_dealt, hands, shown, declared_wild, rnd, last_round)
                         if decider.unique else None)
if decls:
    counts = ev[{who} % k]
    for d in decls:
        spec = HAND_BONUSES[d.bonus]
        shown[{who}] |= d.cards
        declared[{who}] |= d.cards
        counts[_CAT[spec.category]] += spec.points
        if d.wild_rank is not None:
            wild_as = N_CARDS + d.wild_rank
            declared_wild[{who}] = d.wild_rank
        record.append(("event", plays + 1, {who}, d.bonus, spec.points))  #REC
    knocked[{who}] = True
''', indent=indent)

    def emit_playout(name: str) -> None:
        # ---- the playout itself ----
        w(f'''

    def {name}(n, dealer, order, deck_rng, policies, rngs, declare{", record" if traced[0] else ""}):
        """playout(){" recording every move and event" if traced[0] else ", keeping no record"}."""
        k = SIDES[n]
        plan = _PLANS.get((n, dealer)) or _plan(n, dealer)
        nrounds = len(plan)
        ev = [[0] * {len(cats)} for _ in range(k)]
        misdeals = 0
        thrown = 0
        while True:
            tpos, spos, tget, sgets = plan[0]
            hands = [sum(map(_BIT, take(order))) for take in sgets]
            tab = sum(map(_BIT, tget(order)))
            check = deal_check(tab)
            if check is None:
                break
            thrown += 1
            if thrown > _MAX_REDEALS:
                raise _RulespecError(f"deal check '{{check[0]}}' threw in {{_MAX_REDEALS}} deals in a row: does it "
                                     f"hold for (nearly) every deal?",
                                     getattr(_MODULE, "DEAL_CHECK_SPANS", {{}}).get(check[0]))
            name, result, event = check
            if result == "dealer_wins":
                return 0, (name, [dealer % k]), [0] * k, [{{}}] * k, 0, 0
            if result == "misdeal":
                misdeals += 1
                if MISDEAL_LIMIT and misdeals >= MISDEAL_LIMIT:
                    return 0, ("misdeal", sorted({{s % k for s in range(n)}} - {{dealer % k}})), [0] * k, [{{}}] * k, 0, 0
            if deck_rng is None:
                raise _RulespecError("this deck order would be thrown in: give a random source to redeal")
            order = list(range(N_CARDS))
            deck_rng.shuffle(order)
        piles = [0] * k
        last = None
        bonus = dealer_bonus(tab)
        if bonus is not None:
            event, points, category, capture_table = bonus
            side = dealer % k
            if category:
                ev[side][_CAT[category]] += points
            record.append(("event", 0, dealer, event, points))  #REC
            if capture_table:
                piles[side] |= tab
                tab = 0
                last = side
    ''')
        w(f'''
        return {name}_from(n, dealer, plan, order, hands, tab, piles, last, 1, (dealer + 1) % n,
                             sum(map(len, spos)), [0] * n, [0] * n, [0] * n, [False] * n, list(hands), {{}},
                             None, 0, 0, ev, policies, rngs, declare{", record" if traced[0] else ""})


    def {name}_from(n, dealer, plan, order, hands, tab, piles, last, rnd, to_play, left, nplayed, declared, shown,
                      knocked, round_dealt, declared_wild, wild_as, previous, plays, ev, policies, rngs,
                      declare{", record" if traced[0] else ""}):
        """The hand from a given state on (after the deal, or mid-hand for a search's rollouts)."""
        k = SIDES[n]
        nrounds = len(plan)
        last_round = rnd == nrounds
        vbit = 0
        plays0 = plays                   # the decisions made here are the plays made here
        counted = 0
        decider = _declarer(_MODULE) if declare and HAND_BONUSES else None
        by_avail = decider is not None and decider.by_avail      # memoised on the cards alone
        best_get = decider.best_memo.get if by_avail else None
        best_new = decider.best_new if by_avail else None       # what the memo does not hold
        draws = [_getbits(rg) for rg in rngs]
        isums = _BIG_HANDS.get((n, dealer), False)
        small = not isums                # no seat is dealt more than _MEMO_HAND cards a round
''')
        # counted turns need no subset sums: keep them for the greedy seats' legal() only
        w('''
        kseat = [_K_ON and not p for p in policies]       # the seats whose moves are counted
        isums = isums and not all(kseat)
        tp, tc = _k_table(tab)
        hq = _k_hands(hands)
''', bool(counting))
        w('''
        seat = to_play
        nxt = tuple((s + 1) % n for s in range(n))
        while True:
    ''')
        if knocks:
            w('''
            if decider is not None:
                for j in range(n):             # knocks, in seat order from the dealer's left
                    s = (dealer + 1 + j) % n
    ''')
            if rs.timing == "after_deal":
                w('''
                    if any(nplayed) or any(knocked[o] and (o - dealer - 1) % n > j for o in range(n)):
                        continue
    ''')
            else:
                w('''
                    if nplayed[s]:
                        continue
    ''')
            declare_block("s", 4)
            w('''
                        record.append(("move", s, decls, None, 0))  #REC
    ''')
        w('''
            hand = hands[seat]
            side = seat % k
    ''')
        w(t('''
            pending = declared[seat] & hand
            mhand = pending if pending else hand
    '''), declared_first)
        options_block(2)
        w('''
            counted += count
            decls = ()  #REC
    ''')
        if with_play:
            # first_turn: nothing played this round yet, the hand as dealt
            window = "hand == round_dealt[seat]" if rs.timing == "first_turn" else "not declared[seat] & hand"
            w(f'''
            if decider is not None and {window}:
    ''')
            declare_block("seat", 3)
            w(t('''
                    pending = declared[seat] & hand
                    mhand = pending if pending else hand
    '''), declared_first)
            options_block(4)
        w(t('''
            if wild_as is not None:
                vbit = 1 << wild_as
            if policies[seat]:
                # greedy: the most event points, then the most cards taken, then a random draw per move
                rng = rngs[seat]
                if wild_as is None:
                    prev_eff = previous
                    teff = tab
                else:
                    prev_eff = (previous ^ _WILD) | vbit if previous & _WILD else previous
                    teff = (tab ^ _WILD) | vbit if tab & _WILD else tab
                empty_after = left == 1
                lp = empty_after and rnd >= nrounds
                best = None
                if opts is not None:
                    pairs = [(c, cap) for c, o in zip(cards, opts) for cap in _canon(tb, o)]
                elif flat is not None:
                    pairs = flat
                else:
                    pairs = [(c, 0) for c in cards]
                for c, cap in pairs:
                    bit = 1 << c
                    played_eff = bit if wild_as is None or c != WILD_INDEX else vbit
                    if cap:
                        cap_eff = (cap ^ _WILD) | vbit if wild_as is not None and cap & _WILD else cap
                        after = teff ^ cap_eff
                    else:
                        cap_eff = 0
                        after = teff | played_eff
                    score = 0
                    for _name, pts, _cat in play_events(played_eff, cap_eff, after, teff, lp, prev_eff, rnd,
                                                               TURN, plays + 1, last_round, n):
                        score += pts
                    key = (score, cap.bit_count(), rng.random())
                    if best is None or key > best:
                        best = key
                        card, capture = c, cap
            else:
                # randrange(count): Random._randbelow's draw, inlined where the stream's class uses it
                getbits = draws[seat]
                if getbits is None:
                    r = rngs[seat]._randbelow(count)
                else:
                    nb = count.bit_length()
                    r = getbits(nb)
                    while r >= count:
                        r = getbits(nb)
'''))
        w('''
                if opts is not None:
                    if count == len(cards):        # one move per card
                        card = cards[r]
                        capture = opts[r][0]
                    else:
                        for card, o in zip(cards, opts):
                            if r < len(o):
                                break
                            r -= len(o)
                        if len(o) > 1:
                            capture = _canon(tb, o)[r]
                            tb = None               # a real mask
                        else:
                            capture = o[0]
                    if capture and tb is not None:
                        if capture & (capture - 1):
                            capture = _real(tb, capture)
                        else:                       # one card (most captures): _real inline
                            capture = 1 << (_TBS[tb] if tb.__class__ is int else tb)[capture.bit_length() - 1]
''')
        w(t('''
                elif flat is _K_COUNTED:
                    card, capture = _k_pick(mhand, tab, kt, r)
'''), bool(counting))
        w('''
                elif flat is not None:
                    card, capture = flat[r]
                else:
                    card = cards[r]
                    capture = 0
            record.append(("move", seat, decls, card, capture))  #REC
            plays += 1
            left -= 1
            bit = 1 << card
            hands[seat] = hand ^ bit
    ''')
        # which declared cards are still to be played is read only where they must be played first or
        # where a seat may declare on any turn
        w('''
            declared[seat] &= ~bit
    ''', declared_first or with_play and rs.timing != "first_turn")
        w('''
            nplayed[seat] += 1
    ''', keep_nplayed)
        # the play; then the events, inline, as counters, reading only the names they use
        w('''
            if wild_as is None:
                previous_was = previous
                table_before = tab
            else:
                previous_was = (previous ^ _WILD) | vbit if previous & _WILD else previous
                table_before = (tab ^ _WILD) | vbit if tab & _WILD else tab
    ''', "previous" in reads or "table_before" in reads)
        w('''
            if isums:
                base = _SUMS_get(tab) if tab else _NO_SUMS     # the table's subsets before the play
    ''', needs_sums)
        w('''
            if capture:
                tab ^= capture
                piles[side] |= capture | bit
                last = side
    ''')
        # the card laid on the table is what a play's `previous` reads (kept only where an event reads it)
        w('''
                previous = 0
    ''', "previous" in reads)
        w('''
            else:
                tab |= bit
    ''')
        w('''
                previous = bit
    ''', "previous" in reads)
        # the counting path's sets per total follow the table: x the card joining it, / those leaving
        w('''
            hq[seat] -= _K_HQ[card]
            if capture:
                km = capture
                while km:
                    low = km & -km
                    i = low.bit_length() - 1
                    tp = tp * _K_INV[i] & _K_MASK
                    tc -= _K_TC[i]
                    km ^= low
            else:
                tp = tp * _K_MUL[card] & _K_MASK
                tc += _K_TC[card]
    ''', bool(counting))
        # long hands and big tables ask legal() for every move: where the next turn will, the next
        # table's subsets from this one's (one knapsack step, or a filter), put where
        # runtime.subset_sums finds them
        w('''
            if isums and base is not None and tab and (tab.bit_count() > _MEMO_TABLE or
                                                        hands[(seat + 1) % n].bit_count() > _MEMO_HAND):
                sums_now = _sums_drop(base, capture) if capture else _sums_add(base, card)
                if sums_now is not None:
                    if len(_SUMS) > 2048:
                        _SUMS.clear()
                    _SUMS[tab] = sums_now
    ''', needs_sums)
        # the names the events read, as the rules see them (a declared wild card as its declared card):
        # the play's own locals where no wild card is declared, else computed first
        seen = [(name, plain, as_declared) for name, plain, as_declared in (
            ("played", "bit", "vbit if card == WILD_INDEX else bit"),
            ("captured", "capture", "(capture ^ _WILD) | vbit if capture & _WILD else capture"),
            ("table", "tab", "(tab ^ _WILD) | vbit if tab & _WILD else tab")) if name in reads]
        w('''
            previous, previous_now = previous_was, previous
    ''', "previous" in reads)
        # the moment as locals (the turn after the count above: this play's turn in the round); the last
        # play found only where an event asks
        moment = {"round": "rnd", "play": "plays", "turn": "nplayed[seat]", "last_play": "(not left and rnd >= nrounds)",
                  "last_round": "last_round", "players": "n"}

        def events(pad: str, locals_as: dict) -> None:
            for e in rs.events.values():
                w(f"{pad}# {file_name(e.when.span.file)}:{e.when.span.line}")
                spans[len(L) + 1] = e.when.span       # the line about to be written, 1-based
                w(f"{pad}if {emit_rule(rs, e.when, EVENT_NAMES, locals_as=locals_as)}:")
                w(f"{pad}    ev[side][{cat_index[e.category]}] += {e.points!r}" if e.category else f"{pad}    pass")
                if traced[0]:
                    w(f"{pad}    record.append((\"event\", plays, seat, {e.name!r}, {e.points!r}))")

        plain = {**moment, **{name: local for name, local, _d in seen}}
        if wild:
            w("            if wild_as is None:")
            events(" " * 16, plain)
            w("                pass", not rs.events)
            w("            else:")
            for name, _p, as_declared in seen:
                w(f"                {name} = {as_declared}")
            events(" " * 16, moment)
            w('''
                if capture and (capture | bit) & _WILD:
                    wild_as = None             # the declared wild card was captured: its printed card again
    ''')
        else:
            events(" " * 12, plain)
        w('''
            previous = previous_now
    ''', "previous" in reads)
        w('''
            seat = nxt[seat]
            if not left:
                if rnd >= nrounds:
                    break
                rnd += 1
                last_round = rnd == nrounds
                tpos, spos, tget, sgets = plan[rnd - 1]
                hands = [sum(map(_BIT, take(order))) for take in sgets]
                left = sum(map(len, spos))
                round_dealt = list(hands)
                knocked = [False] * n
                tab |= sum(map(_BIT, tget(order)))
''')
        w('''
                nplayed = [0] * n
''', keep_nplayed)
        w('''
                tp, tc = _k_table(tab)
                hq = _k_hands(hands)
''', bool(counting))
        w('''
    ''')
        w('''
        if tab and last is not None:
            piles[last] |= tab
    ''', rs.leftovers == "last_capturer")
        w('''
        found = outcome(piles)
        return (plays, (None if found is None else (found[0], [found[1]])), piles,
                [dict(zip(_CATS, row)) for row in ev], plays - plays0, counted)
    ''')

    inner[0] = True
    emit_playout("_playout_fast")
    traced[0] = True
    emit_playout("_playout_traced")
    inner[0] = traced[0] = False
    w('''


def playout(n, dealer, order, deck_rng, policies, rngs, declare=True, record=None):
    """Play one hand from a shuffled deck order; returns (plays, outcome, piles, event points, turns, moves).

    `event points`: per side, {category: points} for every category an event or a bonus scores in (0s
    included), what the compiled `score` reads.

    `policies[seat]`: 0 random, 1 greedy; `rngs[seat]`: that seat's random stream. `deck_rng`
    reshuffles a thrown-in deal. `declare`: the bots declare their best hand bonuses. `record`: a
    list that receives ("move", seat, declarations, card, capture) and ("event", play, seat, name,
    points) in order (for lockstep tests); None to keep nothing. `turns` counts decisions,
    `moves` the legal moves offered at them (before the turn's declarations).
    """
    if record is None:
        return _playout_fast(n, dealer, order, deck_rng, policies, rngs, declare)
    return _playout_traced(n, dealer, order, deck_rng, policies, rngs, declare, record)


def resume(n, dealer, stock, hands, tab, piles, last, rnd, turn, nplayed, declared, shown, knocked, round_dealt,
           declared_wild, wild_as, previous, plays, points, policies, rngs, declare=False):
    """Play a hand on from a mid-hand state (`Hand`'s fields; `stock`: the cards still to deal, in order)."""
    plan = _PLANS.get((n, dealer)) or _plan(n, dealer)
    dealt = sum(len(tpos) + sum(map(len, spos)) for tpos, spos, _tg, _sg in plan[:rnd])
    order = [0] * dealt + list(stock)
    ev = [[row.get(c, 0) for c in _CATS] for row in points]
    return _playout_fast_from(n, dealer, plan, order, list(hands), tab, list(piles), last, rnd, turn,
                              sum(h.bit_count() for h in hands), list(nplayed), list(declared), list(shown),
                              list(knocked), list(round_dealt), dict(declared_wild), wild_as, previous, plays, ev,
                              policies, rngs, declare)


def _unique(n, dealer, seat, round_dealt, hands, shown, declared_wild, rnd, last_round):
    """The `unique_by` test for one seat's declarations now (on what that seat can see)."""
    return lambda d: _unique_holder(_MODULE, n, dealer, seat, d, round_dealt, hands, shown, declared_wild, rnd,
                                    last_round) is None
''')
    return "\n".join(L) + "\n", spans


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
