"""The build moves of a card counted exactly and drawn by index, without listing them.

A table with many loose cards offers more build moves than a list holds (builds.MAX_BUILD_MOVES). Whether the
loose cards a build move joins are allowed (builds.build_allowed) depends only on how many of them there are
of each kind, a kind being the values a card counts as on the table: cards of one kind stand in for each other
in every set. So the loose cards a move may join are counted per count vector (how many of each kind), each
vector standing for the product of binomials of choosing that many cards of each kind; the vectors allowed are
found by closing the card's own sets under adding whole sets of the value (a knapsack over vectors, not over
cards). The r-th move is the vector whose cumulative count passes r, then the r-th choice of cards of each
kind (the combinatorial number system): every legal build move is exactly one index, so a uniform index is
a uniform move (Hand.random_move past the bound).

A count vector is an int holding one field per kind, each field the count plus a fixed offset, so that adding a
set is one addition and a count above the kind's cards sets the field's top bit (`Kinds.fits`).
"""
from __future__ import annotations

from bisect import bisect_right
from math import comb

from rulespec.run import builds as _builds
from rulespec.run.runtime import bits_of as _bits

# From this many loose cards on, Hand counts a card's moves before listing them: a count past the bound refuses
# the list at once (the listing would refuse it too, after growing it to the bound), so that a crowded table's
# draw (Hand.random_move) does not first list most of what it cannot list. Below it, listing is cheaper.
COUNT_FIRST = 18


class Kinds:
    """The loose cards by kind (the values each counts as on the table), with the packing of count vectors."""

    __slots__ = ("cards", "values", "width", "guard", "zero", "unit_of", "_counted")

    def __init__(self, cfg: "_builds.Config", loose: int):
        by: dict[tuple[int, ...], list[int]] = {}
        for c in _bits(loose):
            by.setdefault(tuple(sorted(set(cfg.table_values[c]))), []).append(c)
        kinds = sorted(by)
        self.cards = [by[k] for k in kinds]          # each kind's cards, ascending
        self.values = kinds
        top = max((len(cs) for cs in self.cards), default=0)
        self.width = (top + 1).bit_length() + 1      # a field holds 0..2*top+1; its top bit is the guard
        half = 1 << (self.width - 1)
        self.guard = sum(half << (i * self.width) for i in range(len(kinds)))
        # each field starts at half-1-n: it reaches the guard bit exactly when its count passes n
        self.zero = sum((half - 1 - len(cs)) << (i * self.width) for i, cs in enumerate(self.cards))
        self.unit_of = {c: 1 << (i * self.width) for i, cs in enumerate(self.cards) for c in cs}
        self._counted: dict[int, list[int]] = {}     # counts() of the vectors weight_within judged, kept

    def vector(self, mask: int) -> int:
        """The count vector of a set of loose cards."""
        return self.zero + sum(self.unit_of[c] for c in _bits(mask))

    def unit(self, i: int) -> int:
        return 1 << (i * self.width)

    def fits(self, vector: int) -> bool:
        return not vector & self.guard

    def counts(self, vector: int) -> list[int]:
        """The count of each kind a vector holds."""
        mask, half = (1 << self.width) - 1, 1 << (self.width - 1)
        return [((vector >> (i * self.width)) & mask) - (half - 1 - len(cs)) for i, cs in enumerate(self.cards)]

    def weight(self, vector: int) -> int:
        """How many sets of loose cards the vector stands for."""
        w = 1
        for n, cs in zip(self.counts(vector), self.cards):
            w *= comb(len(cs), n)
        return w

    def sets_totalling(self, target: int) -> list[int]:
        """The (relative) count vectors of the non-empty sets of loose cards whose values, one above 0 chosen
        per card, can total `target` (builds._totalling's sets, by kind)."""
        out: list[int] = []

        def grow(i: int, vec: int, totals: frozenset, any_card: bool):
            if i == len(self.values):
                if any_card and target in totals:
                    out.append(vec)
                return
            positive = [t for t in self.values[i] if t > 0]
            grow(i + 1, vec, totals, any_card)
            now = totals
            for n in range(1, len(self.cards[i]) + 1 if positive else 1):
                now = frozenset(s + t for s in now for t in positive if s + t <= target)
                if not now:
                    break
                grow(i + 1, vec + n * self.unit(i), now, True)

        if target > 0:
            grow(0, 0, frozenset({0}), False)
        return out

    def close(self, starts, sets: list[int]) -> set[int]:
        """Every vector reached from `starts` (absolute) by adding sets (relative) while each count fits."""
        seen = set(starts)
        todo = list(seen)
        while todo:
            vec = todo.pop()
            for s in sets:
                nxt = vec + s
                if nxt not in seen and not nxt & self.guard:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def within(self, inside: int, outside: int) -> tuple[list[int], list[int]] | None:
        """Per kind, the least and most cards a set of loose cards may hold where it must hold every loose card
        of `inside` and none of `outside`: (forced, available); None where `inside` holds a card not loose."""
        if inside & ~self.loose:
            return None
        forced = [sum(1 for c in cs if inside >> c & 1) for cs in self.cards]
        available = [sum(1 for c in cs if not outside >> c & 1 or inside >> c & 1) for cs in self.cards]
        return forced, available

    def weight_within(self, vector: int, bounds: tuple[list[int], list[int]]) -> int:
        """How many of the vector's sets hold every card forced in and none forced out (Kinds.within)."""
        counts = self._counted.get(vector)
        if counts is None:
            counts = self._counted[vector] = self.counts(vector)
        w = 1
        for n, lo, hi in zip(counts, *bounds):
            if not lo <= n <= hi:
                return 0
            w *= comb(hi - lo, n - lo)
        return w

    def only_within(self, vector: int, inside: int, outside: int) -> int:
        """The one set of the vector's where weight_within is 1: the cards forced in, and each kind's free
        cards all taken or none (comb(free, k) is 1 only for k 0 or free)."""
        mask = inside & self.loose
        for n, cs in zip(self.counts(vector), self.cards):
            chosen = [c for c in cs if inside >> c & 1]
            if n > len(chosen):
                mask |= sum(1 << c for c in cs if not outside >> c & 1 and not inside >> c & 1)
        return mask

    @property
    def loose(self) -> int:
        return sum(1 << c for c in self.unit_of)

    def unrank(self, vector: int, r: int) -> int:
        """The r-th set of loose cards (0 <= r < weight(vector)) of the vector's counts: a mixed radix of one
        combination per kind, each by the combinatorial number system."""
        mask = 0
        for n, cs in zip(self.counts(vector), self.cards):
            r, digit = divmod(r, comb(len(cs), n))
            mask |= _combination(cs, n, digit)
        return mask


