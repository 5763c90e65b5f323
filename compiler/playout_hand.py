"""The playout's hand, as generated text: the function that deals and plays one hand, and its loop.

Emitters for compiler/playout.py, writing into a PlayoutWriter (playout_writer.py). Each hand function
is written twice: `_playout_fast` keeps no record, `_playout_traced` records every move and event (the
lines marked `#REC`, for lockstep tests). Their templates sit one level deeper in this file than they
emit (`PlayoutWriter.inner`). What a ruleset contributes: its events' conditions (emit_expr, located for
failure_span) and the flags the writer computed.
"""
from __future__ import annotations

from rulespec.checks.check import EVENT_NAMES
from rulespec.compiler.emit_expr import emit_rule
from rulespec.compiler.playout_turn import declare_block, options_block
from rulespec.compiler.playout_writer import PlayoutWriter
from rulespec.compiler.writer import file_name


def emit_hands(g: PlayoutWriter) -> None:
    """Both versions of the hand's functions: the fast one, then the traced one."""
    g.inner = True
    _emit_playout(g, "_playout_fast")
    g.traced = True
    _emit_playout(g, "_playout_traced")
    g.inner = g.traced = False


def _emit_playout(g: PlayoutWriter, name: str) -> None:
    """`{name}(...)`, which deals, and `{name}_from(...)`, which plays the hand from a state on."""
    _deal(g, name)
    _from_head(g, name)
    _loop_head(g)
    if g.knocks:
        _knocks(g)
    _turn(g)
    _choose(g)
    _move_found(g)
    _play(g)
    _table_after(g)
    _events(g)
    _next_round(g)
    _hand_end(g)


