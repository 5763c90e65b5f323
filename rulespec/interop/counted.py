"""One card's moves where they are too many to list (Hand.legal_moves raises TooManyMoves), for the adapters'
step-by-step actions: counted, never listed, with the table cards named so far as a constraint.

A play names its table cards lowest first (decisions.py), so a partial choice P whose highest card is t stands
for the moves M with M's cards up to t exactly P: P's cards forced in, the table cards below t not in P forced
out. Each entry of Hand.counted_moves (a listed trail or captures, a counted block of builds or captures,
run/build_count.py) counts its moves under that constraint exactly, by kind of interchangeable loose cards; an
action is legal iff some move extends the choice with it, i.e. the count is above 0.
"""
from __future__ import annotations

from rulespec.run.builds import build_move


class CountedMoves:
    """The moves of one card of Hand.counted_moves' entries (plain, build, captures), counted under a choice."""

    def __init__(self, card: int, entries: list[tuple], n_cards: int):
        self.card, self.n_cards = card, n_cards
        self.entries = [e for e in entries if e[1] == card and e[3]]

    def count(self, inside: int, outside: int, value: int | None = None, enough: int | None = None) -> int:
        """How many moves hold every table card of `inside` and none of `outside`; with `value`, only those
        closing as that value (0: a capture or the trail, v: a build of v). Counted no further once `enough`
        are found (1: whether any is; 2: whether one alone is)."""
        total = 0
        for kind, _c, what, _w in self.entries:
            if enough is not None and total >= enough:
                break
            if kind == "plain":
                total += sum(1 for m in what if m & inside == inside and not m & outside
                             and (value is None or m >> self.n_cards == value))
            elif kind == "build":
                if value is None or value == what.value:
                    total += what.count_within(inside, outside, enough)
            elif value is None or value == 0:
                total += what.count_within(inside, outside, enough)
        return total

    def total(self) -> int:
        return sum(e[3] for e in self.entries)

    def only(self, inside: int, outside: int) -> int:
        """The one move holding `inside` and none of `outside` (count(inside, outside) == 1)."""
        for kind, _c, what, _w in self.entries:
            if kind == "plain":
                for m in what:
                    if m & inside == inside and not m & outside:
                        return m
            elif kind == "build":
                if what.count_within(inside, outside):
                    return what.only_within(inside, outside, self.n_cards)
            elif what.count_within(inside, outside):
                return what.only_within(inside, outside)
        raise ValueError("no move holds those cards")

    def legal_steps(self, partial: int, table: int, done: int, build_action) -> list[int]:
        """The actions legal after the table cards `partial` (named lowest first): each table card above them
        that some move holds next, DONE where `partial` is a capture (or the trail), `build v` where it is a build
        of v; ascending."""
        top = partial.bit_length()                 # the cards below this index are decided
        passed = table & ((1 << top) - 1) & ~partial
        out = []
        above = table >> top << top
        while above:
            bit = above & -above
            above ^= bit
            t = bit.bit_length() - 1
            between = table & (bit - 1) & ~((1 << top) - 1)     # table cards skipped on the way to t
            if self.count(partial | bit, passed | between, enough=1):
                out.append(t)
        rest = table & ~partial
        if self.count(partial, rest, 0, enough=1):
            out.append(done)
        values = sorted({what.value for kind, _c, what, _w in self.entries if kind == "build"}
                        | {m >> self.n_cards for kind, _c, what, _w in self.entries if kind == "plain" for m in what})
        for v in values:
            if v and self.count(partial, rest, v, enough=1):
                out.append(build_action(v))
        return sorted(out)

    def move_of(self, partial: int, value: int) -> int:
        """The move closed by DONE (value 0) or `build v`: the table cards with the value bits."""
        return build_move(partial, value, self.n_cards) if value else partial
