"""The statistics of a simulation: integer sums over hands and games that merge exactly (`Stats`), their means,
95% intervals and win rates, and `PlayoutResult`, a hand played by a generated playout as `Stats` counts it.

bots/simulate.py fills them on the Python engine, bots/native_sim.py from the native engine's batches.
"""
from __future__ import annotations

import math

# (side, a score row's categories in order) -> per category its statistics key, and whether it is one (not the total)
_ROW_KEYS: dict = {}


class _Factory:
    """The default of a field that starts as a new empty dict or list (dataclasses' default_factory)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()

# The fields of Stats, in order (as dataclasses.fields would list them).
_STATS_FIELDS = ("sides", "seats", "categories", "hands", "plays", "decisions", "legal_moves", "games", "game_hands",
                 "outcomes", "sums", "squares", "hand_wins", "game_wins", "totals", "lengths", "scored", "events",
                 "fired", "fired_hands", "fired_points", "captures", "sweeps")


def add_counts(into: dict, other: dict) -> None:
    """Add `other`'s counts into `into`, key by key."""
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


class Stats:
    """Integer sums over hands (and games) that merge exactly; means and 95% intervals from them.

    Written out as `@dataclass` would generate it (constructor, repr, equality, unhashable;
    tests/test_records.py compares the two), without importing dataclasses at every `simulate`.
    """

    __match_args__ = _STATS_FIELDS

    sides: int
    seats: int
    categories: tuple[str, ...]
    hands: int = 0
    plays: int = 0
    decisions: int = 0
    legal_moves: int = 0
    games: int = 0
    game_hands: int = 0
    outcomes: dict
    sums: dict          # (side, category) -> sum of points
    squares: dict       # (side, category) -> sum of squares
    hand_wins: list     # per side: hands with the strictly highest total
    game_wins: list     # per side: games won
    totals: dict        # (side, total points of a hand) -> hands
    lengths: dict       # plays in a hand -> hands
    scored: dict        # (side, category) -> hands in which it scored (points other than 0)
    events: tuple | None = ()   # (name, kind, scores) of every event and bonus counted; None: not counted
    fired: dict         # (side, event or bonus name) -> times it fired
    fired_hands: dict   # (side, name) -> hands in which it fired
    fired_points: dict  # (side, name) -> points it brought (0 for one that scores in no category)
    captures: dict      # captures in a hand -> hands
    sweeps: dict        # play events (kind "event": a sweep...) fired in a hand, every side's -> hands

    def __init__(self, sides: int, seats: int, categories: tuple[str, ...], hands: int = 0, plays: int = 0,
                 decisions: int = 0, legal_moves: int = 0, games: int = 0, game_hands: int = 0,
                 outcomes: dict = _FACTORY, sums: dict = _FACTORY, squares: dict = _FACTORY,
                 hand_wins: list = _FACTORY, game_wins: list = _FACTORY, totals: dict = _FACTORY,
                 lengths: dict = _FACTORY, scored: dict = _FACTORY, events: tuple | None = (),
                 fired: dict = _FACTORY, fired_hands: dict = _FACTORY, fired_points: dict = _FACTORY,
                 captures: dict = _FACTORY, sweeps: dict = _FACTORY) -> None:
        self.sides, self.seats, self.categories = sides, seats, categories
        self.hands, self.plays, self.decisions, self.legal_moves = hands, plays, decisions, legal_moves
        self.games, self.game_hands = games, game_hands
        self.outcomes = {} if outcomes is _FACTORY else outcomes
        self.sums = {} if sums is _FACTORY else sums
        self.squares = {} if squares is _FACTORY else squares
        self.hand_wins = [] if hand_wins is _FACTORY else hand_wins
        self.game_wins = [] if game_wins is _FACTORY else game_wins
        self.totals = {} if totals is _FACTORY else totals
        self.lengths = {} if lengths is _FACTORY else lengths
        self.scored = {} if scored is _FACTORY else scored
        self.events = events
        self.fired = {} if fired is _FACTORY else fired
        self.fired_hands = {} if fired_hands is _FACTORY else fired_hands
        self.fired_points = {} if fired_points is _FACTORY else fired_points
        self.captures = {} if captures is _FACTORY else captures
        self.sweeps = {} if sweeps is _FACTORY else sweeps
        self.hand_wins = self.hand_wins or [0] * self.sides
        self.game_wins = self.game_wins or [0] * self.sides

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in _STATS_FIELDS)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in _STATS_FIELDS)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()
        return NotImplemented

    __hash__ = None

    def _add(self, side: int, cat: str, pts: int) -> None:
        key = (side, cat)
        self.sums[key] = self.sums.get(key, 0) + pts
        self.squares[key] = self.squares.get(key, 0) + pts * pts

    def add_hand(self, hand, captures: int | None = None) -> None:
        """Count one finished hand (a `Hand`, or a `PlayoutResult`: `plays`, `outcome`, `score()`);
        `captures`: the plays of a `Hand` that captured (a playout's record says it), None if not counted."""
        # Called once per hand of a run: the dictionaries are updated inline (same keys, same order as
        # through _add), which is most of what counting a hand costs beside playing it.
        self.hands += 1
        plays = hand.plays
        self.plays += plays
        lengths = self.lengths
        lengths[plays] = lengths.get(plays, 0) + 1
        outcome = hand.outcome
        if outcome is not None:
            self.outcomes[outcome[0]] = self.outcomes.get(outcome[0], 0) + 1
        if plays == 0:
            return
        if self.events is not None:
            self._count_events(hand, captures)
        rows = hand.score()
        totals = [r["total"] for r in rows]
        top = max(totals)
        tops = totals.count(top)
        if tops == 1:
            self.hand_wins[totals.index(top)] += 1
        # each side's margin: its total less the best of the others' (the top, or the second where it is the top)
        second = max([t for t in totals if t != top], default=top) if tops == 1 else top
        sums, squares, scored, counted = self.sums, self.squares, self.scored, self.totals
        for side, row in enumerate(rows):
            cats = tuple(row)
            keys = _ROW_KEYS.get((side, cats))
            if keys is None:
                keys = _ROW_KEYS[(side, cats)] = [((side, cat), cat != "total") for cat in cats]
            for (key, category), pts in zip(keys, row.values()):
                if pts:
                    sums[key] = sums.get(key, 0) + pts
                    squares[key] = squares.get(key, 0) + pts * pts
                    if category:
                        scored[key] = scored.get(key, 0) + 1
                elif key not in sums:
                    sums[key] = squares[key] = 0      # every category listed, scored or not
            total = totals[side]
            key = (side, total)
            counted[key] = counted.get(key, 0) + 1
            margin = 0 if len(totals) == 1 else total - (second if total == top else top)
            key = (side, "margin")
            sums[key] = sums.get(key, 0) + margin
            squares[key] = squares.get(key, 0) + margin * margin

    def _count_events(self, hand, captures: int | None) -> None:
        """Count a played hand's events and bonuses per side (the scored ones' points too) and its captures:
        from a `Hand`'s events, or a playout's record of its events and moves."""
        fired, points, seen = self.fired, self.fired_points, set()
        plays = {name for name, kind, _scores in self.events if kind == "event"}
        swept = 0
        if isinstance(hand, PlayoutResult):
            captures = 0
            scores = {name: scoring for name, _kind, scoring in self.events}
            sides = self.sides
            for item in hand.record:
                if item[0] == "move":
                    captures += item[4] != 0
                    continue
                _tag, play, seat, name, pts = item
                key = (seat % sides, name)
                swept += play > 0 and name in plays
                fired[key] = fired.get(key, 0) + 1
                points[key] = points.get(key, 0) + (pts if scores.get(name) else 0)
                seen.add(key)
        else:
            for e in hand.events:
                if e.side is None:
                    continue
                key = (e.side, e.name)
                swept += e.play > 0 and e.name in plays
                fired[key] = fired.get(key, 0) + 1
                points[key] = points.get(key, 0) + (e.points if e.category else 0)
                seen.add(key)
        for key in seen:
            self.fired_hands[key] = self.fired_hands.get(key, 0) + 1
        self.sweeps[swept] = self.sweeps.get(swept, 0) + 1
        if captures is not None:
            self.captures[captures] = self.captures.get(captures, 0) + 1

    def fires(self, side: int, name: str) -> tuple[float, float, float]:
        """An event's or bonus's figures for a side, per hand: times it fired, share of hands, points."""
        n = self.hands or 1
        key = (side, name)
        return (self.fired.get(key, 0) / n, self.fired_hands.get(key, 0) / n, self.fired_points.get(key, 0) / n)

    def add_game(self, game) -> None:
        self.games += 1
        self.game_hands += game.hands_played
        for side in game.winners or ():
            self.game_wins[side] += 1

    def merge(self, other: "Stats") -> None:
        for name in ("hands", "plays", "decisions", "legal_moves", "games", "game_hands"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("outcomes", "sums", "squares", "totals", "lengths", "scored", "fired", "fired_hands",
                     "fired_points", "captures", "sweeps"):
            add_counts(getattr(self, name), getattr(other, name))
        self.hand_wins = [a + b for a, b in zip(self.hand_wins, other.hand_wins)]
        self.game_wins = [a + b for a, b in zip(self.game_wins, other.game_wins)]

    # -- summaries -------------------------------------------------------------
    def mean(self, side: int, cat: str) -> float:
        return self.sums.get((side, cat), 0) / self.hands if self.hands else 0.0

    def ci95(self, side: int, cat: str) -> float:
        """Half-width of the 95% confidence interval of the mean points per hand (math.inf below 2 hands)."""
        key = (side, cat)
        return half_width95(self.hands, self.sums.get(key, 0), self.squares.get(key, 0))

    def win_rate(self, side: int) -> tuple[float, float, float]:
        """Games won (a game run) or hands won outright (a hand run) by the side: the rate and its 95% interval.

        A Wilson score interval: unlike rate ± 1.96·sqrt(p(1-p)/n) it stays inside 0..1 and does not
        shrink to nothing when a side wins all or none of a few games.
        """
        n, wins = (self.games, self.game_wins[side]) if self.games else (self.hands, self.hand_wins[side])
        if not n:
            return 0.0, 0.0, 1.0
        return (wins / n, *wilson(wins, n))

    @property
    def mean_plays(self) -> float:
        return self.plays / self.hands if self.hands else 0.0

    @property
    def mean_legal_moves(self) -> float:
        return self.legal_moves / self.decisions if self.decisions else 0.0


def half_width95(n: int, total: int, squares: int) -> float:
    """1.96 standard errors of the mean of `n` integers summing to `total`, their squares to `squares`.

    The standard error is sqrt(s^2 / n) with the sample variance s^2 = sum (x - mean)^2 / (n - 1), here
    (n * squares - total^2) / (n (n - 1)): its numerator is an exact integer, so no digits cancel however
    far from 0 the points lie (squares / n - mean^2 in floats was 0 for points around 10**8). Below two
    values there is no spread to measure: math.inf, an unbounded interval (not 0, which reads as exact).
    """
    if n < 2:
        return math.inf
    spread = max(n * squares - total * total, 0)
    return 1.96 * math.sqrt(spread / (n * n * (n - 1)))


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96): (low, high).

    It starts at exactly 0 for no successes and ends at exactly 1 for n of n (as its formula does; in
    floats centre - half came out at 3e-17 and centre + half at 1 - 1e-16)."""
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


class PlayoutResult:
    """A hand played by a generated playout, seen as the statistics and `Game` see a finished `Hand`."""

    is_over = True

    def __init__(self, rules, result, record: list | None = None):
        self.rules = rules
        self.record = record or ()
        self.plays, self.outcome, self.piles, self.event_points, self.turns, self.moves = result

    def score(self) -> list[dict[str, int]]:
        from rulespec.run.engine import score_located
        return score_located(self.rules, self.piles, self.event_points)
