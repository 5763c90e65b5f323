"""Runtime support imported by generated rule modules as `_rt`: a small, stable surface.

Card sets are int bitmasks over card indices (rulespec.lang.decks); a single card
is its one-bit mask. Tables by card index (`values`, `ranks`, `suits`) cover
the virtual wild cards too; the generated module holds them as `_VALUE`,
`_RANK`, `_SUIT` and passes them in, so these helpers keep no state.
"""
from __future__ import annotations

TYPE_CHECKING = False            # typing's flag without importing typing (rulespec/run/records.py)
if TYPE_CHECKING:
    from typing import Callable as _Callable
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.errors import RulespecError

# ====================================================================
# Expression helpers (called by code from compiler/emit_expr.py)
# ====================================================================


def tables(deck, wild: int | None = None) -> dict[str, object]:
    """The module-level names emitted expressions use: `_VALUE`, `_RANK`, `_SUIT`, `_WILD`."""
    from rulespec.lang.decks import index_tables      # not at import: a compiled module runs without decks
    return index_tables(deck, wild)


_BITS: dict[int, tuple[int, ...]] = {}
# The indices set in each byte of a mask's five lowest bytes, per byte: a 40-card deck's mask is five
# lookups (a tuple each) where a bit at a time costs a loop turn per card (2.4 times as long for six cards).


def _byte_tables() -> tuple:
    """Per byte k of five, per value b: the indices 8k + i of b's set bits i, ascending (each from b without
    its top bit: a tenth of the time of testing eight bits per value, at every process's start)."""
    out = []
    for k in range(5):
        row = [()]
        for b in range(1, 256):
            top = b.bit_length() - 1
            row.append(row[b ^ 1 << top] + (8 * k + top,))
        out.append(tuple(row))
    return tuple(out)


_BYTES = _byte_tables()
_B0, _B1, _B2, _B3, _B4 = _BYTES


MEMO_BITS = 3       # sets of at most this many are memoised by `bits`


def bits(mask: int) -> tuple[int, ...]:
    """The indices set in a bitmask, lowest first (memoised where at most MEMO_BITS: small hands, tables
    and captures recur; bigger sets seldom do, and kept they would crowd out those that do)."""
    got = _BITS.get(mask)
    if got is None:
        got = bits_of(mask)
        if len(got) <= MEMO_BITS:
            if len(_BITS) > 100_000:
                _BITS.clear()       # bounded memory
            _BITS[mask] = got
    return got


def bits_of(mask: int) -> tuple[int, ...]:
    """`bits(mask)`, not memoised: for sets seldom asked about twice (they would crowd the memo)."""
    got = _B0[mask & 255] + _B1[mask >> 8 & 255] + _B2[mask >> 16 & 255] + _B3[mask >> 24 & 255] + \
        _B4[mask >> 32 & 255]
    m = mask >> 40
    if m:                       # a bigger deck's cards, or its virtual wild cards, a bit at a time
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() + 39)
            m ^= low
        got += tuple(out)
    return got


def idx(card: int) -> int:
    """The index of a one-card mask."""
    return card.bit_length() - 1


def first(cards: int, table, empty):
    """`table` at the set's lowest card index, or `empty` for no cards (rank(), suit(), value() of a set)."""
    if not cards:
        return empty
    return table[(cards & -cards).bit_length() - 1]


def select(cards: int, pred) -> int:
    """The cards of a set whose index satisfies `pred` (filters that need runtime values)."""
    out = 0
    for i in bits(cards):
        if pred(i):
            out |= 1 << i
    return out


def total(cards: int, values) -> int:
    """Sum of capture values (a card with no value counts 0)."""
    return sum(values[i] for i in bits(cards))


def can_total(cards: int, target: int, values, wild: int) -> bool:
    """Whether the set totals `target`, the real wild card (if held) counting as any value 1..10."""
    if cards & wild:
        rest = total(cards & ~wild, values)
        return 1 <= target - rest <= 10
    return total(cards, values) == target


