"""The engine: one hand of a compiled ruleset, and a game as a series of hands.

The state API follows OpenSpiel's spirit: `current_seat`, `legal_moves()`,
`play()`, `declare()`, `is_over`, `score()`, `observation(seat)`, `clone()`.
Everything game-specific comes from the compiled ruleset module (`rules`);
this file only moves cards. Card sets are int bitmasks of real card indices;
the wild card, once declared as a rank, is seen by the compiled functions as
its virtual index (see decks.py) until it is captured.
"""
from __future__ import annotations

import random
TYPE_CHECKING = False            # typing's flag without importing typing (rulespec/run/records.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from rulespec.run.records import NamedTuple

from rulespec.errors import RulespecError
from rulespec.run import bid as _bid
from rulespec.run import build_count as _build_count
from rulespec.run import builds as _builds
from rulespec.run.declarations import Declaration, choose, declarer, open_in, unique_holder
from rulespec.run.pickling import state_with_rules, state_without_rules
from rulespec.run.runtime import bits as _rt_bits
from rulespec.run.runtime import TooManyUnions as _rt_TooManyUnions
from rulespec.run.runtime import MAX_SUBSETS as _rt_MAX_SUBSETS
from rulespec.run.runtime import combined_has as _rt_combined_has

if TYPE_CHECKING:
    from rulespec.run.protocol import CompiledRules

# A deal check that holds for nearly every deal would redeal forever.
MAX_REDEALS = 1000


class IllegalMove(RulespecError):
    """A play or declaration the rules refuse (the message says why)."""


class RuleFailed(RulespecError):
    """A rule of the ruleset failed while it was evaluated (located at the rule; the hand is unchanged)."""


class TooManyMoves(RuleFailed):
    """legal_moves() of a turn whose build moves are more than a list holds (builds.MAX_BUILD_MOVES for one
    card): the state is legal and plays on (Hand.play judges one move without the list, Hand.random_move
    draws one uniformly); only the list is refused, located at the capture section."""


def rule_failure(exc: Exception, rules) -> Exception:
    """`exc` as a RuleFailed at the YAML span of the generated line that raised it; `exc` itself if no rule did.

    The compiled module's `LINE_SPANS` (set by the compiler) maps each generated line to the
    span that wrote it; the innermost frame of the module in the traceback is the failing rule.
    """
    filename = getattr(rules, "__file__", None)
    lineno = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    if lineno is None:
        return exc
    spans = getattr(rules, "LINE_SPANS", ())
    span = spans[lineno - 1] if 0 < lineno <= len(spans) else None
    if span is None and isinstance(exc, RulespecError):
        # The run-time limit of the capture lists (runtime.subset_sums), raised from the module's
        # own scaffolding: the capture kinds that list sums are where it comes from.
        span = exc.span or getattr(rules, "CAPTURE_SPAN", None)
    if isinstance(exc, ZeroDivisionError):
        reason = "division by zero"
    elif isinstance(exc, RulespecError):
        reason = exc.message
    else:
        reason = f"{type(exc).__name__}: {exc}"
    return RuleFailed(f"this rule failed: {reason} (the hand is left as it was)", span)


def _raise_located(exc: Exception, rules) -> None:
    """Raise `exc` as a located RuleFailed when a rule raised it; else re-raise it as it is (an engine bug)."""
    failure = rule_failure(exc, rules)
    if failure is exc:
        raise exc
    raise failure from exc


def score_located(rules, piles, event_points, **state) -> list[dict[str, int]]:
    """`rules.score(piles, event_points)`; a scoring rule that fails is the located RuleFailed. `state`: the
    game's running state, for a ruleset whose scoring reads it (its SCORE_READS)."""
    try:
        return rules.score(piles, event_points, **state)
    except Exception as exc:
        _raise_located(exc, rules)


def _game_state(game: GameState | None, k: int, rules) -> tuple[tuple, tuple]:
    """(totals before the hand, carried points) from what a caller gives a hand, checked: k ints each, and
    categories of the ruleset that carry."""
    if game is None:
        return (0,) * k, ()
    if not isinstance(game, GameState) or not isinstance(game.totals, (tuple, list)) \
            or not isinstance(game.carried, (tuple, list)):
        raise RulespecError(f"game is a GameState(totals, carried) of tuples, found {_shown(game)}")
    totals = tuple(game.totals) if game.totals else (0,) * k
    if len(totals) != k or not all(_is_int(t) for t in totals):
        raise RulespecError(f"the game's totals are one whole number per side ({k} sides), found {_shown(game.totals)}")
    carried = tuple(game.carried)
    for pair in carried:
        if not (isinstance(pair, tuple) and len(pair) == 2 and pair[0] in rules.CARRY and _is_int(pair[1])
                and pair[1] >= 0):
            carries = ", ".join(rules.CARRY) or "none"
            raise RulespecError(f"carried points are (category, points) of a category that carries (here: "
                                f"{carries}), found {_shown(pair)}")
    return totals, carried


class GameState(NamedTuple):
    """What a hand is given of the game around it: each side's game total before the hand, and the points
    carried into it per category (`carry`: a category nobody scored in a hand before). A transcript states
    it as `game: {totals: ..., carried: ...}`; `Game` passes its own."""

    totals: tuple = ()
    carried: tuple = ()          # (category, points) pairs


# The outcome of a hand that a side's running total ends at the target (`game.points: as_made`).
TARGET_OUTCOME = "target"


