"""Builds (houses): cards on the table joined into one unit of a stated value, taken only whole.

A ruleset with `capture.builds` (compiled as the module's BUILDS, compiler/emit_builds.py) lets a play
join the played card and table cards into a build of a value the player holds a card of. The table is
then its loose cards and its builds; `Hand.table` stays the mask of every card on it, `Hand.builds` the
builds among them. A build's move is still a (card, mask) pair: the mask is the table cards the build
joins (whole builds among them) with the build's value in the bits above the deck's cards
(`build_move`), so every caller that passes moves along (bots, searches, adapters) passes builds too.

This module holds what the construct computes: the builds a card can make, the captures that take
builds whole, the moves the build's owner may not make. Hand (run/engine.py) applies them.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.errors import RulespecError, or_list
from rulespec.run.runtime import bits_of as _bits

# At most this many build moves of one card, disjoint unions of sets of one value, or table sets of totals up to
# the highest value held are listed (as runtime.MAX_SUBSETS for the capture kinds' sums): a bound on memory.
MAX_BUILD_MOVES = 200_000
# The highest value a build may state (a move's value bits hold it).
MAX_BUILD_VALUE = 255


def _too_many(what: str, loose: int) -> RulespecError:
    return RulespecError(f"a card is offered more than {MAX_BUILD_MOVES} {what}; the table's "
                         f"{loose.bit_count()} loose cards are too many to list them")


class Build(NamedTuple):
    """A build on the table: its cards (a mask), its value, its owners (the seats that bear the owner's duty,
    in the order they came to own it: one seat, or with `owners: per_side` one more for each opponent who
    added a set to it), and whether it is fixed (a multiple build: two or more sets of its value; it can no
    longer be raised)."""

    cards: int
    value: int
    owners: tuple[int, ...]
    fixed: bool


def owner_shown(b: Build):
    """A build's owners as a transcript's `owner:` and the observation show them: the seat when there is one,
    else the list of seats."""
    return b.owners[0] if len(b.owners) == 1 else list(b.owners)


def build_move(cards: int, value: int, n_cards: int) -> int:
    """The mask of a build move: the table cards it joins, with the build's value above the deck's bits."""
    return cards | (value << n_cards)


def split_move(mask: int, n_cards: int) -> tuple[int, int]:
    """(table cards, build value) of a move's mask; value 0 for a capture or a trail."""
    return mask & ((1 << n_cards) - 1), mask >> n_cards


def sets_by_total(cards: int, values, limit: int) -> dict[int, list[int]]:
    """Every non-empty set (mask) of `cards` by each total of at most `limit` its values give, one value
    (above 0) chosen per card: {total: [mask, ...]}, each set once under each total.

    A knapsack over totals: each card extends the sets listed before it, so the work is the size of the
    answer (never a search of partial sets that total nothing)."""
    by: dict[int, dict[int, None]] = {0: {0: None}}
    listed = 0
    for c in _bits(cards):
        bit = 1 << c
        grown: dict[int, list[int]] = {}
        for v in set(values[c]):
            if v <= 0:
                continue
            for total, masks in by.items():
                if total + v <= limit:
                    grown.setdefault(total + v, []).extend(m | bit for m in masks)
        for total, masks in grown.items():
            have = by.setdefault(total, {})
            before = len(have)
            have.update(dict.fromkeys(masks))
            listed += len(have) - before
        if listed > MAX_BUILD_MOVES:
            raise _too_many(f"sets of table cards totalling {limit} or less", cards)
    del by[0]
    return {total: list(masks) for total, masks in by.items()}


