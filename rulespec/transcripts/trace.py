"""A hand as a list of states: what the engine's replay of a transcript saw after the deal and each play.

`trace_transcript(path)` replays a transcript (rulespec/transcripts/replay.py,
unchanged: the same checks, the same failures) and records, after the deal
and after every play, each seat's hand, the table, the piles, the events and
the running points. The HTML page of a hand (rulespec/authoring/html_hand.py)
is drawn from this data alone: nothing re-reads transcript text.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from rulespec.run.builds import owner_shown
from rulespec.run.engine import Hand
from rulespec.transcripts.replay import ReplayResult, _Replayer
from rulespec.transcripts.transcript import Transcript


@dataclass
class Step:
    """The hand after one play (number 0: after the deal)."""

    number: int
    seat: int | None
    card: str | None
    capture: list[str]
    declared: list[str]              # "barsega: AH 2H 3S", one per declaration made with this play
    events: list[dict]               # this play's events: name, seat, side, points, category
    hands: list[list[str]]           # per seat, after the play
    shown: list[list[str]]           # per seat: declared cards shown face up
    table: list[str]                 # in the order the cards arrived
    piles: list[list[str]]           # per side: every card captured so far
    points: list[dict]               # per side: event points so far by category
    round: int
    wild_as: str | None
    note: str = ""                   # a refusal the transcript expects, or what the replay found wrong
    refused: bool = False            # the play was refused (as the transcript expects): nothing changed
    face_down: int = 0               # table cards lying face down under `table` (which ones, nobody sees)
    builds: list[dict] = field(default_factory=list)   # capture.builds: each build's cards, value, owner, fixed
    built: dict | None = None        # the build this play made: its value and the table cards it joined
    bid_made: int | None = None      # bid: the value this play bid (no card played)
    bid: dict | None = None          # bid: the bid standing, {seat, value} (value None before the bid)


@dataclass
class HandTrace:
    """A replayed hand: the deck and seats, one Step per state, the result."""

    ruleset_id: str
    ruleset_name: str
    description: str
    deck: dict                       # id, ranks, suits, suit_names, extra (card -> its name)
    wild: str | None                 # the wild card's name, if the ruleset has one
    seats: int
    sides: int
    dealer: int
    categories: list[str]
    source: str                      # the transcript's file (or "recorded")
    steps: list[Step] = field(default_factory=list)
    dealer_events: list[str] = field(default_factory=list)
    score: list[dict] | None = None  # per side, once the hand is over and was played
    outcome: dict | None = None      # name and winning sides, when an outcome ended the hand
    leftovers: dict | None = None    # cards left on the table at the end and the side they went to
    ok: bool = True
    failures: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _names(rules, mask: int) -> list[str]:
    names = rules.CARD_NAMES
    return [names[i] for i in range(rules.N_CARDS) if mask >> i & 1]


def _snapshot(hand: Hand, number: int, seat, card, capture: int, declared, events, note="", refused=False,
              bid_made: int | None = None) -> Step:
    rules = hand.rules
    value = capture >> rules.N_CARDS            # a build's move holds its value above the deck's bits
    return Step(
        bid_made=bid_made,
        bid={"seat": hand.bidder, "value": hand.bid} if hand.bidder is not None else None,
        number=number, seat=seat, card=card,
        capture=[] if value else _names(rules, capture),
        built={"value": value, "cards": _names(rules, capture)} if value else None,
        builds=[{"cards": _names(rules, b.cards), "value": b.value, "owner": owner_shown(b), "fixed": b.fixed}
                for b in hand.builds],
        declared=declared,
        events=[{"name": e.name, "seat": e.seat, "side": e.side, "points": e.points, "category": e.category}
                for e in events],
        hands=[_names(rules, h) for h in hand.hands],
        shown=[_names(rules, hand.shown[s] & hand.hands[s]) for s in range(hand.n)],
        table=[rules.CARD_NAMES[c] for c in hand.table_order if not hand.face_down >> c & 1],
        face_down=hand.face_down.bit_count(),
        piles=[_names(rules, p) for p in hand.piles],
        points=hand.event_points(),
        round=hand.round,
        wild_as=rules.RANK_NAMES[hand.wild_as - rules.N_CARDS] if hand.wild_as is not None else None,
        note=note,
        refused=refused,
    )


class _Tracer(_Replayer):
    """The replay, watched: a Step after the deal and after each play."""

    def __init__(self, path: Path, transcript: Transcript | None = None, compiled=None,
                 root: str | Path | None = None):
        if transcript is None:
            super().__init__(path, root)
        else:                                  # a transcript already in memory with its compiled ruleset
            self.path, self.t, self.compiled = path, transcript, compiled
            self.rules = compiled.module
            self.deck = compiled.ruleset.deck
            self.failures = []
        self.steps: list[Step] = []
        self.hand: Hand | None = None

    def new_hand(self) -> Hand:
        hand = super().new_hand()
        self.hand = hand
        self.steps.append(_snapshot(hand, 0, None, None, 0, [], [e for e in hand.events if e.play == 0]))
        return hand

    def play(self, hand: Hand, play) -> bool:
        before = len(hand.events)
        failures = len(self.failures)
        stop = super().play(hand, play)
        card = play.card.name if play.card is not None else None
        declared = [d.bonus + (f" (wild card as {d.matta})" if d.matta is not None else "")
                    + (": " + " ".join(c.name for c in d.cards) if d.cards else "") for d in play.declare]
        if stop:
            # The transcript's words are not compared with the engine's: give the engine's reason, and theirs if other.
            reason = getattr(self, "refusal", None) or play.error
            note = f"refused, as the transcript expects: {reason}"
            if str(play.error).strip() != reason:
                note += f" (the transcript says: {play.error})"
            self.steps.append(_snapshot(hand, play.number, play.seat, card, 0, declared, [], note=note, refused=True,
                                        bid_made=play.bid))
        elif play.bid is not None:
            self.steps.append(_snapshot(hand, play.number, play.seat, None, 0, declared, [],
                                        note="; ".join(self.failures[failures:]), bid_made=play.bid))
        else:
            capture = self.move(play) if card is not None else 0
            note = "; ".join(self.failures[failures:])
            self.steps.append(_snapshot(hand, play.number, play.seat, card, capture, declared,
                                        hand.events[before:], note=note))
        return stop


def _trace(tracer: _Tracer, source: str) -> HandTrace:
    result: ReplayResult = tracer.run()
    rules = tracer.rules
    rs = tracer.compiled.ruleset
    deck = rs.deck
    hand = tracer.hand
    trace = HandTrace(
        ruleset_id=rs.id, ruleset_name=rs.name, description=rs.description,
        deck={"id": deck.id, "ranks": list(deck.ranks), "suits": list(deck.suits),
              "suit_names": list(deck.suit_names),
              # the extra cards (jokers), by name, with the name the ruleset gives them ("" for none)
              "extra": {rank + suit: name or "" for rank, suit, _value, name in deck.extras}},
        wild=rules.CARD_NAMES[rules.WILD_INDEX] if rules.WILD_INDEX >= 0 else None,
        seats=hand.n, sides=hand.k, dealer=hand.dealer, categories=list(rules.CATEGORIES),
        source=source, steps=tracer.steps, dealer_events=list(hand.dealer_events),
        ok=result.ok, failures=list(result.failures))
    if hand.is_over and hand.plays:
        trace.score = hand.score()
    if hand.is_over and hand.plays and hand.final_table and not hand.table and hand.last_capturer is not None:
        trace.leftovers = {"cards": _names(rules, hand.final_table), "side": hand.last_capturer}
    if hand.outcome is not None:
        trace.outcome = {"name": hand.outcome[0], "winners": list(hand.outcome[1])}
    return trace


def trace_transcript(path: str | Path, root: str | Path | None = None) -> HandTrace:
    """Replay a transcript file and keep every state; a located RulespecError when the file is invalid.
    With `root`, every file read must lie under it."""
    path = Path(path)
    return _trace(_Tracer(path, root=root), str(path))


def trace_recorded(text: str, compiled, filename: str = "recorded") -> HandTrace:
    """The trace of a transcript just recorded (its text), replayed with the ruleset it was recorded with."""
    from rulespec.transcripts.transcript import parse_transcript
    t = parse_transcript(text, filename)
    return _trace(_Tracer(Path(filename), t, compiled), filename)
