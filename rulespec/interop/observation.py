"""What one seat sees, as a fixed-size array per (ruleset, seats) and as a dict.

Seats and sides are listed relative to the observer (itself first), so one
policy can play every seat. The array is float32, in blocks (`Observer.blocks`
names each block's slice); every block but the last four is 0/1:

| block | size | meaning |
|---|---|---|
| hand | N | own cards |
| table | N | the table's face-up cards (a face-down card is in no block) |
| previous | N | the card the previous play left on the table |
| piles | k×N | each side's captured cards (public: captures are made face up) |
| shown | n×N | each seat's declared cards still in its hand (shown face up) |
| pending_declared | N | cards of the declarations the observer chose this turn (in its declare phase, then going with its coming play) |
| card | N | the card whose capture is being built (capture phase) |
| partial | N | the capture built so far (capture phase) |
| wild_as | R | the rank the wild card is declared as (none: all zero) |
| seat | n | the observer's seat (absolute, one-hot) |
| dealer | n | the dealer (relative, one-hot) |
| to_move | n | the seat to act as the observer can know it (relative, one-hot; all zero once over): itself when it decides, else the seat whose play comes next |
| phase | 3 | the observer's own decision: declare, card, capture (one-hot; all zero when another seat decides, or once over) |
| hand_sizes | n×(H+1) | cards in each seat's hand, one-hot per seat (0..H) |
| stock | N+1 | cards still to be dealt, one-hot (0..N) |
| round | S+1 | deal rounds dealt so far, one-hot (0..S) |
| bonuses | n×B | declarations each seat has made, per hand bonus (counts) |
| event_points | k×C | each side's points from events, per category |
| game_totals | k | each side's game total so far, in points (`Hand.running_totals()`: the totals before the hand, and with `game.points: as_made` the points made in it) |
| target | 1 | the points that end the game (`game.target`; 0 in a game of a number of hands) |

Sides (piles, event_points, game_totals) are listed from the observer's own
side on, in seat order. The last two blocks are the game's running scores:
a hand played on its own starts every side at 0; a hand of a game (the
adapters' `episode="game"`) starts from the game's totals, so they move
between hands. `Hand.observation` gives the same as `game_totals` (a list,
own side first) and `target` (None for no target).

A ruleset with a bid before play (bid:) has one more 0/1 block after `round` (before the blocks below): `bid` (V, the value bid,
one-hot; all zero before the bid; the bidder is the seat after the dealer). Until the bid the bidder's
`hand` block holds only the cards it bids on, the others' nothing, and the table block nothing (it lies
face down until the bid).

A ruleset whose table is a pile (capture.table: pile) has two more 0/1 blocks
after `round`: `top` (N, the pile's top card; all zero when the table is
empty) and `face_down` (N+1, how many cards lie face down under the pile,
one-hot).

A ruleset with builds (capture.builds) has four more 0/1 blocks after
those: `built` (N, the cards lying in builds), `build_owner` (n×N, per seat
relative to the observer, the cards of the builds it owns: a build with
two owners is in both rows), `build_fixed`
(N, the cards of fixed, multiple builds) and `build_values` (V, for each
value 1..V a build of that value stands; V the highest value a card
captures as). Which of one seat's builds has which value is in the dict
view (`builds`), not in the array, when a seat owns two builds at once.

N cards, n seats, k sides, B hand bonuses, C scoring categories, R ranks, H
the largest hand and S the rounds of the deal schedule. Nothing in it
depends on another seat's hidden cards: their hands appear only as sizes and
shown cards. Nor does it show another seat's decision in progress: how far it
has gone (how many declarations it chose, whether its card has several
captures) would tell its cards; an observer sees only the seat whose play
comes next (`Hand.current_seat`). Which seats are asked to declare, and when,
tells nothing (rulespec/interop/decisions.py: every seat the rules let declare
is asked, whatever its cards). The array is a view of the present, not a
record: OpenSpiel's information state (rulespec/interop/openspiel.py) is the
one that remembers every step.
"""
from __future__ import annotations

from math import comb

import numpy as np

from rulespec.interop.decisions import CAPTURE, PHASES, Decisions
from rulespec.run.pickling import state_with_rules, state_without_rules
from rulespec.run.protocol import CompiledRules