def _sets_of(cards: list[int], values, target: int) -> list[int]:
    """Every set (mask) of `cards` whose values, one chosen per card, total `target`."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return sets_by_total(mask, values, target).get(target, []) if target > 0 else []


def _disjoint_unions(sets: list[int], avoid: int, loose: int = 0) -> list[int]:
    """Every union of pairwise disjoint sets of `sets` (none meeting `avoid`), the empty union included."""
    unions = {0}
    for s in sets:
        if s & avoid:
            continue
        unions |= {u | s for u in unions if not u & s}
        if len(unions) > MAX_BUILD_MOVES:
            raise _too_many("unions of sets of one value", loose)
    return sorted(unions)


class Config:
    """The module's BUILDS, read once: the options of the construct and the cards' values."""

    __slots__ = ("values", "raise_", "multiple", "owner_must_act", "subtract", "table_values", "hand_values",
                 "one_per_value", "owner_may_trail", "owners", "cache")

    def __init__(self, spec: dict):
        self.values = frozenset(spec["values"]) if spec.get("values") is not None else None
        self.raise_ = spec["raise"]
        self.multiple = spec["multiple"]
        self.owner_must_act = spec["owner_must_act"]
        self.subtract = spec.get("subtract", False)   # written in BUILDS only when true
        self.one_per_value = spec.get("one_per_value", False)      # written only when on (emit_builds)
        self.owner_may_trail = spec.get("owner_may_trail", False)
        self.owners = spec.get("owners", "last")                    # written only when not `last`
        self.table_values = spec["table_values"]     # per card index: the values it counts as on the table
        self.hand_values = spec["hand_values"]       # per card index: the values it captures as from the hand
        self.cache: dict = {}      # build_options' lists for the loose cards of recent tables (table_cache)

    def table_cache(self) -> dict:
        """build_options' cache, emptied when it holds many tables (a bound on memory: a table's lists serve
        the cards of one turn and the play that follows)."""
        if len(self.cache) > 256:
            self.cache.clear()
        return self.cache

    def allowed(self, value: int) -> bool:
        return 0 < value <= MAX_BUILD_VALUE and (self.values is None or value in self.values)


class TurnView:
    """What the cards of one seat's turn share in listing their build moves, computed once: the loose cards,
    how many of the hand's cards count as each value, whether the owner's rule binds (owner_allows), and the
    builds a partner owns (partner_builds)."""

    __slots__ = ("loose", "counts", "allowed", "owner_binds", "partners")

    def __init__(self, cfg: Config, seat: int, hand: int, table: int, builds: list[Build], sides: int):
        built = 0
        for b in builds:
            built |= b.cards
        self.loose = table & ~built
        counts: dict[int, int] = {}
        for c in _bits(hand):
            for v in set(cfg.hand_values[c]):
                counts[v] = counts.get(v, 0) + 1
        self.counts = counts
        self.allowed = {v: n for v, n in counts.items() if cfg.allowed(v)}
        # The rules keep the owner holding a card of each of its builds' values in a real hand; a hand whose
        # hidden cards a search redrew (Hand.with_hidden) may not, and there the owner's rule cannot bind (it
        # would leave no move at all).
        own = [b.value for b in builds if seat in b.owners]
        self.owner_binds = bool(cfg.owner_must_act and own and all(v in counts for v in own))
        self.partners = partner_builds(cfg, seat, sides, builds)

    def held_without(self, cfg: Config, card: int, allowed_only: bool = True) -> list[int]:
        """The values the hand holds a card of once `card` is played (those a build may state, with
        `allowed_only`), ascending."""
        gone = cfg.hand_values[card]
        return sorted(v for v, n in (self.allowed if allowed_only else self.counts).items()
                      if n > 1 or v not in gone)


def partner_builds(cfg: Config, seat: int, sides: int, builds: list[Build]) -> list[Build]:
    """With `owners: per_side`, the builds a partner of `seat` owns and `seat` does not: it may add a set of
    their value without holding a card of it, as it does not become an owner (docs/language.md, `owners`)."""
    if cfg.owners != "per_side":
        return []
    side = seat % sides
    return [b for b in builds if seat not in b.owners and any(o % sides == side for o in b.owners)]


def build_options(cfg: Config, card: int, rest: int, loose: int, builds: list[Build], n_cards: int,
                  cache: dict | None = None, values: list[int] | None = None,
                  partners: list[Build] = ()) -> list[int]:
    """The build moves (masks with their value) of playing `card` with `rest` left in hand.

    The new build is the played card, table cards and at most one build, split into sets each totalling
    the value: the card's own set (the card with loose cards, the card alone when it has the value, or a
    single build raised by the card alone to the new value), and any further disjoint sets of loose
    cards of the value (a second set makes it multiple and fixed). With `subtract`, the card's own set may
    also be the card laid on one loose card of greater value (or, with `raise`, on a single build), the
    difference being the value. The player must keep a card of the value in hand. Several ways to the
    same cards and value are one move.

    `cache` (a dict the caller keeps for one table: every card of a turn asks about the same loose cards)
    holds the loose cards' sets by total and their disjoint unions by value, each listed once; `values`, when
    given, stands for `rest`: the values a build may state that the hand holds once `card` is played, ascending.
    `partners` (partner_builds): builds the card may join with a set of their value held or not.
    """
    tv = cfg.table_values
    if not tv[card]:
        return []
    if values is None:
        held = {v for c in _bits(rest) for v in cfg.hand_values[c]}
        values = sorted(v for v in held if cfg.allowed(v))
    joined_only = {b.value for b in partners} - set(values)     # values the hand lacks: only added to a partner's
    if joined_only:
        values = sorted(set(values) | joined_only)
    if not values:
        return []
    if cache is None:
        cache = {}
    top = values[-1]
    sums = cache.get(("sums", loose))
    if sums is None or sums[0] < top:        # listed up to a lower total for another hand: list again
        sums = cache[("sums", loose)] = (top, sets_by_total(loose, tv, top))
    by_total = sums[1]
    if cfg.subtract:                         # the loose cards by each value they count as
        by_value = cache.get(("values", loose))
        if by_value is None:
            by_value = cache[("values", loose)] = {}
            for c in _bits(loose):
                for t in set(tv[c]):
                    by_value.setdefault(t, []).append(c)
    card_values = set(tv[card])
    out: set[int] = set()
    for v in values:
        # the played card's own set: with loose cards (or alone, when it has the value)
        firsts: list[tuple[int, Build | None, int]] = []       # (table cards, build joined, sets so far)
        for cv in card_values:
            if cv == v:
                firsts.append((0, None, 1))
            elif 0 < cv < v:
                firsts += [(g, None, 1) for g in by_total.get(v - cv, ())]
            if cfg.subtract:                         # the card laid on one loose card worth v more than it
                firsts += [(1 << c, None, 1) for c in by_value.get(v + cv, ())]
        options: list[tuple[int, Build | None, int]] = []
        for first in firsts:
            options.append(first)
            for b in builds:
                if b.value == v:                     # the card's set joins a build of the value: multiple
                    options.append((first[0] | b.cards, b, 2))
        if cfg.raise_:
            for b in builds:
                if not b.fixed and b.value != v and v - b.value in card_values:
                    options.append((b.cards, b, 1))      # raised: the build and the card make the new value
                elif cfg.subtract and not b.fixed and b.value - v in card_values:
                    options.append((b.cards, b, 1))      # lowered: the build less the card is the new value
        standing = any(b.value == v for b in builds)
        if cfg.one_per_value and standing:               # one build per value: a set of v joins the build of v
            options = [o for o in options if o[1] is not None and o[1].value == v]
        if v in joined_only:                             # no card of v kept: only a set added to a partner's build
            options = [o for o in options if o[1] is not None and o[1].value == v and o[1] in partners]
        if not options:
            continue
        # further sets of the value: any union of disjoint sets of loose cards, each totalling it (a second
        # set makes the build multiple, so without `multiple` the card's own set stands alone)
        extras = [0]
        if cfg.multiple:
            extras = cache.get(("unions", loose, v))
            if extras is None:
                extras = cache[("unions", loose, v)] = _disjoint_unions(by_total.get(v, []), 0, loose)
        stated = v << n_cards                            # the move's value bits (build_move)
        for cards, joined, sets in options:
            single = sets == 1 and not (joined is not None and joined.fixed and joined.value == v)
            if cards and (single or cfg.multiple):
                out.add(cards | stated)                  # the card's own set alone (with the build it joins)
            for extra in extras:
                if extra and not extra & cards:
                    out.add(cards | extra | stated)      # more than one set: fixed
            if len(out) > MAX_BUILD_MOVES:
                raise _too_many("builds", loose)
    return sorted(out)


def _totalling(mask: int, tv, target: int, first: int = 0):
    """Each set (mask) of `mask`'s cards, holding `first` (a card of it, or 0), whose values (one above 0 chosen
    per card) can total `target`: a search that stops where the total passes the target, each set once."""
    cards = [c for c in _bits(mask & ~first) if any(t > 0 for t in tv[c])]
    start = {t for c in _bits(first) for t in tv[c] if t > 0} if first else {0}

    def grow(i: int, chosen: int, totals: frozenset):
        if target in totals and (chosen or first):
            yield chosen | first
        if i == len(cards):
            return
        c = cards[i]
        more = frozenset(s + t for s in totals for t in tv[c] if t > 0 and s + t <= target)
        if more:
            yield from grow(i + 1, chosen | 1 << c, more)
        yield from grow(i + 1, chosen, totals)

    live = frozenset(t for t in start if t <= target)
    if live:
        yield from grow(0, 0, live)


def _splits(mask: int, tv, value: int, memo: dict) -> bool:
    """Whether `mask`'s cards split into disjoint sets each totalling `value` (the empty mask does)."""
    if not mask:
        return True
    known = memo.get(mask)
    if known is None:
        low = mask & -mask
        known = memo[mask] = any(_splits(mask ^ s, tv, value, memo) for s in _totalling(mask, tv, value, low))
    return known


