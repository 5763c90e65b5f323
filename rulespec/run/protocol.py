"""The names a compiled ruleset module gives the engine, written down as a typed Protocol.

compiler/codegen.py writes these names into every generated module; the
engine, the bots and the interop adapters read nothing else from it. Card sets
are int bitmasks of card indices (the declared wild card as a virtual index
N_CARDS + rank, see lang/decks.py).
"""
from __future__ import annotations

from typing import Callable, Mapping, Protocol, Sequence, runtime_checkable

from rulespec.errors import Span
from rulespec.run.runtime import BonusSpec

# Per round: (cards per seat, table cards, steps (kind, count, packet)).
Schedule = Sequence[tuple[int, int, Sequence[tuple[str, int, int]]]]


@runtime_checkable
class CompiledRules(Protocol):
    """A compiled ruleset module (compiler/codegen.py), as the engine sees it."""

    # -- identity and deck
    RULESET_ID: str
    LINE_SPANS: Sequence[Span | None]  # per generated line, the YAML span that wrote it (located rule failures)
    # (and `__rulespec_ref__`: (ruleset reference, option values), how to compile it again, and
    # `__rulespec_content__`: the digest of its files' bytes, checked when a pickled state is loaded; run/pickling.py)
    OPTIONS: Mapping[str, object]
    N_CARDS: int
    CARD_NAMES: Sequence[str]          # real cards, then the wild card's virtual ones
    RANK_NAMES: Sequence[str]
    WILD_INDEX: int                    # -1 without a wild card
    WILD_BIT: int                      # 0 without a wild card
    WILD_DECLARE_AS: Sequence[int]     # ranks the wild card may be declared as
    # -- players and deal
    SEATS_ALLOWED: Sequence[int]
    DEFAULT_SEATS: int
    SIDES: Mapping[int, int]           # seats -> sides
    SCHEDULES: Mapping[int, Schedule]
    MISDEAL_LIMIT: int | None
    # -- the table as a pile, face-down and buried cards (compiler/emit_pile.py)
    PILE: bool                         # capture.table: pile
    FACE_DOWN: Mapping[int, tuple[int, ...]]   # deal round (as written) -> face-down cards per table step
    FACE_DOWN_ROUNDS: int              # the rounds written (the last one repeats)
    BURY_TO: str | None                # deal.bury.to, None without deal.bury
    # -- hand bonuses
    HAND_BONUSES: Mapping[str, BonusSpec]
    BONUS_READS: tuple[str, ...]       # what the bonus conditions read besides the cards (hand, round, ...)
    TIMING: str                        # first_turn | own_turn | before_first_turn | after_deal
    DECLARE_WILD: bool
    DECLARED_FIRST: bool
    PER_TURN: str                      # one | all
    BONUS_OPEN: Mapping[str, Callable[[int, int], bool]]   # bonus -> open_when(game_score, rival_score)
    # -- play and scoring
    FORCED: bool
    LEFTOVERS: str
    CATEGORIES: Sequence[str]
    EVENTS: tuple[tuple[str, str, bool], ...]   # (name, kind: event | deal | bonus, scores in a category)
    TARGET: int | None     # None: no target (the game lasts HANDS hands)
    HANDS: int | None      # None: played to the target
    TIE: object
    # -- the game's running state (rulespec/checks/running.py)
    POINTS: str            # end_of_hand | as_made: when events' and bonuses' points join the game totals
    LEAD: int | None       # a side this many points ahead of every other wins; None: no such rule
    CARRY: Mapping[str, int]            # category -> points carried to the next hand when nobody takes them
    EVENT_READS: tuple[str, ...]        # running-state names play_events reads (passed as keywords)
    SCORE_READS: tuple[str, ...]        # what score reads of the state (before, dealer_side, _made keywords)
    DEAL_OUTCOMES: bool                 # whether deal_outcome has any outcome to ask

    def schedule(self, seats: int) -> Schedule: ...

    def card_names(self, mask: int) -> str: ...

    def deal_check(self, table: int) -> tuple[str, str, str] | None: ...

    def bury(self, dealt: int) -> bool: ...

    def dealer_bonus(self, table: int) -> tuple[str, int, str | None, bool] | None: ...

    def unique_key(self, by: str, cards: int, wild_rank: int | None) -> object: ...

    # round, turn, play: the moment of the play (the deal round, the player's turn in it, the play's
    # number in the hand; each from 1), which capture kinds and events may read.
    def captures(self, card: int, table: int, round: int, turn: int, play: int) -> list[int]: ...

    def legal(self, hand: int, table: int, round: int, turn: int, play: int) -> list[tuple[int, int]]: ...

    def play_events(self, played: int, captured: int, table: int, table_before: int, last_play: bool,
                    previous: int, round: int, turn: int, play: int, last_round: bool,
                    players: int) -> list[tuple[str, int, str | None]]: ...

    def score(self, piles: Sequence[int], event_points: Sequence[Mapping[str, int]]) -> list[dict[str, int]]: ...

    def outcome(self, piles: Sequence[int]) -> tuple[str, int] | None: ...

    def deal_outcome(self, hand: int, table: int) -> str | None: ...
