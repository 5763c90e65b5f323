"""The playout's turn, as generated text: the cards a seat may play with their options, its
declarations, and the bot's choice of move.

Emitters for playout_hand.py, writing into a PlayoutWriter (playout_writer.py). The options and the
declarations are written at an explicit indent (they sit at different depths of the hand's loop); the
choice of move sits at the loop's own depth.
"""
from __future__ import annotations

from rulespec.compiler.playout_writer import PlayoutWriter


def options_block(g: PlayoutWriter, indent: int) -> None:
    """`cards`, `opts` (None: every card plays without capturing) and `count` for `mhand`.

    Where `tb` is not None, `opts` holds per card its options as positions in `tb`, the
    table's cards lowest first (`_real` maps them back); otherwise real masks."""
    was, g.inner = g.inner, False
    try:
        if g.counting:
            # a random seat's moves counted, not listed (_k_count), and only the chosen one found
            g.w(g.t('''
if kseat[seat]:
    kt = tp + tc
    count = mhand.bit_count() + (kt * hq[seat] >> _K_TOP & _K_DIGIT)
    opts = None
    flat = _K_COUNTED
else:
'''), indent=indent)
            indent += 1
        g.w(g.t('''
cards = _BITS_get(mhand) or _BITS(mhand)
if not tab:
    opts = flat = None
    count = len(cards)
'''), indent=indent)
        _memo_options(g, indent)
        _wild_options(g, indent)
    finally:
        g.inner = was


def _memo_options(g: PlayoutWriter, indent: int) -> None:
    """The options of a seat's cards, no wild card declared: from the table's memo row, or legal()."""
    g.w(g.t('''
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


def _wild_options(g: PlayoutWriter, indent: int) -> None:
    """The options of a seat's cards while a wild card is declared as some card."""
    g.w(g.t('''
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
'''), g.wild, indent=indent)


def declare_block(g: PlayoutWriter, who: str, indent: int) -> None:
    """Seat `who`'s best declarations now (a bot's), their points and the wild card's declared rank."""
    was, g.inner = g.inner, False
    try:
        g.w(f'''
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
    finally:
        g.inner = was
