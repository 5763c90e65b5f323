"""Transcript reader: a golden hand transcript file into frozen dataclasses that carry spans.

load (yamlsafe) -> validate (transcript.schema.json) -> build. Card names are
kept as written, with their spans: which cards exist depends on the ruleset's
deck, so the replay checks them (`Deck.card(name, span)`). The structure is
checked here: seat keys, seat ranges against `seats`, keys given twice.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.errors import RulespecError, Span, collect
from rulespec.source.files import read_regular
from rulespec.source.validate import MAX_ERRORS, validate
from rulespec.source.yamlsafe import LocDict, LocList, load

_RECORDED = re.compile(r"#\s*recorded\b", re.IGNORECASE)


@dataclass(frozen=True)
class CardRef:
    """A card name as written in a transcript, with where it was written."""

    name: str
    span: Span

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DealRound:
    """One deal round: table cards, each seat's cards, whether it is thrown in."""

    table: list[CardRef] | None
    hands: dict[int, list[CardRef]]
    redeal: bool
    span: Span | None
    table_span: Span | None = None
    hand_spans: dict[int, Span] = field(default_factory=dict)  # seat -> its key


@dataclass(frozen=True)
class Declaration:
    """A bonus claimed in a play: its name, the wild card's declared rank, the cards named."""

    bonus: str
    matta: str | None
    cards: list[CardRef] | None
    span: Span | None
    bonus_span: Span | None = None
    matta_span: Span | None = None


@dataclass(frozen=True)
class TableBuild:
    """A build `expect.table` shows (capture.builds): its cards, value, and where given its owners (sorted:
    `owner: 1` is (1,), `owner: [2, 0]` is (0, 2)) and fixed."""

    cards: list[CardRef]
    value: int
    owner: tuple[int, ...] | None
    fixed: bool | None
    span: Span | None
    owner_span: Span | None = None


@dataclass(frozen=True)
class Play:
    """One listed play (number is 1-based): a card and capture, a knock (no card), or a bid (`bid`, a value)."""

    number: int
    seat: int
    declare: list[Declaration]
    card: CardRef | None
    capture: list[CardRef] | None
    events: list[str] | None
    legal: list[list[CardRef]] | None
    error: str | None
    span: Span | None
    seat_span: Span | None = None
    capture_span: Span | None = None
    events_span: Span | None = None
    legal_span: Span | None = None
    error_span: Span | None = None
    event_item_spans: tuple = ()   # where each of `events` was written
    build: list[CardRef] | None = None   # the table cards a build joins (capture.builds), with `value`
    value: int | None = None
    build_span: Span | None = None
    bid: int | None = None               # a bid (bid: in the rules): the value bid; no card is played
    bid_span: Span | None = None
    value_span: Span | None = None


@dataclass(frozen=True)
class Expect:
    """What must hold after the last play; None where the transcript does not say."""

    dealer_events: list[str] | None
    table: list[CardRef] | None           # the loose cards where the table shows builds
    events: dict[int, list[str]] | None
    score: dict[int, dict[str, int]] | None
    outcome: str | None
    winner: list[int] | None
    span: Span | None = None
    dealer_events_span: Span | None = None
    table_span: Span | None = None
    events_span: Span | None = None
    score_span: Span | None = None
    outcome_span: Span | None = None
    winner_span: Span | None = None
    event_spans: dict[int, Span] = field(default_factory=dict)  # side -> its event list
    score_spans: dict[int, dict[str, Span]] = field(default_factory=dict)  # side -> category -> value
    dealer_event_spans: tuple = ()                                           # each of dealer_events
    event_item_spans: dict[int, tuple] = field(default_factory=dict)         # side -> each of its events
    score_key_spans: dict[int, dict[str, Span]] = field(default_factory=dict)  # side -> category -> its key
    table_builds: list[TableBuild] = field(default_factory=list)              # the builds expect.table shows


