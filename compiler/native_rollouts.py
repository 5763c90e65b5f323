"""ISMCTS rollouts on the native engine: a mid-hand state handed to the generated C's `rs_rollouts`.

`Rollouts(nat, hand, seat, decls, moves)` packs what does not change during
one decision (the public state, the seat's own hand, the candidate moves and
the declarations made with them) once; `add(hidden, stock, stream, sums)`
then plays every move in one determinisation (the other seats' hands, the
stock's order) and finishes each hand with random bots in C, from the stream
`stream` (rulespec/run/stream.py's Stream(stream) in Python: bots/ismcts.py's rollouts draw the
same), adding each move's result for the seat's side to `sums`.
"""
from __future__ import annotations

import ctypes

from rulespec.compiler.native import MASK64, NativeUnavailable

_I64P = ctypes.POINTER(ctypes.c_int64)
_U64P = ctypes.POINTER(ctypes.c_uint64)
_I32P = ctypes.POINTER(ctypes.c_int32)


def _entry(nat):
    """The library's rs_rollouts, its argument types set once."""
    fn = getattr(nat, "_rollouts_fn", None)
    if fn is None:
        fn = nat.lib.rs_rollouts
        fn.restype = ctypes.c_int
        fn.argtypes = [_I64P, _U64P, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       _I32P, _U64P, ctypes.c_int, _I32P, _U64P, _I32P, ctypes.c_uint64, ctypes.c_int64, _I64P]
        nat._rollouts_fn = fn
    return fn


class Rollouts:
    """One decision's rollouts in C: the seat `seat` of `hand` weighing `moves` after declaring `decls`; an
    outcome that ends the game counts `stake` for the side it gives the game to, against the others."""

    def __init__(self, nat, hand, seat: int, decls, moves, stake: int):
        self.nat, self.fn = nat, _entry(nat)
        self.seat, self.n, self.moves = seat, hand.n, len(moves)
        categories = nat.meta.categories
        bonuses = list(nat.compiled.ruleset.hand_bonuses)
        last = hand.last_capturer
        state = [hand.n, hand.dealer, hand.turn, hand.round, hand.plays, -1 if last is None else last,
                 -1 if hand.wild_as is None else hand.wild_as, hand.previous, hand.table]
        for s in range(hand.n):
            wild = hand.declared_wild.get(s)
            state += [hand.hands[s], hand.declared[s], hand.shown[s], hand.played_this_round[s],
                      int(bool(hand.knocked_round[s])), 0 if wild is None else wild + 1, hand.round_dealt[s],
                      hand.played_round[s]]
        state += list(hand.piles)
        for row in hand.event_points():
            state += [row.get(c, 0) for c in categories]
        # Masks of a 64-card deck set bit 63: passed as their two's complement in int64.
        self.state = (ctypes.c_int64 * len(state))(*[v - (1 << 64) if v >> 63 else v for v in state])
        self.cards = (ctypes.c_int32 * len(moves))(*[c for c, _ in moves])
        self.caps = (ctypes.c_uint64 * len(moves))(*[m for _, m in moves])
        self.nd = len(decls)
        self.decl_bonus = (ctypes.c_int32 * max(1, self.nd))(*[bonuses.index(d.bonus) for d in decls])
        self.decl_cards = (ctypes.c_uint64 * max(1, self.nd))(*[d.cards for d in decls])
        self.decl_wild = (ctypes.c_int32 * max(1, self.nd))(*[-1 if d.wild_rank is None else d.wild_rank
                                                            for d in decls])
        self.stake = stake
        self.hidden = (ctypes.c_uint64 * hand.n)()
        self.sums = (ctypes.c_int64 * len(moves))()

    def add(self, hidden: dict[int, int], stock: list[int], stream: int, sums: list[float]) -> None:
        """Play every move in the world of `hidden` (seat -> hand) and `stock`, adding each result to sums."""
        h = self.hidden
        for s, mask in hidden.items():
            h[s] = mask
        out = self.sums
        ctypes.memset(out, 0, ctypes.sizeof(out))
        code = self.fn(self.state, h, bytes(stock), len(stock), self.seat,
                       self.moves, self.cards, self.caps, self.nd, self.decl_bonus, self.decl_cards, self.decl_wild,
                       stream & MASK64, self.stake, out)
        if code:
            if code < 0:
                raise NativeUnavailable("the native rollouts were given a state they cannot play")
            raise self.nat._error(code)
        for i in range(self.moves):
            sums[i] += out[i]