def _combination(cards: list[int], n: int, r: int) -> int:
    """The r-th (0 <= r < comb(len(cards), n)) n-card subset of `cards`, as a mask (lexicographic order)."""
    mask, i = 0, 0
    while n:
        # the subsets holding cards[i] come first: comb(len - i - 1, n - 1) of them
        with_it = comb(len(cards) - i - 1, n - 1)
        if r < with_it:
            mask |= 1 << cards[i]
            n -= 1
        else:
            r -= with_it
        i += 1
    return mask


class Block:
    """The build moves of one card, one value and one joined build (or none), counted: the loose cards' count
    vectors (ascending) with their cumulative weights."""

    __slots__ = ("card", "value", "joined", "vectors", "cumulative", "kinds")

    def __init__(self, card: int, value: int, joined: "_builds.Build | None", vectors: list[int],
                 cumulative: list[int], kinds: Kinds):
        self.card, self.value, self.joined = card, value, joined
        self.vectors, self.cumulative, self.kinds = vectors, cumulative, kinds

    @property
    def count(self) -> int:
        return self.cumulative[-1] if self.cumulative else 0

    def count_within(self, inside: int, outside: int, enough: int | None = None) -> int:
        """How many of the block's moves join every table card of `inside` and none of `outside` (counted no
        further once `enough` are found)."""
        joined = self.joined.cards if self.joined is not None else 0
        bounds = self.kinds.within(inside & ~joined, outside) if not joined & outside else None
        total = 0
        for v in self.vectors if bounds is not None else ():
            total += self.kinds.weight_within(v, bounds)
            if enough is not None and total >= enough:
                break
        return total

    def only_within(self, inside: int, outside: int, n_cards: int) -> int:
        """The block's one move of count_within 1 (its mask with the value)."""
        joined = self.joined.cards if self.joined is not None else 0
        bounds = self.kinds.within(inside & ~joined, outside)
        v = next(v for v in self.vectors if self.kinds.weight_within(v, bounds))
        return _builds.build_move(self.kinds.only_within(v, inside & ~joined, outside) | joined, self.value,
                                  n_cards)

    def largest(self, rng, n_cards: int) -> int:
        """A move of the block joining the most loose cards (drawn with `rng` among those of its vector)."""
        return self.move(_largest(self.vectors, self.cumulative, self.kinds, rng), n_cards)

    def move(self, r: int, n_cards: int) -> int:
        """The r-th move of the block (0 <= r < count): its mask with the value (builds.build_move)."""
        i = bisect_right(self.cumulative, r)
        below = self.cumulative[i - 1] if i else 0
        loose = self.kinds.unrank(self.vectors[i], r - below)
        joined = self.joined.cards if self.joined is not None else 0
        return _builds.build_move(loose | joined, self.value, n_cards)