def build_allowed(cfg: Config, card: int, cards: int, value: int, loose: int, builds: list[Build],
                  values: list[int], partners: list[Build] = ()) -> bool:
    """Whether the build move of `card` joining table `cards` into a build of `value` is one build_options
    lists (with `values` for `rest`, and `partners`), decided for this one move without listing the others: a
    small search for the card's own set among the loose cards it joins and a split of the rest into sets of the
    value. A table with more builds than build_options lists (MAX_BUILD_MOVES) is judged the same way."""
    tv = cfg.table_values
    if not tv[card] or not cards:
        return False
    joined = [b for b in builds if b.cards & cards]
    if len(joined) > 1 or any(b.cards & ~cards for b in joined):
        return False                                  # at most one build, taken in whole
    build = joined[0] if joined else None
    if value not in values:                           # no card of it kept: only a set added to a partner's build
        if build is None or build.value != value or build not in partners:
            return False
        values = [value]
    rest = cards & ~build.cards if build is not None else cards
    if rest & ~loose:
        return False
    v, card_values, memo = value, set(tv[card]), {}

    def extra(mask: int) -> bool:                     # further sets of the value: a second set makes it multiple
        return not mask or (cfg.multiple and _splits(mask, tv, v, memo))

    def own_set_and_extra(mask: int) -> bool:         # the card's own set (build_options' firsts), then extras
        for cv in card_values:
            if cv == v and extra(mask):
                return True
            if 0 < cv < v and any(extra(mask ^ s) for s in _totalling(mask, tv, v - cv)):
                return True
            if cfg.subtract and any(v + cv in tv[c] and extra(mask & ~(1 << c)) for c in _bits(mask)):
                return True
        return False

    standing = any(b.value == v for b in builds)
    if build is None:
        return not (cfg.one_per_value and standing) and own_set_and_extra(rest)
    if build.value == v and cfg.multiple and own_set_and_extra(rest):
        return True                                   # the card's set joins the build of its value
    if cfg.raise_ and not build.fixed and not (cfg.one_per_value and standing and build.value != v):
        if (build.value != v and v - build.value in card_values) or (cfg.subtract and build.value - v in card_values):
            return extra(rest)                        # raised (or lowered) by the card alone, with extras
    return False