@dataclass(frozen=True)
class Transcript:
    """A golden hand transcript as read, before any ruleset is consulted."""

    path: Path
    ruleset: str
    ruleset_span: Span | None
    options: dict[str, object]
    seats: int | None
    dealer: int
    deal: list[DealRound] | None
    deck: list[CardRef] | None
    plays: list[Play]
    expect: Expect | None
    recorded: bool
    span: Span | None = None
    option_spans: dict[str, Span] = field(default_factory=dict)  # option name -> its value
    seats_span: Span | None = None
    dealer_span: Span | None = None
    deal_span: Span | None = None
    deck_span: Span | None = None
    plays_span: Span | None = None
    # The game around the hand (`game:`): side -> total before it (None: 0 each), category -> points carried in.
    game_totals: dict[int, int] | None = None
    game_carried: dict[str, int] = field(default_factory=dict)
    game_span: Span | None = None
    game_totals_span: Span | None = None
    game_carried_spans: dict[str, Span] = field(default_factory=dict)   # category -> its key


def read_transcript(path: str | Path) -> Transcript:
    """Read, validate and build one transcript file; a located RulespecError otherwise."""
    path = Path(path)
    name = str(path)
    from rulespec.source.rulesets import locate
    if os.path.lexists(path):
        locate(path, transcript=True)   # a regular .yaml/.yml/.json file outside /proc, /sys and /dev, before a byte is read
    data = read_regular(path, what="transcript")     # never a FIFO's wait, never past the size limit
    doc = load(data, name)
    validate(doc, "transcript", what="transcript")
    return _Build(path, doc, _is_recorded(data)).transcript()


def parse_transcript(source: str | bytes, filename: str) -> Transcript:
    """Like read_transcript, for text already in memory (tests, tools)."""
    doc = load(source, filename)
    validate(doc, "transcript", what="transcript")
    data = source.encode("utf-8") if isinstance(source, str) else source
    return _Build(Path(filename), doc, _is_recorded(data)).transcript()


def resolve_ruleset_ref(transcript: Transcript) -> Path:
    """The ruleset file a transcript names: a shipped id, or a path relative to the transcript's own folder.

    Resolved here once: the path returned is used as it is, never joined to a folder again.
    """
    from rulespec.source.rulesets import locate
    return locate(transcript.ruleset, relative_to=Path(transcript.path).parent, span=transcript.ruleset_span)


def _is_recorded(data: bytes) -> bool:
    # Only the comment block that opens the file counts: a later comment
    # mentioning "recorded" says nothing about how the file was made.
    for line in data.decode("utf-8", errors="replace").lstrip("\ufeff").splitlines():
        text = line.strip()
        if not text:
            continue
        if not text.startswith("#"):
            return False
        if _RECORDED.match(text):
            return True
    return False


def _spans(value_spans: dict, *keys: str) -> dict:
    """`<key>_span` arguments: where each key's value was written (None if absent)."""
    return {f"{key}_span": value_spans.get(key) for key in keys}