def subset_total(cards: int, target: int, values, wild: int) -> bool:
    """Whether one or more cards of the set total `target` (the real wild card, if held, counting
    as any value 1..10). Cards with no value count 0."""
    reach = 0                               # bit s: some non-empty subset of the cards seen totals s
    for i in bits(cards & ~wild):
        v = values[i] or 0
        reach |= (reach << v) | (1 << v)
    if cards & wild:
        # the wild card alone, or with any subset of the rest, as each value 1..10
        reach_with = 0
        for v in range(1, 11):
            reach_with |= (reach << v) | (1 << v)
        reach |= reach_with
    return target >= 0 and reach >> target & 1 == 1


def holds_all(cards: int, wanted: int) -> bool:
    """Whether every card of `wanted` is in `cards`."""
    return wanted & ~cards == 0


def run(cards: int, sequence) -> int:
    """How many cards of `sequence`, from its start, are held without a gap."""
    n = 0
    for card in sequence:
        if not cards & card:
            break
        n += 1
    return n


def best_per_suit(cards: int, suit_masks, scores) -> int:
    """Sum over suits of the best score held in each; 0 if some suit is missing."""
    result = 0
    for suit in suit_masks:
        held = cards & suit
        if not held:
            return 0
        result += max(scores[i] for i in bits(held))
    return result


def best_per_suit_ranked(cards: int, suits) -> int:
    """`best_per_suit` with each suit given as (mask, ((card bit, score), ...) best score first)."""
    result = 0
    for mask, ranked in suits:
        held = cards & mask
        if not held:
            return 0
        for bit, score in ranked:
            if held & bit:
                result += score
                break
    return result


def max_same_rank(cards: int, ranks) -> int:
    """The size of the largest group of cards of one rank (0 for no cards)."""
    counts: dict[str, int] = {}
    for i in bits(cards):
        counts[ranks[i]] = counts.get(ranks[i], 0) + 1
    return max(counts.values(), default=0)


def same(cards: int, attribute) -> bool:
    """Whether the set is non-empty and every card has the same attribute (rank or suit)."""
    if not cards:
        return False
    # card by card, lowest first, out at the first that differs (no bit list: these sets seldom recur)
    low = cards & -cards
    want = attribute[low.bit_length() - 1]
    cards ^= low
    while cards:
        low = cards & -cards
        if attribute[low.bit_length() - 1] != want:
            return False
        cards ^= low
    return True


def same_value(cards: int, values) -> bool:
    """Whether the set is non-empty and all its cards have one capture value (valueless cards never match)."""
    seen = {values[i] for i in bits(cards)}
    return len(seen) == 1 and 0 not in seen


def top(values) -> int:
    """The index of the strictly greatest value, or -1 where the greatest is shared (or there is none)."""
    best = max(values, default=None)
    if best is None or values.count(best) > 1:
        return -1
    return values.index(best)


def most(values, side: int) -> bool:
    """Whether `values[side]` is strictly greater than every other side's (a tie at the top: False)."""
    mine = values[side]
    return all(mine > v for s, v in enumerate(values) if s != side)


def sharing(values, side: int) -> int:
    """How many sides share the greatest of `values` with `side` (itself included); 0 if it is not the greatest."""
    top = max(values)
    return values.count(top) if values[side] == top else 0


def rivals_made(made, side: int, name: str) -> int:
    """The most events `name` any side but `side` made (`made`: per side, event name -> count)."""
    return max((m.get(name, 0) for s, m in enumerate(made) if s != side), default=0)


def fewest_made(made, side: int, name: str) -> int:
    """The fewest events `name` any side made, `side` included (`made`: per side, event name -> count): what
    every side loses where each side's events cancel one for one against every other's."""
    return min((m.get(name, 0) for m in made), default=0)