def _split_count(mask: int, groups: list[int]) -> list[int]:
    """Some disjoint sets of `groups` whose union is `mask` (one split; [] for the empty mask)."""
    if not mask:
        return []
    low = mask & -mask
    for g in groups:
        if g & low and g & ~mask == 0:
            rest = _split_count(mask ^ g, groups)
            if rest or mask == g:
                return [g] + rest
    return []


def new_build(cfg: Config, card: int, cards: int, value: int, builds: list[Build], seat: int,
              sides: int) -> tuple[Build, Build | None]:
    """The build a build move makes (the played card joined), and the build on the table it takes in (or
    None). It is fixed when it holds two sets of its value or more, or takes in a fixed build. Its owners
    (`owners`): `seat` alone when it makes or raises a build, or with `last` (the default) adds to one; with
    `per_side` a set added to a build of its value leaves its owners when `seat` is one of them or a partner
    of one (the same side, seat modulo `sides`), and adds `seat` after them when it is their opponent."""
    joined = next((b for b in builds if b.cards & cards), None)
    tv = cfg.table_values
    if joined is None:
        sets = _fewest(cards | 1 << card, tv, value)
        if cfg.subtract:                      # or the card laid on one table card, and further sets
            sets = max([sets] + _subtracted_sets(cfg, card, cards, value))
    elif joined.value != value:               # raised: the build and the card are one set
        sets = 1 + _fewest(cards & ~joined.cards, tv, value)
    else:                                     # joined to a build of the value: a second set at least
        sets = 2
    fixed = sets > 1 or (joined is not None and joined.fixed)
    owners: tuple[int, ...] = (seat,)
    if cfg.owners == "per_side" and joined is not None and joined.value == value:
        mine = any(o % sides == seat % sides for o in joined.owners)
        owners = joined.owners if mine else joined.owners + (seat,)
    return Build(cards | 1 << card, value, owners, fixed), joined


