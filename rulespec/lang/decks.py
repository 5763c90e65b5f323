"""Decks: ranks, suits, capture values, and the card numbering every stage shares.

A card's index is `suit_index * len(ranks) + rank_index`; a set of cards is an
int bitmask over those indices. A deck's extra cards (jokers: cards outside
ranks x suits, each with its own rank and suit symbol) follow, in the order
the deck lists them; `size` counts them. When a ruleset has a wild card,
indices `size + rank_index` are *virtual* cards: the wild card declared as that
rank (its suit stays the wild card's suit). Virtual cards never reach a pile.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulespec.errors import RulespecError, Span, did_you_mean


@dataclass(frozen=True)
class Deck:
    """A deck: ordered ranks with capture values (None: no value) and suits."""

    id: str
    ranks: tuple[str, ...]
    values: tuple[int | None, ...]
    suits: tuple[str, ...]
    suit_names: tuple[str, ...] = ()
    suit_words: tuple[str, ...] = ()    # the suits in English prose, plural ("the most swords"); default suit_names
    # Cards with several values, or another value from the hand (empty: every card one value, `values`):
    # per rank its values on the table and from the hand, each a tuple (the first is the card's `value`),
    # and per card index that differs from its rank, (index, table values, hand values).
    rank_values: tuple = ()
    rank_hand_values: tuple = ()
    card_values: tuple = ()
    # Cards outside ranks x suits, after them in index order: (rank symbol, suit symbol, value or None, name).
    extras: tuple[tuple[str, str, int | None, str], ...] = ()
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        for s, suit in enumerate(self.suits):
            for r, rank in enumerate(self.ranks):
                self._index[rank + suit] = s * len(self.ranks) + r
        for e, (rank, suit, _value, _name) in enumerate(self.extras):
            self._index[rank + suit] = self.regular + e

    @property
    def regular(self) -> int:
        """The number of cards of ranks x suits (the extra cards come after them)."""
        return len(self.ranks) * len(self.suits)

    @property
    def size(self) -> int:
        return self.regular + len(self.extras)

    @property
    def names(self) -> tuple[str, ...]:
        """Card names by index (real cards only)."""
        return tuple(rank + suit for suit in self.suits for rank in self.ranks) + \
            tuple(rank + suit for rank, suit, _v, _n in self.extras)

    @property
    def all_ranks(self) -> tuple[str, ...]:
        """The rank symbols of every card: the deck's ranks, then those only extra cards have."""
        return tuple(dict.fromkeys(self.ranks + tuple(rank for rank, _s, _v, _n in self.extras)))

    @property
    def all_suits(self) -> tuple[str, ...]:
        """The suit symbols of every card: the deck's suits, then those only extra cards have."""
        return tuple(dict.fromkeys(self.suits + tuple(suit for _r, suit, _v, _n in self.extras)))

    def rank_of(self, index: int) -> str:
        if index < self.regular:
            return self.ranks[index % len(self.ranks)]
        if index < self.size:
            return self.extras[index - self.regular][0]
        return self.ranks[index - self.size]

    def suit_of(self, index: int, wild: int | None = None) -> str:
        """The suit symbol of a card index (a virtual wild card: the wild card's)."""
        if self.regular <= index < self.size:
            return self.extras[index - self.regular][1]
        return self.suits[self.suit_index(index, wild)]

    def suit_index(self, index: int, wild: int | None = None) -> int:
        if index < self.regular:
            return index // len(self.ranks)
        if index < self.size:
            raise ValueError(f"extra card {index} has no suit among the deck's suits")
        assert wild is not None
        return wild // len(self.ranks)

    def value_of(self, index: int) -> int | None:
        if self.card_values:
            found = self.table_values_of(index)
            return found[0] if found else None
        if index < self.regular:
            return self.values[index % len(self.ranks)]
        if index < self.size:
            return self.extras[index - self.regular][2]
        return self.values[index - self.size]

    @property
    def several_values(self) -> bool:
        """Whether some card has more than one value, or another value from the hand than on the table."""
        return bool(self.rank_values or self.card_values)

    def table_values_of(self, index: int) -> tuple[int, ...]:
        """The values a card (or a virtual card: its rank's) may count as on the table; () for none."""
        for i, table, _hand in self.card_values:
            if i == index:
                return table
        if self.regular <= index < self.size:           # an extra card: its own value
            value = self.extras[index - self.regular][2]
            return () if value is None else (value,)
        rank = index % len(self.ranks) if index < self.regular else index - self.size
        if self.rank_values:
            return self.rank_values[rank]
        value = self.values[rank]
        return () if value is None else (value,)

    def hand_values_of(self, index: int) -> tuple[int, ...]:
        """The values a card may count as when played from the hand; () for none."""
        for i, _table, hand in self.card_values:
            if i == index:
                return hand
        if self.regular <= index < self.size:
            return self.table_values_of(index)
        rank = index % len(self.ranks) if index < self.regular else index - self.size
        if self.rank_hand_values:
            return self.rank_hand_values[rank]
        return self.table_values_of(index)

    def index(self, name: str) -> int | None:
        """The index of a card name, or None if it is not in this deck."""
        return self._index.get(name)

    def card(self, name, span: Span | None = None, where: str = "") -> int:
        """The index of a card name; a located error naming the card otherwise."""
        if not isinstance(name, str):
            raise RulespecError(f"expected a card such as '7D'{where}, found {name!r}", span)
        idx = self._index.get(name)
        if idx is None:
            if len(name) < 2:
                why = "a card is a rank followed by a suit, such as '7D'"
            elif name[-1] not in self.all_suits:
                why = f"unknown suit '{name[-1]}' (suits: {' '.join(self.all_suits)})"
            elif name[:-1] not in self.all_ranks:
                why = f"unknown rank '{name[:-1]}' (ranks: {' '.join(self.all_ranks)})"
            else:
                why = "not a card of this deck"
            raise RulespecError(
                f"unknown card '{name}'{where} in deck {self.id}: {why}{did_you_mean(name, self.names)}", span
            )
        return idx

    def rank_index(self, rank: str) -> int | None:
        try:
            return self.ranks.index(rank)
        except ValueError:
            return None