# Byte -> its 8 bits, lowest first, as float32: turns the packed 0/1 blocks into the array in one step.
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)


def action_mask(d: Decisions, size: int) -> np.ndarray:
    """The legal-action mask of the seat to act: int8, 1 at each of `d.legal_actions()`, of `size`."""
    # Filled as bytes and wrapped, not np.zeros and a fancy index: half the time for the few ones of a mask.
    buf = bytearray(size)
    for action in d.legal_actions():
        buf[action] = 1
    return np.frombuffer(buf, np.int8)


class Observer:
    """Encodes a `Decisions` state for one seat."""

    def __init__(self, rules: CompiledRules, seats: int):
        self.rules = rules
        self.n = seats
        self.k = rules.SIDES[seats]
        self.N = rules.N_CARDS
        self.bonuses = list(rules.HAND_BONUSES)
        self.categories = list(rules.CATEGORIES)
        self.n_ranks = len(rules.RANK_NAMES)
        n, k, N = self.n, self.k, self.N
        schedule = rules.schedule(seats)
        self.max_hand = max(seat_cards for seat_cards, _, _ in schedule)
        bit_blocks = [("hand", N), ("table", N), ("previous", N), ("piles", k * N), ("shown", n * N),
                      ("pending_declared", N), ("card", N), ("partial", N), ("wild_as", self.n_ranks),
                      ("seat", n), ("dealer", n), ("to_move", n), ("phase", len(PHASES)),
                      ("hand_sizes", n * (self.max_hand + 1)), ("stock", N + 1), ("round", len(schedule) + 1)]
        bid = getattr(rules, "BID", None)
        if bid is not None:              # the value bid, one-hot
            bit_blocks += [("bid", max(bid["values"]))]
        self._pile = bool(rules.PILE)
        if self._pile:                   # the pile's top card and how many lie face down under it
            bit_blocks += [("top", N), ("face_down", N + 1)]
        builds = getattr(rules, "BUILDS", None)
        self._builds = builds is not None
        if self._builds:                 # capture.builds: the builds' cards, owners, fixed flags and values
            self.max_build = max((v for values in builds["hand_values"] for v in values), default=0)
            bit_blocks += [("built", N), ("build_owner", n * N), ("build_fixed", N), ("build_values", self.max_build)]
        count_blocks = [("bonuses", n * len(self.bonuses)), ("event_points", k * len(self.categories)),
                        ("game_totals", k), ("target", 1)]
        self.blocks: dict[str, slice] = {}
        pos = 0
        for name, size in bit_blocks + count_blocks:
            self.blocks[name] = slice(pos, pos + size)
            pos += size
        self.n_bits = sum(size for _, size in bit_blocks)
        self.size = pos
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        # A seat declares a bonus at most once per set of its cards, in each round: C(H, size) per round.
        bonus_high = [len(schedule) * comb(self.max_hand, rules.HAND_BONUSES[b].size) for b in self.bonuses]
        self.high[self.blocks["bonuses"]] = np.tile(np.array(bonus_high, np.float32), n) if bonus_high else []
        # Event points have no bound short of the rules' arithmetic: they stay unbounded.
        self.low[self.blocks["event_points"]] = -np.inf
        self.high[self.blocks["event_points"]] = np.inf
        # Game totals likewise (a category may score below zero). The target is the ruleset's constant, its
        # bounds left open above (equal bounds make Gymnasium's checker warn).
        self.low[self.blocks["game_totals"]] = -np.inf
        self.high[self.blocks["game_totals"]] = np.inf
        self.target = float(rules.TARGET or 0)
        self.low[self.blocks["target"]] = min(0.0, self.target)
        self.high[self.blocks["target"]] = np.inf
        # The packed bytes cover the count blocks too (zero bits there), so one look-up gives the whole array.
        self._nbytes = (self.size + 7) // 8
        self._bonus_index = {b: i for i, b in enumerate(self.bonuses)}
        self._category_index = {c: i for i, c in enumerate(self.categories)}
        self._events_seen: dict[int, tuple] = {}        # seat -> (events list, how many counted, counts)
        at = {name: sl.start for name, sl in self.blocks.items()}
        self._sizes_at, self._width = at["hand_sizes"], self.max_hand + 1
        self._wild_at, self._seat_at, self._dealer_at = at["wild_as"], at["seat"], at["dealer"]
        self._stock_at, self._round_at, self._to_move_at, self._phase_at = (at["stock"], at["round"], at["to_move"],
                                                                             at["phase"])
        # Per observer seat, precomputed so that array() does no modular arithmetic and no loop it can avoid:
        # (side, shift) of each pile; (seat, shift) of each seat's shown cards; (seat, offset) of its hand size;
        # the seat and dealer bits by dealer; the to_move bits by the turn (another seat decides), and the to_move and
        # phase bits by phase (the observer decides).
        self._pile_shifts = [[((seat % k + j) % k, (3 + j) * N) for j in range(k)] for seat in range(n)]
        self._shown_shifts = [[((me + j) % n, (3 + k + j) * N) for j in range(n)] for me in range(n)]
        self._size_shifts = [[((me + j) % n, self._sizes_at + j * self._width) for j in range(n)] for me in range(n)]
        self._seat_bits = [[1 << self._seat_at + me | 1 << self._dealer_at + (dealer - me) % n for dealer in range(n)]
                           for me in range(n)]
        self._own_turn_bits = [1 << self._to_move_at | 1 << self._phase_at + phase for phase in range(len(PHASES))]
        self._other_turn_bits = [[1 << self._to_move_at + (turn - me) % n for turn in range(n)] for me in range(n)]
        self._pending_at = (3 + k + n) * N
        # Cards the rounds still to come will deal, by the number of rounds dealt (Hand.stock_size()).
        self._stock = [sum(c * seats + t for c, t, _ in schedule[r:]) for r in range(len(schedule) + 1)]
        # The stock and round bits, by the number of rounds dealt.
        self._round_bits = [1 << self._stock_at + self._stock[r] | 1 << self._round_at + r
                            for r in range(len(schedule) + 1)]
        self._shift2 = 2 * N
        self._totals_at = at["game_totals"]
        self._as_made = rules.POINTS == "as_made"
        self._scores_seen: dict[tuple, np.ndarray] = {}     # (totals before the hand, seat) -> _scores()

    # Pickled (and deep-copied) with the ruleset's reference in place of its module, as a Hand is
    # (run/pickling.py); the event counts' cache starts empty.
    def __getstate__(self) -> dict:
        state = state_without_rules(self.__dict__)
        state["_events_seen"] = {}
        state["_scores_seen"] = {}
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state_with_rules(state))

    def array(self, d: Decisions, seat: int) -> np.ndarray:
        """The observation of `seat` as a float32 array of `self.size`."""
        hand = d.hand
        hands = hand.hands
        # Every 0/1 block as one integer, each block shifted into place (offsets from self.blocks).
        if hand.bid_pending:             # before the bid: the bidder's cards bid on, the table face down
            big = (hand.bid_cards if seat == hand.bidder else 0) | self._seat_bits[seat][hand.dealer] \
                | self._round_bits[hand.round]
        else:
            big = (hands[seat] | (hand.table & ~hand.face_down) << self.N | hand.previous << self._shift2
                   | self._seat_bits[seat][hand.dealer] | self._round_bits[hand.round])
        if hand.bid is not None:
            big |= 1 << self.blocks["bid"].start + hand.bid - 1
        piles = hand.piles
        for side, shift in self._pile_shifts[seat]:
            big |= piles[side] << shift
        shown = hand.shown
        if any(shown):                      # shown cards are rare: most states skip this loop
            for s, shift in self._shown_shifts[seat]:
                big |= (shown[s] & hands[s]) << shift
        for s, size_at in self._size_shifts[seat]:
            big |= 1 << size_at + hands[s].bit_count()
        if not hand.over:
            phase = d.phase
            if d.seat != seat:
                # Another seat decides: only the public turn shows (see the module docstring).
                big |= self._other_turn_bits[seat][hand.turn]
            else:
                big |= self._own_turn_bits[phase]
                if d.chosen:
                    pending = 0
                    for decl in d.chosen:
                        pending |= decl.cards
                    big |= pending << self._pending_at
                if phase == CAPTURE:
                    shift = self._pending_at + self.N
                    big |= (1 << d.card) << shift | d.partial << shift + self.N
        if hand.wild_as is not None:
            big |= 1 << self._wild_at + hand.wild_as - self.N
        if self._pile:
            big |= hand.top_mask() << self.blocks["top"].start | 1 << self.blocks["face_down"].start + \
                hand.face_down.bit_count()
        if self._builds and hand.builds:
            big |= self._build_bits(hand, seat)
        out = _BITS.take(np.frombuffer(big.to_bytes(self._nbytes, "little"), np.uint8), axis=0).reshape(-1)
        events = hand.events
        if events:
            seen = self._events_seen.get(seat)
            if seen is not None and seen[0] is events and seen[1] == len(events):
                counts = seen[2]            # no event since this seat last looked
            else:
                counts = self._event_counts(events, seat)
            out[self.n_bits:self.size] = counts
        out = out[:self.size]
        out[self._totals_at:] = self._scores(hand, seat)       # game_totals and target, the last blocks
        return out

    def _scores(self, hand, seat: int) -> np.ndarray:
        """The game_totals and target blocks for `seat`. Unless points count as they are made, they are the
        hand's totals before it: kept per (totals, seat), as a list converted at every call costs more than the
        rest of array() together."""
        if self._as_made:
            return np.array(hand.relative_totals(seat) + [self.target], np.float32)
        key = (hand.before, seat)
        scores = self._scores_seen.get(key)
        if scores is None:
            if len(self._scores_seen) >= 1024:      # a long run of games: forget, rather than grow
                self._scores_seen.clear()
            scores = self._scores_seen[key] = np.array(hand.relative_totals(seat) + [self.target], np.float32)
        return scores

    def _build_bits(self, hand, seat: int) -> int:
        """The four build blocks of `seat`'s view, shifted into place."""
        at = self.blocks
        n, N = self.n, self.N
        bits = 0
        for b in hand.builds:
            bits |= b.cards << at["built"].start
            for o in b.owners:           # every owner's row (capture.builds.owners: per_side may give two)
                bits |= b.cards << at["build_owner"].start + ((o - seat) % n) * N
            if b.fixed:
                bits |= b.cards << at["build_fixed"].start
            if b.value <= self.max_build:
                bits |= 1 << at["build_values"].start + b.value - 1
        return bits

    def _event_counts(self, events: list, seat: int) -> np.ndarray:
        """The bonuses and event_points blocks for `seat`, updated with the events added since last asked."""
        seen = self._events_seen.get(seat)
        if seen is None or seen[0] is not events or seen[1] > len(events):
            seen = (events, 0, np.zeros(self.size - self.n_bits, np.float32))
        _, done, counts = seen
        if done == len(events):
            return counts
        n, k = self.n, self.k
        nb, nc = len(self.bonuses), len(self.categories)
        me_side = seat % k
        for e in events[done:]:
            i = self._bonus_index.get(e.name)
            if i is not None and e.seat is not None:
                counts[((e.seat - seat) % n) * nb + i] += 1
            c = self._category_index.get(e.category)
            if c is not None and e.side is not None:
                counts[n * nb + ((e.side - me_side) % k) * nc + c] += e.points
        self._events_seen[seat] = (events, len(events), counts)
        return counts

    def dict(self, d: Decisions, seat: int) -> dict:
        """The same view in readable form: the engine's `observation(seat)` and the decision in progress."""
        obs = d.hand.observation(seat)
        mine = d.seat == seat and d.current_seat is not None
        obs.update({
            # Another seat's decision in progress is not shown (see the module docstring).
            "phase": PHASES[d.phase] if mine else None,
            "to_move": seat if mine else d.hand.current_seat,
            "stock": d.hand.stock_size(),
            "pending_declarations": [tuple(x) for x in d.chosen] if mine else [],
            "card": d.card if mine and d.phase == CAPTURE else None,
            "partial": [c for c in range(self.N) if d.partial >> c & 1] if mine and d.phase == CAPTURE else [],
        })
        return obs
