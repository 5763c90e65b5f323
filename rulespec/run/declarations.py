"""Hand-bonus declarations a seat can make, found once per dealt hand and shared by `Hand` and the playouts.

What a seat can declare depends on its hand (the cards not yet shown, and
the whole hand the checks read), the round and whether it is the last: the
candidates are memoised on exactly that key, so each dealt hand is searched
once however often it is asked. The one rule that reads other seats' cards,
`unique_by`, is applied afterwards to the candidates, per call
(`unique_holder`).

A new dealt hand is searched by classes where the bonus conditions allow it
(the compiled `BONUS_CLASSES`: value and rank, the wild card apart, unless a
condition reads more of a card): which multisets of classes make which bonus
(with which wild-card ranks) is found once per multiset of the hand's classes
(`_plans`), and the hand's own card combinations of those classes are then
listed in the order the full search (`_search`: combinations × wild-card
ranks) would list them, so the candidates are the same, card for card. The
bots' best choice (`best`) is kept in the plan where it cannot depend on that
order, else made by the greedy `choose` walking the hand's combinations in
that order (`_choose_in_order`): between clashing declarations it follows the
order, so hands of one multiset may choose differently. (A memo per order of
the classes of the cards that make bonuses rarely hit and cost more than it
saved: it is gone.)

Where the best is keyed on the available cards alone (`by_avail`: what the
playouts ask), it has plans of its own, lighter than the candidates' (`_quick_plan`:
the answer, or the walk, and nothing else), whose combinations' multisets are
checked once per size of bonus for every bonus of that size.
"""
from __future__ import annotations

from collections import Counter
from functools import partial
from itertools import combinations, islice, product
from math import comb
from operator import itemgetter
TYPE_CHECKING = False            # typing's flag without importing typing (rulespec/run/records.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.run.runtime import bits as _bits

MEMO_LIMIT = 50_000      # dealt hands remembered per ruleset before the memo starts again
PREFILL_HANDS = 20_000   # the bots' best worked out ahead for every dealt hand while they number at most this
PREFILL_DECLARATIONS = 20_000    # and while the declarations to keep number at most this


class Declaration(NamedTuple):
    """A hand-bonus claim: the bonus, the real cards it is made with, the wild card's rank (or None)."""

    bonus: str
    cards: int
    wild_rank: int | None = None


# Declaration(*fields) without the named tuple's Python-level __new__ (the hot paths make many)
_declaration = partial(tuple.__new__, Declaration)


