"""`rulespec explain`: a ruleset as a readable rulebook, in Markdown or as one HTML page.

`explain(rs, fmt)` is the one entry point. The rulebook is generated from the
checked model alone (rulespec/words.py says the expressions in words): first
as a list of blocks (headings, paragraphs, lists, a table), then rendered by
one small function per format. Every piece of text from the ruleset is
escaped for the format it lands in.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from rulespec.authoring.html_page import isolate
from rulespec.checks.check import is_short
from rulespec.lang.model import Expression, Ruleset
from rulespec.lang.words import (
    CODE_END,
    CODE_START,
    Words,
    card_value_words,
    code,
    count_words,
    join_words,
    plain,
    rank_value_words,
    rounds_words,
)

FORMATS = ("markdown", "html")
# The HTML rulebook runs no script and fetches nothing: it is text and its own style.
CSP = "default-src 'none'; style-src 'unsafe-inline'"


@dataclass
class Block:
    """One block of the rulebook: `h1`/`h2`/`h3`/`p` (text), `ul` (items), `table` (header row + rows)."""

    kind: str
    content: object


def user(text) -> str:
    """Text from the ruleset, made safe to embed in words: one line, no code markers, direction marks isolated."""
    return isolate(" ".join(re.sub(f"[{CODE_START}{CODE_END}\x04\x05]", "", str(text)).split()))


def bold(text: str) -> str:
    # A private marker pair, like the code markers: each format renders it.
    return f"\x04{text}\x05"


# ------------------------------------------------------------------ the rulebook


class _Book:
    """Builds the blocks for one checked ruleset."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.words = Words(rs)
        self.scoring = Words(rs, "score")
        self.blocks: list[Block] = []

    def add(self, kind: str, content) -> None:
        self.blocks.append(Block(kind, content))

    def cond(self, expr: Expression | None) -> str:
        return self.words.condition(expr.tree) if expr is not None else "always"

    def _suit_label(self, suit: str, name: str) -> str:
        """`hearts (H)`; `spade (swords, S)`: the deck's own name, with the English the phrases use if it differs."""
        if not self.rs.deck.suit_names:
            return suit
        english = self.words.suit_word(suit)
        return f"{name} ({suit})" if english == name else f"{name} ({english}, {suit})"

    def build(self) -> list[Block]:
        rs = self.rs
        self.add("h1", user(rs.name))
        if rs.description:
            self.add("p", user(rs.description))
        about = f"Ruleset {code(user(rs.id))}"
        if rs.base:
            about += f", a variant of {code(user(rs.base))}"
        if rs.source and rs.base and rs.chain_docs and "source" not in rs.chain_docs[0]:
            # A variant that names no source of its own is not what the base's source describes.
            about += f"; no source of its own (that of {code(user(rs.base))}: {user(rs.source)})"
        elif rs.source:
            about += f"; source: {user(rs.source)}"
        self.add("p", about + ". Generated from the ruleset by rulespec explain.")
        for section in (self.players, self.deal, self.hand_bonuses, self.play, self.events, self.score,
                        self.end, self.options):
            section()
        return self.blocks

    # -- players and cards
    def players(self) -> None:
        rs = self.rs
        self.add("h2", "Players and cards")
        counts = join_words([str(n) for n in rs.player_counts], "or")
        items = [f"{counts} player{'s' if rs.player_counts != [1] else ''}"
                 + (f" ({rs.default_players} unless said otherwise)" if len(rs.player_counts) > 1 else "") + "."]
        alone = [n for n in rs.player_counts if rs.sides[n] == n]
        if alone:
            items.append(f"With {join_words([str(n) for n in alone], 'or')} players, each plays alone.")
        for n in rs.player_counts:
            k = rs.sides[n]
            if k != n:
                items.append(f"With {n} players, {k} sides of {n // k}: seat i plays for side i mod {k} "
                             f"(partners are {k} seats apart).")
        deck = rs.deck
        values = ", ".join(f"{r} = {v}" if v != "no value" else f"{r} no value"
                           for r, v in ((r, rank_value_words(deck, i)) for i, r in enumerate(deck.ranks)))
        values += "".join(f"; the card {name} = {v}" for name, v in card_value_words(deck))
        suits = ", ".join(self._suit_label(s, name) for s, name in zip(deck.suits, deck.suit_names or deck.suits))
        items.append(f"The deck {code(deck.id)}: {deck.size} cards, suits {suits}; capture values {values}. "
                     f"A card with no value captures only a card of its own rank and takes no part in sums." +
                     (" A card with several values counts as whichever its player chooses, in every match and sum "
                      "(the played card and each table card alike)." if deck.several_values else ""))
        if deck.extras:
            extra = [f"{self.words.card_name(rank + suit)}, " + (f"value {value}" if value is not None else "no value")
                     for rank, suit, value, _name in deck.extras]
            items.append(f"Besides the ranks in the suits, {count_words(len(extra))} extra card"
                         f"{'s' if len(extra) != 1 else ''}, each of its own rank and suit: {join_words(extra)}.")
        if rs.wild is not None:
            name = deck.names[rs.wild]
            ranks = " ".join(deck.ranks[r] for r in rs.wild_declare_as)
            items.append(f"The wild card is {self.words.card_name(name)}. In a hand bonus it may be declared as "
                         f"any of {ranks} that makes the bonus; declared, it keeps that rank and value in play "
                         f"until it is captured. In a total marked \"the wild card counting as any value\" it "
                         f"counts as any value from 1 to 10; elsewhere, undeclared, it is a plain {name}.")
        self.add("ul", items)

    # -- the deal
    def step(self, step) -> str:
        if step.kind == "table" and step.face_down:
            up = step.count - step.face_down
            return (f"{step.count} on the table, the first {step.face_down} face down (seen by nobody until "
                    f"captured) and the last {up} face up on them" if up > 1 else
                    f"{step.count} on the table, the first {step.face_down} face down (seen by nobody until "
                    f"captured) and the last face up on them")
        if step.kind == "table":
            return f"{step.count} face up on the table"
        at = "" if step.packet == 1 and self.rs.packet == 1 else \
            " in one packet" if step.packet == step.count else f", {step.packet} at a time"
        return f"{step.count} card{'s' if step.count != 1 else ''} to each player{at}"

    def deal(self) -> None:
        rs = self.rs
        self.add("h2", "The deal")
        items = []
        how = "one at a time" if rs.packet == 1 else f"{rs.packet} at a time"
        items.append(f"The dealer deals from the top of the deck, to each player in turn from the first player "
                     f"(the seat after the dealer) on, {how} unless said otherwise.")
        for i, steps in enumerate(rs.rounds, start=1):
            text = ", then ".join(self.step(s) for s in steps)
            items.append(f"Round {i}: {text}.")
        if rs.repeat_last:
            items.append(f"Then rounds like round {len(rs.rounds)}, while cards remain, each when every hand "
                         f"is empty.")
        if rs.bury is not None and rs.bury.to == "under":
            items.append(f"When a table card is dealt face up and {self.cond(rs.bury.when)}, it stays in the pile "
                         f"and the face-down card nearest the top is turned face up onto it (itself covered in turn "
                         f"if the same holds; with no face-down card left, it stays on top).")
        elif rs.bury is not None:
            items.append(f"When a table card is dealt face up and {self.cond(rs.bury.when)}, it is put at the "
                         f"bottom of the stock (dealt last) and the next card of the stock is laid in its place, "
                         f"face up (and buried in turn if the same holds).")
        if rs.short_last == "even":
            items.append("A last round that the cards left cannot fill gives each player the same number of "
                         "them, one at a time, as many as go round, and lays the rest face up on the table.")
        short = [f"with {n} players the last round gives {seat} card{'s' if seat != 1 else ''} each"
                 + (f" and {table} to the table" if table else "")
                 for n, s in sorted(rs.schedules.items()) for seat, table, steps in s.rounds[-1:]
                 if rs.short_last == "even" and is_short(rs, s)]
        if short:
            items.append(f"So {join_words(short)}.")
        per = []
        for n, schedule in sorted(rs.schedules.items()):
            count = len(schedule.rounds)
            per.append(f"{count} round{'s' if count != 1 else ''} with {n} players")
        items.append(f"The deck makes {join_words(per)}.")
        self.add("ul", items)
        if rs.deal_checks:
            self.add("p", "After round 1 the table is checked; the first of these that holds applies:")
            results = {
                "redeal": "the same dealer gathers the cards and deals again",
                "redeal_table": "the table cards are shuffled back into the stock and the table is dealt again "
                                "from it (the hands are kept)",
                "misdeal": f"a misdeal: the cards are dealt again, and the {_ordinal(rs.misdeal_limit or 0)} "
                           f"misdeal in a row makes the dealer's opponents win the game",
                "dealer_wins": "the dealer's side wins the game at once",
            }
            # A winning deal is an outcome (named by the check), never a dealer event.
            self.add("ul", [f"{bold(c.name)}: if {self.cond(c.when)}, {results[c.result]}"
                            + (f" (outcome {code(c.name)})" if c.result == "dealer_wins"
                               else f" (event {code(c.event)})" if c.event != c.name else "") + "."
                            for c in rs.deal_checks])
        if rs.bid is not None:
            self.add("p", bid_words(rs.bid))
        if rs.dealer_bonuses:
            self.add("p", "Then the dealer scores the first of these bonuses that holds:")
            self.add("ul", [f"{bold(b.event)}: if {self.cond(b.when)}, {_points(b.points)} in {code(b.category)}"
                            + (" and the dealer's side takes the table (a capture)" if b.capture_table else "")
                            + "." for b in rs.dealer_bonuses])

    # -- hand bonuses
    def hand_bonuses(self) -> None:
        rs = self.rs
        if not rs.hand_bonuses:
            return
        self.add("h2", "Hand bonuses")
        self.add("p", "A player may declare (knock) sets of cards from their hand that make a bonus. A card belongs "
                      "to one declared set unless the bonus says it may share.")
        items = []
        for name, b in rs.hand_bonuses.items():
            cards = "one card" if b.size == 1 else f"{count_words(b.size)} cards"
            text = f"{bold(name)}: {cards} of the hand such that {self.cond(b.when)}: {_points(b.points)} in " \
                   f"{code(b.category)}."
            if b.rounds:
                text += f" Only in {rounds_words(b.rounds, 'or')}."
            if b.open_when is not None:
                text += f" Only while {self.cond(b.open_when)} (the declaring player's side)."
            if not b.wild and rs.wild is not None:
                text += " The wild card cannot stand in."
            if b.excluded_by:
                text += f" Cards that can make {join_words([code(o) for o in b.excluded_by], 'or')} " \
                        f"cannot be declared as this."
            if b.shares_cards_with:
                text += f" May be declared on the same cards as {join_words([code(o) for o in b.shares_cards_with], 'or')}."
            if b.unique_by:
                text += f" Only one player scores it per {b.unique_by}: an earlier seat in dealing order holding " \
                        f"the same {b.unique_by} wins."
            items.append(text)
        self.add("ul", items)
        timing = {
            "first_turn": "at the start of one's first turn with a newly dealt hand, together with that turn's play",
            "own_turn": "at the start of any of one's turns, with the play, once every card declared before has "
                        "been played",
            "before_first_turn": "at any time before one's first play with the hand (a knock without a card)",
            "after_deal": "right after the deal, before anyone plays, in seat order",
        }[rs.timing]
        items = [f"Bonuses are declared {timing}."]
        if rs.per_turn == "one":
            items.append("One set is declared at a time.")
        if rs.wild is not None:
            items.append("The wild card may be declared as a rank that makes the bonus." if rs.declare_wild
                         else "The wild card cannot be declared.")
        items.append("Declared cards must be played before the others." if rs.declared_first
                     else "Declared cards may be played in any order.")
        self.add("p", " ".join(items))

    # -- play and captures
    def play(self) -> None:
        rs = self.rs
        self.add("h2", "Play and captures")
        if rs.pile:
            self.add("p", "The table is one pile: each card laid goes on top of it. Players play one card each in "
                          "turn, from the first player on. The capture kinds below are judged against the pile's "
                          "top card alone, and a card that captures takes the whole pile (the cards lying face down "
                          "in it too):")
        else:
            self.add("p", "Players play one card each in turn, from the first player on. The played card may "
                          "capture table cards; the player chooses among all the captures offered:")
        items = []
        for k in rs.kinds:
            text = {
                "sweep": "takes the whole table",
                "match": "one table card of the played card's value (a card with no value: one of its rank)",
                "sum": f"{count_words(max(k.min_cards, 2))} or more table cards whose values add up to the played "
                       f"card's value",
                "fifteen": f"{count_words(k.min_cards)} or more table cards that, with the played card, total "
                           f"{k.total}",
                "run": f"{_run_base(k)}, and then every table card continuing the sequence upward from the "
                       f"played card in the deck's rank order ({' '.join(self.rs.deck.ranks)}), one card per rank, "
                       f"as far as the table goes (where a rank lies there in several suits, the player picks one)",
            }[k.kind]
            # A fifteen kind to another total is not a fifteen: named by its total, the kind said after.
            label = bold(k.kind) if k.kind != "fifteen" or k.total == 15 else \
                f"{bold(f'sum to {k.total}')} (kind {code('fifteen')}, total {k.total})"
            text = f"{label}: {text}"
            if k.when is not None:
                text += f", when {self.cond(k.when)}"
            if k.unless_match:
                text += ", unless a match is possible" if k.kind != "run" else ", its sums only when no match is possible"
            if k.exclusive:
                text += "; when it applies, it is the only capture offered"
            if k.alone:
                text += "; each of its sets is taken by itself, never together with other sets"
            items.append(text + ".")
        self.add("ul", items)
        if rs.prefer != "any":
            fewest = "fewest" if rs.prefer == "fewest_cards" else "most"
            self.add("p", f"Of the captures offered (a kind that is the only capture offered aside), only those "
                          f"that take the {fewest} table cards may be chosen.")
        if rs.combine != "one":
            self.add("p", _COMBINE_WORDS[rs.combine])
        if rs.builds is not None:
            self.add("p", builds_words(rs.builds))
        items = ["A card that can capture must capture." if rs.forced else "Capturing is optional: a card may be "
                 "left on the table even if it could capture."]
        if self.words.forced_rule():
            items[0] = (f"A card that can capture must capture {self.words.forced_rule()}, otherwise capturing is "
                        f"optional ({'compulsory' if rs.forced else 'optional'} with the options given).")
        items.append("A card that captures nothing stays face up on the table.")
        items.append("At the end of the hand, the cards left on the table go to the side that captured last."
                     if rs.leftovers == "last_capturer" else "At the end of the hand, the cards left on the table "
                     "go to nobody.")
        if self.words.leftovers_rule():
            items[-1] = (f"At the end of the hand, the cards left on the table go to: {self.words.leftovers_rule()} "
                         f"(last_capturer: the side that captured last; {rs.leftovers} with the options given).")
        self.add("p", " ".join(items))

    def events(self) -> None:
        rs = self.rs
        if not rs.events:
            return
        self.add("h2", "Points made in play")
        self.add("p", "After each play, every one of these that holds scores for the player's side:")
        self.add("ul", [f"{bold(name)}: when {self.cond(e.when)}: {self.event_scores(name, e)}."
                        for name, e in rs.events.items()])

    def event_scores(self, name: str, e) -> str:
        """What an event scores: its points in its category, or, with no points of its own, that it is counted
        and which categories count it (made("x") in their points)."""
        if not (isinstance(e.points, int) and e.points == 0):
            return f"{self.event_points(e)} in {code(e.category)}"
        counting = [code(c) for c, cat in self.rs.categories.items()
                    if isinstance(cat.points, Expression) and re.search(rf"""['"]{re.escape(name)}['"]""", cat.points.text)]
        return "counted, with no points of its own" + (f" (it scores through {join_words(counting)})" if counting else "")

    def event_points(self, e) -> str:
        """An event's points in words: a number, or its expression's phrase."""
        return _points(e.points) if isinstance(e.points, int) else self.words.points(e.points.tree)

    # -- scoring
    def score(self) -> None:
        rs = self.rs
        self.add("h2", "Scoring a hand")
        scorers: dict[str, list[str]] = {}
        for b in rs.dealer_bonuses:
            scorers.setdefault(b.category, []).append(b.event)
        for name, b in rs.hand_bonuses.items():
            scorers.setdefault(b.category, []).append(name)
        for name, e in rs.events.items():
            scorers.setdefault(e.category, []).append(name)
        rows = []
        for name, c in rs.categories.items():
            if c.from_events:
                made = scorers.get(name, [])
                text = "the points scored in it during the hand" + (
                    f": {join_words([code(m) for m in made])}" if made else "")
            elif isinstance(c.points, Expression):
                text = self.scoring.points(c.points.tree)
            else:
                text = _points(c.points)
            rows.append([code(name), text])
        self.add("p", "At the end of a hand each side scores, per category:")
        self.add("table", [["category", "points"], *rows])
        self.add("p", "A side's total for the hand is the sum of its categories.")
        for name, c in rs.categories.items():
            if c.carry:
                self.add("p", f"When no one side scores the most in {code(name)} (a tie, or nobody scores in it), "
                              f"{_points(c.carry)} are carried to the next hand, and on from hand to hand, until "
                              f"a side scores the most in it: that side takes them on top of the category's points.")

    def end(self) -> None:
        rs = self.rs
        self.add("h2", "End of the game")
        items = []
        for name, o in rs.outcomes.items():
            if o.at == "deal":
                items.append(f"{bold(name)}: after every deal, the first seat (in dealing order) for which "
                             f"{self.cond(o.when)} wins the game at once for its side.")
                continue
            items.append(f"{bold(name)}: {self.scoring.side(o.when.tree)} at the end of a hand wins the game at once.")
        if rs.points_mode == "as_made":
            items.append("The points of events and bonuses count toward the game as they are made: the moment a "
                         f"side reaches {rs.target}, alone at the top, it wins, and the hand ends there (only the "
                         "points made in it so far count).")
        ends = []
        if rs.target is not None:
            # A target that depends on options is said whole: its value here alone would hide the others.
            rule = self.words.target()
            note = f" (the target: {rule})" if rule is not None else ""
            ends.append(f"if a side has {rs.target} or more points in all{note}")
        if rs.hands is not None:
            rule = self.words.hands()
            note = f" (the number of hands: {rule})" if rule is not None else ""
            ends.append(f"once {rs.hands} hand{'s have' if rs.hands != 1 else ' has'} been played{note}")
        if ends:
            items.append(f"A game is a series of hands; the deal passes to the next seat each hand. At the end of a "
                         f"hand, {' or '.join(ends)}, the side with the highest total wins; a tie at the top plays "
                         f"another hand.")
        if rs.lead is not None:
            rule = self.words.game_rule(rs.lead_rule)
            note = f" (the lead: {rule})" if rule is not None else ""
            if ends:
                items.append(f"Otherwise, at the end of a hand, a side {rs.lead} or more points ahead of every other "
                             f"side wins{note}.")
            else:                           # a lead alone ends the game
                items.append(f"A game is a series of hands; the deal passes to the next seat each hand. At the end "
                             f"of a hand, a side {rs.lead} or more points ahead of every other side wins{note}.")
        self.add("ul", items)

    def options(self) -> None:
        rs = self.rs
        if not rs.options:
            return
        self.add("h2", "Options")
        rows = [["option", "type", "value here", "default", "description"]]
        for name, o in rs.options.items():
            rows.append([code(name), o.type, user(_show(rs.option_values.get(name, o.default))), user(_show(o.default)),
                         user(o.description)])
        self.add("table", rows)
        self.add("p", f"Set them with {code('--option NAME=VALUE')}.")


