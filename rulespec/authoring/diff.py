"""`rulespec diff A B`: what differs between two rulesets after inheritance, in words.

`differences(a, b)` is the one entry point. Each checked ruleset is described
as an ordered table of facts (label -> value in words, so expressions are
compared by what they say: `x >= 2` and `2 <= x` are one fact); the differences are the
facts that changed, that only B has (added) and that only A has (removed).
Settings that cannot matter are not facts: the sides for a number of players
the game does not allow, the declaration rules of a game without bonuses.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulespec.lang.model import Expression, Ruleset
from rulespec.lang.words import Words, card_value_words, count_words, join_words, plain, rank_value_words, rounds_words


@dataclass(frozen=True)
class Difference:
    """One fact that differs: `changed`, `added` or `removed`, with its value in each ruleset."""

    change: str
    label: str
    before: str | None
    after: str | None

    def __str__(self) -> str:
        if self.change == "changed":
            return f"changed: {self.label}: {self.before} → {self.after}"
        if self.change == "added":
            return f"added: {self.label}: {self.after}"
        return f"removed: {self.label}: {self.before}"


class _Facts:
    """The facts of one ruleset, in rulebook order: key -> (label, value in words)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.words = Words(rs)
        self.scoring = Words(rs, "score")
        self.facts: dict[tuple, tuple[str, str, str]] = {}

    def put(self, key: tuple, label: str, value: str, core: str | None = None) -> None:
        """A fact; `core` is what is compared when the fact is the whole of a rule whose parts are facts too."""
        self.facts[key] = (label, plain(value), plain(core if core is not None else value))

    def cond(self, e: Expression | None) -> str:
        return self.words.condition(e.tree) if e is not None else "always"

    def build(self) -> dict[tuple, tuple[str, str]]:
        rs = self.rs
        deck = rs.deck
        self.deck()
        self.put(("wild",), "the wild card", deck.names[rs.wild] if rs.wild is not None else "none")
        if rs.wild is not None:
            self.put(("wild", "declare_as"), "ranks the wild card may be declared as",
                     " ".join(deck.ranks[r] for r in rs.wild_declare_as))
        self.put(("players",), "numbers of players", join_words([str(n) for n in rs.player_counts], "or"))
        if len(rs.player_counts) > 1:
            self.put(("players", "default"), "the usual number of players", str(rs.default_players))
        for n in rs.player_counts:
            k = rs.sides[n]
            self.put(("players", "sides", n), f"sides with {n} players",
                     "each player alone" if k == n else f"{k} sides of {n // k}")
        self.put(("deal",), "the deal", self.deal())
        for c in rs.deal_checks:
            result = {"redeal": "deal again", "redeal_table": "deal the table again, the hands kept",
                      "misdeal": "a misdeal", "dealer_wins": "the dealer's side wins"}[c.result]
            event = f" (event {c.event})" if c.event != c.name else ""
            self.put(("deal_check", c.name), f"deal check {c.name}", f"if {self.cond(c.when)}: {result}{event}")
        b = rs.bid
        self.put(("bid",), "a bid before play", "yes" if b is not None else "no")
        if b is not None:
            self.put(("bid", "after_cards"), "bid: the cards the bidder sees before bidding", str(b.after_cards))
            self.put(("bid", "values"), "bid: the values a bid may name", ", ".join(map(str, b.values)))
            self.put(("bid", "binds"), "bid: what the bid binds",
                     "the bidder's first play (a build of the value, or a card of it)" if b.binds == "first_play"
                     else "nothing")
            self.put(("bid", "void"), "bid: the event of a deal thrown in for want of a bid", b.void)
        if rs.misdeal_limit is not None:
            self.put(("misdeals",), "misdeals in a row that lose the game", str(rs.misdeal_limit))
        for b in rs.dealer_bonuses:
            takes = ", taking the table" if b.capture_table else ""
            key, label = ("dealer_bonus", b.event), f"dealer bonus {b.event}"
            self.put(key, label, f"if {self.cond(b.when)}: {_points(b.points)} in {b.category}{takes}",
                     f"if {self.cond(b.when)}")
            self.put(key + ("points",), f"{label}: points", f"{_points(b.points)} in {b.category}")
            self.put(key + ("takes",), f"{label}: the dealer's side takes the table", _yes(b.capture_table))
        for name, b in rs.hand_bonuses.items():
            self.hand_bonus(name, b)
        if rs.hand_bonuses:
            self.put(("sets",), "bonus sets one hand can hold", self.sets_per_hand())
            self.put(("timing",), "when bonuses are declared", {
                "first_turn": "at the start of one's first turn with the hand",
                "own_turn": "at the start of any of one's turns",
                "before_first_turn": "any time before one's first play with the hand",
                "after_deal": "right after the deal, in seat order",
            }[rs.timing])
            self.put(("per_turn",), "sets declared at a time", "all" if rs.per_turn == "all" else "one")
            if rs.wild is not None:
                self.put(("declare_wild",), "the wild card may be declared", _yes(rs.declare_wild))
            self.put(("declared_first",), "declared cards are played before the others", _yes(rs.declared_first))
        self.put(("table",), "the table", "one pile: only its top card is matched, a capture takes it all"
                 if rs.pile else "spread: every card can be captured")
        self.put(("bury",), "table cards dealt face up that go to the bottom of the stock, replaced",
                 f"when {self.cond(rs.bury.when)}" if rs.bury is not None and rs.bury.to == "bottom" else "none")
        self.put(("bury_under",), "table cards dealt face up that a face-down card is turned up onto",
                 f"when {self.cond(rs.bury.when)}" if rs.bury is not None and rs.bury.to == "under" else "none")
        self.put(("forced",), "a card that can capture must capture", self.words.forced_rule() or _yes(rs.forced))
        self.put(("leftovers",), "cards left on the table at the end go to", self.words.leftovers_rule() or
                 ("the side that captured last" if rs.leftovers == "last_capturer" else "nobody"))
        seen: dict[str, int] = {}
        for k in rs.kinds:
            seen[k.kind] = seen.get(k.kind, 0) + 1
            key = k.kind if seen[k.kind] == 1 else f"{k.kind} #{seen[k.kind]}"
            self.capture_kind(key, k)
        self.put(("kind_order",), "the order of the capture kinds", ", ".join(k.kind for k in rs.kinds))
        self.put(("prefer",), "which of the captures offered may be taken", _PREFER[rs.prefer])
        self.put(("combine",), "how many of the sets offered one card takes", _COMBINE[rs.combine])
        b = rs.builds
        self.put(("builds",), "builds on the table", "yes" if b is not None else "no")
        if b is not None:
            self.put(("builds", "values"), "builds: the values a build may have",
                     "any value a card captures as" if b.values is None else ", ".join(map(str, b.values)))
            self.put(("builds", "raise"), "builds: a single build may be raised", _yes(b.raise_))
            self.put(("builds", "multiple"), "builds: a second set makes a fixed multiple build", _yes(b.multiple))
            self.put(("builds", "owner_must_act"), "builds: the owner may not trail while the build stands",
                     _yes(b.owner_must_act and not b.owner_may_trail))
            self.put(("builds", "owner_keeps"), "builds: the owner keeps a card of the build's value",
                     _yes(b.owner_must_act))
            self.put(("builds", "subtract"), "builds: a build may be made by subtraction (the card laid on a "
                     "greater table card, the difference its value)", _yes(b.subtract))
            self.put(("builds", "one_per_value"), "builds: at most one build of each value", _yes(b.one_per_value))
            self.put(("builds", "owners"), "builds: who owns a build",
                     "the maker or last raiser, and each opponent who adds a set to it (not a partner)"
                     if b.owners == "per_side" else "the player who last made, raised or added to it")
        for name, e in rs.events.items():
            points = _points(e.points) if isinstance(e.points, int) else self.words.points(e.points.tree)
            self.put(("event", name), f"event {name}", f"when {self.cond(e.when)}: {points} in "
                     f"{e.category}", f"when {self.cond(e.when)}")
            self.put(("event", name, "points"), f"event {name}: points", f"{points} in {e.category}")
        for name, c in rs.categories.items():
            if c.from_events:
                value = "the points of the events and bonuses scored in it"
            elif isinstance(c.points, Expression):
                value = self.scoring.points(c.points.tree)
            else:
                value = _points(c.points)
            self.put(("category", name), f"scoring category {name}", value)
            # A detail of the category (keyed under it): a carry added or removed changes the category, and a
            # category added or removed takes its carry with it.
            self.put(("category", name, "carry"), f"scoring category {name}: points carried to the next hand "
                     f"when no one side scores the most in it", _points(c.carry) if c.carry else "none")
        for name, o in rs.outcomes.items():
            if o.at == "deal":
                self.put(("outcome", name), f"outcome {name}",
                         f"after a deal, a seat for which {self.cond(o.when)}: its side wins the game")
                continue
            self.put(("outcome", name), f"outcome {name}", f"{self.scoring.side(o.when.tree)} wins the game")
        self.put(("points",), "when a hand's points of play count toward the game",
                 "as they are made (the game ends the moment a side reaches the target)"
                 if rs.points_mode == "as_made" else "at the end of the hand")
        self.put(("lead",), "a lead that wins the game",
                 self.words.game_rule(rs.lead_rule) or ("none" if rs.lead is None else f"{rs.lead} points"))
        self.put(("target",), "points to win the game",
                 self.words.target() or ("none" if rs.target is None else str(rs.target)))
        self.put(("hands",), "the game's length in hands", self.words.hands() or ("not fixed" if rs.hands is None else str(rs.hands)))
        for name, o in rs.options.items():
            value = f"{o.type}, default {_show(o.default)}"
            if o.choices is not None:
                value += f", one of {', '.join(map(_show, o.choices))}"
            if o.min is not None or o.max is not None:
                value += f", from {o.min if o.min is not None else '...'} to {o.max if o.max is not None else '...'}"
            self.put(("option", name), f"option {name}", value)
        return self.facts

    def deck(self) -> None:
        """The deck by what is in it, never by its id: a custom deck renamed is the same deck, and one card's
        value changed is a difference (a rank only one deck has comes and goes with the ranks)."""
        deck = self.rs.deck
        self.put(("deck",), "the deck", f"{deck.size} cards, {len(deck.ranks)} ranks in {len(deck.suits)} suits")
        self.put(("deck", "ranks"), "the deck's ranks", " ".join(deck.ranks))
        for r, rank in enumerate(deck.ranks):
            value = rank_value_words(deck, r)
            self.put(("deck", "value", rank), f"the capture value of rank {rank}",
                     value if value != "no value" else "none")
        for name, value in card_value_words(deck):
            self.put(("card value", name), f"the capture value of the card {name}", value)
        names = deck.suit_names or ("",) * len(deck.suits)
        self.put(("deck", "suits"), "the deck's suits",
                 ", ".join(f"{s} {n}".strip() for s, n in zip(deck.suits, names)))
        for rank, suit, value, name in deck.extras:
            self.put(("deck", "extra", rank + suit), f"the extra card {rank + suit}",
                     (f"{name}, " if name else "") + (f"value {value}" if value is not None else "no value"))

    def deal(self) -> str:
        rs = self.rs
        rounds = []
        for i, steps in enumerate(rs.rounds, start=1):
            parts = []
            for s in steps:
                if s.kind == "table":
                    parts.append(f"{s.count} on the table" + (f" ({s.face_down} face down)" if s.face_down else ""))
                else:
                    at = "" if s.packet == 1 else " in one packet" if s.packet == s.count else f" ({s.packet} at a time)"
                    parts.append(f"{s.count} each{at}")
            rounds.append(f"round {i}: " + ", then ".join(parts))
        text = "; ".join(rounds)
        if rs.repeat_last:
            text += f"; round {len(rs.rounds)} again while cards remain"
        if rs.short_last == "even":
            text += "; a last round short of cards: the same number to each player, the rest to the table"
        return text

    def sets_per_hand(self) -> str:
        """How many disjoint bonus sets the largest hand dealt in one round can hold."""
        rs = self.rs
        sets, cards = 0, 0
        for schedule in rs.schedules.values():
            for r, (seat, _table, _steps) in enumerate(schedule.rounds, start=1):
                last = r == len(schedule.rounds)
                sizes = [b.size for b in rs.hand_bonuses.values()
                         if not b.rounds or r in b.rounds or ("last" in b.rounds and last)]
                if sizes and seat // min(sizes) > sets:
                    sets, cards = seat // min(sizes), seat
        return "one" if sets <= 1 else f"up to {count_words(sets)} ({cards} cards in hand)"

    def hand_bonus(self, name: str, b) -> None:
        key = ("hand_bonus", name)
        cards = "one card" if b.size == 1 else f"{count_words(b.size)} cards"
        self.put(key, f"hand bonus {name}", f"{cards} such that {self.cond(b.when)}: {_points(b.points)} in "
                 f"{b.category}", f"{cards} such that {self.cond(b.when)}")
        extras = {
            "points": ("points", f"{_points(b.points)} in {b.category}"),
            "rounds": ("declared in", rounds_words(b.rounds) if b.rounds else "every round"),
            "open_when": ("declared only while", self.cond(b.open_when) if b.open_when is not None
                          else "at any game score"),
            "wild": ("the wild card may stand in", _yes(b.wild)),
            "excluded_by": ("not on cards that can make", join_words(b.excluded_by, "or") or "no limit"),
            "shares_cards_with": ("may share cards with", join_words(b.shares_cards_with, "or") or "none"),
            "unique_by": ("one player per", b.unique_by or "no limit"),
        }
        for field, (label, value) in extras.items():
            self.put(key + (field,), f"hand bonus {name}: {label}", value)

    def capture_kind(self, key: str, k) -> None:
        base = ("kind", key)
        what = {"sweep": "takes the whole table", "match": "one table card of the played card's value",
                "sum": "table cards adding up to the played card's value",
                "fifteen": f"table cards that with the played card total {k.total}",
                "run": f"{_run_base(k)}, then every table card continuing the ranks upward from the played card, "
                       f"one per rank"}[k.kind]
        # The whole kind in one phrase (what an added or removed kind shows); its parts are facts too.
        whole = what + (f", only when {self.cond(k.when)}" if k.when is not None else "")
        if k.min_cards != (2 if k.kind == "sum" else 1):
            whole += f", at least {k.min_cards} table cards"
        if k.kind in ("sum", "run") and k.unless_match:
            whole += ", not when a match exists" if k.kind == "sum" else ", its sums not when a match exists"
        if k.exclusive:
            whole += "; when it applies, the only capture offered"
        if k.alone:
            whole += "; each of its sets taken by itself"
        self.put(base, f"capture {key}", whole, what)
        self.put(base + ("when",), f"capture {key}: only when", self.cond(k.when))
        self.put(base + ("exclusive",), f"capture {key}: the only capture offered when it applies", _yes(k.exclusive))
        self.put(base + ("min_cards",), f"capture {key}: at least", f"{k.min_cards} table cards")
        self.put(base + ("alone",), f"capture {key}: each of its sets taken by itself", _yes(k.alone))
        if k.kind == "sum":
            self.put(base + ("unless_match",), f"capture {key}: not when a match exists", _yes(k.unless_match))