class Declarer:
    """The declarations of one compiled ruleset: candidates per dealt hand, and the bots' best choice."""

    def __init__(self, rules):
        self.rules = rules
        self.specs = list(rules.HAND_BONUSES.items())
        self.unique = any(spec.unique_by for _, spec in self.specs)
        self._candidates: dict = {}
        self._best: dict = {}
        # The memo key holds only what the search depends on: the cards not shown always; the
        # whole hand, the round, the last round only where a condition (or a round limit) reads them.
        reads = set(getattr(rules, "BONUS_READS", ("hand", "round", "last_round")))
        rounds = any(spec.rounds for _, spec in self.specs)
        self._hand = "hand" in reads
        self._round = "round" in reads or rounds
        self._last = "last_round" in reads or rounds
        # The best declarations keyed on the available cards alone (no unique_by, nothing else read).
        self.by_avail = not (self._hand or self._round or self._last or self.unique)
        self.best_memo = self._best
        self._ahead: dict = {}             # hands worked out ahead that declare (load_best), by available cards
        self._ahead_sizes = frozenset()    # the sizes of hand worked out ahead, every one of them
        # best_new remembers sets of available cards up to the largest size whose sets all fit in the memo:
        # bigger ones (six of 40 cards: 3.8 million) seldom come back, and kept they would fill it and
        # have it cleared of those that do
        self._memo_size = 0
        while self._memo_size < rules.N_CARDS and comb(rules.N_CARDS, self._memo_size + 1) <= MEMO_LIMIT:
            self._memo_size += 1
        # The search by classes, where some cards share one (a class per card would gain nothing).
        classes = getattr(rules, "BONUS_CLASSES", None)
        self._classes = classes if classes and len(set(classes)) < len(classes) else None
        if self._classes is not None:
            width = max(Counter(classes).values()).bit_length()     # a class's count in a hand fits
            self._code = tuple(1 << (width * k) for k in classes)   # a multiset is the sum of its codes
            self._width = width
            self._bit = tuple(1 << c for c in range(len(classes)))
            self._rev = tuple(1 << (len(classes) - 1 - c) for c in range(len(classes)))
            self._shift = len(classes)                  # a combination packed: class codes above the mask
            self._low = (1 << len(classes)) - 1
            self._packed = tuple((code << len(classes)) | (1 << c) for c, code in enumerate(self._code))
            self._cbit = tuple(1 << k for k in classes)             # a card's class as one bit
            self._count_memo: dict = {}
            self._plans: dict = {}      # (multiset of the cards, context) -> per bonus, its classes that pass
            self._passes: dict = {}     # (bonus, context) -> {multiset of a combination: its passing ranks}
            # The bots' best where it is keyed on the available cards alone (`by_avail`): a lighter plan
            # per multiset, the answer itself where it cannot depend on the cards' order (`_quick_plan`).
            self._quick: dict = {}      # multiset of the available cards -> its plan
            self._order = sorted(self.specs, key=lambda entry: -entry[1].points)   # `choose`'s, stable
            # per size of bonus: its bonuses; multiset checked -> per bonus its ranks; and for those
            # where one passes, (per bonus its ranks, what `_spread` tells of the multiset)
            self._sized: dict = {}
            for name, spec in self.specs:
                names, tested, hits = self._sized.get(spec.size, ((), {}, {}))
                self._sized[spec.size] = (names + (name,), tested, hits)

    def candidates(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """Per card combination that makes a bonus: the declarations (one per passing wild rank, in order).

        `hand` is the seat's whole hand (the checks read it), `avail` the cards
        not already shown. Every rule but `unique_by` is applied here.
        """
        key = self._key(hand, avail, round, last_round)
        got = self._candidates.get(key)
        if got is None:
            if len(self._candidates) > MEMO_LIMIT:
                self._candidates.clear()
            got = self._candidates[key] = self._find(hand, avail, round, last_round)
        return got

    def _key(self, hand: int, avail: int, round: int, last_round: bool):
        if not (self._hand or self._round or self._last):
            return avail
        return (avail, hand if self._hand else 0, round if self._round else 0, last_round if self._last else False)

    def _find(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """The candidates of a hand not seen before (what `candidates` memoises)."""
        if self._classes is None:
            return self._search(hand, avail, round, last_round)
        return self._find_by_class(hand, avail, round, last_round)

    def _find_by_class(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """`_search`'s answer from the plan of the hand's multiset of classes, mapped to its cards."""
        cards = _bits(avail)
        plan = self._plan_of(cards, hand, round, last_round)
        return self._realise(cards, plan[0]) if plan else ()

    def _plan_of(self, cards: tuple, hand: int, round: int, last_round: bool) -> tuple:
        """The plan of the cards' multiset of classes (in its context), made on first use."""
        key = sum(map(self._code.__getitem__, cards))
        context = None
        if self._hand or self._round or self._last:
            context = (sum(map(self._code.__getitem__, _bits(hand))) if self._hand else 0,
                       round if self._round else 0, last_round if self._last else False)
            key = (key, context)
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) > MEMO_LIMIT:
                self._plans.clear()
            plan = self._plans[key] = self._plan(cards, hand, round, last_round, context)
        return plan

    def _plan(self, cards: tuple, hand: int, round: int, last_round: bool, context) -> tuple:
        """What a multiset of classes can declare: () for nothing, else (per bonus, its groups; the best; the walk).

        A group is a multiset of classes that makes the bonus, as ((class, count), ...), with its
        passing ranks. Each multiset is checked once, on one combination of the hand that has it
        (any other passes alike: the conditions read classes only); `_passes` keeps the answer
        across hands. The best is `best`'s answer as (bonus, classes, rank) triples where it cannot
        depend on which cards of a class the hand holds (`_template`), else None. The walk is what
        `_choose_in_order` reads, per bonus in `choose`'s order (`_walk_entry`), where there is no best.
        """
        passes = self._passes
        if len(passes) > MEMO_LIMIT:
            passes.clear()
        codes = [self._code[c] for c in cards]
        subs_of: dict = {}            # per size: the multisets of its combinations, each once
        out = []
        tables: dict = {}             # per bonus: its passing multisets -> their ranks
        for name, spec in self.specs:
            if spec.size > len(cards) or not open_in(spec, round, last_round):
                continue
            subs = subs_of.get(spec.size)
            if subs is None:
                subs = subs_of[spec.size] = dict.fromkeys(map(sum, combinations(codes, spec.size)))
            table = passes.get((name, context))
            if table is None:
                table = passes[(name, context)] = {}
            passing = {}
            for sub in subs:
                got = table.get(sub)
                if got is None:
                    got = table[sub] = self._ranks(spec, self._pick(cards, sub), hand, round, last_round)
                if got:
                    passing[sub] = got
            if passing:
                out.append((name, tuple([(self._counts(sub), got) for sub, got in passing.items()])))
                tables[name] = passing
        if not out:
            return ()
        template = self._template(cards, out, (hand, round, last_round))
        walk = None
        if template is None:
            # `choose` sorts the options on points, stably: the bonuses in that order, their options in theirs
            walk = tuple(self._walk_entry(name, groups, tables[name])
                         for name, groups in sorted(out, key=lambda entry: -self.rules.HAND_BONUSES[entry[0]].points))
        return tuple(out), template, walk

    def _walk_entry(self, name: str, groups: tuple, table: dict) -> tuple:
        """What `_choose_in_order` needs of one bonus: its name, size, the bonuses it shares cards with,
        its classes (one bit each), and `table`: its passing multisets (sum of codes) -> passing ranks."""
        spec = self.rules.HAND_BONUSES[name]
        classes = 0
        for counts, _r in groups:
            for k, _m in counts:
                classes |= 1 << k
        return name, spec.size, spec.shares_cards_with, classes, table

    def _counts(self, sub: int) -> tuple:
        """A multiset of classes (the sum of their codes) as ((class, count), ...), classes ascending."""
        got = self._count_memo.get(sub)
        if got is None:
            width, out, k = self._width, [], 0
            rest = sub
            while rest:
                m = rest & ((1 << width) - 1)
                if m:
                    out.append((k, m))
                rest >>= width
                k += 1
            got = self._count_memo[sub] = tuple(out)
        return got

    def _pick(self, cards: tuple, sub: int) -> int:
        """Some combination of `cards` with the classes `sub` (the first cards of each class)."""
        want = dict(self._counts(sub))
        mask = 0
        for c in cards:
            k = self._classes[c]
            if want.get(k):
                want[k] -= 1
                mask |= 1 << c
        return mask

    def _template(self, cards: tuple, groups: list, context: tuple):
        """`best`'s answer in classes, where each bonus has one group that takes every card of its classes.

        Then each bonus has one option, whatever cards of those classes the hand holds, and two
        options share cards exactly where they share a class: `choose` picks alike for every hand of
        this multiset. Found by choosing on these cards and naming the chosen cards' classes.
        """
        held = Counter(self._classes[c] for c in cards)
        if any(len(g) > 1 or any(held[k] != m for k, m in g[0][0]) for _name, g in groups):
            return None
        options = [Declaration(name, self._mask_of(cards, g[0][0]), g[0][1][0]) for name, g in groups]
        return tuple((d.bonus, tuple(k for k, _m in g[0][0]), d.wild_rank)
                     for d in choose(self.rules, options, context)
                     for name, g in groups if name == d.bonus)

    def _mask_of(self, cards: tuple, counts: tuple) -> int:
        """Every card of `cards` whose class is one of `counts`' classes."""
        wanted = {k for k, _m in counts}
        mask = 0
        for c in cards:
            if self._classes[c] in wanted:
                mask |= 1 << c
        return mask

    def _realise(self, cards: tuple, plan: tuple) -> tuple:
        """The plan on the hand's cards: per combination of a passing multiset, in `combinations` order."""
        by_class = self._by_class(cards)
        return tuple([tuple([Declaration(name, mask, r) for r in ranks])
                      for name, groups in plan for _rev, mask, ranks in self._combos(by_class, groups)])

    def _by_class(self, cards: tuple) -> dict:
        classes = self._classes
        by_class: dict = {}
        for c in cards:
            by_class.setdefault(classes[c], []).append(c)
        return by_class

    def _combos(self, by_class: dict, groups: tuple) -> list:
        """The hand's combinations of one bonus's passing multisets, as (reversed mask, mask, ranks).

        In `combinations` order: `combinations` of ascending cards lists combinations in the
        lexicographic order of their cards; of two, the first holds the lowest card they do not
        share, so it has the greater mask with the bits reversed (`_rev`): sorted on that, descending.
        """
        bit, rev = self._bit, self._rev
        found = []
        for counts, ranks in groups:
            parts = []
            for k, m in counts:
                cs = by_class[k]
                parts.append([(sum(map(bit.__getitem__, combo)), sum(map(rev.__getitem__, combo)))
                              for combo in (combinations(cs, m) if m < len(cs) else (cs,))])
            if len(parts) == 1:
                found.extend([(r, mask, ranks) for mask, r in parts[0]])
                continue
            for pick in product(*parts):
                mask = r = 0
                for pm, pr in pick:       # the classes differ: their cards are disjoint
                    mask |= pm
                    r |= pr
                found.append((r, mask, ranks))
        if len(found) > 1:
            found.sort(key=itemgetter(0), reverse=True)
        return found

    def _choose_in_order(self, cards: tuple, by_points: tuple, context: tuple) -> tuple:
        """`choose` on `options` of the plan's combinations, a Declaration made for the chosen only.

        The options `choose` sorts are those of each bonus in plan order, each bonus's in
        `combinations` order; its stable sort on points gives the plan's `by_points` order of bonuses.
        A bonus's combinations are walked lazily, in that order: `combinations` of its classes' cards
        (ascending, as `cards`) lists the hand's combinations that can pass in the order of the
        combinations of all the cards, each packed as (sum of class codes, mask) in one integer
        (`_packed`); the sum names its multiset (`table`: passing ones only). Where the bonus shares
        no cards, the cards already used are left out beforehand: every combination holding one
        would be skipped; and once fewer than its size are left unused, the walk of that bonus
        ends. With one declaration a turn (`PER_TURN`), the first chosen is the answer.
        """
        rules = self.rules
        one = rules.PER_TURN == "one"
        wild_bit = rules.WILD_BIT
        cbit, packed = self._cbit, self._packed
        shift, low = self._shift, self._low
        chosen: list = []
        used = 0
        wild_rank = None
        for name, size, shares_with, wanted, table in by_points:
            pool = [packed[c] for c in cards if cbit[c] & wanted and not (used >> c & 1 and not shares_with)]
            free = len(pool)
            if free < size:
                continue
            for combo in combinations(pool, size):
                s = sum(combo)
                ranks = table.get(s >> shift)
                if ranks is None:
                    continue
                mask = s & low
                r = ranks[0]
                if mask & used and (not shares_with or
                                    not all(o_name in shares_with for o_name, o_mask, _r in chosen if o_mask & mask)):
                    continue
                if mask & used & wild_bit and r != wild_rank:                  # as `choose`
                    joined = join_rank(rules, chosen, name, mask, r, wild_rank, context)
                    if joined is None:
                        continue
                    r, chosen = joined
                if one:
                    return (_declaration((name, mask, r)),)      # nothing was chosen before it
                chosen.append((name, mask, r))
                used |= mask
                if r is not None:
                    wild_rank = r
                if not shares_with:
                    free -= size            # its cards leave the pool
                    if free < size:
                        break
        return tuple(map(_declaration, chosen))

    def _best_quick(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """`best`'s answer for available cards not seen before, keyed on them alone (`by_avail`).

        From the plan of their multiset of classes (`_quick_plan`): the answer in classes, each
        declaration with every card of the hand of its classes, or the walk over the hand's cards.
        """
        cards = _bits(avail)
        key = sum(map(self._code.__getitem__, cards))
        plan = self._quick.get(key)
        if plan is None:
            if len(self._quick) > MEMO_LIMIT:
                self._quick.clear()
            plan = self._quick[key] = self._quick_plan(cards, key, hand, round, last_round)
        if plan.__class__ is not tuple:
            return self._choose_in_order(cards, plan, (hand, round, last_round))
        if not plan:
            return ()
        if len(plan) == 1:
            name, cards_of, rank = plan[0]
            return (_declaration((name, avail & cards_of, rank)),)
        return tuple([_declaration((name, avail & cards_of, rank)) for name, cards_of, rank in plan])

    def _quick_plan(self, cards: tuple, key: int, hand: int, round: int, last_round: bool):
        """What `_best_quick` needs of a multiset of classes (`key`): a tuple of (bonus, its classes'
        cards, rank), `best`'s answer, where it cannot depend on which cards of a class the hand
        holds; else a list, the walk `_choose_in_order` reads (per bonus in `choose`'s order).

        The answer is kept where each bonus has at most one passing multiset and it takes every
        card of its classes (as `_template`): then each bonus has one option and two options share
        cards exactly where they share a class, so `choose` picks alike for every hand of this
        multiset. The multisets of the hand's combinations are listed once per size, and each is
        checked once across hands for every bonus of that size (`_sized`). (No round limits here:
        a bonus that has them is keyed on the round, not `by_avail`.)
        """
        codes = [self._code[c] for c in cards]
        passing: dict = {}            # bonus -> its passing multisets
        for size, (names, tested, hits) in self._sized.items():
            if size > len(cards):
                continue
            subs = set(map(sum, combinations(codes, size)))
            new = subs.difference(tested)
            if new:
                self._test(cards, new, names, tested, hits, hand, round, last_round)
            for sub in hits.keys() & subs:
                got, spread = hits[sub]
                for name, ranks in zip(names, got):
                    if ranks:
                        passing.setdefault(name, []).append((sub, ranks, spread))
        if not passing:
            return ()
        walk = []
        options: list | None = []     # per bonus, its one option as (Declaration, its classes' cards)
        avail = sum(map(self._bit.__getitem__, cards))
        for name, spec in self._order:
            subs = passing.get(name)
            if subs is None:
                continue
            wanted = 0
            for _sub, _ranks, (_fields, _cards_of, classes) in subs:
                wanted |= classes
            walk.append((name, spec.size, spec.shares_cards_with, wanted, {sub: ranks for sub, ranks, _s in subs}))
            if options is not None:
                if len(subs) == 1:
                    sub, ranks, (fields, cards_of, _classes) = subs[0]
                    if key & fields == sub:
                        options.append((Declaration(name, avail & cards_of, ranks[0]), cards_of))
                        continue
                options = None
        if options is None:
            return walk
        if len(options) == 1:
            d, cards_of = options[0]
            return ((d.bonus, cards_of, d.wild_rank),)
        cards_of = {d.bonus: of for d, of in options}
        return tuple([(d.bonus, cards_of[d.bonus], d.wild_rank)
                      for d in choose(self.rules, [d for d, _o in options], (hand, round, last_round))])

    def _test(self, cards: tuple, new: set, names: tuple, tested: dict, hits: dict, hand: int, round: int,
              last_round: bool) -> None:
        """Check multisets of classes not met before (of combinations of `cards`) for every bonus of their size."""
        if len(tested) > MEMO_LIMIT:
            tested.clear()
        specs = self.rules.HAND_BONUSES
        for sub in new:
            mask = self._pick(cards, sub)
            got = tested[sub] = tuple([self._ranks(specs[name], mask, hand, round, last_round) for name in names])
            if any(got):
                hits[sub] = (got, self._spread(sub))

    def _spread(self, sub: int) -> tuple:
        """Of a multiset of classes: its classes' fields in a multiset's code, every card of those
        classes, and the classes as bits."""
        full = (1 << self._width) - 1
        fields = cards_of = bits_of = 0
        for k, _m in self._counts(sub):
            fields |= full << (self._width * k)
            bits_of |= 1 << k
        for c, k in enumerate(self._classes):
            if bits_of >> k & 1:
                cards_of |= 1 << c
        return fields, cards_of, bits_of

    def _best_by_class(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """`best`'s answer for a hand not seen before, from its plan (no `unique_by` bonus)."""
        cards = _bits(avail)
        plan = self._plan_of(cards, hand, round, last_round)
        if not plan:
            return ()
        template = plan[1]
        classes = self._classes
        if template is None:
            return self._choose_in_order(cards, plan[2], (hand, round, last_round))
        out = []
        for name, wanted, rank in template:
            mask = 0
            for c in cards:
                if classes[c] in wanted:
                    mask |= 1 << c
            out.append(Declaration(name, mask, rank))
        return tuple(out)

    def _ranks(self, spec, mask: int, hand: int, round: int, last_round: bool) -> tuple:
        """The wild-card ranks (None: as it is) with which the real cards `mask` make the bonus, in order.

        The first that passes only, unless the bonus is `unique_by` (then every one that passes).
        """
        passing = self._passing_ranks(spec, mask, hand, round, last_round)
        return tuple(passing) if spec.unique_by else tuple(islice(passing, 1))

    def _passing_ranks(self, spec, mask: int, hand: int, round: int, last_round: bool):
        """Each wild-card rank (None: as it is) with which the real cards `mask` make the bonus, in order
        (the ranks only where `mask` holds the wild card and the bonus may declare it)."""
        rules = self.rules
        ranks = [None]
        if mask & rules.WILD_BIT and spec.wild and rules.DECLARE_WILD:
            ranks += list(rules.WILD_DECLARE_AS)
        for r in ranks:
            probe = mask if r is None else (mask ^ rules.WILD_BIT) | (1 << (rules.N_CARDS + r))
            if not spec.check(probe, hand, round, last_round):
                continue
            if any(other in rules.HAND_BONUSES and can_make(rules, other, mask, hand, round, last_round)
                   for other in spec.excluded_by):
                continue
            yield r

    def _search(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """The full search: every combination of the cards, every rank of a wild card among them."""
        cards = _bits(avail)
        out = []
        for name, spec in self.specs:
            if spec.size > len(cards) or not open_in(spec, round, last_round):
                continue
            for combo in combinations(cards, spec.size):
                mask = sum(1 << c for c in combo)
                passing = [_declaration((name, mask, r)) for r in self._ranks(spec, mask, hand, round, last_round)]
                if passing:
                    out.append(tuple(passing))
        return tuple(out)

    def options(self, hand: int, avail: int, round: int, last_round: bool, unique_ok=None) -> list[Declaration]:
        """Single declarations the seat could make (Hand.bonus_options); `unique_ok(decl)` for `unique_by`."""
        out = []
        for passing in self.candidates(hand, avail, round, last_round):
            for d in passing:
                if unique_ok is None or not self.rules.HAND_BONUSES[d.bonus].unique_by or unique_ok(d):
                    out.append(d)
                    break
        return out

    def every_option(self, hand: int, avail: int, round: int, last_round: bool, unique_ok=None) -> list[Declaration]:
        """Every single declaration the seat could make (Hand.bonus_options): `options`, each combination
        holding the wild card with every rank that makes its bonus ("the player names the rank"), in order:
        as itself first, then the ranks in WILD_DECLARE_AS's order. The bots need only the first
        (`options`): a rank never changes a bonus's points, and `choose` gives the wild card the rank
        another declaration needs (`same_rank`)."""
        rules = self.rules
        out = []
        for first in self.options(hand, avail, round, last_round, unique_ok):
            spec = rules.HAND_BONUSES[first.bonus]
            if not (first.cards & rules.WILD_BIT and spec.wild and rules.DECLARE_WILD):
                out.append(first)
                continue
            for rank in self._passing_ranks(spec, first.cards, hand, round, last_round):
                d = Declaration(first.bonus, first.cards, rank)
                if unique_ok is None or not spec.unique_by or unique_ok(d):
                    out.append(d)
        return out

    def best(self, hand: int, avail: int, round: int, last_round: bool, unique_ok=None) -> tuple:
        """The set of declarations worth the most points (disjoint cards, one wild-card rank)."""
        if self.unique:
            return choose(self.rules, self.options(hand, avail, round, last_round, unique_ok), (hand, round, last_round))
        key = self._key(hand, avail, round, last_round)
        got = self._best.get(key)
        if got is None:
            if self.by_avail:
                return self.best_new(hand, avail, round, last_round)
            if len(self._best) > MEMO_LIMIT:
                self._best.clear()        # in place: playouts hold best_memo
            if self._classes is None:
                got = self._best[key] = choose(self.rules, self.options(hand, avail, round, last_round),
                                               (hand, round, last_round))
            else:
                got = self._best[key] = self._best_by_class(hand, avail, round, last_round)
        return got

    def best_new(self, hand: int, avail: int, round: int, last_round: bool) -> tuple:
        """`best` where it is keyed on the available cards alone (`by_avail`) and the memo (`best_memo`,
        keyed on them) does not hold them: found and remembered."""
        size = avail.bit_count()
        if size in self._ahead_sizes:
            got = self._ahead.get(avail, ())        # worked out ahead (load_best): declaring, or nothing
        elif self._classes is None:
            got = choose(self.rules, self.options(hand, avail, round, last_round), (hand, round, last_round))
        else:
            got = self._best_quick(hand, avail, round, last_round)
        if size <= self._memo_size:
            if len(self._best) > MEMO_LIMIT:
                self._best.clear()        # in place: playouts hold best_memo
            self._best[avail] = got
        return got

    def prefill_best(self, sizes, most: int = PREFILL_HANDS, most_kept: int = PREFILL_DECLARATIONS, cost: int = 1):
        """The bots' best worked out ahead for every hand of `sizes` cards (a disk cache keeps them, so that
        a process's first hands need not search): (the sizes done, ((hand, its declarations as plain
        tuples), ...) for the hands that declare something), for `load_best`. The smallest sizes first,
        while the hands number at most `most` in all; None where the best is not keyed on the cards
        alone (`by_avail`), no size fits, or the declarations to keep number more than `most_kept` (a
        ruleset whose every hand declares many bonuses: loading them would cost a hit more than the
        searches they save). `cost`: what a hand's search costs, in searches of an ordinary condition
        (1 or more): `most` hands are as many times fewer."""
        n_real = self.rules.N_CARDS
        most //= max(1, cost)
        if not self.by_avail:
            return None
        fit, made = [], 0
        for size in sorted({s for s in sizes if 0 < s <= n_real}):
            made += comb(n_real, size)
            if made > most:
                break
            fit.append(size)
        if not fit:
            return None
        bit = [1 << i for i in range(n_real)]
        declaring = []
        kept = 0
        for size in fit:
            for cards in combinations(bit, size):
                hand = sum(cards)
                got = self.best_new(hand, hand, 1, False)        # by_avail: round and last round unread
                if got:
                    kept += len(got)
                    if kept > most_kept:
                        return None
                    declaring.append((hand, tuple(tuple(d) for d in got)))
        return tuple(fit), tuple(declaring)

    def load_best(self, stored) -> None:
        """Take `prefill_best`'s answers: the declaring hands into the memo of the bots' best (`best_memo`)
        and kept apart (the memo is cleared when full), every other hand of those sizes known to declare
        nothing (`best_new` answers it without a search)."""
        if not stored or not self.by_avail:
            return
        sizes, declaring = stored
        if not self._ahead_shape(sizes, declaring):
            # not what prefill_best writes (an entry of an earlier rulespec's): misread, it would answer
            # every hand of a "size" it does not hold with nothing (the caller compiles again)
            raise ValueError("the declarations worked out ahead are not in the shape prefill_best writes")
        make = _declaration
        ahead = {hand: (make(decls[0]),) if len(decls) == 1 else tuple(map(make, decls))
                 for hand, decls in declaring}
        self._best.update(ahead)
        self._ahead, self._ahead_sizes = ahead, frozenset(sizes)

    def _ahead_shape(self, sizes, declaring) -> bool:
        """Whether `load_best`'s input has `prefill_best`'s shape, as far as reading it rightly needs: a tuple
        of sizes of hand (1 to the deck's cards), and each declaring hand (an int) of one of those sizes."""
        n_real = self.rules.N_CARDS
        if sizes.__class__ is not tuple or not sizes or not all(s.__class__ is int and 0 < s <= n_real
                                                                for s in sizes):
            return False
        try:
            held = {hand.bit_count() for hand, _decls in declaring}
        except (AttributeError, TypeError, ValueError):
            return False
        return held <= set(sizes)


def open_in(spec, round: int, last_round: bool) -> bool:
    """Whether a hand bonus may be declared in this deal round (its `rounds`, "last" for the last one)."""
    return not spec.rounds or round in spec.rounds or ("last" in spec.rounds and last_round)


def choose(rules, options: list[Declaration], context: tuple) -> tuple:
    """The bots' choice among single declarations: most points first, no clashing cards, one rank for the
    wild card (`same_rank`); `context`: (hand, round, last_round), as the bonus conditions read them."""
    if not options:
        return ()
    if len(options) == 1:
        return (options[0],)          # what the loop below makes of one option
    options = sorted(options, key=lambda d: -rules.HAND_BONUSES[d.bonus].points)
    chosen: list[Declaration] = []
    used = 0
    wild_rank = None
    for d in options:
        spec = rules.HAND_BONUSES[d.bonus]
        shares = all(o.bonus in spec.shares_cards_with for o in chosen if o.cards & d.cards)
        if d.cards & used and not shares:
            continue
        if d.cards & used & rules.WILD_BIT and d.wild_rank != wild_rank:
            joined = join_rank(rules, chosen, d.bonus, d.cards, d.wild_rank, wild_rank, context)
            if joined is None:
                continue
            rank, chosen = joined
            d = _declaration((d.bonus, d.cards, rank))
        if rules.PER_TURN == "one" and chosen:
            break
        chosen.append(d)
        used |= d.cards
        wild_rank = d.wild_rank if d.wild_rank is not None else wild_rank
    return tuple(chosen)


_CLASH = object()       # same_rank's answer where the declaration cannot join the others


def join_rank(rules, chosen: list, bonus: str, cards: int, rank, wild_rank, context: tuple):
    """For a declaration of `bonus` on `cards` (offered with the wild card as `rank`) to join the chosen
    declarations, one of which holds the wild card (as `wild_rank`; None as itself): one rank for the wild
    card in all of them. This one takes theirs (`same_rank`), else they take its (`rerank`): (its rank,
    the chosen, re-ranked where need be), or None where neither can."""
    if wild_rank is not None:
        got = same_rank(rules, bonus, cards, wild_rank, context)
        if got is not _CLASH:
            return got, chosen
    again = rerank(rules, chosen, rank, context)
    return None if again is None else (rank, again)


def same_rank(rules, bonus: str, real_cards: int, wild_rank: int, context: tuple):
    """The rank a declaration of `bonus` made of `real_cards` (which hold the wild card, offered with another
    rank or as itself) takes beside declarations that gave the wild card `wild_rank`:
    the wild card has one rank in all of them (two bonuses declared on the same cards give it the same
    rank: docs/language.md, the wild card). `wild_rank` where the cards make the bonus with it, else
    _CLASH. A bonus that cannot declare the wild card, or that is `unique_by` (its options were checked
    per rank), cannot take another rank: it clashes (as itself beside a declared rank too: `Hand`
    refuses a turn that counts the wild card as itself in one declaration and as a rank in another)."""
    spec = rules.HAND_BONUSES[bonus]
    if not (spec.wild and rules.DECLARE_WILD) or spec.unique_by:
        return _CLASH
    probe = (real_cards ^ rules.WILD_BIT) | (1 << (rules.N_CARDS + wild_rank))
    return wild_rank if spec.check(probe, *context) else _CLASH


def rerank(rules, chosen: list, rank, context: tuple) -> list | None:
    """The chosen declarations (as (bonus, cards, rank)) with the wild card given `rank` where they hold it,
    for a declaration of the wild card with that rank to join them (one rank in all of a turn's
    declarations, whichever was chosen first: one chosen with the wild card as itself, or with the first
    rank that made its bonus, takes the rank of another beside it that needs that rank); None where one of
    them cannot make its bonus with it (or cannot declare the wild card: `same_rank`), or `rank` is None
    (as itself: the others were offered it first and took another)."""
    if rank is None:
        return None
    out = []
    for o in chosen:
        if o[1] & rules.WILD_BIT and o[2] != rank:
            got = same_rank(rules, o[0], o[1], rank, context)
            if got is _CLASH:
                return None
            o = _declaration((o[0], o[1], got))
        out.append(o)
    return out


def can_make(rules, bonus: str, real_cards: int, hand: int, round: int, last_round: bool) -> bool:
    """Whether the cards make `bonus` with some (or no) declaration of the wild card."""
    spec = rules.HAND_BONUSES[bonus]
    if spec.check(real_cards, hand, round, last_round):
        return True
    if real_cards & rules.WILD_BIT and spec.wild and rules.DECLARE_WILD:
        base = real_cards ^ rules.WILD_BIT
        return any(spec.check(base | (1 << (rules.N_CARDS + r)), hand, round, last_round)
                   for r in rules.WILD_DECLARE_AS)
    return False


def unique_holder(rules, n: int, dealer: int, seat: int, decl: Declaration, round_dealt, hands, shown,
                  declared_wild: dict, round: int, last_round: bool) -> int | None:
    """For a `unique_by` bonus: the seat earlier in dealing order holding the same value/rank, or None.

    "Holding" is holding a qualifying card, declared or not. What decides it is
    what the declaring seat can know: the cards an earlier seat has played this
    round (dealt this round and no longer in its hand) and the declared cards it
    still holds (in a one-card round, as the rules that use it deal, that is
    every card it was dealt). Never its hidden cards: a seat's options must
    follow from its observation. The wild card counts as the rank its holder
    declared it; undeclared it is its printed card.
    """
    spec = rules.HAND_BONUSES[decl.bonus]
    key = rules.unique_key(spec.unique_by, decl.cards, decl.wild_rank)
    mine = (seat - dealer - 1) % n
    for other in range(n):
        if (other - dealer - 1) % n >= mine:
            continue
        held = (round_dealt[other] & ~hands[other]) | (shown[other] & hands[other])
        for c in _bits(held):
            rank = declared_wild.get(other) if c == rules.WILD_INDEX else None
            probe = 1 << c if rank is None else 1 << (rules.N_CARDS + rank)
            if rules.unique_key(spec.unique_by, 1 << c, rank) == key and spec.check(probe, held, round, last_round):
                return other
    return None


def declarer(rules) -> Declarer:
    """The compiled module's Declarer (one per module, made on first use)."""
    got = rules.__dict__.get("_DECLARER")
    if got is None:
        got = rules._DECLARER = Declarer(rules)
    return got