def _run_base(k) -> str:
    """What a run kind continues, in words."""
    return " or ".join({"match": "a match (one table card of the played card's value; a card with no value: "
                                 "of its rank)",
                        "sum": "a sum (two or more table cards adding up to the played card's value)"}[x]
                       for x in k.after)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def bid_words(b) -> str:
    """bid in words: who bids, on which cards, what, when the deal is thrown in, and what the bid binds."""
    values = ", ".join(map(str, b.values[:-1])) + (" or " if len(b.values) > 1 else "") + str(b.values[-1])
    text = (f"A bid before play: once dealt, the first player looks at the first {b.after_cards} cards dealt to them "
            f"(the table and the rest of their cards they see after the bid) and bids a value, {values}, of a card "
            f"among them. With no such card the deal is thrown in and the same dealer deals again (event "
            f"{code(b.void)}).")
    if b.binds == "first_play":
        text += (" The bid binds the bidder's first play: it must make a build of the value bid, or play a card of "
                 "that value, capturing with it or laying it on the table.")
    return text + f" Events see the value bid as {code('bid')}."


def builds_words(b) -> str:
    """capture.builds in words: what a build is, how it is made, raised, doubled, taken, and its owner's duty."""
    values = ("any value a card captures as" if b.values is None
              else "only " + ", ".join(map(str, b.values[:-1])) + (" or " if len(b.values) > 1 else "")
              + str(b.values[-1]))
    parts = [f"Builds: instead of capturing, a card may be joined to table cards (loose cards, and at most one "
             f"build, whole) to make a build of a value the player holds another card of ({values}); the build "
             f"lies on the table as one unit and is taken only whole, by a card of its value (with any other sets "
             f"that card takes). The cards of a build are split into sets each totalling its value."]
    parts.append("A single build may be raised to a new value by adding one card from the hand, by a player who "
                 "holds a card of the new value." if b.raise_ else "A build cannot be raised to another value.")
    if b.subtract:
        parts.append("A build may also be made by subtraction: the card laid on one loose table card of greater "
                     "value makes a build of the difference" + (", and a single build may be lowered so by a card "
                     "from the hand." if b.raise_ else "."))
    # "fixed: it can no longer be raised" where no build is ever raised would read as if single ones were
    parts.append(("Another set of the build's value joined to it makes a multiple build, which is fixed: it can no "
                  "longer be raised." if b.raise_ else "Another set of the build's value may be joined to it (a "
                  "multiple build).") if b.multiple else "A build is one set of its value: no multiple builds.")
    if b.one_per_value:
        parts.append("At most one build of each value stands: a set of a value made while a build of that value "
                     "stands is joined to it (making it multiple), and no build is raised to the value of another.")
    if b.owners == "per_side":
        parts.append("A build's owner is the player who made or last raised it; an opponent of its owners who adds "
                     "a set of its value to it becomes another owner, while an owner or an owner's partner who adds "
                     "one leaves the owners as they are (so a build may have an owner on each side); an owner's "
                     "partner may add to it without keeping a card of its value.")
        who = "Each owner of a build"
    else:
        who = "The player who last made, raised or added to a build"
    if b.owner_must_act and b.owner_may_trail:
        parts.append(f"{who} must keep a card of its value while it stands (they may trail another card).")
    elif b.owner_must_act:
        parts.append(f"{who} may not trail a card while it stands, nor play away their last card of its value "
                     "except to take it.")
    parts.append("Builds left at the end of the hand go with the table's other cards.")
    return " ".join(parts)