def _largest(vectors: list[int], cumulative: list[int], kinds: Kinds, rng) -> int:
    """The index (into the cumulative weights) of a set of the most loose cards among the vectors' (drawn with
    `rng` among that vector's sets)."""
    i = max(range(len(vectors)), key=lambda j: (sum(kinds.counts(vectors[j])), -j))
    below = cumulative[i - 1] if i else 0
    return below + rng.randrange(cumulative[i] - below)


class CaptureBlock:
    """The captures of one card where their unions are too many to list (`capture.combine: union`), counted:
    each allowed union of whole builds taken (`taken`, ascending, 0 for none) with every loose part, a union of
    pairwise disjoint offered sets (count vectors, cumulative weights), a set of a kind offered `alone` that
    is no such union (`alone`), or no loose card beside builds taken."""

    __slots__ = ("card", "taken", "vectors", "cumulative", "alone", "kinds")

    def __init__(self, card: int, taken: list[int], vectors: list[int], cumulative: list[int], alone: list[int],
                 kinds: Kinds):
        self.card, self.taken, self.kinds = card, taken, kinds
        self.vectors, self.cumulative, self.alone = vectors, cumulative, alone

    def _per(self, taken: int) -> int:
        return (self.cumulative[-1] if self.cumulative else 0) + len(self.alone) + (1 if taken else 0)

    @property
    def count(self) -> int:
        return sum(self._per(t) for t in self.taken)

    def _within(self, inside: int, outside: int):
        """Per union of builds taken that `inside` and `outside` allow: (taken, the loose cards forced in, the
        loose part's bounds or None where that part cannot hold them)."""
        for taken in self.taken:
            if not taken & outside:
                loose_in = inside & ~taken
                yield taken, loose_in, self.kinds.within(loose_in, outside)

    def count_within(self, inside: int, outside: int, enough: int | None = None) -> int:
        """How many of the block's captures take every table card of `inside` and none of `outside` (counted
        no further once `enough` are found)."""
        total = 0
        for taken, loose_in, bounds in self._within(inside, outside):
            if bounds is None:
                continue
            for v in self.vectors:
                total += self.kinds.weight_within(v, bounds)
                if enough is not None and total >= enough:
                    return total
            total += sum(1 for a in self.alone if a & loose_in == loose_in and not a & outside & ~loose_in)
            total += 1 if taken and not loose_in else 0
        return total

    def only_within(self, inside: int, outside: int) -> int:
        """The block's one capture of count_within 1."""
        for taken, loose_in, bounds in self._within(inside, outside):
            if bounds is None:
                continue
            for v in self.vectors:
                if self.kinds.weight_within(v, bounds):
                    return taken | self.kinds.only_within(v, loose_in, outside)
            for a in self.alone:
                if a & loose_in == loose_in and not a & outside & ~loose_in:
                    return taken | a
            if taken and not loose_in:
                return taken
        raise ValueError("no capture of the block holds those cards")

    def largest(self, rng) -> int:
        """A capture taking the most cards: the most builds allowed, with the largest loose part."""
        taken = max(self.taken, key=lambda t: (t.bit_count(), -t))
        loose = self._loose(_largest(self.vectors, self.cumulative, self.kinds, rng)) if self.vectors else 0
        alone = max(self.alone, key=lambda a: (a.bit_count(), -a), default=0)
        return taken | (alone if alone.bit_count() > loose.bit_count() else loose)

    def _loose(self, r: int) -> int:
        """The r-th union of offered sets (0 <= r < the unions' weight)."""
        i = bisect_right(self.cumulative, r)
        return self.kinds.unrank(self.vectors[i], r - (self.cumulative[i - 1] if i else 0))

    def move(self, r: int) -> int:
        """The r-th capture (0 <= r < count): the builds taken and the loose part."""
        for taken in self.taken:
            per = self._per(taken)
            if r < per:
                break
            r -= per
        unions = self.cumulative[-1] if self.cumulative else 0
        if r < unions:
            return taken | self._loose(r)
        r -= unions
        return taken | (self.alone[r] if r < len(self.alone) else 0)


def alone_mark() -> int:
    """The mark of a set offered alone (runtime.ALONE)."""
    from rulespec.run.runtime import ALONE
    return ALONE


