"""What the compiler decides about a checked ruleset, before writing any code.

`build_plan()` reads the ruleset once and returns a frozen `Plan`; the
emitters (emit_*.py) only follow it. Every specialisation of the generated
module is a field here, so it can be read (and tested) apart from the text.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulespec.lang.expressions import Call, Name, walk
from rulespec.lang.model import CaptureKind, Expression, Ruleset
from rulespec.lang.typecheck import CARD


@dataclass(frozen=True)
class DeckTables:
    """Per card index (the deck, then the wild card declared as each rank): the module's tables."""

    names: tuple[str, ...]
    values: tuple[int | None, ...]       # None: a card with no value
    ranks: tuple[str, ...]
    suits: tuple[str, ...]


@dataclass(frozen=True)
class CapturePlan:
    """How capture enumeration is specialised to the ruleset's capture kinds."""

    kinds: tuple[CaptureKind, ...]
    # A plain match and a plain sum together are "every set of table cards totalling v":
    # one lookup instead of two filtered ones.
    merged: bool
    match: CaptureKind | None
    summ: CaptureKind | None
    # Two kinds can offer the same set (a fifteen's total twice a played value, or a sweep
    # beside other kinds): the offered sets are made unique.
    overlap: bool
    # Subsets are listed only for kinds that take several cards.
    needs_sums: bool
    limit: int                           # the largest total a subset sum is kept for
    all_numbered: bool                   # every card has a value: `numbered` is always true
    needs_matches: bool                  # the single-card matches are listed first
    reads_played_mask: bool              # some condition needs the played card as a mask
    forced: bool
    prefer: str                          # any | fewest_cards | most_cards
    combine: str = "one"                 # one | all | union: the offered sets one card takes (runtime.combine)
    several: bool = False                # some card has several values, or another from the hand
    reading: bool = False                # an event's points read how the capture counted (played_value, sets)
    alone: bool = False                  # some kind's sets are never combined (its sets carry runtime.ALONE)

    @property
    def sums_call(self) -> str:
        """The expression giving the table's subsets by total (or None when no kind needs them)."""
        if not self.needs_sums:
            return "None"
        if self.several:
            return f"_rt.subset_sums_multi(table, _TVALUES, _NUMBERED, {self.limit}, _SUMS)"
        return f"_rt.subset_sums(table, _VALUE, _NUMBERED, {self.limit}, _SUMS)"

    @property
    def general(self) -> bool:
        """Whether the capture functions take the general path (several values, or sets combined): a card's
        sets listed per value, then combined; the plain path, unchanged, serves every other ruleset."""
        return self.several or self.combine != "one"


@dataclass(frozen=True)
class Plan:
    """Everything the compiler decided: the deck tables and the capture specialisation."""

    tables: DeckTables
    captures: CapturePlan


def build_plan(rs: Ruleset) -> Plan:
    """The compiler's decisions for a checked ruleset."""
    return Plan(tables=_tables(rs), captures=_captures(rs))


def _tables(rs: Ruleset) -> DeckTables:
    deck = rs.deck
    nr = len(deck.ranks)
    n_all = deck.size + (nr if rs.wild is not None else 0)
    wild_suit = deck.suits[rs.wild // nr] if rs.wild is not None else None
    names = list(deck.names) + ([deck.ranks[r] + wild_suit for r in range(nr)] if rs.wild is not None else [])
    return DeckTables(
        names=tuple(names),
        values=tuple(deck.value_of(i) for i in range(n_all)),
        ranks=tuple(deck.rank_of(i) for i in range(n_all)),
        suits=tuple(deck.suit_of(i) if i < deck.size else wild_suit for i in range(n_all)),
    )


def run_tables(rs: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What capture kind run reads, the same for every back end: per card index (the wild card's declared
    ranks too) its place in the deck's rank order, and per rank the mask of its cards. An extra card with a
    rank symbol of its own has place len(ranks): no rank follows it, and it continues no run."""
    deck = rs.deck
    n_all = deck.size + (len(deck.ranks) if rs.wild is not None else 0)
    order = {rank: r for r, rank in enumerate(deck.ranks)}
    rank_no = tuple(order.get(deck.rank_of(i), len(deck.ranks)) for i in range(n_all))
    masks = tuple(sum(1 << i for i in range(n_all) if rank_no[i] == r) for r in range(len(deck.ranks)))
    return rank_no, masks


def _plain(k: CaptureKind) -> bool:
    return k.when is None and not k.exclusive and not k.unless_match


def _captures(rs: Ruleset) -> CapturePlan:
    kinds = tuple(rs.kinds)
    deck_values = [rs.deck.value_of(i) for i in range(rs.deck.size)]
    every_value = [v for i in range(rs.deck.size) for v in rs.deck.table_values_of(i) + rs.deck.hand_values_of(i)]
    match = next((k for k in kinds if k.kind == "match"), None)
    summ = next((k for k in kinds if k.kind == "sum"), None)
    merged = (match is not None and summ is not None and _plain(match) and _plain(summ) and summ.min_cards <= 2
              and sum(k.kind in ("match", "sum") for k in kinds) == 2 and not any(k.unless_match for k in kinds))
    return CapturePlan(
        kinds=kinds,
        merged=merged,
        match=match,
        summ=summ,
        overlap=any(k.kind == "fifteen" and k.total % 2 == 0 for k in kinds)
        or any(k.kind == "sweep" and not k.exclusive for k in kinds)
        or any(k.kind == "run" for k in kinds),      # a run's sets may repeat another kind's
        needs_sums=any(k.kind in ("sum", "fifteen") or "sum" in k.after for k in kinds),
        limit=max([max(every_value, default=0)] + [k.total for k in kinds if k.kind == "fifteen"]),
        all_numbered=all(x is not None for x in deck_values),
        needs_matches=any(k.kind == "match" or k.unless_match for k in kinds) and not merged,
        reads_played_mask=any(k.when is not None and _reads_played_mask(k.when) for k in kinds),
        forced=rs.forced,
        prefer=rs.prefer,
        combine=rs.combine,
        several=rs.deck.several_values,
        reading=reads_capture_reading(rs),
        alone=any(k.alone for k in kinds),
    )


READING_NAMES = ("played_value", "sets")


def reads_capture_reading(rs: Ruleset) -> bool:
    """Whether some event's points read how the capture counted (`played_value` or `sets`)."""
    return any(isinstance(e.points, Expression) and any(isinstance(n, Name) and n.id in READING_NAMES
                                                         for n in walk(e.points.tree))
               for e in rs.events.values())


def _reads_played_mask(expr: Expression) -> bool:
    """Whether a capture condition needs the played card as a mask (not only its index `p`)."""
    # Only rank(played)/suit(played)/value(played) are served by the index; any other use of
    # the name reads the mask.
    by_index = {id(c.args[0]) for c in walk(expr.tree)
                if isinstance(c, Call) and c.func in ("rank", "suit", "value") and c.args
                and isinstance(c.args[0], Name) and c.args[0].id == "played" and c.args[0].type == CARD}
    return any(isinstance(n, Name) and n.id == "played" and id(n) not in by_index for n in walk(expr.tree))