_COMBINE = {"one": "one", "all": "all of them at once (each largest union of disjoint sets)",
            "union": "any union of disjoint ones"}
_PREFER = {"any": "any of them", "fewest_cards": "only those with the fewest cards",
           "most_cards": "only those with the most cards"}


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _run_base(k) -> str:
    """What a run kind continues, in words: `a match`, `a match or a sum`."""
    return " or ".join({"match": "a match", "sum": "a sum"}[x] for x in k.after)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _show(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def differences(a: Ruleset, b: Ruleset) -> list[Difference]:
    """What changes from checked ruleset `a` to checked ruleset `b`, in `a`'s order then `b`'s additions."""
    fa, fb = _Facts(a).build(), _Facts(b).build()

    def part_of_another(key, facts) -> bool:
        # A detail (hand bonus x: rounds) comes and goes with what it details (hand bonus x).
        return any(key[:i] in facts for i in range(1, len(key)))

    out = []
    for key, (label, value, core) in fa.items():
        if key not in fb:
            if not part_of_another(key, fa):
                out.append(Difference("removed", label, value, None))
        elif fb[key][2] != core:
            out.append(Difference("changed", label, core, fb[key][2]))
    for key, (label, value, _core) in fb.items():
        if key not in fa and not part_of_another(key, fb):
            out.append(Difference("added", label, None, value))
    return out


def report(a: Ruleset, b: Ruleset) -> str:
    """The differences as text, one per line, after a heading line."""
    diffs = differences(a, b)
    head = f"{a.id} ({a.name}) → {b.id} ({b.name}): "
    if not diffs:
        return head + "no differences in the rules\n"
    n = len(diffs)
    return head + f"{n} difference{'s' if n != 1 else ''}\n" + "".join(f"  {d}\n" for d in diffs)