class Counter:
    """The build moves of the cards of one turn state, counted per card, value and joined build: the vector sets
    of one table, each found once (cards of one kind of table values share them)."""

    def __init__(self, cfg: "_builds.Config", loose: int, builds: list["_builds.Build"]):
        self.cfg, self.builds = cfg, builds
        self.kinds = Kinds(cfg, loose)
        self._memo: dict = {}

    def _weighted(self, vectors) -> tuple[list[int], list[int]]:
        """The vectors ascending, with their cumulative weights."""
        order = sorted(vectors)
        cumulative, total = [], 0
        for v in order:
            total += self.kinds.weight(v)
            cumulative.append(total)
        return order, cumulative

    def _groups(self, value: int) -> list[int]:
        key = ("groups", value)
        if key not in self._memo:
            self._memo[key] = self.kinds.sets_totalling(value)
        return self._memo[key]

    def _extra(self, value: int) -> set[int]:
        """The vectors builds.build_allowed's `extra` accepts: no cards, or (with `multiple`) cards that split
        into sets each totalling the value."""
        key = ("extra", value)
        if key not in self._memo:
            zero = self.kinds.zero
            self._memo[key] = self.kinds.close([zero], self._groups(value)) if self.cfg.multiple else {zero}
        return self._memo[key]

    def _own(self, value: int, card_values: frozenset) -> set[int]:
        """The vectors build_allowed's `own_set_and_extra` accepts: the played card's own set (with it alone
        when it has the value, with loose cards totalling the rest, or laid on one card worth the value more
        with `subtract`), then `extra`."""
        key = ("own", value, card_values)
        if key in self._memo:
            return self._memo[key]
        kinds, zero = self.kinds, self.kinds.zero
        starts: set[int] = set()
        for cv in card_values:
            if cv == value:
                starts.add(zero)
            if 0 < cv < value:
                starts.update(zero + s for s in self._groups(value - cv) if kinds.fits(zero + s))
            if self.cfg.subtract:
                starts.update(zero + kinds.unit(i) for i, vs in enumerate(kinds.values)
                              if value + cv in vs and kinds.fits(zero + kinds.unit(i)))
        own = kinds.close(starts, self._groups(value)) if self.cfg.multiple else starts
        self._memo[key] = own
        return own

    def captures(self, card: int, offered: list[int], taken: list[int]) -> CaptureBlock | None:
        """The captures of `card` under `capture.combine: union` (builds.capture_options of runtime.combine_alone
        of the `offered` sets), with `taken` the unions of whole builds the card may take (0 for none) that the
        owner's rule allows, counted; None where the offered sets are not the same for every choice of loose
        cards of one kind (a kind's condition on suits or ranks, say), which this count cannot stand for."""
        kinds, mark = self.kinds, alone_mark()
        alone = sorted({s & ~mark for s in offered if s & mark})
        rest = list(dict.fromkeys(s for s in offered if not s & mark and s))
        # the offered sets stand for every choice of cards of their kinds: as many of each vector as its weight
        by_vector: dict[int, int] = {}
        for s in rest:
            v = kinds.vector(s)
            by_vector[v] = by_vector.get(v, 0) + 1
        if any(n != kinds.weight(v) for v, n in by_vector.items()):
            return None
        zero = kinds.zero
        unions = kinds.close([zero], [v - zero for v in by_vector]) - {zero}
        vectors, cumulative = self._weighted(unions)
        alone = [a for a in alone if kinds.vector(a) not in unions]
        return CaptureBlock(card, sorted(taken), vectors, cumulative, alone, kinds)

    def blocks(self, card: int, values: list[int], partners: list["_builds.Build"]) -> list[Block]:
        """The build moves of `card` as blocks (none empty), with `values` the values a build may state that the
        hand holds once the card is played (TurnView.held_without) and `partners` (TurnView.partners): the
        moves builds.build_allowed accepts, each in exactly one block once."""
        cfg, tv = self.cfg, self.cfg.table_values
        if not tv[card]:
            return []
        card_values = frozenset(tv[card])
        joined_only = {b.value for b in partners} - set(values)
        out: list[Block] = []
        for v in sorted(set(values) | joined_only):
            standing = any(b.value == v for b in self.builds)
            cases: list[tuple[_builds.Build | None, set[int]]] = []
            if v not in joined_only and not (cfg.one_per_value and standing):
                cases.append((None, self._own(v, card_values) - {self.kinds.zero}))    # joins no build
            for b in self.builds:
                if v in joined_only and (b.value != v or b not in partners):
                    continue
                vectors: set[int] = set()
                if b.value == v and cfg.multiple:
                    vectors |= self._own(v, card_values)         # the card's set joins the build of its value
                if (cfg.raise_ and not b.fixed and not (cfg.one_per_value and standing and b.value != v)
                        and ((b.value != v and v - b.value in card_values)
                             or (cfg.subtract and b.value - v in card_values))):
                    vectors |= self._extra(v)                    # raised or lowered by the card alone
                cases.append((b, vectors))
            for joined, vectors in cases:
                if vectors:
                    key = ("weighted", v, card_values, None if joined is None else joined.cards)
                    if key not in self._memo:
                        self._memo[key] = self._weighted(vectors)
                    order, cumulative = self._memo[key]
                    out.append(Block(card, v, joined, order, cumulative, self.kinds))
        return out
