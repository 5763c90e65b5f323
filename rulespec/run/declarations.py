"""Hand-bonus declarations a seat can make, found once per dealt hand and shared by `Hand` and the playouts.

What a seat can declare depends on its hand (the cards not yet shown, and
the whole hand the checks read), the round and whether it is the last: the
candidates are memoised on exactly that key, so each dealt hand is searched
once (combinations × wild-card ranks) however often it is asked. The one rule
that reads other seats' cards, `unique_by`, is applied afterwards to the
candidates, per call (`unique_holder`).
"""
from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from rulespec.run.runtime import bits as _bits

MEMO_LIMIT = 50_000      # dealt hands remembered per ruleset before the memo starts again


class Declaration(NamedTuple):
    """A hand-bonus claim: the bonus, the real cards it is made with, the wild card's rank (or None)."""

    bonus: str
    cards: int
    wild_rank: int | None = None


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
        rules = self.rules
        cards = _bits(avail)
        wild_bit = rules.WILD_BIT
        n_cards = rules.N_CARDS
        out = []
        for name, spec in self.specs:
            if spec.size > len(cards):
                continue
            if spec.rounds and round not in spec.rounds and not ("last" in spec.rounds and last_round):
                continue
            wild_ok = spec.wild and rules.DECLARE_WILD
            for combo in combinations(cards, spec.size):
                mask = sum(1 << c for c in combo)
                ranks = [None]
                if mask & wild_bit and wild_ok:
                    ranks += list(rules.WILD_DECLARE_AS)
                passing = []
                for r in ranks:
                    probe = mask if r is None else (mask ^ wild_bit) | (1 << (n_cards + r))
                    if not spec.check(probe, hand, round, last_round):
                        continue
                    if any(other in rules.HAND_BONUSES and can_make(rules, other, mask, hand, round, last_round)
                           for other in spec.excluded_by):
                        continue
                    passing.append(Declaration(name, mask, r))
                    if not spec.unique_by:
                        break          # the first rank that passes is the one offered
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

    def best(self, hand: int, avail: int, round: int, last_round: bool, unique_ok=None) -> tuple:
        """The set of declarations worth the most points (disjoint cards, one wild-card rank)."""
        if self.unique:
            return choose(self.rules, self.options(hand, avail, round, last_round, unique_ok))
        key = self._key(hand, avail, round, last_round)
        got = self._best.get(key)
        if got is None:
            if len(self._best) > MEMO_LIMIT:
                self._best.clear()        # in place: playouts hold best_memo
            got = self._best[key] = choose(self.rules, self.options(hand, avail, round, last_round))
        return got


def choose(rules, options: list[Declaration]) -> tuple:
    """The bots' choice among single declarations: most points first, no clashing cards or wild ranks."""
    if not options:
        return ()
    options = sorted(options, key=lambda d: -rules.HAND_BONUSES[d.bonus].points)
    chosen: list[Declaration] = []
    used = 0
    wild_rank = None
    for d in options:
        spec = rules.HAND_BONUSES[d.bonus]
        shares = all(o.bonus in spec.shares_cards_with for o in chosen if o.cards & d.cards)
        if d.cards & used and not shares:
            continue
        if d.wild_rank is not None and wild_rank not in (None, d.wild_rank):
            continue
        if rules.PER_TURN == "one" and chosen:
            break
        chosen.append(d)
        used |= d.cards
        wild_rank = d.wild_rank if d.wild_rank is not None else wild_rank
    return tuple(chosen)


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