def _subtracted_sets(cfg: Config, card: int, cards: int, value: int) -> list[int]:
    """The set counts of each split of a build made by subtraction: the card laid on one of `cards` worth
    `value` more than it, the rest of `cards` split into sets of `value` (none when it does not split)."""
    tv = cfg.table_values
    counts = []
    for c in _bits(cards):
        if not any(t - cv == value for t in tv[c] for cv in tv[card]):
            continue
        rest = cards & ~(1 << c)
        if not rest:
            counts.append(1)
            continue
        split = _split_count(rest, _sets_of(_bits(rest), tv, value))
        if split:
            counts.append(1 + len(split))
    return counts


def _fewest(mask: int, tv, value: int) -> int:
    """How many sets of `value` `mask` splits into (0 for the empty mask; 1 when no split is found)."""
    if not mask:
        return 0
    groups = _sets_of(_bits(mask), tv, value)
    return len(_split_count(mask, groups)) or 1


def capture_options(loose_sets: list[int], card_values, builds: list[Build], combine: str) -> list[int]:
    """The captures of a card with builds on the table: the sets the capture kinds offer among the loose
    cards (already combined by `capture.combine`), and the builds of a value the card captures as, each
    taken whole, combined as `combine` says."""
    takeable = [b.cards for b in builds if b.value in card_values]
    if not takeable:
        return loose_sets
    if combine == "one":
        return sorted(set(loose_sets) | set(takeable))
    if combine == "all":
        every = 0
        for t in takeable:
            every |= t
        return sorted({m | every for m in (loose_sets or [0])})
    out = set(loose_sets)
    for u in _disjoint_unions(takeable, 0):
        if u:
            out |= {m | u for m in loose_sets + [0]}
    return sorted(out)


