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

from rulespec.errors import RulespecError
from rulespec.run.runtime import bits_of as _bits

# At most this many build moves or capture unions are listed for one card (as runtime.MAX_SUBSETS for sums).
MAX_BUILD_MOVES = 4096
# The highest value a build may state (a move's value bits hold it).
MAX_BUILD_VALUE = 255
# At most this many partial sets are tried while listing the sets of one total (a stranger's deck of many
# small values would otherwise make the search exponential before any limit on the moves is reached).
MAX_SET_STEPS = 200_000


def _too_many() -> RulespecError:
    return RulespecError(f"a card is offered more than {MAX_BUILD_MOVES} builds; the table holds too many cards "
                         f"to list them")


class Build(NamedTuple):
    """A build on the table: its cards (a mask), its value, the seat that last made or raised it, and
    whether it is fixed (a multiple build: two or more sets of its value; it can no longer be raised)."""

    cards: int
    value: int
    owner: int
    fixed: bool


def build_move(cards: int, value: int, n_cards: int) -> int:
    """The mask of a build move: the table cards it joins, with the build's value above the deck's bits."""
    return cards | (value << n_cards)


def split_move(mask: int, n_cards: int) -> tuple[int, int]:
    """(table cards, build value) of a move's mask; value 0 for a capture or a trail."""
    return mask & ((1 << n_cards) - 1), mask >> n_cards


def _sets_of(cards: list[int], values, target: int) -> list[int]:
    """Every set (mask) of `cards` whose values, one chosen per card, total `target`."""
    found: set[int] = set()
    steps = [0]

    def walk(i: int, left: int, mask: int) -> None:
        steps[0] += 1
        if steps[0] > MAX_SET_STEPS or len(found) > MAX_BUILD_MOVES:
            raise _too_many()
        if left == 0 and mask:
            found.add(mask)
        if i == len(cards) or left <= 0:
            return
        c = cards[i]
        for v in values[c]:
            if 0 < v <= left:
                walk(i + 1, left - v, mask | 1 << c)
        walk(i + 1, left, mask)
    walk(0, target, 0)
    return list(found)


def _disjoint_unions(sets: list[int], avoid: int) -> list[int]:
    """Every union of pairwise disjoint sets of `sets` (none meeting `avoid`), the empty union included."""
    unions = {0}
    for s in sets:
        if s & avoid:
            continue
        unions |= {u | s for u in unions if not u & s}
        if len(unions) > MAX_BUILD_MOVES:
            raise _too_many()
    return sorted(unions)


class Config:
    """The module's BUILDS, read once: the options of the construct and the cards' values."""

    __slots__ = ("values", "raise_", "multiple", "owner_must_act", "subtract", "table_values", "hand_values",
                 "one_per_value", "owner_may_trail")

    def __init__(self, spec: dict):
        self.values = frozenset(spec["values"]) if spec.get("values") is not None else None
        self.raise_ = spec["raise"]
        self.multiple = spec["multiple"]
        self.owner_must_act = spec["owner_must_act"]
        self.subtract = spec.get("subtract", False)   # written in BUILDS only when true
        self.one_per_value = spec.get("one_per_value", False)      # written only when on (emit_builds)
        self.owner_may_trail = spec.get("owner_may_trail", False)
        self.table_values = spec["table_values"]     # per card index: the values it counts as on the table
        self.hand_values = spec["hand_values"]       # per card index: the values it captures as from the hand

    def allowed(self, value: int) -> bool:
        return 0 < value <= MAX_BUILD_VALUE and (self.values is None or value in self.values)


