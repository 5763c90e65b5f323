"""A seat's information state as a fixed-size array: everything it has seen and chosen, in order.

OpenSpiel's information-state tensor (rulespec/interop/openspiel.py). It holds what the
information-state string holds, so two states get the same array exactly when they get
the same string (tested), with one exception: of a deal thrown in before the first play,
the array keeps only that it happened (the `thrown_in` count), not its cards (the deck is
gathered and shuffled anew: nothing of them bears on the hand).

float32, in blocks (`InfoStateEncoder.blocks` names each block's slice); seats absolute:

| block | size | meaning |
|---|---|---|
| seat | n | the seat whose information state it is (one-hot) |
| thrown_in | 1 | how many deals were thrown in |
| deals | S×2N | per round dealt: the table laid, then the seat's own cards |
| moves | M×(4+n+2N) | per move made, in order: play or knock (a pass is a knock of nothing), then a count of its declarations and of those voided, the seat (one-hot), the card played (one-hot), the cards captured |
| declarations | T×(B+N+R+1) | the moves' declarations in the same order (each move's kept ones, then its voided ones): bonus (one-hot), cards, the wild card's declared rank (one-hot; none: zero), voided |
| phase | 3 | the seat's own decision in progress: declare, card, capture (one-hot; zero when another seat decides) |
| card | N | the card whose capture it is building |
| partial | N | the capture built so far |
| chosen | P×(B+N+R+1) | the declarations it has chosen this turn, in order |
| game_totals | k | each side's game total so far, in points, the seat's own side first (as the observation's) |
| target | 1 | the points that end the game (0: a game of a number of hands) |
| bid | V | with a bid before play (bid:): the value bid (one-hot; none yet: zero); a bid is no move. Until the bid, the last deal shows the bidder the cards it bids on alone, and nobody the table |

N cards, n seats, k sides, B hand bonuses, R ranks, S rounds of the deal schedule; M moves at most
(the cards dealt to the seats, and a knock per seat and round where declarations are
knocks); P declarations in one declare phase at most (one where the rules allow one a
turn, else the action space's declaration slots); T = P per declare phase that can
declare (per seat and round; per play for timing `own_turn`).
"""
from __future__ import annotations

import numpy as np

from rulespec.interop.decisions import CAPTURE, ActionLayout, Decisions
from rulespec.run.bid import BID_MOVE
from rulespec.run.protocol import CompiledRules


class InfoStateEncoder:
    """Encodes a `Decisions` state for one seat as its perfect-recall information state."""

    def __init__(self, rules: CompiledRules, seats: int, layout: ActionLayout):
        self.rules, self.n, self.N = rules, seats, rules.N_CARDS
        self.bonus_index = {b: i for i, b in enumerate(rules.HAND_BONUSES)}
        self.n_ranks = len(rules.RANK_NAMES)
        schedule = rules.schedule(seats)
        self.rounds = len(schedule)
        plays = sum(seat_cards * seats for seat_cards, _, _ in schedule)
        knocks = rules.TIMING not in ("first_turn", "own_turn") and bool(rules.HAND_BONUSES)
        self.max_moves = plays + (seats * self.rounds if knocks else 0)
        self.per_phase = 0 if not rules.HAND_BONUSES else 1 if rules.PER_TURN == "one" else \
            layout.n_declaration_slots
        phases = plays if rules.TIMING == "own_turn" else seats * self.rounds
        self.max_declarations = phases * self.per_phase
        n, N = seats, self.N
        self.move_width = 4 + n + 2 * N
        self.token_width = len(self.bonus_index) + N + self.n_ranks + 1 if rules.HAND_BONUSES else 0
        sizes = [("seat", n), ("thrown_in", 1), ("deals", self.rounds * 2 * N),
                 ("moves", self.max_moves * self.move_width),
                 ("declarations", self.max_declarations * self.token_width), ("phase", 3), ("card", N),
                 ("partial", N), ("chosen", self.per_phase * self.token_width), ("game_totals", rules.SIDES[seats]),
                 ("target", 1)]
        bid = getattr(rules, "BID", None)
        if bid is not None:
            sizes.append(("bid", max(bid["values"])))
        self.blocks: dict[str, slice] = {}
        pos = 0
        for name, size in sizes:
            self.blocks[name] = slice(pos, pos + size)
            pos += size
        self.size = pos
        self.target = float(rules.TARGET or 0)

    def array(self, d: Decisions, seat: int) -> np.ndarray:
        """The information state of `seat` as a float32 array of `self.size`."""
        out = np.zeros(self.size, np.float32)
        self.fill(out, d, seat)
        return out

    def fill(self, out: np.ndarray, d: Decisions, seat: int) -> None:
        """Write the information state of `seat` into `out` (zeroed first)."""
        out.fill(0)
        at = {name: sl.start for name, sl in self.blocks.items()}
        N = self.N
        out[at["seat"] + seat] = 1
        deals = []
        last_deal = max((i for i, e in enumerate(d.log) if e[0] == "deal"), default=None)
        for i, entry in enumerate(d.log):
            if entry[0] != "deal":
                continue
            if entry[1] is None:                # the deal before was thrown in
                deals.pop()
                out[at["thrown_in"]] += 1
            else:
                deals.append(d.seen_of_deal(entry, seat, i == last_deal))
        for r, (table, mine) in enumerate(deals):
            self._bits(out, at["deals"] + 2 * N * r, table)
            self._bits(out, at["deals"] + 2 * N * r + N, mine)
        move = token = 0
        for entry in d.log:
            if entry[0] == "deal":
                continue
            base = at["moves"] + move * self.move_width
            if entry[0] == "play" and entry[2] == BID_MOVE:
                out[at["bid"] + entry[3] - 1] = 1
                continue
            if entry[0] == "play":
                _, s, card, capture, decls, voided = entry
                out[base] = 1
                out[base + 4 + self.n + card] = 1
                self._bits(out, base + 4 + self.n + N, capture)
            else:
                _, s, decls, voided = entry
                out[base + 1] = 1
            out[base + 2], out[base + 3] = len(decls), len(voided)
            out[base + 4 + s] = 1
            for decl, void in [(x, False) for x in decls] + [(x, True) for x in voided]:
                self._token(out, at["declarations"] + token * self.token_width, decl, void)
                token += 1
            move += 1
        if move > self.max_moves or token > self.max_declarations:
            raise AssertionError(f"information state over its bounds: {move} moves of {self.max_moves}, "
                                 f"{token} declarations of {self.max_declarations}")
        if d.current_seat == seat:
            out[at["phase"] + d.phase] = 1
            if d.phase == CAPTURE:
                out[at["card"] + d.card] = 1
                self._bits(out, at["partial"], d.partial)
            for i, decl in enumerate(d.chosen):
                self._token(out, at["chosen"] + i * self.token_width, decl, False)
        out[self.blocks["game_totals"]] = d.hand.relative_totals(seat)
        out[at["target"]] = self.target

    def _token(self, out: np.ndarray, base: int, decl, voided: bool) -> None:
        out[base + self.bonus_index[decl.bonus]] = 1
        base += len(self.bonus_index)
        self._bits(out, base, decl.cards)
        if decl.wild_rank is not None:
            out[base + self.N + decl.wild_rank] = 1
        out[base + self.N + self.n_ranks] = voided

    @staticmethod
    def _bits(out: np.ndarray, base: int, mask: int) -> None:
        while mask:
            low = mask & -mask
            out[base + low.bit_length() - 1] = 1
            mask ^= low