class Event(NamedTuple):
    """Something that scored: which play made it (0: the deal), who, what, how many points where."""

    play: int
    seat: int | None
    side: int | None
    name: str
    points: int
    category: str | None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    """A caller's bad argument for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _lowbits(mask: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    return list(_rt_bits(mask))


class _Names:
    """Card names of a mask, formatted only when shown."""

    __slots__ = ("rules", "mask")

    def __init__(self, rules, mask: int):
        self.rules, self.mask = rules, mask

    def __str__(self) -> str:
        return self.rules.card_names(self.mask)

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731


class DealSource:
    """Where the cards of a hand come from: a deck order, or explicit rounds.

    DealSource and ExplicitRound are written out as `@dataclass` would generate them (constructor, repr,
    equality, unhashable; tests/test_records.py compares each with its dataclass), without importing
    dataclasses (and inspect with it), which cost every `rulespec` process about 7 ms.
    """

    __match_args__ = ("order", "rounds", "rng", "pos", "round_no", "seen")

    order: list[int] | None = None    # a full deck order, top card first (consumed as dealt)
    rounds: list | None = None        # explicit rounds: list of (table list | None, {seat: [cards]})
    rng: random.Random | None = None  # for reshuffles of a seeded game
    pos: int = 0
    round_no: int = 0
    seen: int = 0                     # cards an explicit deal has given so far

    def __init__(self, order: list[int] | None = None, rounds: list | None = None,
                 rng: random.Random | None = None, pos: int = 0, round_no: int = 0, seen: int = 0) -> None:
        self.order, self.rounds, self.rng, self.pos, self.round_no, self.seen = order, rounds, rng, pos, round_no, seen

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(order={self.order!r}, rounds={self.rounds!r}, rng={self.rng!r}, "
                f"pos={self.pos!r}, round_no={self.round_no!r}, seen={self.seen!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.order, self.rounds, self.rng, self.pos, self.round_no, self.seen) == \
                (other.order, other.rounds, other.rng, other.pos, other.round_no, other.seen)
        return NotImplemented

    __hash__ = None                   # mutable and compared by value, as a dataclass

    def clone(self) -> "DealSource":
        """A copy that deals on independently (the explicit rounds and the generator are shared)."""
        return type(self)(list(self.order) if self.order is not None else None, self.rounds, self.rng, self.pos,
                          self.round_no, self.seen)


class ExplicitRound:
    """One round as a transcript writes it: table cards, cards per seat, thrown in or not; `card_spans`, where
    each card is written (card index: span), for errors about one card."""

    __match_args__ = ("table", "hands", "redeal", "span", "card_spans")

    table: list[int] | None
    hands: dict[int, list[int]]
    redeal: bool = False
    span: object = None
    card_spans: dict | None = None

    def __init__(self, table: list[int] | None, hands: dict[int, list[int]], redeal: bool = False,
                 span: object = None, card_spans: dict | None = None) -> None:
        self.table, self.hands, self.redeal, self.span, self.card_spans = table, hands, redeal, span, card_spans

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(table={self.table!r}, hands={self.hands!r}, redeal={self.redeal!r}, "
                f"span={self.span!r}, card_spans={self.card_spans!r})")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.table, self.hands, self.redeal, self.span, self.card_spans) == \
                (other.table, other.hands, other.redeal, other.span, other.card_spans)
        return NotImplemented

    __hash__ = None


class Hand:
    """The state of one hand: deal, plays, events and score."""

    # Every attribute of a hand, declared. clone() copies each by its declared type: a list or a
    # dict one level down (their items are immutable), the deal source by its own clone();
    # anything else is immutable and shared. tests/test_engine.py holds __init__ to this list.
    rules: CompiledRules
    n: int
    k: int
    dealer: int
    source: DealSource
    schedule: tuple
    hands: list[int]
    table: int
    face_down: int
    _arrivals: list[int]
    piles: list[int]
    round: int
    turn: int
    wild_as: int | None
    last_capturer: int | None
    previous: int
    events: list[Event]
    dealer_events: list[str]
    plays: int
    played_this_round: list[int]
    played_round: list[int]
    declared: list[int]
    shown: list[int]
    knocked_round: list[bool]
    round_dealt: list[int]
    declared_wild: dict[int, int]
    outcome: tuple[str, list[int]] | None
    over: bool
    misdeals: int
    redeal_marked: bool
    round_pending: bool
    deal_log: list[tuple[int, tuple[int, ...]] | None]
    table_laid: list[tuple[int, ...] | None]
    final_table: int
    _options_key: tuple | None
    _options: dict[int, list[int]]
    _legal: tuple | None
    before: tuple
    carried: tuple
    cut_short: bool
    builds: list[_builds.Build]
    _build_cfg: _builds.Config | None
    _build_view: tuple | None
    bidder: int | None
    bid: int | None
    bid_cards: int
    bid_log: list[int]
    bid_pending: bool
    bid_binds: bool
    _bid_cfg: _bid.Config | None

    def __init__(self, rules: CompiledRules, seats: int, dealer: int, source: DealSource,
                 game: GameState | None = None):
        if not _is_int(seats) or seats not in rules.SEATS_ALLOWED:
            raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} "
                                f"players, not {_shown(seats)}")
        if not _is_int(dealer) or not 0 <= dealer < seats:
            raise RulespecError(f"dealer must be a seat from 0 to {seats - 1}, found {_shown(dealer)}")
        self.rules = rules
        self.n = seats
        self.k = rules.SIDES[seats]
        self.dealer = dealer
        self.source = source
        self.schedule = rules.schedule(seats)       # list of (seat_cards, table_cards, steps) per round
        self.hands = [0] * seats
        self.table = 0
        self.face_down = 0                           # table cards lying face down (a pile's first deal), unseen
        self._arrivals: list[int] = []               # cards in the order they reached the table
        self.piles = [0] * self.k
        self.round = 0
        self.turn = (dealer + 1) % seats
        self.wild_as: int | None = None              # virtual index of the declared wild card
        self.last_capturer: int | None = None
        self.previous = 0                            # the card the previous play left on the table
        self.events: list[Event] = []
        self.dealer_events: list[str] = []
        self.plays = 0
        self.played_this_round = [0] * seats
        self.played_round = [0] * seats              # the cards each seat has played this round (public)
        self.declared = [0] * seats                  # declared cards still to be played (declared_first)
        self.shown = [0] * seats                     # declared cards, shown face up to everyone
        self.knocked_round = [False] * seats
        self.round_dealt = [0] * seats
        self.declared_wild: dict[int, int] = {}       # seat -> the rank it declared the wild card as
        self.outcome: tuple[str, list[int]] | None = None
        self.over = False
        self.misdeals = 0
        self.redeal_marked = False
        self.round_pending = False                   # a written deal stopped at a round's end (see _play_card)
        # Per deal round: (table cards laid, cards per seat) as masks; None after a thrown-in deal.
        self.deal_log: list[tuple[int, tuple[int, ...]] | None] = []
        # Per entry of deal_log: every table card the round laid, in the order laid (face-down ones too).
        self.table_laid: list[tuple[int, ...] | None] = []
        self.final_table = 0
        self._options_key = None
        self._options: dict[int, list[int]] = {}
        self._legal = None                  # (seat, hand, table, moves, plays[, builds, whole hand]) of the last legal_moves()
        self.before, self.carried = _game_state(game, self.k, rules)   # the game around the hand
        self.cut_short = False              # ended before its last play: only the points made so far count
        self.builds: list[_builds.Build] = []  # the builds on the table (capture.builds; their cards are in table)
        spec = getattr(rules, "BUILDS", None)
        self._build_cfg = _builds.Config(spec) if spec is not None else None
        self._build_view = None                # (state, _builds.TurnView) of the seat to play (_turn_view)
        spec = getattr(rules, "BID", None)
        self._bid_cfg = _bid.Config(spec) if spec is not None else None
        self.bidder = (dealer + 1) % seats if spec is not None else None   # the first player bids
        self.bid: int | None = None            # the value bid (None: no bid yet, or none in these rules)
        self.bid_cards = 0                     # the cards the bidder bids on (its first cards dealt)
        self.bid_log: list[int] = []           # per deal (thrown-in ones too): the cards the bidder bid on
        self.bid_pending = False               # the bid is due before any play
        self.bid_binds = False                 # the bid still binds the bidder's first play
        try:
            self._start()
        except RulespecError:
            raise
        except Exception as exc:
            _raise_located(exc, rules)

    # -- dealing -------------------------------------------------------------
    def _take(self, count: int) -> list[int]:
        src = self.source
        cards = src.order[src.pos:src.pos + count]
        if len(cards) < count:
            raise RulespecError(f"the deck order has too few cards for round {self.round}")
        src.pos += count
        return cards

    def _lay_round(self, table_only: bool = False) -> None:
        """Give the next round's cards, from the deck order or the explicit round (`table_only`: the round's
        table steps alone, the hands kept: a table thrown in and dealt again)."""
        self.round += 1
        seat_cards, table_cards, steps = self.schedule[self.round - 1]
        table_before = self.table
        arrived = len(self._arrivals)
        src = self.source
        seen: list[int] = []                        # the bidder's cards of a first round, in the order dealt
        if src.order is not None:
            n = self.n
            first = (self.dealer + 1) % n
            hands = self.hands
            special = self.rules.BURY_TO is not None or self.rules.FACE_DOWN
            table_step = 0
            for kind, count, packet in steps:
                if kind == "table" and special:
                    self._lay_table(count, table_step)
                    table_step += 1
                    continue
                if kind == "table":
                    for c in self._take(count):
                        self.table |= 1 << c
                        self._arrivals.append(c)
                    continue
                if table_only:
                    continue
                chunk = self._take(count * n)
                pos = 0
                for _ in range(count // packet):
                    for j in range(n):
                        seat = (first + j) % n
                        for c in chunk[pos:pos + packet]:
                            hands[seat] |= 1 << c
                        if seat == self.bidder and self.round == 1:
                            seen.extend(chunk[pos:pos + packet])
                        pos += packet
        else:
            if src.round_no >= len(src.rounds):
                if self.round == 1 and src.round_no and src.rounds[src.round_no - 1].redeal:
                    # The round before was thrown in: what is missing is the new deal, not round 1 itself.
                    raise RulespecError(f"round {src.round_no} is thrown in (redeal: true), so the transcript's "
                                        f"deal must go on with the new deal as its next round; it lists none",
                                        src.rounds[src.round_no - 1].span)
                raise RulespecError(f"the transcript's deal does not list round {self.round}")
            given = src.rounds[src.round_no]
            src.round_no += 1
            if table_only:
                self._keep_explicit_hands(given)
            self._lay_explicit(given, seat_cards, table_cards)
            if self.bidder is not None:
                seen = list(given.hands.get(self.bidder, ()))   # a transcript lists the cards bid on first
        if self._bid_cfg is not None and self.round == 1:
            self.bid_cards = _bid.first_seen(seen, self._bid_cfg.after_cards)
            self.bid_log.append(self.bid_cards)
        self.round_dealt = list(self.hands)
        # The public record: a card laid face down is not in it (table_laid, the rules' own record, has it).
        self.deal_log.append((self.table & ~table_before & ~self.face_down, tuple(self.hands)))
        self.table_laid.append(tuple(self._arrivals[arrived:]))
        self.played_this_round = [0] * self.n
        self.played_round = [0] * self.n
        self.knocked_round = [False] * self.n
        if self.rules.DEAL_OUTCOMES:
            self._deal_outcomes()

    def _deal_outcomes(self) -> None:
        """An outcome asked at the deal (`at: deal`): the first seat, in dealing order, whose hand makes one
        ends the game for its side at once (the hand is cut short: only the points made so far count)."""
        for j in range(self.n):
            seat = (self.dealer + 1 + j) % self.n
            name = self.rules.deal_outcome(self.hands[seat], self.table)
            if name is not None:
                self._end_game(name, [seat % self.k])
                self.cut_short = self.plays > 0
                return

    def _face_down_counts(self) -> tuple:
        """How many cards of each table step of the current round lie face down (deal step face_down)."""
        rules = self.rules
        return rules.FACE_DOWN.get(min(self.round, rules.FACE_DOWN_ROUNDS), ()) if rules.FACE_DOWN else ()

    def _lay_table(self, count: int, table_step: int) -> None:
        """Lay one table step's cards from the deck order, one by one (the last on top): its first face_down
        cards face down; a face-up card the rules bury goes to the bottom of the stock, the next card in its place."""
        counts = self._face_down_counts()
        down = counts[table_step] if table_step < len(counts) else 0
        rules = self.rules
        for i in range(count):
            c = self._take(1)[0]
            if i >= down and rules.BURY_TO == "bottom":
                c = self._replace_buried(c)
            self.table |= 1 << c
            self._arrivals.append(c)
            if i < down:
                self.face_down |= 1 << c
            elif rules.BURY_TO == "under":
                self._turn_up_onto(c)

    def _turn_up_onto(self, card: int) -> None:
        """deal.bury `to: under`: while the face-up `card` just laid is one the rules bury, the face-down card
        nearest the top of the pile is turned face up onto it (the buried card stays in the pile, under it), and
        is checked in turn; with no face-down card left, the buried card stays on top."""
        while self.rules.bury(1 << card) and self.face_down:
            under = next(c for c in reversed(self._arrivals) if self.face_down >> c & 1)
            self.face_down &= ~(1 << under)
            self._arrivals.remove(under)
            self._arrivals.append(under)
            card = under

    def _replace_buried(self, card: int) -> int:
        """`card`, or, while the rules bury it, the next card of the stock (the buried one put at the bottom)."""
        src = self.source
        tries = len(src.order) - src.pos + 1
        while self.rules.bury(1 << card):
            tries -= 1
            if tries < 0:
                compiled = getattr(self.rules, "_COMPILED", None)       # the ruleset, to say where bury is
                bury = getattr(getattr(compiled, "ruleset", None), "bury", None)
                raise RulespecError("deal.bury buries every card left in the stock: the table cannot be dealt",
                                    getattr(bury, "span", None))
            src.order.append(card)         # to the bottom: dealt after every other card of the stock
            card = self._take(1)[0]
        return card

    def _check_explicit_table(self, given: "ExplicitRound") -> None:
        """A written round's table, the first cards of each table step face down; one the rules would bury
        is refused (a transcript writes the table as it lies once buried cards are replaced)."""
        rules = self.rules
        counts = self._face_down_counts()
        steps = [count for kind, count, _ in self.schedule[self.round - 1][2] if kind == "table"]
        at = 0
        for k, count in enumerate(steps):
            down = counts[k] if k < len(counts) else 0
            for i, c in enumerate((given.table or ())[at:at + count]):
                if rules.BURY_TO == "under":
                    # Written as dealt: laid again one by one, turned up as the deck's deal would.
                    self._arrivals.remove(c)
                    self._arrivals.append(c)
                if i < down:
                    self.face_down |= 1 << c
                elif rules.BURY_TO == "under":
                    self._turn_up_onto(c)
                elif rules.BURY_TO is not None and rules.bury(1 << c):
                    raise RulespecError(f"round {self.round} lays {rules.CARD_NAMES[c]} face up on the table, but "
                                        f"the rules bury it (deal.bury): write the table as it lies after burying, "
                                        f"and {rules.CARD_NAMES[c]} in the round that deals it", given.span)
            at += count

    def _deal_pending(self) -> None:
        """Deal the round a written deal left out, now that a play needs it (an error if it is not there)."""
        if self.round_pending:
            self.round_pending = False
            self._lay_round()

    def _complete_void_round(self, given: "ExplicitRound", seat_cards: int, table_cards: int) -> "ExplicitRound":
        """A first round marked thrown in (`redeal: true`) in a ruleset with a bid may list only what decides
        that it is thrown in: the bidder's first cards (the cards bid on), the table where a deal check reads
        it, and any other seat whole or not at all. The cards it leaves out are nobody's to see or play:
        they are dealt from the cards it does not list, lowest first. A round that lists everything, or is
        not thrown in, or is not the first, is returned as it is."""
        cfg = self._bid_cfg
        if cfg is None or not given.redeal or self.round != 1:
            return given
        hands = given.hands
        table = list(given.table or ())
        short = len(table) != table_cards or any(len(hands.get(s, ())) != seat_cards for s in range(self.n))
        if not short:
            return given
        first = cfg.after_cards
        mine = list(hands.get(self.bidder, ()))
        if len(mine) not in (first, seat_cards):
            raise RulespecError(f"round 1 is thrown in (redeal: true) and may list only the cards bid on: seat "
                                f"{self.bidder}'s first {first} cards, or all {seat_cards}; the transcript gives "
                                f"{len(mine)}", given.span)
        for seat in range(self.n):
            got = len(hands.get(seat, ()))
            if seat != self.bidder and got not in (0, seat_cards):
                raise RulespecError(f"round 1 is thrown in (redeal: true): it may leave a seat's cards out, but "
                                    f"a seat it lists gets all {seat_cards}; seat {seat} gets {got}", given.span)
        if len(table) not in (0, table_cards):
            raise RulespecError(f"round 1 is thrown in (redeal: true): it may leave the table out, but a table it "
                                f"lists has all {table_cards} cards; the transcript gives {len(table)}", given.span)
        if not table and getattr(self.rules, "DEAL_CHECK_SPANS", True):
            raise RulespecError(f"round 1 is thrown in (redeal: true): list its {table_cards} table cards, which "
                                f"the ruleset's deal checks read", given.span)
        if self.rules.DEAL_OUTCOMES and any(len(hands.get(s, ())) != seat_cards for s in range(self.n)):
            raise RulespecError(f"round 1 is thrown in (redeal: true): list every seat's {seat_cards} cards, which "
                                f"the ruleset's outcomes at the deal read", given.span)
        listed = 0
        for c in table + [c for cards in hands.values() for c in cards]:
            listed |= 1 << c
        spare = iter([c for c in range(self.rules.N_CARDS) if not (listed | self.source.seen) >> c & 1])
        filled = {seat: list(hands.get(seat, ())) for seat in range(self.n)}
        for seat in range(self.n):
            filled[seat] += [next(spare) for _ in range(seat_cards - len(filled[seat]))]
        table = table or [next(spare) for _ in range(table_cards)]
        extra = {s: cards for s, cards in hands.items() if not 0 <= s < self.n}
        return ExplicitRound(table, {**filled, **extra}, given.redeal, given.span, given.card_spans)

    def _lay_explicit(self, given: "ExplicitRound", seat_cards: int, table_cards: int) -> None:
        """Lay a round written out in a transcript, checking it against the schedule."""
        given = self._complete_void_round(given, seat_cards, table_cards)
        names = self.rules.CARD_NAMES
        got_table = len(given.table or ())
        if got_table != table_cards:
            raise RulespecError(f"round {self.round} lays {table_cards} table cards, the transcript gives "
                                f"{got_table}", given.span)
        for seat in range(self.n):
            got = len(given.hands.get(seat, ()))
            if got != seat_cards:
                raise RulespecError(f"round {self.round} gives {seat_cards} cards to seat {seat}, the transcript "
                                    f"gives {got}", given.span)
        extra = sorted(s for s in given.hands if not 0 <= s < self.n)
        if extra:
            raise RulespecError(f"round {self.round} deals to seat {extra[0]}, but seats are 0..{self.n - 1}",
                                given.span)
        for seat, c in [(None, c) for c in given.table or ()] + [(s, c) for s in sorted(given.hands)
                                                                 for c in given.hands[s]]:
            if self.source.seen >> c & 1:
                at = (given.card_spans or {}).get((seat, c)) or given.span
                raise RulespecError(f"card {names[c]} is dealt twice in this deal", at)
            self.source.seen |= 1 << c
            if seat is None:
                self.table |= 1 << c
                self._arrivals.append(c)
            else:
                self.hands[seat] |= 1 << c
        if self.rules.BURY_TO is not None or self.rules.FACE_DOWN:
            self._check_explicit_table(given)
        self.redeal_marked = given.redeal

    def _start(self) -> None:
        """Deal round 1, apply the deal checks and the dealer bonus."""
        rules = self.rules
        thrown_in = 0
        table_only = False                 # after a redeal_table: the table alone is dealt again
        while True:
            self._lay_round(table_only)
            table_only = False
            if self.over:                  # an outcome asked at the deal ended the game
                return
            check = rules.deal_check(self.table, self.top_mask()) if rules.PILE else rules.deal_check(self.table)
            if check is None and self._bid_cfg is not None and not _bid.bid_values(self._bid_cfg, self.bid_cards):
                check = ("bid", "redeal", self._bid_cfg.void)    # no card to bid: thrown in, the same dealer deals
            if check is not None:
                thrown_in += 1
                if thrown_in > MAX_REDEALS:
                    at = getattr(rules, "DEAL_CHECK_SPANS", {}).get(check[0])
                    raise RulespecError(f"deal check '{check[0]}' threw in {MAX_REDEALS} deals in a row: does it "
                                        f"hold for (nearly) every deal?", at)
            explicit = self.source.rounds is not None
            if check is None:
                if explicit and self.redeal_marked:
                    why = ""
                    if self._bid_cfg is not None:
                        values = ", ".join(map(str, _bid.bid_values(self._bid_cfg, self.bid_cards)))
                        why = (f" (seat {self.bidder} can bid {values} on "
                               f"{self.rules.card_names(self.bid_cards)})")
                    raise RulespecError("this round is marked redeal: true, but the rules do not throw this "
                                        "deal in" + why, self.source.rounds[self.source.round_no - 1].span)
                break
            name, result, event = check
            ends_game = result == "dealer_wins" or (
                result == "misdeal" and rules.MISDEAL_LIMIT and self.misdeals + 1 >= rules.MISDEAL_LIMIT)
            if explicit and not self.redeal_marked and not ends_game:
                raise RulespecError(f"the rules throw this deal in ({event}); mark the round redeal: true "
                                    f"and give the new deal as the next round",
                                    self.source.rounds[self.source.round_no - 1].span)
            if result == "dealer_wins":
                # An outcome, not an event: the check's name is the outcome and no dealer event is reported.
                self._end_game(name, [self.dealer % self.k])
                return
            self.dealer_events.append(event)
            if result == "redeal_table":
                self._redeal_table()
                table_only = True
                continue
            if result == "misdeal":
                self.misdeals += 1
                if rules.MISDEAL_LIMIT and self.misdeals >= rules.MISDEAL_LIMIT:
                    others = sorted({s % self.k for s in range(self.n)} - {self.dealer % self.k})
                    self._end_game("misdeal", others)
                    return
            self._redeal()
        bonus = rules.dealer_bonus(self.table)
        if bonus is not None:
            event, points, category, capture_table = bonus
            side = self.dealer % self.k
            self.dealer_events.append(event)
            self.events.append(Event(0, self.dealer, side, event, points, category))
            if capture_table:
                self.piles[side] |= self.table
                self.table = 0
                self.face_down = 0
                self.last_capturer = side
            if rules.POINTS == "as_made":
                self._reached()
        self.turn = (self.dealer + 1) % self.n
        self.bid_pending = self._bid_cfg is not None and not self.over

    def _redeal_table(self) -> None:
        """A deal check's `redeal_table`: the table cards are shuffled back into the stock and the first round's
        table is dealt again from it; the hands are kept (a written deal gives the next round with the same
        hands)."""
        src = self.source
        old = self.table
        if src.order is not None:
            if src.rng is None:
                raise RulespecError("this deck order's table would be thrown in (" + self.dealer_events[-1] +
                                    "): a deck: order describes one deal only; write the deal as rounds instead")
            stock = src.order[src.pos:] + [c for c in range(self.rules.N_CARDS) if old >> c & 1]
            src.rng.shuffle(stock)
            src.order = src.order[:src.pos] + stock
        else:
            src.seen &= ~old
        self.deal_log.append(None)     # marks the deal before as thrown in (the next entry keeps its hands)
        self.table_laid.append(None)
        self.table = 0
        self.face_down = 0
        self._arrivals = []
        self.round -= 1                # the first round's table steps are laid again (_start)

    def _keep_explicit_hands(self, given: "ExplicitRound") -> None:
        """A written round after a table thrown in (`redeal_table`) gives the same hands: the rules keep them.
        Their cards are taken back from the deal's record so that the round lays them again."""
        names = self.rules.CARD_NAMES
        for seat in range(self.n):
            got = 0
            for c in given.hands.get(seat, ()):
                got |= 1 << c
            if got != self.hands[seat]:
                raise RulespecError(f"the deal's round {self.source.round_no} follows a table thrown in, and the "
                                    f"rules keep the hands: "
                                    f"seat {seat} holds {self.rules.card_names(self.hands[seat])}, the transcript "
                                    f"gives {' '.join(names[c] for c in given.hands.get(seat, ())) or 'nothing'}",
                                    given.span)
        for seat in range(self.n):
            self.source.seen &= ~self.hands[seat]
            self.hands[seat] = 0

    def _redeal(self) -> None:
        """Gather everything and deal again (same dealer)."""
        src = self.source
        if src.order is not None:
            if src.rng is None:
                raise RulespecError("this deck order would be thrown in (" + self.dealer_events[-1] +
                                    "): a deck: order describes one deal only; write the deal as rounds instead")
            src.order = list(range(self.rules.N_CARDS))
            src.rng.shuffle(src.order)
            src.pos = 0
        self.deal_log.append(None)     # marks the deal before as thrown in
        self.table_laid.append(None)
        self.source.seen = 0
        self.hands = [0] * self.n
        self.table = 0
        self.face_down = 0
        self._arrivals = []
        self.round = 0

    def _end_game(self, name: str, winners: list[int]) -> None:
        self.outcome = (name, winners)
        self.over = True

    # -- views ---------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to play, or None when the hand is over."""
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def table_order(self) -> list[int]:
        """The table's cards in the order they arrived (for display)."""
        table = self.table
        return [c for c in self._arrivals if table >> c & 1]

    def top_mask(self) -> int:
        """The top card of the table as a mask (0 when it is empty): the card laid last (a pile's capture takes
        every card, so the last card laid is still there whenever the table is not empty)."""
        if not self.table:
            return 0
        table = self.table
        for c in reversed(self._arrivals):
            if table >> c & 1:
                return 1 << c
        return 0

    def visible_table(self) -> int:
        """The table's cards every seat sees: all but those lying face down."""
        return self.table & ~self.face_down

    def _pile_captures(self, card: int) -> list[int]:
        """With a pile: the capture kinds judge the top card alone; any capture they offer takes the whole pile.

        The move names the pile's face-up cards only (the face-down ones go with them): a move must not say
        which cards lie face down, to the player or to a search that redraws them."""
        try:
            offered = self.rules.captures(1 << card, self.top_mask(), *self._moment())
        except Exception as exc:
            _raise_located(exc, self.rules)
        return [self.table & ~self.face_down] if offered else []

    def _pile_legal(self, hand: int) -> list[tuple[int, int]]:
        """legal_moves() with a pile: per card, taking the whole pile when the kinds offer the top card."""
        forced = self.rules.FORCED
        moves = []
        for c in _lowbits(hand):
            takes = self._pile_captures(c) if self.table else []
            if not takes or not forced:
                moves.append((c, 0))
            moves += [(c, m) for m in takes]
        return moves

    @property
    def declares_with_play(self) -> bool:
        """Whether declarations go with a play (else they are card-less knocks)."""
        return self.rules.TIMING in ("first_turn", "own_turn")

    def side_of(self, seat: int) -> int:
        return seat % self.k

    def _eff(self, mask: int) -> int:
        """A mask as the compiled functions see it: the declared wild card as its virtual index."""
        if self.wild_as is not None and mask & self.rules.WILD_BIT:
            return (mask ^ self.rules.WILD_BIT) | (1 << self.wild_as)
        return mask

    def _real(self, mask: int) -> int:
        if self.wild_as is not None and mask >> self.wild_as & 1:
            return (mask ^ (1 << self.wild_as)) | self.rules.WILD_BIT
        return mask

    def _moment(self) -> tuple[int, int, int]:
        """The current play's place in the hand, as capture kinds and events see it: the deal round,
        the current seat's turn in that round and the play's number in the hand (each from 1)."""
        return self.round, self.played_this_round[self.turn] + 1, self.plays + 1

    def captures_for(self, card: int) -> list[int]:
        """Every capture set (real masks) the card has against the table now."""
        return self._captures_as(card, self.wild_as)

    def _captures_as(self, card: int, wild_as: int | None) -> list[int]:
        """The card's capture sets (real masks) with the wild card declared as `wild_as` (or not)."""
        if self.rules.PILE:
            return self._pile_captures(card)     # a pile game has no wild card (checks/check.pile_problems)
        try:
            if wild_as is None:
                return self.rules.captures(1 << card, self.table, *self._moment())
            wild = self.rules.WILD_BIT
            vbit = 1 << wild_as

            def eff(mask):
                return (mask ^ wild) | vbit if mask & wild else mask
            return [(m ^ vbit) | wild if m & vbit else m
                    for m in self.rules.captures(eff(1 << card), eff(self.table), *self._moment())]
        except Exception as exc:
            _raise_located(exc, self.rules)

    def options_for(self, card: int) -> list[int]:
        """The capture sets the card may take (0 = play without capturing)."""
        self._check_card(card)
        # Cached for the current table: legal_moves() and play() ask for the same card.
        key = (self.table, self.wild_as, self.plays)
        if self._options_key != key:
            self._options_key, self._options = key, {}
        caps = self._options.get(card)
        if caps is None:
            caps = self._options[card] = (self._build_moves(card) if self._build_cfg is not None
                                          else self._options_as(card, self.wild_as))
        return caps

    def _build_moves(self, card: int, owner_rule: bool = True) -> list[int]:
        """With capture.builds: the moves (masks) of `card` for the seat to play: the captures, the loose
        cards and whole builds of the card's value (the capture kinds judge the loose cards); the builds it can
        make or raise (masks with the value, builds.build_move); laying it (0); ascending. With `owner_rule`,
        without those the owner of a build may not make (builds.owner_allows)."""
        cfg, rules = self._build_cfg, self.rules
        view = self._turn_view()
        self._refuse_crowded(1 << card, view)
        caps = self._build_captures(card, view)
        try:
            if caps and rules.FORCED:
                moves = caps
            else:
                moves = caps + self._listed_builds(card, view) + [0]
        except Exception as exc:
            _raise_located(exc, rules)
        if owner_rule and view.owner_binds:
            rest = self.hands[self.turn] & ~(1 << card)
            held = set(view.held_without(cfg, card, allowed_only=False))
            moves = [m for m in moves
                     if _builds.owner_allows(cfg, self.turn, card, rest, m, self.builds, held) is None]
        return sorted(moves)

    def _build_captures(self, card: int, view: "_builds.TurnView") -> list[int]:
        """With capture.builds: the captures of `card` (loose sets by the capture kinds, whole builds of its
        value), without the builds it can make."""
        rules, loose = self.rules, view.loose
        try:
            loose_sets = rules.captures(1 << card, loose, *self._moment()) if loose else []
            return _builds.capture_options(loose_sets, self._build_cfg.hand_values[card], self.builds,
                                           getattr(rules, "COMBINE", "one"))
        except _rt_TooManyUnions as exc:       # the list refused, the state not: one capture is judged alone
            failure = rule_failure(exc, rules)
            raise TooManyMoves(failure.message, failure.span) from exc
        except Exception as exc:
            _raise_located(exc, rules)

    def _build_move_allowed(self, card: int, move: int, owner_rule: bool = True, caps: list[int] | None = None) -> bool:
        """With capture.builds: whether `move` is one of _build_moves(card), judged for this one move: a build
        move by builds.build_allowed, never by listing the card's builds (a table may offer more than a list
        holds, builds.MAX_BUILD_MOVES), and a capture by _capture_allowed. `caps`, when given, is the card's
        _build_captures; without it they are listed only where capture.forced asks whether there are any."""
        cfg, rules = self._build_cfg, self.rules
        view = self._turn_view()
        if caps is None and rules.FORCED:
            caps = self._build_captures(card, view)
        cards, value = _builds.split_move(move, rules.N_CARDS)
        if value:
            if (caps and rules.FORCED) or cards & ~self.table:
                return False
            try:
                ok = _builds.build_allowed(cfg, card, cards, value, view.loose, self.builds,
                                           view.held_without(cfg, card),
                                           view.partners)
            except Exception as exc:
                _raise_located(exc, rules)
            if not ok:
                return False
        elif move:
            if not (move in caps if caps is not None else self._capture_allowed(card, move, view)):
                return False
        elif caps and rules.FORCED:
            return False
        if owner_rule and view.owner_binds:
            rest = self.hands[self.turn] & ~(1 << card)
            held = set(view.held_without(cfg, card, allowed_only=False))
            return _builds.owner_allows(cfg, self.turn, card, rest, move, self.builds, held) is None
        return True

    def _capture_allowed(self, card: int, move: int, view: "_builds.TurnView") -> bool:
        """With capture.builds: whether `move` (no value bits) is one of `card`'s _build_captures. Where the
        module gives the sets before capture.combine joins them (`offered`) and the combine is not `all`, judged
        without listing the unions (runtime.combined_has; builds.capture_options for the builds taken whole)."""
        rules = self.rules
        combine = getattr(rules, "COMBINE", "one")
        offered = getattr(rules, "offered", None)
        if offered is None or combine == "all":
            return move in self._build_captures(card, view)
        if move & ~self.table:
            return False
        taken = 0
        for b in self.builds:
            if b.cards & move:
                if b.cards & ~move or b.value not in self._build_cfg.hand_values[card]:
                    return False
                taken |= b.cards
        loose = move & ~taken
        if loose & ~view.loose:
            return False
        if loose:
            try:
                if not _rt_combined_has(loose, offered(1 << card, view.loose, *self._moment()), combine):
                    return False
            except Exception as exc:
                _raise_located(exc, rules)
        if combine == "one":
            return not (loose and taken) and (not taken or any(b.cards == taken for b in self.builds))
        return True

    def plain_options(self, card: int) -> list[int]:
        """options_for(card) without the build moves: the captures the card may take, 0 where it may be laid
        (with capture.builds, found without listing its builds)."""
        if self._build_cfg is None:
            return self.options_for(card)
        self._check_card(card)
        caps = self._build_captures(card, self._turn_view())
        return [m for m in sorted(caps + [0]) if self._build_move_allowed(card, m, caps=caps)]

    def random_move(self, rng, declarations=()) -> tuple[int, int]:
        """One of legal_moves_after(declarations), drawn uniformly with `rng` (the list's draw wherever the
        moves are listed). With capture.builds and more moves than a list holds (TooManyMoves), drawn without
        listing the builds: every card's captures and trail are listed (where the captures are too many as
        well, every choice of table cards is proposed and judged alone, drawn again when refused), its build
        moves counted exactly by kind of loose card (run/build_count.py), and one index drawn over them all:
        the build move of an index is found by unranking. Each legal move is exactly one index, so the draw is
        uniform over the moves legal_moves() would list."""
        try:
            moves = self.legal_moves_after(declarations)
        except TooManyMoves:
            pass
        else:
            return moves[rng.randrange(len(moves))]
        entries, total = self.counted_moves(declarations)
        rules, n_cards = self.rules, self.rules.N_CARDS
        bound = self.bid_binds and self.turn == self.bidder
        if not total:
            raise RuleFailed(f"this rule failed: seat {self.turn} has no legal move",
                             getattr(rules, "CAPTURE_SPAN", None))
        for _ in range(10_000_000):
            r = rng.randrange(total)
            for kind, c, what, w in entries:
                if r < w:
                    break
                r -= w
            if kind == "plain":
                return c, what[r]
            if kind == "build":
                return c, what.move(r, n_cards)
            if kind == "captures":
                return c, what.move(r)
            move = 0                           # a proposal among every choice of table cards, judged alone
            for i, unit in enumerate(what):
                if r >> i & 1:
                    move |= unit
            if self._build_move_allowed(c, move) and not (
                    bound and not _bid.keeps_bid(self._bid_cfg, self.bid, c, move, n_cards, self.bid_cards)):
                return c, move
        raise RuleFailed(f"this rule failed: no legal move of seat {self.turn} was drawn in 10,000,000 draws",
                         getattr(rules, "CAPTURE_SPAN", None))

    def sample_moves(self, rng, draws: int = 64, declarations=()) -> list[tuple[int, int]]:
        """legal_moves_after(declarations) wherever it is listed. Past the bound (TooManyMoves), a bounded list of
        legal moves found without the whole list: every listed trail and capture; of each counted block of
        captures or builds (one card, one value, one joined build), a move taking or joining the most cards
        (drawn among those with `rng`); and `draws` uniform draws (random_move). Ascending, each once; the same
        for the same `rng` state. The greedy bot and ISMCTS choose among it where the list is refused."""
        try:
            return self.legal_moves_after(declarations)
        except TooManyMoves:
            pass
        entries, _total = self.counted_moves(declarations)
        n_cards = self.rules.N_CARDS
        found = set()
        for kind, c, what, w in entries:
            if kind == "plain":
                found.update((c, m) for m in what)
            elif kind == "build":
                found.add((c, what.largest(rng, n_cards)))
            elif kind == "captures":
                found.add((c, what.largest(rng)))
        found.update(self.random_move(rng, declarations) for _ in range(draws))
        return sorted(found)

    def count_moves(self, declarations=()) -> int | None:
        """len(legal_moves_after(declarations)), counted without the list past the bound; None where a card's
        captures are too many to list and cannot be counted either (Hand.random_move proposes them instead)."""
        try:
            return len(self.legal_moves_after(declarations))
        except TooManyMoves:
            pass
        entries, total = self.counted_moves(declarations)
        return None if any(kind == "propose" for kind, *_ in entries) else total

    def counted_moves(self, declarations=()) -> tuple[list[tuple], int]:
        """With capture.builds, the moves of legal_moves_after(declarations) without listing the builds, as
        entries (kind, card, what, weight) and their total weight: ("plain", c, moves, len(moves)) for the
        card's listed captures and trail, ("build", c, block, block.count) for a block of its build moves
        (build_count.Block: one value, one joined build), and ("propose", c, units, 2**len(units)) where its
        captures are too many to list: every choice of the table's units, a proposal to judge alone."""
        cfg, rules = self._build_cfg, self.rules
        seat, n_cards = self.turn, rules.N_CARDS
        hand = self.hands[seat]
        declared = self.declared[seat]
        for d in declarations:
            declared |= d.cards
        if rules.DECLARED_FIRST and declared & hand:
            hand &= declared
        bound = self.bid_binds and seat == self.bidder

        def keeps(c, move):
            return not bound or _bid.keeps_bid(self._bid_cfg, self.bid, c, move, n_cards, self.bid_cards)
        view = self._turn_view()
        counter = self._counter(view)
        every = [1 << c for c in _lowbits(view.loose)] + [b.cards for b in self.builds]     # a capture's choices
        entries, total = [], 0
        for c in _lowbits(hand):
            # a crowded table's captures counted (never listed) where they can be; else listed, and where they are
            # too many to list, every choice of table cards proposed and judged alone
            counted = self._counted_captures(c, view, counter, keeps) \
                if not rules.FORCED and view.loose.bit_count() >= _build_count.COUNT_FIRST else None
            caps = None
            if counted is not None:
                entries += counted
            else:
                try:
                    caps = self._build_captures(c, view)
                    listed = set(caps)        # a set: each capture is looked up in it (_build_move_allowed)
                    plain = [m for m in sorted(caps + [0])
                             if self._build_move_allowed(c, m, caps=listed) and keeps(c, m)]
                    if plain:
                        entries.append(("plain", c, plain, len(plain)))
                except TooManyMoves:
                    if rules.FORCED or getattr(rules, "offered", None) is None:
                        raise
                    entries.append(("propose", c, every, 1 << len(every)))
            if (caps and rules.FORCED) or not cfg.table_values[c]:
                continue
            rest = self.hands[seat] & ~(1 << c)
            held = set(view.held_without(cfg, c, allowed_only=False))
            try:
                blocks = counter.blocks(c, view.held_without(cfg, c), view.partners)
            except Exception as exc:
                _raise_located(exc, rules)
            for block in blocks:
                # the owner's rule and the bid judge a build move by its card, value and joined build alone
                shown = _builds.build_move(block.joined.cards if block.joined is not None else 0, block.value,
                                           n_cards)
                if view.owner_binds and _builds.owner_allows(cfg, seat, c, rest, shown, self.builds, held):
                    continue
                if keeps(c, shown):
                    entries.append(("build", c, block, block.count))
        for entry in entries:
            total += entry[3]
        return entries, total

    def _counted_captures(self, card: int, view: "_builds.TurnView", counter: "_build_count.Counter",
                          keeps) -> list[tuple] | None:
        """The entries of counted_moves for a card whose captures are too many to list: its trail (listed) and
        its captures counted (build_count.Counter.captures, with `capture.combine: union`); None where they
        cannot be counted (the caller proposes every choice of table cards instead)."""
        cfg, rules, seat = self._build_cfg, self.rules, self.turn
        if getattr(rules, "COMBINE", "one") != "union" or getattr(rules, "offered", None) is None:
            return None
        try:
            offered = rules.offered(1 << card, view.loose, *self._moment())
        except Exception as exc:
            _raise_located(exc, rules)
        takeable = [b.cards for b in self.builds if b.value in cfg.hand_values[card]]
        rest = self.hands[seat] & ~(1 << card)
        held = set(view.held_without(cfg, card, allowed_only=False))
        taken = []
        for u in _builds._disjoint_unions(takeable, 0):
            # the owner's rule judges a capture by the builds it takes (a bit above the deck: not a trail)
            if not (view.owner_binds and _builds.owner_allows(cfg, seat, card, rest, u | 1 << rules.N_CARDS,
                                                             self.builds, held)):
                taken.append(u)
        if not keeps(card, 0):
            return []                     # a capture or a trail of this card breaks the bid
        block = counter.captures(card, offered, taken)
        if block is None:
            return None
        out = []
        if self._build_move_allowed(card, 0):
            out.append(("plain", card, [0], 1))
        if block.count:
            out.append(("captures", card, block, block.count))
        return out

    def _listed_builds(self, card: int, view: "_builds.TurnView") -> list[int]:
        """builds.build_options for `card`; a table with more builds than the bound on memory lets list
        (builds.MAX_BUILD_MOVES) is the located TooManyMoves at the capture section, where builds are written
        (the state plays on: Hand.play judges a move alone, Hand.random_move draws one without the list)."""
        cfg, rules = self._build_cfg, self.rules
        try:
            return _builds.build_options(cfg, card, 0, view.loose, self.builds, rules.N_CARDS, cfg.table_cache(),
                                         view.held_without(cfg, card),
                                         view.partners)
        except RulespecError as exc:
            raise TooManyMoves(f"this rule failed: {exc.message} (the hand is left as it was)",
                               getattr(rules, "CAPTURE_SPAN", None)) from exc

    def _refuse_crowded(self, cards: int, view: "_builds.TurnView") -> None:
        """On a crowded table (build_count.COUNT_FIRST loose cards or more), the located TooManyMoves where a card
        of `cards` has more captures (unions, `capture.combine: union`) or build moves than a list holds, found by
        counting them (build_count.Counter): the listing would refuse them too, after growing its list to the
        bound, and the cards before it would be listed for nothing."""
        if view.loose.bit_count() < _build_count.COUNT_FIRST:
            return
        cfg, rules = self._build_cfg, self.rules
        counter = self._counter(view)
        unions = getattr(rules, "COMBINE", "one") == "union" and getattr(rules, "offered", None) is not None
        for card in _lowbits(cards):
            try:
                counted = counter.captures(card, rules.offered(1 << card, view.loose, *self._moment()), [0]) \
                    if unions else None
                # with capture.forced a card with captures lists no builds: counted only without it
                built = 0 if rules.FORCED else sum(
                    b.count for b in counter.blocks(card, view.held_without(cfg, card), view.partners))
            except Exception as exc:
                _raise_located(exc, rules)
            if counted is not None and counted.count + 1 > _rt_MAX_SUBSETS:
                raise TooManyMoves(f"this rule failed: a card is offered more than {_rt_MAX_SUBSETS} unions of "
                                   f"capture sets; this ruleset's deck makes captures too many to list (the hand "
                                   f"is left as it was)", getattr(rules, "CAPTURE_SPAN", None))
            if built > _builds.MAX_BUILD_MOVES:
                raise TooManyMoves(f"this rule failed: a card is offered more than {_builds.MAX_BUILD_MOVES} builds; "
                                   f"the table's {view.loose.bit_count()} loose cards are too many to list them (the "
                                   f"hand is left as it was)", getattr(rules, "CAPTURE_SPAN", None))

    def _counter(self, view: "_builds.TurnView") -> "_build_count.Counter":
        """The build_count.Counter of the table (kept in the builds' table cache: every card of a turn, and the
        turn's listing and draw, count over the same loose cards)."""
        cfg = self._build_cfg
        key = ("counter", view.loose, tuple(self.builds))
        cache = cfg.table_cache()
        counter = cache.get(key)
        if counter is None:
            counter = cache[key] = _build_count.Counter(cfg, view.loose, self.builds)
        return counter

    def _turn_view(self) -> "_builds.TurnView":
        """What every card of the seat to play shares in listing its build moves (builds.TurnView), made once
        per state: the loose cards, the values the hand holds, whether the owner's rule binds."""
        state = (self.turn, self.hands[self.turn], self.table, self.plays)
        known = self._build_view
        if known is not None and known[0] == state and known[1] == self.builds:
            return known[2]
        view = _builds.TurnView(self._build_cfg, self.turn, self.hands[self.turn], self.table, self.builds, self.k)
        self._build_view = (state, list(self.builds), view)
        return view

    def _options_as(self, card: int, wild_as: int | None) -> list[int]:
        """The card's capture sets with the wild card declared as `wild_as` (or not), 0 where it may be
        laid without capturing: ascending, as legal() lists the moves."""
        caps = self._captures_as(card, wild_as) if self.table else []
        if not caps or not self.rules.FORCED:
            caps = caps + [0]
        return sorted(caps)

    def legal_moves(self) -> list[tuple[int, int]]:
        """(card, capture mask) pairs the current seat may play, in ascending order (sorted()). While a bid
        is due, the bids: (BID_MOVE, value) each (run/bid.py); while it binds, the moves that keep it."""
        if self.over:
            return []
        if self.bid_pending:
            return [(_bid.BID_MOVE, v) for v in _bid.bid_values(self._bid_cfg, self.bid_cards)]
        moves = self._card_moves()
        return self._bound(moves) if self.bid_binds and self.turn == self.bidder else moves

    def _bound(self, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The moves that keep the bid binding the bidder's first play (an error when none does)."""
        cfg, n_cards = self._bid_cfg, self.rules.N_CARDS
        kept = [(c, m) for c, m in moves if _bid.keeps_bid(cfg, self.bid, c, m, n_cards, self.bid_cards)]
        if not kept:
            raise RuleFailed(f"no move of seat {self.turn} keeps its bid of {self.bid} (the rules leave the "
                             f"bidder no first play of the value bid)")
        return kept

    def _card_moves(self) -> list[tuple[int, int]]:
        """legal_moves() of a card play, every rule but the bid's."""
        hand = self.hands[self.turn]
        pending = self.declared[self.turn] & hand
        if self.rules.DECLARED_FIRST and pending:
            hand = pending
        if self._build_cfg is not None:
            known = self._legal
            if (known is not None and known[0] == self.turn and known[1] == hand and known[2] == self.table
                    and known[4] == self.plays and known[5:] == (self.builds, self.hands[self.turn])):
                return list(known[3])      # asked again for the same state (a turn's observer, then its bot)
            self._refuse_crowded(hand, self._turn_view())     # every card counted before any is listed
            moves = [(c, m) for c in _lowbits(hand) for m in self._build_moves(c)]
            self._legal = (self.turn, hand, self.table, moves, self.plays, list(self.builds), self.hands[self.turn])
            return moves
        if self.rules.PILE:
            moves = self._pile_legal(hand)
            self._legal = (self.turn, hand, self.table, moves, self.plays)
            return moves
        if self.wild_as is None:
            try:
                moves = self.rules.legal(hand, self.table, self.round, self.played_this_round[self.turn] + 1,
                                         self.plays + 1)    # the compiled fast path; the moment as in _moment()
            except Exception as exc:
                _raise_located(exc, self.rules)
            self._legal = (self.turn, hand, self.table, moves, self.plays)
            return moves
        moves = []
        for c in _lowbits(hand):
            moves += [(c, m) for m in self.options_for(c)]
        return moves

    def legal_moves_after(self, declarations) -> list[tuple[int, int]]:
        """The current seat's legal moves once it has made these declarations (nothing is changed or copied)."""
        if self.over or not declarations or self.bid_pending:
            return self.legal_moves()
        seat = self.turn
        wild_as = self.wild_as
        declared = self.declared[seat]
        for d in declarations:
            declared |= d.cards
            if d.wild_rank is not None:
                wild_as = self.rules.N_CARDS + d.wild_rank
        if wild_as == self.wild_as and not self.rules.DECLARED_FIRST:
            return self.legal_moves()
        hand = self.hands[seat]
        if self.rules.DECLARED_FIRST and declared & hand:
            hand &= declared
        moves = []
        if self._build_cfg is not None:
            self._refuse_crowded(hand, self._turn_view())
        for c in _lowbits(hand):
            # with builds (no wild card there: checks/check.build_problems) a card's moves are the builds' own
            moves += [(c, m) for m in (self._build_moves(c) if self._build_cfg is not None
                                       else self._options_as(c, wild_as))]
        return self._bound(moves) if self.bid_binds and seat == self.bidder else moves

    # -- the caller's arguments --------------------------------------------------
    # Checked before anything changes: a bad call is an IllegalMove and leaves the state as it was.
    def _check_seat(self, seat) -> None:
        if not _is_int(seat) or not 0 <= seat < self.n:
            raise IllegalMove(f"a seat is a number from 0 to {self.n - 1}, found {_shown(seat)}")

    def _check_card(self, card) -> None:
        if not _is_int(card) or not 0 <= card < self.rules.N_CARDS:
            raise IllegalMove(f"a card is an index from 0 to {self.rules.N_CARDS - 1}, found {_shown(card)}")

    def _check_mask(self, mask, what: str) -> None:
        if not _is_int(mask) or mask < 0 or mask >> self.rules.N_CARDS:
            raise IllegalMove(f"{what} is a set of cards (a mask of {self.rules.N_CARDS} bits), found {_shown(mask)}")

    def _checked_declarations(self, decls) -> list[Declaration]:
        if not isinstance(decls, (list, tuple)):
            raise IllegalMove(f"declarations are a list of Declaration, found {_shown(decls)}")
        out = []
        for d in decls:
            if not isinstance(d, Declaration):
                if not (isinstance(d, tuple) and 2 <= len(d) <= 3):
                    raise IllegalMove(f"a declaration is a Declaration(bonus, cards, wild_rank), found {_shown(d)}")
                d = Declaration(*d)
            if not isinstance(d.bonus, str):
                raise IllegalMove(f"a declaration's bonus is a name, found {_shown(d.bonus)}")
            self._check_mask(d.cards, "a declaration's cards")
            if d.wild_rank is not None and (not _is_int(d.wild_rank)
                                            or not 0 <= d.wild_rank < len(self.rules.RANK_NAMES)):
                raise IllegalMove(f"a wild card's rank is an index from 0 to {len(self.rules.RANK_NAMES) - 1}, "
                                  f"found {_shown(d.wild_rank)}")
            out.append(d)
        return out

    # -- declarations ----------------------------------------------------------
    def _declaration_window(self, seat: int, with_card: bool) -> str | None:
        """None if `seat` may declare now, else why not."""
        rules = self.rules
        if self.over:
            return "the hand is over"
        first_turn = self.played_this_round[seat] == 0
        if rules.TIMING == "first_turn":
            if not with_card:
                return "a declaration is made at the start of one's own first turn with the hand, with the play"
            return None if first_turn else "a declaration is made at one's first turn with a new hand, not later"
        if rules.TIMING == "own_turn":
            # One set at a time: at the start of any own turn, once the cards declared before are played.
            if not with_card:
                return "a declaration is made at the start of one's own turn, with the play"
            if self.declared[seat] & self.hands[seat]:
                return "the cards declared before must be played before declaring again"
            return None
        if rules.TIMING == "before_first_turn":
            return None if first_turn else "a declaration is made before one's first turn with the hand"
        # after_deal: right after the deal, before the first play, in seat order
        if with_card or any(self.played_this_round):
            return "a declaration is made right after the deal, before the first play"
        later = [s for s in range(self.n) if self.knocked_round[s] and self._order(s) > self._order(seat)]
        if later:
            return f"declarations after the deal go in seat order; seat {later[0]} has already declared"
        return None

    def _order(self, seat: int) -> int:
        return (seat - self.dealer - 1) % self.n

    def check_declaration(self, seat: int, decl: Declaration) -> tuple[int, str]:
        """Validate one declaration; returns (points, category) or raises IllegalMove."""
        self._check_seat(seat)
        decl, = self._checked_declarations([decl])
        rules = self.rules
        spec = rules.HAND_BONUSES.get(decl.bonus)
        if spec is None:
            known = ", ".join(sorted(rules.HAND_BONUSES)) or "none"
            raise IllegalMove(f"unknown bonus '{decl.bonus}' (this ruleset's bonuses: {known})")
        names = _Names(rules, decl.cards)    # formatted only if a message needs it
        if decl.cards & ~self.hands[seat]:
            raise IllegalMove(f"{decl.bonus}: {rules.card_names(decl.cards & ~self.hands[seat])} not in seat {seat}'s hand")
        if decl.cards.bit_count() != spec.size:
            raise IllegalMove(f"{decl.bonus} is made with {spec.size} cards, not {decl.cards.bit_count()} ({names}); "
                              f"name the {spec.size} cards")
        last_round = self.round == len(self.schedule)
        if spec.rounds and self.round not in spec.rounds and not ("last" in spec.rounds and last_round):
            raise IllegalMove(f"{decl.bonus} cannot be declared in round {self.round}")
        if decl.bonus in self._closed_bonuses(seat):
            score = self.running_totals()[seat % self.k]
            raise IllegalMove(f"{decl.bonus} cannot be declared by a side at {score} points (its open_when)")
        if decl.wild_rank is not None:
            if not (decl.cards & rules.WILD_BIT):
                raise IllegalMove(f"{decl.bonus}: a rank for the wild card is given but {names} do not include it")
            if not (spec.wild and rules.DECLARE_WILD) or decl.wild_rank not in rules.WILD_DECLARE_AS:
                allowed = " ".join(rules.RANK_NAMES[r] for r in rules.WILD_DECLARE_AS) if spec.wild else "none"
                raise IllegalMove(f"{decl.bonus}: the wild card cannot be declared as "
                                  f"{rules.RANK_NAMES[decl.wild_rank]} here (allowed: {allowed})")
        cards = decl.cards
        if decl.wild_rank is not None:
            cards = (cards ^ rules.WILD_BIT) | (1 << (rules.N_CARDS + decl.wild_rank))
        ctx = (self.hands[seat], self.round, last_round)
        if not self._holds(spec, cards, ctx):
            how = f" with the wild card as {rules.RANK_NAMES[decl.wild_rank]}" if decl.wild_rank is not None else ""
            raise IllegalMove(f"{names} do not make {decl.bonus}{how}")
        for other in spec.excluded_by:
            if other in rules.HAND_BONUSES and self._can_make(other, decl.cards, ctx):
                raise IllegalMove(f"{names} make {other}, so they cannot be declared as {decl.bonus}")
        if spec.unique_by:
            self._check_unique(seat, decl, spec)
        return spec.points, spec.category

    def _closed_bonuses(self, seat: int) -> frozenset:
        """The hand bonuses whose `open_when` does not hold for `seat`'s side at the game scores as they stand
        (public facts: every seat sees the scores)."""
        opens = getattr(self.rules, "BONUS_OPEN", None)
        if not opens:
            return frozenset()
        totals = self.running_totals()
        side = seat % self.k
        mine, rival = totals[side], max(totals[:side] + totals[side + 1:], default=0)
        closed = []
        for name, fn in opens.items():
            try:
                if not fn(mine, rival):
                    closed.append(name)
            except Exception as exc:       # a condition that fails: located at its YAML
                _raise_located(exc, self.rules)
        return frozenset(closed)

    def _holds(self, spec, cards: int, ctx) -> bool:
        """Whether the cards make the bonus (its compiled condition; a failure there is located)."""
        try:
            return spec.check(cards, *ctx)
        except Exception as exc:
            _raise_located(exc, self.rules)

    def _can_make(self, bonus: str, real_cards: int, ctx) -> bool:
        """Whether the cards make `bonus` with some (or no) declaration of the wild card."""
        rules = self.rules
        spec = rules.HAND_BONUSES[bonus]
        if self._holds(spec, real_cards, ctx):
            return True
        if real_cards & rules.WILD_BIT and spec.wild and rules.DECLARE_WILD:
            base = real_cards ^ rules.WILD_BIT
            return any(self._holds(spec, base | (1 << (rules.N_CARDS + r)), ctx) for r in rules.WILD_DECLARE_AS)
        return False

    def _check_unique(self, seat: int, decl: Declaration, spec) -> None:
        """A bonus scored once per value/rank: an earlier seat (dealing order) holding it wins.

        Judged on what the declaring seat can know (run/declarations.unique_holder): the cards the
        earlier seats have played this round and the declared cards they still hold, never their
        hidden cards: a seat's options must follow from its observation.
        """
        other = unique_holder(self.rules, self.n, self.dealer, seat, decl, self.round_dealt, self.hands,
                              self.shown, self.declared_wild, self.round, self.round == len(self.schedule))
        if other is not None:
            raise IllegalMove(f"{decl.bonus}: seat {other}, earlier in dealing order, holds the same "
                              f"{spec.unique_by}")

    def _apply_declarations(self, seat: int, decls: list[Declaration], with_card: bool) -> list[Event]:
        if not decls:
            return []
        why = self._declaration_window(seat, with_card)
        if why:
            raise IllegalMove(why)
        rules = self.rules
        if rules.PER_TURN == "one" and len(decls) > 1:
            raise IllegalMove("one declaration per turn in this ruleset")
        scored = []
        used: list[tuple[str, int]] = []
        wild_rank = None
        itself = None            # a declaration counting the wild card as its printed card
        for d in decls:
            points, category = self.check_declaration(seat, d)
            spec = rules.HAND_BONUSES[d.bonus]
            for other, cards in used + [(None, self.shown[seat])]:
                if cards & d.cards and not (other and other in spec.shares_cards_with):
                    overlap = rules.card_names(cards & d.cards)
                    raise IllegalMove(f"{overlap} already belong to a declared bonus")
                if other == d.bonus and cards == d.cards:
                    raise IllegalMove(f"{d.bonus} is declared twice on the same cards")
            if d.wild_rank is not None:
                if wild_rank is not None and wild_rank != d.wild_rank:
                    raise IllegalMove("the wild card is declared as two different ranks")
                wild_rank = d.wild_rank
            elif d.cards & rules.WILD_BIT:
                itself = d
            used.append((d.bonus, d.cards))
            scored.append((d, points, category))
        if itself is not None and wild_rank is not None:
            # one rank for the wild card in all of a turn's declarations, its printed one included
            raise IllegalMove(f"the wild card is declared as {rules.RANK_NAMES[wild_rank]} and counted as itself in "
                              f"{itself.bonus}: one rank in all of a turn's declarations")
        side = seat % self.k
        events = []
        for d, points, category in scored:
            self.shown[seat] |= d.cards
            self.declared[seat] |= d.cards
            ev = Event(self.plays + 1, seat, side, d.bonus, points, category)
            self.events.append(ev)
            events.append(ev)
        if wild_rank is not None:
            self.wild_as = rules.N_CARDS + wild_rank
            self.declared_wild[seat] = wild_rank
        self.knocked_round[seat] = True
        return events

    def declare(self, seat: int, decls: list[Declaration]) -> list[Event]:
        """A knock: declarations with no card (where the ruleset's timing allows it)."""
        self._check_seat(seat)
        decls = self._checked_declarations(decls)
        if self.over:
            raise IllegalMove("the hand is over")
        self._deal_pending()
        events = self._apply_declarations(seat, list(decls), with_card=False)     # checks all before any change
        if events and self.rules.POINTS == "as_made":
            self._reached()
        return events

    def bonus_options(self, seat: int) -> list[Declaration]:
        """Single declarations `seat` could make now (for players and searches): each combination of cards
        that makes a bonus, and where it holds the wild card, once per rank that makes it (the player names
        the rank), as itself first.

        Only what the seat can see decides them (its own hand, what the others
        have played or shown): two states with the same observation(seat) give
        the same options.
        """
        self._check_seat(seat)
        return self._declarer_call(seat, "every_option")

    def may_declare(self, seat: int) -> bool:
        """Whether the rules would let `seat` declare now if its cards made a bonus, judged on public facts
        only (the timing, the round, how many undeclared cards it holds), never on which cards it holds: two
        states that every seat sees alike give the same answer. `bonus_options` says what it can declare."""
        self._check_seat(seat)
        rules = self.rules
        if not rules.HAND_BONUSES or self._declaration_window(seat, rules.TIMING != "after_deal"
                                                               and rules.TIMING != "before_first_turn"):
            return False
        undeclared = (self.hands[seat] & ~self.shown[seat]).bit_count()
        last_round = self.round == len(self.schedule)
        closed = self._closed_bonuses(seat)
        return any(spec.size <= undeclared and open_in(spec, self.round, last_round) and name not in closed
                   for name, spec in rules.HAND_BONUSES.items())

    def best_declarations(self, seat: int) -> list[Declaration]:
        """The declarations worth the most points `seat` can make now (disjoint cards, one wild-card rank).

        Found once per dealt hand: the search is memoised on the hand, the round and the shown cards.
        """
        return list(self._declarer_call(seat, "best"))

    def _declarer_call(self, seat: int, what: str):
        """The declarer's `options` or `best` for `seat` now ([] outside a declaration window)."""
        rules = self.rules
        if not rules.HAND_BONUSES or self._declaration_window(seat, rules.TIMING != "after_deal"
                                                               and rules.TIMING != "before_first_turn"):
            return []
        found = declarer(rules)
        hand = self.hands[seat]
        closed = self._closed_bonuses(seat)
        last_round = self.round == len(self.schedule)
        unique_ok = self._unique_ok(seat) if found.unique else None
        try:
            if closed:
                # the bonuses open to this side only: the options without the closed ones, and the bots' best
                # chosen among those (the declarer's memo knows nothing of the game scores)
                listed = found.every_option if what == "every_option" else found.options
                options = [d for d in listed(hand, hand & ~self.shown[seat], self.round, last_round, unique_ok)
                           if d.bonus not in closed]
                return options if what == "every_option" else choose(rules, options, (hand, self.round, last_round))
            return getattr(found, what)(hand, hand & ~self.shown[seat], self.round, last_round, unique_ok)
        except RulespecError:
            raise
        except Exception as exc:           # a bonus condition failed: located at its YAML
            _raise_located(exc, rules)

    def _unique_ok(self, seat: int):
        last_round = self.round == len(self.schedule)
        return lambda d: unique_holder(self.rules, self.n, self.dealer, seat, d, self.round_dealt, self.hands,
                                       self.shown, self.declared_wild, self.round, last_round) is None

    # -- play ------------------------------------------------------------------
    def play(self, seat: int, card: int, capture: int, declarations: list[Declaration] = ()) -> list[Event]:
        """Play `card` (an index) taking `capture` (a real mask; 0 for none); returns the events. A bid is
        played as the move (BID_MOVE, value) (run/bid.py)."""
        if card == _bid.BID_MOVE and type(card) is int and self._bid_cfg is not None:
            if declarations:
                raise IllegalMove("a bid goes with no declarations")
            return self.make_bid(seat, capture)
        n_cards = self.rules.N_CARDS
        if not (type(seat) is int and 0 <= seat < self.n and type(card) is int and 0 <= card < n_cards
                and type(capture) is int and 0 <= capture and not capture >> n_cards):   # the usual call, at once
            self._check_seat(seat)
            self._check_card(card)
            if not (self._build_cfg is not None and _is_int(capture) and capture >= 0
                    and capture >> n_cards <= _builds.MAX_BUILD_VALUE):
                self._check_mask(capture, "a capture")
        if declarations:
            declarations = self._checked_declarations(declarations)
        if self.over:
            raise IllegalMove("the hand is over")
        self._deal_pending()
        if seat != self.turn:
            raise IllegalMove(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if self.bid_pending:
            raise IllegalMove(f"seat {seat} bids before any play (one of "
                              f"{', '.join(map(str, _bid.bid_values(self._bid_cfg, self.bid_cards)))})")
        if not declarations:
            return self._play_card(seat, card, capture)
        # The declarations are checked before anything changes; if the card is then refused, only
        # what they changed is put back (no copy of the whole state).
        saved = (self.shown[seat], self.declared[seat], len(self.events), self.wild_as,
                 self.declared_wild.get(seat), self.knocked_round[seat])
        events = self._apply_declarations(seat, list(declarations), with_card=True)
        try:
            events += self._play_card(seat, card, capture)
        except RulespecError:            # refused, or a rule failed: the hand as it was
            self.shown[seat], self.declared[seat], n_events, self.wild_as, wild, self.knocked_round[seat] = saved
            del self.events[n_events:]
            if wild is None:
                self.declared_wild.pop(seat, None)
            else:
                self.declared_wild[seat] = wild
            raise
        return events

    def make_bid(self, seat: int, value: int) -> list[Event]:
        """The bidder bids `value`: one of the bid's values it holds a card of among the cards it has seen.
        No events; the bid binds its first play (bid.binds)."""
        self._check_seat(seat)
        if not self.bid_pending:
            raise IllegalMove("no bid is due now" if self.bid is None or self.over else
                              f"seat {self.bidder} has bid {self.bid} already")
        if seat != self.bidder:
            raise IllegalMove(f"seat {self.bidder} bids, not seat {seat}")
        allowed = _bid.bid_values(self._bid_cfg, self.bid_cards)
        if not _is_int(value) or value not in allowed:
            raise IllegalMove(f"seat {seat} cannot bid {_shown(value)}: a bid is one of "
                              f"{', '.join(map(str, sorted(self._bid_cfg.values)))} held among the cards it bids on "
                              f"({self.rules.card_names(self.bid_cards)}): {', '.join(map(str, allowed))}")
        self.bid = value
        self.bid_pending = False
        self.bid_binds = self._bid_cfg.binds == "first_play"
        self._legal = None
        return []

    def _play_card(self, seat: int, card: int, capture: int) -> list[Event]:
        rules = self.rules
        bit = 1 << card
        hands = self.hands
        hand = hands[seat]
        if not hand & bit:
            raise IllegalMove(f"{rules.CARD_NAMES[card]} is not in seat {seat}'s hand")
        if rules.DECLARED_FIRST:
            pending = self.declared[seat] & hand
            if pending and not pending & bit:
                raise IllegalMove(f"declared cards are played first ({rules.card_names(pending)})")
        table = self.table
        if self.face_down and capture:
            capture &= ~self.face_down     # a move names the face-up cards; a transcript may write them all
        wild_as = self.wild_as
        known = self._legal
        if not (wild_as is None and known is not None and known[0] == seat and known[1] == hand
                and known[2] == table and known[4] == self.plays and (card, capture) in known[3]):
            # Not a move legal_moves() offered for this very state: check it (with builds, this one move alone).
            if self._build_cfg is not None:
                if not self._build_move_allowed(card, capture):
                    self._refuse_build(card, capture)
            else:
                options = self._options_now(card)
                if capture not in options:
                    self._refuse(card, capture, options)
        bound = self.bid_binds and seat == self.bidder
        if bound and not _bid.keeps_bid(self._bid_cfg, self.bid, card, capture, rules.N_CARDS, self.bid_cards):
            if not self.bid_cards >> card & 1:
                raise IllegalMove(f"{rules.card_names(bit)} is not among the cards the bidder bid on "
                                  f"({rules.card_names(self.bid_cards)}): the rest are dealt after its first play")
            raise IllegalMove(_bid.bind_words(self.bid))
        move = capture
        if capture >> rules.N_CARDS:
            capture = 0                    # a build takes nothing: the played card joins the table
        if self.face_down and capture:
            capture |= self.face_down      # the face-down cards under the pile go with it
        side = seat % self.k
        if wild_as is None:
            eff_card, table_before, eff_capture, previous = bit, table, capture, self.previous
        else:
            eff_card, table_before = self._eff(bit), self._eff(table)
            eff_capture, previous = self._eff(capture), self._eff(self.previous)
        rest = hand ^ bit
        table_after = table ^ capture if capture else table | bit
        hands_empty = not rest and not any(h for s, h in enumerate(hands) if s != seat)
        last_play = hands_empty and self.round >= len(self.schedule)
        # Every rule this play asks is asked before anything changes: one that fails leaves the hand as it was.
        try:
            last_round = self.round == len(self.schedule)
            if rules.PILE or rules.EVENT_READS:
                # a pile's events read `top` too (the top card before the play); others the game's running state
                extra = {"top": self.top_mask()} if rules.PILE else {}
                if rules.EVENT_READS:
                    extra.update(self._state_of(side))
                fired = rules.play_events(eff_card, eff_capture,
                                          table_after if wild_as is None else self._eff(table_after),
                                          table_before, last_play, previous, self.round,
                                          self.played_this_round[seat] + 1, self.plays + 1, last_round, self.n,
                                          **extra)
            else:
                fired = rules.play_events(eff_card, eff_capture,
                                          table_after if wild_as is None else self._eff(table_after),
                                          table_before, last_play, previous, self.round,
                                          self.played_this_round[seat] + 1, self.plays + 1, last_round, self.n)
            found = self._final_outcome(side, capture | bit if capture else 0, table_after) if last_play else None
        except Exception as exc:
            _raise_located(exc, rules)
        self.plays += 1
        if bound:
            self.bid_binds = False
        hands[seat] = rest
        if self.declared[seat]:
            self.declared[seat] &= ~bit
        self.played_this_round[seat] += 1
        self.played_round[seat] |= bit
        if capture:
            self.piles[side] |= capture | bit
            self.last_capturer = side
            self.previous = 0
            if self.face_down:
                self.face_down &= ~capture     # taken: face up in the capturer's pile
        else:
            self._arrivals.append(card)
            self.previous = bit
        self.table = table_after
        if self._build_cfg is not None:
            self._update_builds(seat, card, move, capture)
        if fired:
            events = [Event(self.plays, seat, side, name, pts, cat) for name, pts, cat in fired]
            self.events.extend(events)
        else:
            events = []
        if wild_as is not None and capture and (capture | bit) & rules.WILD_BIT:
            self.wild_as = None            # the declared wild card was captured: its printed card again
        self.turn = (seat + 1) % self.n
        if rules.POINTS == "as_made" and self._reached():
            return events                  # a side reached the target with this play: the game is over
        if hands_empty:
            if last_play:
                self._finish(found)
            elif self.source.rounds is not None and self.source.round_no >= len(self.source.rounds):
                # A written deal that stops at the end of a round: the next round is needed only by a next play.
                self.round_pending = True
            else:
                self._lay_round()
        return events

    def _update_builds(self, seat: int, card: int, move: int, capture: int) -> None:
        """The builds after a play: a build move makes its build (taking in the one it joins); a capture
        takes the builds it names whole."""
        cards, value = _builds.split_move(move, self.rules.N_CARDS)
        if value:
            made, joined = _builds.new_build(self._build_cfg, card, cards, value, self.builds, seat, self.k)
            self.builds = [b for b in self.builds if b is not joined] + [made]
        elif capture:
            self.builds = [b for b in self.builds if not b.cards & capture]

    def _refuse_build(self, card: int, move: int) -> None:
        """With capture.builds: raise the IllegalMove that says why `move` is not one of the card's moves."""
        rules = self.rules
        name = rules.CARD_NAMES[card]
        cards, value = _builds.split_move(move, rules.N_CARDS)
        if cards & ~self.table:
            raise IllegalMove(f"{rules.card_names(cards & ~self.table)} not on the table")
        for b in self.builds:
            if b.cards & cards and b.cards & ~cards:
                raise IllegalMove(f"a build is taken or built on only whole: the build of {b.value} is "
                                  f"{rules.card_names(b.cards)}")
        if self._build_move_allowed(card, move, owner_rule=False):
            why = _builds.owner_allows(self._build_cfg, self.turn, card, self.hands[self.turn] & ~(1 << card),
                                       move, self.builds)
            raise IllegalMove(why)
        if value:
            rule = _builds.rule_refusing(self._build_cfg, card, cards, value, self.builds, rules.card_names)
            if rule is not None:               # one option of capture.builds refuses it: say which
                raise IllegalMove(f"{name} cannot build {value} with {rules.card_names(cards)}: {rule}")
            try:
                shown = " or ".join(f"{_builds.split_move(m, rules.N_CARDS)[1]} with "
                                    f"{rules.card_names(_builds.split_move(m, rules.N_CARDS)[0])}"
                                    for m in self._build_moves(card) if m >> rules.N_CARDS) or "nothing"
            except TooManyMoves:
                shown = f"more than {_builds.MAX_BUILD_MOVES} builds"
            raise IllegalMove(f"{name} cannot build {value} with {rules.card_names(cards) if cards else 'nothing'} "
                              f"(a build needs a card of its value kept in hand, and sets of that value; "
                              f"{name} can build: {shown})")
        for b in self.builds:
            if b.cards & cards and b.value not in self._build_cfg.hand_values[card]:
                raise IllegalMove(f"the build of {b.value} is taken only by a card of {b.value}, not by {name}")
        self._refuse(card, move, self.plain_options(card))

    def _refuse(self, card: int, capture: int, options: list[int]) -> None:
        """Raise the IllegalMove that says why `capture` is not one of the card's options."""
        rules = self.rules
        if capture & ~self.table:
            raise IllegalMove(f"{rules.card_names(capture & ~self.table)} not on the table")
        if capture == 0:
            raise IllegalMove(f"{rules.CARD_NAMES[card]} must capture: it can take "
                              + " or ".join(rules.card_names(m) for m in options))
        can = " or ".join(rules.card_names(m) if m else "nothing" for m in options) or "nothing"
        raise IllegalMove(f"illegal capture: {rules.CARD_NAMES[card]} cannot take "
                          f"{rules.card_names(capture)} (it can take {can})")

    def _options_now(self, card: int) -> list[int]:
        """The capture sets `card` may take now, 0 for none (without the per-table cache)."""
        if self.wild_as is not None or self._build_cfg is not None:
            return self.options_for(card)
        options = self._pile_captures(card) if self.rules.PILE else \
            self.rules.captures(1 << card, self.table, *self._moment())
        if not options or not self.rules.FORCED:
            options.append(0)
        return options

    def _stock_empty(self) -> bool:
        return self.round >= len(self.schedule)

    def _final_outcome(self, side: int, taken: int, table_after: int) -> tuple[str, int] | None:
        """The outcome the last play will give (its piles with the leftovers given), asked before it is made."""
        piles = list(self.piles)
        last = self.last_capturer
        if taken:
            piles[side] |= taken
            last = side
        if table_after and last is not None and self.rules.LEFTOVERS == "last_capturer":
            piles[last] |= table_after
        return self.rules.outcome(piles)

    def _finish(self, found: tuple[str, int] | None) -> None:
        """End of hand: leftovers to the last capturer; `found` is the outcome, asked beforehand."""
        rules = self.rules
        self.final_table = self.table
        self.face_down = 0                 # the hand is over: every card is shown
        if self.table and self.last_capturer is not None and rules.LEFTOVERS == "last_capturer":
            self.piles[self.last_capturer] |= self.table
            self.table = 0
            self.wild_as = None
            self.builds = []               # the builds left go with the rest of the table
        self.over = True
        if found is not None:
            name, side = found
            self.outcome = (name, [side])

    # -- the game's running state ------------------------------------------------
    def running_totals(self) -> list[int]:
        """Each side's game score as it stands: its total before the hand, and with `game.points: as_made` the
        points it has made in this hand so far."""
        totals = list(self.before)
        if self.rules.POINTS == "as_made":
            for e in self.events:
                if e.side is not None and e.category:
                    totals[e.side] += e.points
        return totals

    def _state_of(self, side: int) -> dict[str, int]:
        """The running-state names an event reads (the compiled module's EVENT_READS), for `side`."""
        totals = self.running_totals()
        state = {"game_score": totals[side], "rival_score": max(totals[:side] + totals[side + 1:], default=0),
                 "bid": self.bid or 0}
        return {name: state[name] for name in self.rules.EVENT_READS}

    def _reached(self) -> bool:
        """With `game.points: as_made`: whether a side alone at the top has reached the target; then the game
        ends at once with that side winning (outcome `target`) and the hand is cut short."""
        target = self.rules.TARGET
        if target is None or self.over:
            return False
        totals = self.running_totals()
        best = max(totals)
        top = [s for s, t in enumerate(totals) if t == best]
        if best < target or len(top) > 1:
            return False
        self.final_table = self.table
        self._end_game(TARGET_OUTCOME, top)
        self.cut_short = True
        return True

    def made(self) -> list[dict[str, int]]:
        """Per side: how many times each event (play, bonus or dealer event) was made in the hand."""
        out: list[dict[str, int]] = [{} for _ in range(self.k)]
        for e in self.events:
            if e.side is not None:
                out[e.side][e.name] = out[e.side].get(e.name, 0) + 1
        return out

    # -- results ---------------------------------------------------------------
    def event_points(self) -> list[dict[str, int]]:
        """Points of events per side and category."""
        out = [dict() for _ in range(self.k)]
        for e in self.events:
            if e.side is not None and e.category:
                out[e.side][e.category] = out[e.side].get(e.category, 0) + e.points
        return out

    def score(self) -> list[dict[str, int]]:
        """Per side: every scoring category and `total` (meaningful once the hand is over).

        A hand cut short (the game ended before its last play) counts only the points made in it: the
        categories of events and bonuses, 0 in the others. Points carried into the hand go to the one side
        that scores the most in their category (a tie: nobody; Game carries them on)."""
        rules = self.rules
        points = self.event_points()
        if self.cut_short:
            rows = [{c: p.get(c, 0) for c in rules.CATEGORIES} for p in points]
            for row in rows:
                row["total"] = sum(row.values())
            return rows
        if rules.SCORE_READS:
            rows = score_located(rules, self.piles, points, before=tuple(self.running_totals()),
                                 dealer_side=self.dealer % self.k,
                                 _made=self.made())
        else:
            rows = score_located(rules, self.piles, points)
        for category, extra in self.carried:
            winner = carried_to(rows, category)
            if winner is not None:
                rows[winner][category] += extra
                rows[winner]["total"] += extra
        return rows

    def events_by_side(self, include_dealer: bool = True) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {s: [] for s in range(self.k)}
        for e in self.events:
            if e.side is not None and (include_dealer or e.play > 0):
                out[e.side].append(e.name)
        return out

    def observation(self, seat: int) -> dict:
        """What `seat` can see: its own hand, the table, shown declarations, piles, plays of the round, events,
        and the game's running scores (`game_totals`, its own side's first; `target`).

        With a pile, the table is its face-up cards in order (the top last), with the top card and how many
        cards lie face down under them (which ones, no seat sees)."""
        self._check_seat(seat)
        rules = self.rules
        obs = {
            "seat": seat,
            "side": seat % self.k,
            "dealer": self.dealer,
            "round": self.round,
            "turn": self.current_seat,
            # before the bid the bidder has seen the cards it bids on, the others nothing yet
            "hand": _lowbits(self.hands[seat] if not self.bid_pending else
                             self.bid_cards if seat == self.bidder else 0),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "shown": [_lowbits(self.shown[s] & self.hands[s]) for s in range(self.n)],
        }
        if rules.PILE:
            obs["table"] = [c for c in self.table_order if not self.face_down >> c & 1]
            obs["top"] = self.top_mask().bit_length() - 1 if self.table else None
            obs["face_down"] = self.face_down.bit_count()
        else:
            obs["table"] = [] if self.bid_pending else list(self.table_order)   # face down until the bid
        if self._bid_cfg is not None:
            obs["bid"] = {"seat": self.bidder, "value": self.bid, "due": self.bid_pending}
        if self._build_cfg is not None:
            obs["builds"] = [{"cards": _lowbits(b.cards), "value": b.value, "owner": _builds.owner_shown(b),
                              "fixed": b.fixed}
                             for b in self.builds]
        obs.update({
            "wild_as": (rules.RANK_NAMES[self.wild_as - rules.N_CARDS]
                        if self.wild_as is not None and not rules.PILE else None),
            "pile_sizes": [p.bit_count() for p in self.piles],
            "captured": [_lowbits(p) for p in self.piles],
            "events": [(e.play, e.seat, e.side, e.name) for e in self.events],
            "previous": _lowbits(self.previous),
            "played": [_lowbits(m) for m in self.played_round],
            # The game's running scores (public): each side's total, the observer's side first, then the sides
            # after it in seat order; and the points that end the game (None: a game of a number of hands).
            "game_totals": self.relative_totals(seat),
            "target": rules.TARGET,
        })
        return obs

    def relative_totals(self, seat: int) -> list[int]:
        """`running_totals()` as `seat` sees them: its own side's first, then the sides after it in seat order."""
        totals = self.running_totals()
        side = seat % self.k
        return totals[side:] + totals[:side]

    def stock_size(self) -> int:
        """How many cards the rounds still to be dealt will give (public: it follows from the schedule)."""
        return sum(seat_cards * self.n + table_cards for seat_cards, table_cards, _ in self.schedule[self.round:])

    def with_declarations(self, seat: int, declarations: list[Declaration]) -> "Hand":
        """A copy in which `seat` has made these declarations (as at the start of its turn); IllegalMove if refused."""
        self._check_seat(seat)
        declarations = self._checked_declarations(declarations)
        probe = self.clone()
        probe._apply_declarations(seat, declarations, with_card=self.declares_with_play)
        return probe

    def with_hidden(self, hands: dict[int, int], stock: list[int], rng: random.Random | None = None,
                    face_down: list[int] = ()) -> "Hand":
        """A copy whose hidden information is replaced: these seats' hands (masks), the stock's order and
        (where the table has face-down cards) which cards lie face down, in the order laid.

        For determinised search: what was dealt to those seats this round is
        taken to be their hands as given, and the record of the deal is dropped.
        IllegalMove unless the result is a deal consistent with what every seat
        sees (each hand of its size, shown cards kept, every card once).
        """
        for seat, mask in hands.items():
            self._check_seat(seat)
            self._check_mask(mask, f"seat {seat}'s hand")
        for card in stock:
            self._check_card(card)
        if len(stock) != self.stock_size():
            raise IllegalMove(f"the stock holds {self.stock_size()} cards, not {len(stock)}")
        for card in face_down:
            self._check_card(card)
        if face_down and len(face_down) != self.face_down.bit_count():
            raise IllegalMove(f"{self.face_down.bit_count()} cards lie face down, not {len(face_down)}")
        self._check_world(hands, list(stock) + list(face_down))
        new = self.clone()
        if face_down:
            new._redraw_face_down(list(face_down))
        for seat, mask in hands.items():
            new.hands[seat] = mask
            new.round_dealt[seat] = mask | new.played_round[seat]   # what it was dealt: in hand, or played
        new.deal_log = []
        new.table_laid = []
        new.source = DealSource(order=list(stock), rng=rng)
        return new

    def redrawn_before_bid(self, seat: int, rng: random.Random) -> "Hand":
        """Before the bid (bid:): a copy in which every card `seat` has not seen is redrawn: every hand, the
        table and the stock, but for the bidder the cards it bids on. Each hand keeps its size; the bidder's
        cards bid on are, for another seat, its first `after_cards` cards redrawn until they hold a value it
        could bid (the deal was not thrown in: that much every seat knows)."""
        self._check_seat(seat)
        if not self.bid_pending:
            raise IllegalMove("the bid has been made: redraw the hidden cards with with_hidden")
        cfg = self._bid_cfg
        kept = self.bid_cards if seat == self.bidder else 0
        stock = self.source.order[self.source.pos:] if self.source.order is not None else []
        dealt = self.table
        for h in self.hands:
            dealt |= h
        pool = [c for c in _lowbits(dealt & ~kept)] + list(stock)
        for _ in range(MAX_REDEALS):
            rng.shuffle(pool)
            at = 0
            hands = []
            for s, h in enumerate(self.hands):
                need = h.bit_count() - (kept.bit_count() if s == self.bidder else 0)
                mask = kept if s == self.bidder else 0
                for c in pool[at:at + need]:
                    mask |= 1 << c
                hands.append((mask, pool[at:at + need]))
                at += need
            seen = kept or _bid.first_seen(hands[self.bidder][1], cfg.after_cards)
            if _bid.bid_values(cfg, seen):
                break
        else:
            raise RulespecError("no redrawn deal gives the bidder a value to bid")
        new = self.clone()
        new.hands = [m for m, _ in hands]
        new.round_dealt = list(new.hands)
        table_cards = pool[at:at + self.table.bit_count()]
        at += len(table_cards)
        new.table = 0
        for c in table_cards:
            new.table |= 1 << c
        new._arrivals = list(table_cards)
        new.bid_cards = seen
        new.deal_log = []
        new.table_laid = []
        new.bid_log = []
        new.source = DealSource(order=list(pool[at:]), rng=rng)
        return new

    def _redraw_face_down(self, cards: list[int]) -> None:
        """The face-down table cards replaced by `cards`, laid in the same places of the table's order."""
        old = self.face_down
        new_cards = iter(cards)
        self._arrivals = [next(new_cards) if old >> c & 1 else c for c in self._arrivals]
        self.face_down = 0
        for c in cards:
            self.face_down |= 1 << c
        self.table = (self.table & ~old) | self.face_down

    def _check_world(self, hands: dict[int, int], stock: list[int]) -> None:
        """IllegalMove unless the redrawn hands and stock make a deal with what all can see: each hand
        of its size and holding its shown cards, every card of the deck in exactly one place (`stock`
        also holds the redrawn face-down table cards, if any)."""
        placed = self.table & ~self.face_down if len(stock) > self.stock_size() else self.table
        for pile in self.piles:
            placed |= pile
        for seat in range(self.n):
            held = hands.get(seat, self.hands[seat])
            if held.bit_count() != self.hands[seat].bit_count():
                raise IllegalMove(f"seat {seat} holds {self.hands[seat].bit_count()} cards, not {held.bit_count()}")
            if self.shown[seat] & self.hands[seat] & ~held:
                raise IllegalMove(f"seat {seat}'s shown cards "
                                  f"({self.rules.card_names(self.shown[seat] & self.hands[seat])}) stay in its hand")
            if placed & held:
                raise IllegalMove(f"{self.rules.card_names(placed & held)} would be in two places "
                                  f"(seat {seat}'s hand and elsewhere)")
            placed |= held
        for card in stock:
            if placed >> card & 1:
                raise IllegalMove(f"{self.rules.CARD_NAMES[card]} would be in two places (the stock and elsewhere)")
            placed |= 1 << card

    def clone(self) -> "Hand":
        """An independent copy of this state (each declared attribute copied as its type says)."""
        new = Hand.__new__(Hand)
        new.__dict__.update(self.__dict__)
        for name, copy in _OWN_COPIES:
            setattr(new, name, copy(getattr(self, name)))
        return new

    def child(self, move: tuple[int, int], declarations: list[Declaration] = ()) -> "Hand":
        """A new hand after the current seat plays `move` (card, capture mask); this one is unchanged."""
        new = self.clone()
        new.play(new.turn, move[0], move[1], declarations)
        return new

    # Pickle and deepcopy store the ruleset's reference and options, not the module (run/pickling.py).
    def __getstate__(self) -> dict:
        return state_without_rules(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state_with_rules(state))


def _own_copy(annotation: str):
    """How a copy of a hand gets its own value of an attribute with this declared type (None: shared)."""
    if annotation.startswith("list"):
        return list
    if annotation.startswith("dict"):
        return dict
    if annotation == "DealSource":
        return DealSource.clone
    return None


_OWN_COPIES = tuple((name, copy) for name, annotation in Hand.__annotations__.items()
                    if (copy := _own_copy(annotation)) is not None)


def shuffled_source(n_cards: int, rng: random.Random) -> DealSource:
    """A fresh shuffled deck for a seeded hand."""
    order = list(range(n_cards))
    rng.shuffle(order)
    return DealSource(order=order, rng=rng)


def carried_to(rows: list[dict[str, int]], category: str) -> int | None:
    """The side that takes a category's carried points: the one side scoring the most in it (more than 0);
    None on a tie or when nobody scores in it."""
    values = [row[category] for row in rows]
    best = max(values)
    return values.index(best) if best > 0 and values.count(best) == 1 else None


def stake(rules: CompiledRules) -> int:
    """What an outcome that ends the game adds to (or takes from) a hand's value for the bots and the
    game-AI adapters: the target; a game of a fixed number of hands has none, and there the outcome
    counts for the hand's margin alone."""
    return rules.TARGET if rules.TARGET is not None else 0


def game_length(rules: CompiledRules) -> str:
    """How the game ends, in a few words: `first to 51`, `12 hands`, `first to 51 or 12 hands`, `a lead of 100`
    (a lead is named only where it alone ends the game)."""
    parts = ([f"first to {rules.TARGET}"] if rules.TARGET is not None else []) + \
        ([f"{rules.HANDS} hand{'s' if rules.HANDS != 1 else ''}"] if rules.HANDS is not None else [])
    if not parts and getattr(rules, "LEAD", None) is not None:
        parts = [f"a lead of {rules.LEAD}"]
    return " or ".join(parts)


def game_winners(rules: CompiledRules, totals: list[int] | tuple[int, ...], hands_played: int | None = None) \
        -> list[int] | None:
    """Who has won the game once a hand's totals are added (`totals`, the game's after it), or None while it
    goes on: the one highest total where a side has reached the target (or, with `hands_played` given, the
    game's number of hands is played; a tie at the top plays on), else a side `game.lead` points ahead of
    every other."""
    target, hands = rules.TARGET, rules.HANDS
    if (target is not None and max(totals) >= target) or \
            (hands is not None and hands_played is not None and hands_played >= hands):
        best = max(totals)
        top = [s for s, t in enumerate(totals) if t == best]
        if len(top) == 1:
            return top
    lead = rules.LEAD
    if lead is not None:
        for side, total in enumerate(totals):
            if all(total - other >= lead for s, other in enumerate(totals) if s != side):
                return [side]
    return None


class Game:
    """A game: hands until a side reaches the target or the game's number of hands is played (or an
    outcome ends it); then the highest total wins, and a tie at the top plays another hand. With
    `game.lead`, a side that many points ahead of every other at the end of a hand wins; with
    `game.points: as_made`, the game ends in a hand the moment a side reaches the target. Each hand is
    given the game's state (GameState: the totals before it, the points carried into it)."""

    def __init__(self, rules: CompiledRules, seats: int | None = None, seed: int | None = None, dealer: int = 0):
        self.rules = rules
        self.n = seats if seats is not None else rules.DEFAULT_SEATS
        if not _is_int(self.n) or self.n not in rules.SEATS_ALLOWED:     # as Hand says it
            raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} "
                                f"players, not {_shown(self.n)}")
        self.k = rules.SIDES[self.n]
        self.rng = random.Random(seed)
        self.dealer = dealer
        self.totals = [0] * self.k
        self.hands_played = 0
        self.winners: list[int] | None = None
        self.outcome: str | None = None
        self.misdeals = 0
        self.hand: Hand | None = None
        self.carried: dict[str, int] = {}      # category -> points nobody took, carried to the next hand

    def state(self) -> GameState:
        """What the next hand is given of the game: the totals so far, the points carried into it."""
        return GameState(tuple(self.totals), tuple(sorted(self.carried.items())))

    def new_hand(self) -> Hand:
        """Deal the next hand (the dealer passes on after every completed hand)."""
        self.hand = Hand(self.rules, self.n, self.dealer, shuffled_source(self.rules.N_CARDS, self.rng),
                         self.state())
        return self.hand

    def finish_hand(self) -> None:
        """Add the finished hand's totals; decide whether the game is over."""
        hand = self.hand
        assert hand is not None and hand.is_over
        self.hands_played += 1
        if hand.outcome is not None:
            self.outcome, self.winners = hand.outcome[0], list(hand.outcome[1])
            if hand.plays == 0 and not getattr(hand, "cut_short", False):       # the deal itself ended the game
                return
        rows = hand.score()
        for side, row in enumerate(rows):
            self.totals[side] += row["total"]
        if self.rules.CARRY:
            self._carry(rows)
        self.dealer = (self.dealer + 1) % self.n
        if self.winners is not None:
            return
        self.winners = game_winners(self.rules, self.totals, self.hands_played)

    def _carry(self, rows: list[dict[str, int]]) -> None:
        """After a hand: a category that carries and that nobody took (carried_to) carries its points, and
        any carried into the hand, on to the next; taken, nothing is carried."""
        for category, points in self.rules.CARRY.items():
            if carried_to(rows, category) is None:
                self.carried[category] = self.carried.get(category, 0) + points
            else:
                self.carried.pop(category, None)

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    # Pickle and deepcopy store the ruleset's reference and options, not the module (run/pickling.py).
    def __getstate__(self) -> dict:
        return state_without_rules(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state_with_rules(state))