def build_options(cfg: Config, card: int, rest: int, loose: int, builds: list[Build], n_cards: int) -> list[int]:
    """The build moves (masks with their value) of playing `card` with `rest` left in hand.

    The new build is the played card, table cards and at most one build, split into sets each totalling
    the value: the card's own set (the card with loose cards, the card alone when it has the value, or a
    single build raised by the card alone to the new value), and any further disjoint sets of loose
    cards of the value (a second set makes it multiple and fixed). With `subtract`, the card's own set may
    also be the card laid on one loose card of greater value (or, with `raise`, on a single build), the
    difference being the value. The player must keep a card of the value in hand. Several ways to the
    same cards and value are one move.
    """
    tv = cfg.table_values
    if not tv[card]:
        return []
    held = {v for c in _bits(rest) for v in cfg.hand_values[c]}
    values = sorted(v for v in held if cfg.allowed(v))
    if not values:
        return []
    loose_cards = [c for c in _bits(loose) if tv[c]]
    out: set[int] = set()
    for v in values:
        groups = _sets_of(loose_cards, tv, v)
        # the played card's own set: with loose cards (or alone, when it has the value)
        firsts: list[tuple[int, Build | None, int]] = []       # (table cards, build joined, sets so far)
        for cv in set(tv[card]):
            if cv == v:
                firsts.append((0, None, 1))
            elif cv < v:
                firsts += [(g, None, 1) for g in _sets_of(loose_cards, tv, v - cv)]
            if cfg.subtract:                         # the card laid on one loose card worth v more than it
                firsts += [(1 << c, None, 1) for c in loose_cards if v + cv in tv[c]]
        options: list[tuple[int, Build | None, int]] = []
        for first in firsts:
            options.append(first)
            for b in builds:
                if b.value == v:                     # the card's set joins a build of the value: multiple
                    options.append((first[0] | b.cards, b, 2))
        if cfg.raise_:
            for b in builds:
                if not b.fixed and b.value != v and any(b.value + cv == v for cv in tv[card]):
                    options.append((b.cards, b, 1))      # raised: the build and the card make the new value
                elif cfg.subtract and not b.fixed and any(b.value - cv == v for cv in tv[card]):
                    options.append((b.cards, b, 1))      # lowered: the build less the card is the new value
        standing = any(b.value == v for b in builds)
        for cards, joined, sets in options:
            if cfg.one_per_value and standing and (joined is None or joined.value != v):
                continue                                 # one build per value: a set of v joins the build of v
            for extra in _disjoint_unions(groups, cards):
                total_sets = sets + len(_split_count(extra, groups))
                if not (cards | extra):
                    continue                             # the card alone: that is a trail, not a build
                fixed = total_sets > 1 or (joined is not None and joined.fixed and joined.value == v)
                if fixed and not cfg.multiple:
                    continue
                out.add(build_move(cards | extra, v, n_cards))
                if len(out) > MAX_BUILD_MOVES:
                    raise _too_many()
    return sorted(out)


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


def new_build(cfg: Config, card: int, cards: int, value: int, builds: list[Build], seat: int) -> tuple[Build, Build | None]:
    """The build a build move makes (the played card joined, owned by `seat`), and the build on the table it
    takes in (or None). It is fixed when it holds two sets of its value or more, or takes in a fixed build."""
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
    return Build(cards | 1 << card, value, seat, fixed), joined


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


def owner_allows(cfg: Config, seat: int, card: int, rest: int, mask: int,
                 builds: list[Build]) -> str | None:
    """None if the build's owner may make this move, else why not: the seat that owns a build may not
    trail, nor play so as to keep no card of the value of a build it owns that the play leaves standing."""
    if not cfg.owner_must_act:
        return None
    own = [b for b in builds if b.owner == seat]
    if not own:
        return None
    if mask == 0 and not cfg.owner_may_trail:
        return "the owner of a build may not trail while it stands: capture, build or raise"
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
    """The builds on the table in words: `build of 8: <cards> (seat 0's); build of 9: <cards> (..., fixed)`."""
    return "; ".join(f"build of {b.value}: {names(b.cards)} ({who(b.owner)}{', fixed' if b.fixed else ''})"
                     for b in builds)
