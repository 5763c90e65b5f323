"""The playout's counting path: a random seat's moves counted from the table's sets per total, not listed.

Where it applies (see `counting_source`), a seat playing uniformly at random needs only how many moves it
has and which one the draw picked: the generated module keeps, as the digits of one int, how many sets
of table number cards total each value, updates it as cards join and leave the table, and finds the
chosen set from the counts (`_k_pick`, `_k_set`). compiler/playout.py's docstring says when it pays.
"""
from __future__ import annotations

from rulespec.lang.model import Ruleset

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


def counting_source(rs: Ruleset, capture_plan, moment: bool) -> str | None:
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
    k = _tables(rs.deck, cp.limit)
    if k is None:
        return None
    return "\n\n\n".join(part.strip("\n") for part in (_constants(k), _K_TABLE, _hands(k), _pick(), _set()))


def _tables(deck, limit: int) -> dict | None:
    """The counting path's per-card constants for a deck and capture limit (None where a value lies
    outside 1..limit, or where the digits could carry)."""
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
    return {"limit": limit, "top": top, "by_total": by_total, "mul": mul, "inv": inv, "shift": shift,
            "same": same, "table_court": table_court, "hand": hand, "by_byte": by_byte}


def _constants(k: dict) -> str:
    """The module constants of the counting path."""
    limit, top, by_total = k["limit"], k["top"], k["by_total"]
    mul, inv, shift, same, table_court, hand = (k[x] for x in ("mul", "inv", "shift", "same", "table_court",
                                                                "hand"))
    return f'''

# ---- the counting path (compiler/playout_counting.py): a ruleset whose options are every set
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
'''


_K_TABLE = '''
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
'''


def _hands(k: dict) -> str:
    """`_K_HQ8` and `_k_hands`: a hand's `hq`, a byte of its mask at a time."""
    by_byte = k["by_byte"]
    return f'''
# per byte of a hand's mask (8 cards), per value of that byte: its cards' terms of hq
_K_HQ8 = tuple(tuple(sum(_K_HQ[i] for i in range(8 * k, min(8 * k + 8, len(_K_HQ))) if b >> (i - 8 * k) & 1)
                     for b in range(256)) for k in range((len(_K_HQ) + 7) // 8))


def _k_hands(hands):
    """`hq` of each hand (the sum of its cards' terms, a byte of the mask at a time)."""
    return [{by_byte} for h in hands]
'''


def _pick() -> str:
    """`_k_pick`: the move `r` of a hand, in legal()'s order, from the counts."""
    return f'''
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
'''


def _set() -> str:
    """`_k_set`: the set `r` of table number cards totalling `t`, from the counts."""
    return f'''
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