FRENCH40 = Deck("french40", ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
                (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), ("H", "D", "C", "S"),
                ("hearts", "diamonds", "clubs", "spades"))
LATIN40 = Deck("latin40", ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R"),
               (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), ("C", "D", "B", "S"),
               ("coppe", "denari", "bastoni", "spade"), ("cups", "coins", "clubs", "swords"))
BRESCIANE52 = Deck("bresciane52", ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F", "C", "R"),
                   (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, None, None, None), ("C", "D", "B", "S"),
                   ("coppe", "denari", "bastoni", "spade"), ("cups", "coins", "clubs", "swords"))

STANDARD_DECKS: dict[str, Deck] = {d.id: d for d in (FRENCH40, LATIN40, BRESCIANE52)}


def bits(mask: int):
    """The indices set in a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def index_tables(deck, wild: int | None = None) -> dict[str, object]:
    """Per card index (the deck, then the wild card declared as each rank): `_VALUE`, `_RANK`, `_SUIT`, and `_WILD`."""
    count = deck.size + (len(deck.ranks) if wild is not None else 0)
    return {
        "_VALUE": tuple(deck.value_of(i) or 0 for i in range(count)),
        "_TVALUES": tuple(deck.table_values_of(i) for i in range(count)),
        "_HVALUES": tuple(deck.hand_values_of(i) for i in range(count)),
        "_RANK": tuple(deck.rank_of(i) for i in range(count)),
        "_SUIT": tuple(deck.suit_of(i, wild) for i in range(count)),
        "_WILD": (1 << wild) if wild is not None else 0,
    }