class _Build:
    """Builds the dataclasses from a validated document, collecting structural errors."""

    def __init__(self, path: Path, doc: LocDict, recorded: bool):
        self.path = path
        self.doc = doc
        self.recorded = recorded
        self.errors: list[RulespecError] = []
        self.seats = doc.get("seats")

    def transcript(self) -> Transcript:
        doc = self.doc
        vs = doc.value_spans
        dealer = doc["dealer"]
        self.check_seat(dealer, vs.get("dealer"))
        deal = [self.round(r, _item_span(doc["deal"], i)) for i, r in enumerate(doc["deal"])] if "deal" in doc else None
        deck = self.cards(doc["deck"]) if "deck" in doc else None
        plays_list = doc.get("plays", LocList())
        plays = [self.play(i + 1, p, _item_span(plays_list, i)) for i, p in enumerate(plays_list)]
        expect = self.expect(doc["expect"]) if "expect" in doc else None
        game = doc.get("game", LocDict())
        totals = None
        if "totals" in game:
            totals = {side: value for side, (value, _, _) in
                      self.numbered(game["totals"], "side", "game.totals").items()}
        carried = game.get("carried", LocDict())
        options = doc.get("options", LocDict())
        # At most MAX_ERRORS, as every stage reports: a stranger's file of thousands of seats out of range
        # is not thousands of messages.
        place = lambda e: (e.span.line, e.span.column) if e.span else (0, 0)   # noqa: E731
        collect(sorted(self.errors, key=place)[:MAX_ERRORS])
        return Transcript(
            path=self.path,
            ruleset=doc["ruleset"],
            ruleset_span=vs.get("ruleset"),
            options=dict(options),
            seats=self.seats,
            dealer=dealer,
            deal=deal,
            deck=deck,
            plays=plays,
            expect=expect,
            recorded=self.recorded,
            span=doc.span,
            option_spans=dict(getattr(options, "value_spans", {})),
            **_spans(vs, "seats", "dealer", "deal", "deck", "plays"),
            game_totals=totals,
            game_carried=dict(carried),
            game_span=vs.get("game"),
            game_totals_span=getattr(game, "value_spans", {}).get("totals"),
            game_carried_spans=dict(getattr(carried, "key_spans", {})),
        )

    def check_seat(self, seat: int, span: Span | None) -> None:
        if self.seats is not None and seat >= self.seats:
            self.errors.append(
                RulespecError(f"seat {seat} is out of range: this transcript has {self.seats} seats (0 to {self.seats - 1})", span)
            )

    def cards(self, items: LocList) -> list[CardRef]:
        return [CardRef(name, _item_span(items, i)) for i, name in enumerate(items)]

    def numbered(self, mapping: LocDict, what: str, where: str) -> dict[int, tuple[object, Span | None, Span | None]]:
        """A mapping keyed by seat or side numbers (ints or digit strings) -> {n: (value, key span, value span)}."""
        result: dict[int, tuple[object, Span | None, Span | None]] = {}
        for key, value in mapping.items():
            number = int(key)
            key_span = mapping.key_spans.get(key)
            if number in result:
                first = result[number][1]
                at = f" (first at line {first.line})" if first else ""
                self.errors.append(RulespecError(f"{what} {number} is listed twice in {where}{at}", key_span))
                continue
            result[number] = (value, key_span, mapping.value_spans.get(key))
        return result

    def round(self, item: LocDict, span: Span | None) -> DealRound:
        hands: dict[int, list[CardRef]] = {}
        hand_spans: dict[int, Span] = {}
        for seat, (cards, key_span, _) in self.numbered(item.get("hands", LocDict()), "seat", "hands").items():
            self.check_seat(seat, key_span)
            hands[seat] = self.cards(cards)
            if key_span is not None:
                hand_spans[seat] = key_span
        return DealRound(
            table=self.cards(item["table"]) if "table" in item else None,
            hands=hands,
            redeal=bool(item.get("redeal", False)),
            span=span,
            table_span=item.value_spans.get("table"),
            hand_spans=hand_spans,
        )

    def play(self, number: int, item: LocDict, span: Span | None) -> Play:
        vs = item.value_spans
        self.check_seat(item["seat"], vs.get("seat"))
        declare_list = item.get("declare", LocList())
        legal = item.get("legal")
        return Play(
            number=number,
            seat=item["seat"],
            declare=[self.declaration(d, _item_span(declare_list, i)) for i, d in enumerate(declare_list)],
            card=CardRef(item["card"], vs.get("card")) if "card" in item else None,
            capture=self.cards(item["capture"]) if "capture" in item else None,
            events=list(item["events"]) if "events" in item else None,
            legal=[self.cards(s) for s in legal] if legal is not None else None,
            error=item.get("error"),
            span=span,
            **_spans(vs, "seat", "capture", "events", "legal", "error"),
            event_item_spans=_item_spans(item.get("events")),
            build=self.cards(item["build"]) if "build" in item else None,
            value=item.get("value"),
            build_span=vs.get("build"),
            bid=item.get("bid"),
            bid_span=vs.get("bid"),
            value_span=vs.get("value"),
        )

    def table_cards(self, items: LocList) -> list[CardRef]:
        """expect.table's cards: its items written as cards (the loose cards, where it shows builds)."""
        return [CardRef(name, _item_span(items, i)) for i, name in enumerate(items) if isinstance(name, str)]

    def table_builds(self, items: LocList) -> list[TableBuild]:
        """expect.table's builds: its items written as {build: [cards], value: N, owner: seat or [seats],
        fixed: bool}."""
        out = []
        for i, item in enumerate(items):
            if isinstance(item, dict):
                owner = item.get("owner")
                if owner is not None:
                    owner = (owner,) if isinstance(owner, int) else tuple(sorted(owner))
                    for seat in owner:
                        self.check_seat(seat, item.value_spans.get("owner"))
                out.append(TableBuild(self.cards(item["build"]), item["value"], owner, item.get("fixed"),
                                      _item_span(items, i), item.value_spans.get("owner")))
        return out

    def declaration(self, item: LocDict, span: Span | None) -> Declaration:
        matta = item.get("matta")
        return Declaration(
            bonus=item["bonus"],
            # `matta: 2` reads as an integer; the rank symbol is the text "2".
            matta=str(matta) if matta is not None else None,
            cards=self.cards(item["cards"]) if "cards" in item else None,
            span=span,
            bonus_span=item.value_spans.get("bonus"),
            matta_span=item.value_spans.get("matta"),
        )

    def expect(self, item: LocDict) -> Expect:
        vs = item.value_spans
        events = event_spans = event_item_spans = None
        if "events" in item:
            numbered = self.numbered(item["events"], "side", "expect.events")
            events = {side: list(v) for side, (v, _, _) in numbered.items()}
            event_spans = {side: s for side, (_, _, s) in numbered.items() if s is not None}
            event_item_spans = {side: _item_spans(v) for side, (v, _, _) in numbered.items()}
        score = score_spans = score_key_spans = None
        if "score" in item:
            numbered = self.numbered(item["score"], "side", "expect.score")
            score = {side: dict(v) for side, (v, _, _) in numbered.items()}
            score_spans = {side: dict(v.value_spans) for side, (v, _, _) in numbered.items()}
            score_key_spans = {side: dict(v.key_spans) for side, (v, _, _) in numbered.items()}
        winner = item.get("winner")
        if isinstance(winner, int):
            winner = [winner]
        return Expect(
            dealer_events=list(item["dealer_events"]) if "dealer_events" in item else None,
            table=self.table_cards(item["table"]) if "table" in item else None,
            table_builds=self.table_builds(item["table"]) if "table" in item else [],
            events=events,
            score=score,
            outcome=item.get("outcome"),
            winner=list(winner) if winner is not None else None,
            span=item.span,
            dealer_events_span=vs.get("dealer_events"),
            table_span=vs.get("table"),
            events_span=vs.get("events"),
            score_span=vs.get("score"),
            outcome_span=vs.get("outcome"),
            winner_span=vs.get("winner"),
            event_spans=event_spans or {},
            score_spans=score_spans or {},
            dealer_event_spans=_item_spans(item.get("dealer_events")),
            event_item_spans=event_item_spans or {},
            score_key_spans=score_key_spans or {},
        )


def _item_spans(items) -> tuple:
    """Where each item of a list was written (empty for no list)."""
    return tuple(getattr(items, "item_spans", ()))


def _item_span(items, index: int) -> Span | None:
    spans = getattr(items, "item_spans", None)
    return spans[index] if spans is not None and index < len(spans) else getattr(items, "span", None)