# capture.combine in words (`one`, one set per capture, is said by the capture kinds alone).
_COMBINE_WORDS = {
    "all": "One card takes every set it is offered at once: every table card it matches and every disjoint set "
           "of cards it makes, together (where the sets overlap, each largest union of disjoint sets is a choice).",
    "union": "One card may take several of the sets it is offered at once, if no table card is in two of them: "
             "any one of them, or any union of disjoint ones.",
}


def _ordinal(n: int) -> str:
    words = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    return words.get(n, f"{n}th")


def _show(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


# ------------------------------------------------------------------ rendering

_PIECES = re.compile(f"({CODE_START}.*?{CODE_END}|\x04.*?\x05)", re.S)
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~&!])")


def _md_code(text: str, in_table: bool) -> str:
    if in_table:
        text = text.replace("|", "\\|")
    longest = max((len(m) for m in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_inline(text: str, in_table: bool = False) -> str:
    out = []
    for piece in _PIECES.split(text):
        if piece.startswith(CODE_START):
            out.append(_md_code(piece[1:-1], in_table))
        elif piece.startswith("\x04"):
            out.append(f"**{_md_inline(piece[1:-1], in_table)}**")
        else:
            out.append(_MD_SPECIAL.sub(r"\\\1", piece))
    return "".join(out)


def render_markdown(blocks: list[Block]) -> str:
    """The blocks as CommonMark (GitHub tables); all ruleset text escaped."""
    out = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            out.append("#" * int(b.kind[1]) + " " + _md_inline(b.content))
        elif b.kind == "p":
            out.append(_md_inline(b.content))
        elif b.kind == "ul":
            out.append("\n".join(f"- {_md_inline(item)}" for item in b.content))
        elif b.kind == "table":
            header, *rows = b.content
            lines = ["| " + " | ".join(_md_inline(c, True) for c in header) + " |",
                     "|" + "|".join("---" for _ in header) + "|"]
            lines += ["| " + " | ".join(_md_inline(c, True) for c in row) + " |" for row in rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _html_inline(text: str) -> str:
    out = []
    for piece in _PIECES.split(text):
        if piece.startswith(CODE_START):
            out.append(f"<code>{html.escape(piece[1:-1])}</code>")
        elif piece.startswith("\x04"):
            out.append(f"<strong>{_html_inline(piece[1:-1])}</strong>")
        else:
            out.append(html.escape(piece))
    return "".join(out)


# break-word, not anywhere: `anywhere` lets a table cell shrink below its longest word, so a browser cut
# "cate|gory" at any width; break-word breaks only a word longer than its line (a stranger's 2000-letter
# name). A table wider than a narrow window scrolls inside its own box.
_STYLE = ("body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;line-height:1.5;"
          "overflow-wrap:break-word}"
          "table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}"
          "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;"
          "vertical-align:top}code{background:#f4f4f4;padding:0 .2em}")


def render_html(blocks: list[Block]) -> str:
    """The blocks as one self-contained HTML page; all ruleset text escaped; no script may run, nothing be fetched."""
    title = next((b.content for b in blocks if b.kind == "h1"), "rulebook")
    body = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            body.append(f"<{b.kind}>{_html_inline(b.content)}</{b.kind}>")
        elif b.kind == "p":
            body.append(f"<p>{_html_inline(b.content)}</p>")
        elif b.kind == "ul":
            body.append("<ul>\n" + "\n".join(f"<li>{_html_inline(i)}</li>" for i in b.content) + "\n</ul>")
        elif b.kind == "table":
            header, *rows = b.content
            lines = ["<table>", "<tr>" + "".join(f"<th>{_html_inline(c)}</th>" for c in header) + "</tr>"]
            lines += ["<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>" for row in rows]
            body.append("\n".join(lines + ["</table>"]))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(plain(title))}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


RENDERERS = {"markdown": render_markdown, "html": render_html}


def rulebook(rs: Ruleset) -> list[Block]:
    """The rulebook's blocks for a checked ruleset."""
    return _Book(rs).build()


def explain(rs: Ruleset, fmt: str = "markdown") -> str:
    """A checked ruleset as a rulebook in `fmt` (markdown or html)."""
    return RENDERERS[fmt](rulebook(rs))