def round_up(n: int, step: int) -> int:
    """`n` rounded up to a multiple of `step` (at least 1; 0 is the located division by zero)."""
    if step < 1:
        raise RulespecError(f"round_up() rounds to a multiple of a whole number of at least 1, found {step}")
    return -(-n // step) * step


def round_down(n: int, step: int) -> int:
    """`n` rounded down to a multiple of `step` (at least 1)."""
    if step < 1:
        raise RulespecError(f"round_down() rounds to a multiple of a whole number of at least 1, found {step}")
    return n // step * step


# A category's points in one hand, and the hand's total, stay within this (a 15-digit number): the game's
# totals then stay within 18 digits over any game (a transcript's ints, yamlsafe.MAX_INT_DIGITS) and exact as
# floats in the statistics. Python's ints would otherwise grow as large as an expression makes them, or, through
# `game_score`, without end: `game_score * game_score` squares the total every hand (docs/security.md, "Bounds").
MAX_POINTS = 10**15


def points_past(what: str, points: int) -> None:
    """Raise the rule's failure for `what` (\"points of category 'x'\", ...) past MAX_POINTS; the generated code
    calls it only then."""
    if points.bit_length() < 64:
        shown = str(points)
    else:           # never str() of it: past 4300 digits Python refuses to write an int
        digits = int(points.bit_length() * 0.30102999566398120) + 1
        digits -= 10 ** (digits - 1) > abs(points)
        shown = f"a{' negative' if points < 0 else ''} number of {digits} digits"
    raise RulespecError(f"the {what} must lie strictly between -10**15 and 10**15, found {shown}")


# ====================================================================
# Engine helpers (added by the lead)
# ====================================================================



class BonusSpec(NamedTuple):
    """A compiled hand bonus: its check and its data."""

    check: _Callable
    size: int
    points: int
    category: str
    wild: bool
    excluded_by: tuple
    shares_cards_with: tuple
    rounds: tuple
    unique_by: str | None


# Listing capture sets is exponential in the table's size when values are small; a ruleset whose
# deck allows that much is refused at the table where it happens, never left to run for hours.
MAX_SUBSETS = 200_000


def subset_sums(table: int, values, numbered, limit: int, cache: dict) -> dict:
    """Every non-empty subset of the table's numbered cards by total: {total: [mask, ...]}.

    Totals above `limit` (the largest any capture kind asks for) are pruned.
    Computed once per table state and cached (legal moves ask for every card
    in hand against the same table); the cache is the compiled module's own.
    """
    got = cache.get(table)
    if got is not None:
        return got
    # A knapsack over totals: each card extends the sets of every total, highest total first,
    # so that a set is never extended twice by the same card (every value is at least 1).
    by: dict = {0: [0]}
    listed = 1
    for i in bits(table):
        if numbered[i]:
            bit, value = 1 << i, values[i]
            for total in sorted(by, reverse=True):
                new = total + value
                if new <= limit:
                    ext = [m | bit for m in by[total]]
                    listed += len(ext)
                    have = by.get(new)
                    if have is None:
                        by[new] = ext
                    else:
                        have += ext
            if listed > MAX_SUBSETS:
                raise RulespecError(f"the table ({table.bit_count()} cards) has more than {MAX_SUBSETS} sets of "
                                    f"cards totalling {limit} or less; this ruleset's deck makes captures too many "
                                    f"to list")
    del by[0]
    if len(cache) > 2048:
        cache.clear()      # a bound on memory: the cache serves one move (legal moves, then the play)
    cache[table] = by
    return by


def run_sets(p: int, table: int, bases: list[int], rank_no, rank_masks) -> list[int]:
    """Capture kind run: each base set (a match, a sum) with the table's cards continuing the ranks upward
    from card index `p`'s, one card per rank, as far as the table goes; a rank held in several suits gives
    a set for each. `rank_no` is each index's place in the deck's rank order, `rank_masks` each rank's cards."""
    out: list[int] = []
    for base in bases:
        sets = [base]
        rest = table & ~base
        r = rank_no[p] + 1
        while r < len(rank_masks):
            avail = rest & rank_masks[r]
            if not avail:
                break
            sets = [m | 1 << i for m in sets for i in bits(avail)]
            if len(sets) > MAX_SUBSETS:
                raise RulespecError(f"the table ({table.bit_count()} cards) continues a run in more than "
                                    f"{MAX_SUBSETS} ways; this ruleset's deck makes captures too many to list")
            r += 1
        out += sets
    return out


def unique(masks: list[int]) -> list[int]:
    """The masks without repeats, in first-seen order."""
    seen = set()
    out = []
    for m in masks:
        if m not in seen:
            seen.add(m)
            out.append(m)
    return out


def card_names(mask: int, names) -> str:
    """The names of a mask's cards, space-separated, lowest index first."""
    return " ".join(names[i] for i in bits(mask))


# ====================================================================
# Several sets in one capture, cards with several values (capture.combine, deck values)
# ====================================================================


class TooManyUnions(RulespecError):
    """combine's unions past MAX_SUBSETS: the sets themselves are listed (`offered`), so one capture is still
    judged by them (combined_has)."""


def combine(sets: list[int], mode: str) -> list[int]:
    """The captures a card may make from the sets it is offered, by `capture.combine`, ascending.

    `union`: every union of one or more pairwise disjoint offered sets. `all`: of those unions, the ones
    no larger union contains (the card takes every set it can at once). Refused, like the subset lists,
    where the unions grow past MAX_SUBSETS.
    """
    if len(sets) < 2:
        return sets
    unions = {0}
    for s in dict.fromkeys(sets):
        unions |= {u | s for u in unions if not u & s}
        if len(unions) > MAX_SUBSETS:
            raise TooManyUnions(f"a card is offered more than {MAX_SUBSETS} unions of capture sets; this "
                                f"ruleset's deck makes captures too many to list")
    unions.discard(0)
    if mode == "all":
        unions = {u for u in unions if not any(w != u and w & u == u for w in unions)}
    return sorted(unions)


# The mark of a set that a capture kind with `alone: true` offers (compiler/emit_captures.py), far above any
# card index (the deck's, the wild card's virtual ones, a build's value): combine_alone takes it off.
ALONE = 1 << 1024


def combine_alone(sets: list[int], mode: str) -> list[int]:
    """`combine(sets, mode)` of the unmarked sets, and beside them each set marked ALONE, unmarked and by
    itself (a kind whose sets are never joined with others); ascending."""
    alone = {s & ~ALONE for s in sets if s & ALONE}
    rest = [s for s in sets if not s & ALONE]
    joined = combine(rest, mode) if mode != "one" else rest
    return sorted(set(joined) | alone)


def combined_has(mask: int, sets: list[int], mode: str) -> bool | None:
    """Whether `mask` is one of combine_alone(sets, mode), judged without listing the unions: with `union`, a
    set marked ALONE, or a split of the mask into pairwise disjoint unmarked sets (partition_sets); None for
    `all`, whose unions are the largest ones (the caller lists them)."""
    if mode == "all":
        return None
    if mask | ALONE in sets:
        return True
    rest = [s for s in sets if not s & ALONE]
    if mode == "one" or len(rest) < 2:
        return mask in rest
    return bool(mask) and partition_sets(mask, rest) > 0


def partition_sets(mask: int, sets: list[int]) -> int:
    """The fewest pairwise disjoint sets of `sets` whose union is `mask` (0 when none is)."""
    inside = [s for s in dict.fromkeys(sets) if s and s & ~mask == 0]
    memo: dict = {0: 0}

    def fewest(rest: int) -> int:          # each rest of the mask is solved once (a search over sets, memoised)
        got = memo.get(rest)
        if got is None:
            low = rest & -rest
            got = -1
            for s in inside:
                if s & low and s & ~rest == 0:      # the set covering the lowest card left
                    k = fewest(rest ^ s)
                    if k >= 0 and (got < 0 or k + 1 < got):
                        got = k + 1
            memo[rest] = got
        return got

    return max(fewest(mask), 0)


def subset_sums_multi(table: int, values, numbered, limit: int, cache: dict) -> dict:
    """`subset_sums` for cards with several values (`values[i]`: a tuple, one or more): a set is listed under
    every total one value per card gives it, once per total."""
    got = cache.get(table)
    if got is not None:
        return got
    by: dict = {0: {0: None}}
    listed = 1
    for i in bits(table):
        if numbered[i]:
            bit = 1 << i
            grown: dict = {}
            for total, masks in by.items():
                for value in values[i]:
                    new = total + value
                    if new <= limit:
                        have = grown.setdefault(new, {})
                        for m in masks:
                            have[m | bit] = None
            for new, masks in grown.items():
                listed += len(masks)
                by.setdefault(new, {}).update(masks)
            if listed > MAX_SUBSETS:
                raise RulespecError(f"the table ({table.bit_count()} cards) has more than {MAX_SUBSETS} sets of "
                                    f"cards totalling {limit} or less; this ruleset's deck makes captures too many "
                                    f"to list")
    del by[0]
    out = {total: list(masks) for total, masks in by.items()}
    if len(cache) > 2048:
        cache.clear()      # a bound on memory: the cache serves one move (legal moves, then the play)
    cache[table] = out
    return out