def rule_refusing(cfg: Config, card: int, cards: int, value: int, builds: list[Build], names) -> str | None:
    """Why the build move of `card` joining table `cards` into `value` is refused, where one option of the
    construct says it alone: a value outside `values`; a raise (or lowering) by the card where builds are not
    raised, of a fixed build, or to the value of another standing build (`one_per_value`); a set added to a build
    where builds are single. None where no such rule applies (the generic reason then stands). `names(mask)`:
    card names."""
    if cfg.values is not None and value not in cfg.values:
        return f"a build's value is {or_list(cfg.values)} (capture.builds.values), not {value}"
    joined = [b for b in builds if b.cards & cards]
    if len(joined) != 1:
        return None
    b = joined[0]
    shown = f"the build of {b.value} ({names(b.cards)})"
    if b.value == value:
        return None if cfg.multiple else \
            f"{shown} is single: nothing is added to a build (capture.builds.multiple: false)"
    card_values = set(cfg.table_values[card])
    if value - b.value in card_values:
        verb = "raised"
    elif cfg.subtract and b.value - value in card_values:
        verb = "lowered"
    else:
        return None
    if not cfg.raise_:
        return f"{shown} cannot be {verb}: builds are not raised (capture.builds.raise: false)"
    if b.fixed:
        return f"{shown} is fixed (a multiple build): it can no longer be {verb}"
    if cfg.one_per_value and any(o.value == value for o in builds if o is not b):
        return (f"a build of {value} stands already: no build is {verb} to the value of another (one build of "
                f"each value, capture.builds.one_per_value)")
    return None


def owner_allows(cfg: Config, seat: int, card: int, rest: int, mask: int,
                 builds: list[Build], held: set[int] | None = None) -> str | None:
    """None if the build's owner may make this move, else why not: a seat that owns a build (one of its owners)
    may not trail, nor play so as to keep no card of the value of a build it owns that the play leaves
    standing. `held`, when given, is the values of `rest`'s cards."""
    if not cfg.owner_must_act:
        return None
    own = [b for b in builds if seat in b.owners]
    if not own:
        return None
    if mask == 0 and not cfg.owner_may_trail:
        return "the owner of a build may not trail while it stands: capture, build or raise"
    if held is None:
        held = {v for c in _bits(rest) for v in cfg.hand_values[c]}
    for b in own:
        if b.cards & mask:
            continue                      # taken, or joined into the new build
        if b.value not in held:
            return (f"the owner of a build of {b.value} must keep a card of {b.value} in hand while the "
                    f"build stands")
    return None


def move_words(mask: int, builds: list[Build], n_cards: int, names) -> str:
    """A move's mask in words, for the builds on the table before it (`names(mask)`: card names): `builds 8
    with <cards>`, `raises the build of 8 (<cards>) to 9`, `adds to the build of 8 (<cards>)`, `takes <cards>
    (the build of 8)`, `stays on the table`."""
    cards, value = split_move(mask, n_cards)
    if not cards:
        return "stays on the table"
    joined = next((b for b in builds if b.cards & cards), None)
    loose = cards & ~joined.cards if joined is not None else cards
    if value:
        also = f" and {names(loose)}" if loose else ""
        if joined is None:
            return f"builds {value} with {names(cards)}"
        if joined.value != value:
            verb = "raises" if value > joined.value else "lowers"
            return f"{verb} the build of {joined.value} ({names(joined.cards)}) to {value}{also}"
        return f"adds to the build of {value} ({names(joined.cards)}){also}: a multiple build"
    taken = [b for b in builds if b.cards & cards]
    said = ", ".join(f"the build of {b.value}" for b in taken)
    return f"takes {names(cards)}" + (f" ({said})" if said else "")


def builds_words(builds: list[Build], names, who) -> str:
    """The builds on the table in words: `build of 8: <cards> (seat 0's); build of 9: <cards> (seat 0's and
    seat 1's, fixed)` (`who(seat)`: an owner's words)."""
    return "; ".join(f"build of {b.value}: {names(b.cards)} ({' and '.join(who(o) for o in b.owners)}"
                     f"{', fixed' if b.fixed else ''})" for b in builds)
