"""What one seat sees, as a fixed-size array per (ruleset, seats) and as a dict.

Seats and sides are listed relative to the observer (itself first), so one
policy can play every seat. The array is float32, in blocks (`Observer.blocks`
names each block's slice):

| block | size | meaning |
|---|---|---|
| hand | N | own cards |
| table | N | the table |
| previous | N | the card the previous play left on the table |
| piles | k×N | each side's captured cards (public: captures are made face up) |
| shown | n×N | each seat's declared cards still in its hand (shown face up) |
| pending_declared | N | cards of the declarations chosen in the current declare phase |
| card | N | the card whose capture is being built (capture phase) |
| partial | N | the capture built so far (capture phase) |
| hand_sizes | n | cards in each seat's hand |
| bonuses | n×B | declarations each seat has made, per hand bonus |
| event_points | k×C | each side's points from events, per category |
| wild_as | R | the rank the wild card is declared as (none: all zero) |
| stock | 1 | cards still to be dealt |
| round | 1 | deal round (1-based) |
| seat | n | the observer's seat (absolute, one-hot) |
| dealer | n | the dealer (relative, one-hot) |
| to_move | n | the seat to act (relative, one-hot; all zero once over) |
| phase | 3 | declare, card, capture (one-hot) |

N cards, n seats, k sides, B hand bonuses, C scoring categories, R ranks.
Nothing in it depends on another seat's hidden cards: their hands appear only
as sizes and shown cards.
"""
from __future__ import annotations

import numpy as np

from rulespec.interop.decisions import CAPTURE, DECLARE, PHASES, Decisions


class Observer:
    """Encodes a `Decisions` state for one seat."""

    def __init__(self, rules, seats: int):
        self.rules = rules
        self.n = seats
        self.k = rules.SIDES[seats]
        self.N = rules.N_CARDS
        self.bonuses = list(rules.HAND_BONUSES)
        self.categories = list(rules.CATEGORIES)
        self.n_ranks = len(rules.RANK_NAMES)
        n, k, N = self.n, self.k, self.N
        # The bit blocks come first, in one run: they are unpacked from one big integer.
        bit_blocks = [("hand", N), ("table", N), ("previous", N), ("piles", k * N), ("shown", n * N),
                      ("pending_declared", N), ("card", N), ("partial", N)]
        count_blocks = [("hand_sizes", n), ("bonuses", n * len(self.bonuses)),
                        ("event_points", k * len(self.categories)), ("wild_as", self.n_ranks),
                        ("stock", 1), ("round", 1), ("seat", n), ("dealer", n), ("to_move", n),
                        ("phase", len(PHASES))]
        self.blocks: dict[str, slice] = {}
        pos = 0
        for name, size in bit_blocks + count_blocks:
            self.blocks[name] = slice(pos, pos + size)
            pos += size
        self.n_bits = sum(size for _, size in bit_blocks)
        self.size = pos
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        schedule = rules.schedule(seats)
        self.high[self.blocks["hand_sizes"]] = max(seat_cards for seat_cards, _, _ in schedule)
        self.high[self.blocks["stock"]] = N
        self.high[self.blocks["round"]] = len(schedule)
        self.high[self.blocks["bonuses"]] = np.inf       # declarations are counted, with no bound proven
        self.low[self.blocks["event_points"]] = -np.inf
        self.high[self.blocks["event_points"]] = np.inf
        self._nbytes = (self.n_bits + 7) // 8
        self._bonus_index = {b: i for i, b in enumerate(self.bonuses)}
        self._category_index = {c: i for i, c in enumerate(self.categories)}

    def array(self, d: Decisions, seat: int) -> np.ndarray:
        """The observation of `seat` as a float32 array of `self.size`."""
        hand = d.hand
        n, k, N = self.n, self.k, self.N
        me_side = seat % k
        # Every card mask, shifted into place, in the order of bit_blocks.
        big = hand.hands[seat] | hand.table << N | hand.previous << 2 * N
        shift = 3 * N
        piles = hand.piles
        for j in range(k):
            big |= piles[(me_side + j) % k] << shift
            shift += N
        shown, hands = hand.shown, hand.hands
        for j in range(n):
            s = (seat + j) % n
            big |= (shown[s] & hands[s]) << shift
            shift += N
        if d.seat == seat:
            pending = 0
            for decl in d.pending:
                pending |= decl.cards
            big |= pending << shift
            if d.phase == CAPTURE:
                big |= (1 << d.card) << shift + N | d.partial << shift + 2 * N
        out = np.empty(self.size, np.float32)
        out[:self.n_bits] = np.unpackbits(np.frombuffer(big.to_bytes(self._nbytes, "little"), np.uint8),
                                          count=self.n_bits, bitorder="little")
        out[self.n_bits:] = 0
        b = self.blocks
        out[b["hand_sizes"]] = [hands[(seat + j) % n].bit_count() for j in range(n)]
        if hand.events:
            nb, nc = len(self.bonuses), len(self.categories)
            base_b, base_c = b["bonuses"].start, b["event_points"].start
            for e in hand.events:
                i = self._bonus_index.get(e.name)
                if i is not None and e.seat is not None:
                    out[base_b + ((e.seat - seat) % n) * nb + i] += 1
                c = self._category_index.get(e.category)
                if c is not None and e.side is not None:
                    out[base_c + ((e.side - me_side) % k) * nc + c] += e.points
        if hand.wild_as is not None:
            out[b["wild_as"].start + hand.wild_as - N] = 1
        out[b["stock"].start] = hand.stock_size()
        out[b["round"].start] = hand.round
        out[b["seat"].start + seat] = 1
        out[b["dealer"].start + (hand.dealer - seat) % n] = 1
        if d.current_seat is not None:
            out[b["to_move"].start + (d.current_seat - seat) % n] = 1
            out[b["phase"].start + d.phase] = 1
        return out

    def dict(self, d: Decisions, seat: int) -> dict:
        """The same view in readable form: the engine's `observation(seat)` and the decision in progress."""
        obs = d.hand.observation(seat)
        mine = d.seat == seat and d.current_seat is not None
        obs.update({
            "phase": PHASES[d.phase] if d.current_seat is not None else None,
            "to_move": d.current_seat,
            "stock": d.hand.stock_size(),
            "pending_declarations": [tuple(x) for x in d.pending] if mine and d.phase == DECLARE else [],
            "card": d.card if mine and d.phase == CAPTURE else None,
            "partial": [c for c in range(self.N) if d.partial >> c & 1] if mine and d.phase == CAPTURE else [],
        })
        return obs