def _deal(g: PlayoutWriter, name: str) -> None:
    """The deal: the first round from the deck order, the deal checks (redeals, misdeals), the dealer's bonus."""
    traced, cats = [g.traced], g.cats
    # ---- the playout itself ----
    g.w(f'''

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


def _from_head(g: PlayoutWriter, name: str) -> None:
    """The deal's hand handed to `{name}_from`, and that function's locals."""
    traced, counting = [g.traced], g.counting
    g.w(f'''
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
    g.w('''
        kseat = [_K_ON and not p for p in policies]       # the seats whose moves are counted
        isums = isums and not all(kseat)
        tp, tc = _k_table(tab)
        hq = _k_hands(hands)
''', bool(counting))


def _loop_head(g: PlayoutWriter) -> None:
    """The loop over turns."""
    g.w('''
        seat = to_play
        nxt = tuple((s + 1) % n for s in range(n))
        while True:
    ''')


def _knocks(g: PlayoutWriter) -> None:
    """Knocks (declarations outside a play), in seat order from the dealer's left."""
    g.w('''
            if decider is not None:
                for j in range(n):             # knocks, in seat order from the dealer's left
                    s = (dealer + 1 + j) % n
    ''')
    if g.rs.timing == "after_deal":
        g.w('''
                    if any(nplayed) or any(knocked[o] and (o - dealer - 1) % n > j for o in range(n)):
                        continue
    ''')
    else:
        g.w('''
                    if nplayed[s]:
                        continue
    ''')
    declare_block(g, "s", 4)
    g.w('''
                        record.append(("move", s, decls, None, 0))  #REC
    ''')


def _turn(g: PlayoutWriter) -> None:
    """The seat's hand and options, with its declarations where a turn may make them."""
    t, declared_first, rs = g.t, g.declared_first, g.rs
    g.w('''
            hand = hands[seat]
            side = seat % k
    ''')
    g.w(t('''
            pending = declared[seat] & hand
            mhand = pending if pending else hand
    '''), declared_first)
    options_block(g, 2)
    g.w('''
            counted += count
            decls = ()  #REC
    ''')
    if g.with_play:
        # first_turn: nothing played this round yet, the hand as dealt
        window = "hand == round_dealt[seat]" if rs.timing == "first_turn" else "not declared[seat] & hand"
        g.w(f'''
            if decider is not None and {window}:
    ''')
        declare_block(g, "seat", 3)
        g.w(t('''
                    pending = declared[seat] & hand
                    mhand = pending if pending else hand
    '''), declared_first)
        options_block(g, 4)


def _choose(g: PlayoutWriter) -> None:
    """The bot's move: greedy (most event points, most cards, then a draw) or uniformly random (a draw
    `r` among the `count` moves)."""
    t = g.t
    g.w(t('''
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


def _move_found(g: PlayoutWriter) -> None:
    """The drawn move `r` as a card and a capture mask (from the options, the counts or legal()'s list),
    and the move made."""
    t, counting = g.t, g.counting
    g.w('''
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
    g.w(t('''
                elif flat is _K_COUNTED:
                    card, capture = _k_pick(mhand, tab, kt, r)
'''), bool(counting))
    g.w('''
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


def _play(g: PlayoutWriter) -> None:
    """The move made: the hand, the declared cards still to play, the seat's plays this round."""
    declared_first, with_play, rs, keep_nplayed, reads = g.declared_first, g.with_play, g.rs, g.keep_nplayed, g.reads
    # which declared cards are still to be played is read only where they must be played first or
    # where a seat may declare on any turn
    g.w('''
            declared[seat] &= ~bit
    ''', declared_first or with_play and rs.timing != "first_turn")
    g.w('''
            nplayed[seat] += 1
    ''', keep_nplayed)
    # the play; then the events, inline, as counters, reading only the names they use
    g.w('''
            if wild_as is None:
                previous_was = previous
                table_before = tab
            else:
                previous_was = (previous ^ _WILD) | vbit if previous & _WILD else previous
                table_before = (tab ^ _WILD) | vbit if tab & _WILD else tab
    ''', "previous" in reads or "table_before" in reads)


def _table_after(g: PlayoutWriter) -> None:
    """The table and piles after the play, and what follows the table (subsets by total, counts)."""
    needs_sums, reads, counting = g.needs_sums, g.reads, g.counting
    g.w('''
            if isums:
                base = _SUMS_get(tab) if tab else _NO_SUMS     # the table's subsets before the play
    ''', needs_sums)
    g.w('''
            if capture:
                tab ^= capture
                piles[side] |= capture | bit
                last = side
    ''')
    # the card laid on the table is what a play's `previous` reads (kept only where an event reads it)
    g.w('''
                previous = 0
    ''', "previous" in reads)
    g.w('''
            else:
                tab |= bit
    ''')
    g.w('''
                previous = bit
    ''', "previous" in reads)
    # the counting path's sets per total follow the table: x the card joining it, / those leaving
    g.w('''
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
    g.w('''
            if isums and base is not None and tab and (tab.bit_count() > _MEMO_TABLE or
                                                        hands[(seat + 1) % n].bit_count() > _MEMO_HAND):
                sums_now = _sums_drop(base, capture) if capture else _sums_add(base, card)
                if sums_now is not None:
                    if len(_SUMS) > 2048:
                        _SUMS.clear()
                    _SUMS[tab] = sums_now
    ''', needs_sums)


def _events(g: PlayoutWriter) -> None:
    """The play's events, inline, as counters; a declared wild card seen as its declared card."""
    reads, w, rs = g.reads, g.w, g.rs
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
    plain = {**moment, **{name: local for name, local, _d in seen}}
    if g.wild:
        w("            if wild_as is None:")
        _event_rules(g, " " * 16, plain)
        w("                pass", not rs.events)
        w("            else:")
        for name, _p, as_declared in seen:
            w(f"                {name} = {as_declared}")
        _event_rules(g, " " * 16, moment)
        w('''
                if capture and (capture | bit) & _WILD:
                    wild_as = None             # the declared wild card was captured: its printed card again
    ''')
    else:
        _event_rules(g, " " * 12, plain)
    w('''
            previous = previous_now
    ''', "previous" in reads)


def _event_rules(g: PlayoutWriter, pad: str, locals_as: dict) -> None:
    """Each event's condition at `pad`, its points counted for the side (recorded where traced)."""
    rs, w, cat_index = g.rs, g.w, g.cat_index
    for e in rs.events.values():
        w(f"{pad}# {file_name(e.when.span.file)}:{e.when.span.line}")
        g.at_rule(e.when.span)                   # the line about to be written
        w(f"{pad}if {emit_rule(rs, e.when, EVENT_NAMES, locals_as=locals_as)}:")
        w(f"{pad}    ev[side][{cat_index[e.category]}] += {e.points!r}" if e.category else f"{pad}    pass")
        if g.traced:
            w(f"{pad}    record.append((\"event\", plays, seat, {e.name!r}, {e.points!r}))")


def _next_round(g: PlayoutWriter) -> None:
    """The next seat; after the round's last play, the next round dealt (or the loop's end)."""
    keep_nplayed, counting = g.keep_nplayed, g.counting
    g.w('''
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
    g.w('''
                nplayed = [0] * n
''', keep_nplayed)
    g.w('''
                tp, tc = _k_table(tab)
                hq = _k_hands(hands)
''', bool(counting))
    g.w('''
    ''')


def _hand_end(g: PlayoutWriter) -> None:
    """The leftovers to the last capturer, the outcome, and what the playout returns."""
    rs = g.rs
    g.w('''
        if tab and last is not None:
            piles[last] |= tab
    ''', rs.leftovers == "last_capturer")
    g.w('''
        found = outcome(piles)
        return (plays, (None if found is None else (found[0], [found[1]])), piles,
                [dict(zip(_CATS, row)) for row in ev], plays - plays0, counted)
    ''')
