"""What a compiled ruleset module offers the engine: its typed Protocol.

The compiler (compiler/emit_*.py) writes modules of this shape; the engine,
bots and transcripts read only these names. tests/test_codegen.py checks every
shipped ruleset's module against it, so the two sides cannot drift apart.
Card sets are int bitmasks over card indices (rulespec/lang/decks.py).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from rulespec.errors import Span
from rulespec.run.runtime import BonusSpec


@runtime_checkable
class CompiledRules(Protocol):
    """The module of one compiled ruleset with its option values."""

    # -- the deck and the seats
    RULESET_ID: str
    OPTIONS: dict[str, object]
    N_CARDS: int
    CARD_NAMES: tuple[str, ...]          # per card index, the wild card's declared ranks after the deck
    RANK_NAMES: tuple[str, ...]
    WILD_INDEX: int                      # -1: no wild card
    WILD_BIT: int
    WILD_DECLARE_AS: tuple[int, ...]     # rank indices the wild card may be declared as
    SEATS_ALLOWED: tuple[int, ...]
    DEFAULT_SEATS: int
    SIDES: dict[int, int]                # players -> sides
    SCHEDULES: dict[int, tuple]          # players -> per round (cards per seat, table cards, steps)
    MISDEAL_LIMIT: int | None
    # -- declarations
    HAND_BONUSES: dict[str, BonusSpec]
    TIMING: str
    DECLARE_WILD: bool
    DECLARED_FIRST: bool
    PER_TURN: str
    # -- play and scoring
    FORCED: bool
    LEFTOVERS: str
    CATEGORIES: tuple[str, ...]
    TARGET: int
    TIE: str
    # Set by the compiler after loading: per generated line, the YAML span that wrote it.
    LINE_SPANS: tuple[Span | None, ...]

    def schedule(self, seats: int) -> tuple: ...

    def card_names(self, mask: int) -> str: ...

    def deal_check(self, table: int) -> tuple[str, str, str] | None: ...

    def dealer_bonus(self, table: int) -> tuple[str, int, str, bool] | None: ...

    def unique_key(self, by: str, cards: int, wild_rank: int | None) -> object: ...

    def captures(self, played: int, table: int) -> list[int]: ...

    def legal(self, hand: int, table: int) -> list[tuple[int, int]]: ...

    def play_events(self, played: int, captured: int, table: int, table_before: int, last_play: bool,
                    previous: int, round: int) -> list[tuple[str, int, str]]: ...

    def score(self, piles: list[int], event_points: list[dict[str, int]]) -> list[dict[str, int]]: ...

    def outcome(self, piles: list[int]) -> tuple[str, int] | None: ...
