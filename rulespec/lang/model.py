"""The ruleset as typed objects: built from the merged document, expressions parsed.

This is the "parse expressions" stage: every expression string becomes an
`Expression` holding its text, its span in the YAML file that wrote it and
its syntax tree. Type checking is the next stage (check.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from rulespec.errors import RulespecError, Span, collect, did_you_mean, in_order, source_line
from rulespec.lang import expressions
from rulespec.lang.decks import STANDARD_DECKS, Deck
from rulespec.source.rulesets import load_merged, note_inherited


@dataclass
class Expression:
    """An expression from the ruleset: its text, where it was written, its tree."""

    text: str
    span: Span
    tree: object
    error: RulespecError | None = None

    def __deepcopy__(self, memo) -> "Expression":
        # The tree gets new nodes; the text, span and a syntax error are immutable and shared.
        tree = expressions.copy_tree(self.tree) if self.tree is not None else None
        return Expression(self.text, self.span, tree, self.error)  # a syntax error (tree is None); build() reports them all


@dataclass
class DealStep:
    kind: str            # "each" or "table"
    count: int
    packet: int = 1
    face_down: int = 0   # a table step: how many of its cards, the first laid, lie face down


@dataclass
class Bury:
    """deal.bury: a table card dealt face up for which `when` holds goes back into the stock (`to: bottom`), or
    stays in the pile with the next face-down card turned up onto it (`to: under`)."""

    when: Expression
    to: str              # bottom | under
    span: Span


@dataclass
class Builds:
    """capture.builds: a played card and table cards joined into a build of a value the player holds,
    taken only whole by a card of that value (run/builds.py)."""

    values: list[int] | None     # the values a build may have (None: any value a card counts as)
    raise_: bool                 # a single build may be raised by a card from the hand to a new value
    multiple: bool               # a second set of the value makes a multiple build, fixed (no more raising)
    owner_must_act: bool         # a build's owner (each, see `owners`) may not trail while it stands,
    #                              nor play away its last card of the build's value
    subtract: bool = False       # a build may also be the difference of one table card (or a build) and the card
    span: Span | None = None     # where capture.builds is written
    one_per_value: bool = False  # at most one build of each value: a new set of a standing value joins its build
    owner_may_trail: bool = False   # with owner_must_act: the owner may trail, keeping a card of the value
    owners: str = "last"         # who owns a build: `last` (the seat that last made, raised or added to it) or
    #                              `per_side` (an opponent's set added makes it a further owner; a partner's not)


@dataclass
class Bid:
    """bid: an auction before play. The first player bids a value it holds among its first `after_cards`
    cards (with none the deal is thrown in, dealer event `void`); `binds` says what the bid binds."""

    after_cards: int
    values: list[int]
    binds: str = "first_play"    # first_play: the bidder's first play builds the value or plays a card of it
    void: str = "no_bid"         # the dealer event of a deal thrown in for want of a bid
    who: str = "first"
    span: Span | None = None     # where bid is written


@dataclass
class DealCheck:
    name: str
    when: Expression
    result: str          # redeal | redeal_table | misdeal | dealer_wins
    event: str
    enabled: object = True


@dataclass
class DealerBonus:
    event: str
    when: Expression
    points: int
    category: str
    capture_table: bool
    enabled: object = True


@dataclass
class HandBonus:
    name: str
    size: int
    when: Expression
    points: int
    category: str
    wild: bool
    excluded_by: list[str]
    shares_cards_with: list[str]
    rounds: list            # round numbers (1-based) or "last"; empty: every round
    unique_by: str | None
    span: Span
    enabled: object = True
    # A condition on the game's running state (game_score, rival_score): the bonus may be declared only
    # while it holds for the declaring seat's side (None: always).
    open_when: Expression | None = None


@dataclass
class CaptureKind:
    kind: str
    when: Expression | None
    exclusive: bool
    total: int
    min_cards: int
    unless_match: bool
    span: Span
    enabled: object = True
    after: tuple = ()        # kind run: the captures a run continues ("match", "sum")
    alone: bool = False      # each of its sets is taken by itself, never joined with others (capture.combine)


@dataclass
class EventRule:
    name: str
    when: Expression
    points: Expression | int      # a number, or an expression over the play (docs/language.md, events)
    category: str
    enabled: object = True


@dataclass
class Category:
    name: str
    points: Expression | int | None
    from_events: bool
    span: Span
    carry: int | None = None   # points carried to the next hand when no one side scores the most in it


@dataclass
class Outcome:
    name: str
    when: Expression
    result: str
    enabled: object = True
    at: str = "hand_end"    # hand_end: asked of each side's pile when the hand ends; deal: of each seat's hand when dealt


@dataclass
class OptionDecl:
    name: str
    type: str
    default: object
    choices: list | None
    min: int | None
    max: int | None
    description: str
    span: Span


@dataclass(frozen=True)
class Ruleset:
    """A whole ruleset after inheritance (the input of check and compile).

    Frozen: the check stage returns a new one (options resolved, schedules computed,
    disabled rules dropped, the target a number) and leaves the one it was given as it was.
    """

    id: str
    name: str
    description: str
    source: str
    base: str | None
    files: list[Path]
    span: Span
    deck: Deck
    wild: int | None
    wild_declare_as: list[int]
    player_counts: list[int]
    default_players: int
    sides: dict[int, int]
    packet: int
    rounds: list[list[DealStep]]
    repeat_last: bool
    deal_checks: list[DealCheck]
    misdeal_limit: int | None
    dealer_bonuses: list[DealerBonus]
    hand_bonuses: dict[str, HandBonus]
    timing: str
    declare_wild: bool
    declared_first: bool
    per_turn: str
    forced: bool | Expression        # an Expression: written over the options (a bool once checked)
    leftovers: str | Expression      # last_capturer | nobody, or an expression of the options (a str once checked)
    kinds: list[CaptureKind]
    events: dict[str, EventRule]
    categories: dict[str, Category]
    outcomes: dict[str, Outcome]
    target: Expression | int | None    # None: no target (a game of `hands` hands)
    tie: str
    options: dict[str, OptionDecl]
    option_values: dict[str, object] = field(default_factory=dict)
    doc: object = None
    chain_docs: tuple = ()                         # each file of the extends chain as written, own first
    schedules: dict = field(default_factory=dict)  # set by the check stage: players -> deal schedule
    warnings: tuple = ()                           # lint's findings that do not stop the compile
    prefer: str = "any"     # any | fewest_cards | most_cards: which of the offered capture sets may be taken
    stamps: tuple = ()     # (resolved file, SHA-256 of its bytes) per file of the chain: the compile cache key
    target_rule: object = None  # once checked: the target as written when it depends on options (target: its value)
    hands_rule: object = None   # once checked: the number of hands as written when it depends on options
    hands: Expression | int | None = None   # the game's length in hands (None: played to the target)
    bury: Bury | None = None    # deal.bury: dealt face-up table cards sent back into the stock
    pile: bool = False          # capture.table: pile: only the top card is matched, a capture takes the whole pile
    combine: str = "one"    # one | all | union: how many of the offered capture sets one card takes
    short_last: str | None = None   # even: a last round short of cards deals them evenly, the rest to the table
    # once checked: `capture.forced` / `capture.leftovers` as written when they depend on options (else None)
    forced_rule: object = None
    leftovers_rule: object = None
    points_mode: str = "end_of_hand"   # end_of_hand | as_made: when events' and bonuses' points join the game totals
    lead: Expression | int | None = None   # a side this many points ahead of every other wins (None: no such rule)
    lead_rule: object = None    # once checked: the lead as written when it depends on options (lead: its value)
    builds: Builds | None = None   # capture.builds: builds on the table (None: the table holds loose cards only)
    bid: Bid | None = None         # bid: an auction before play (None: play starts at once)


REQUIRED_SECTIONS = ("deck", "players", "deal", "capture", "scoring", "game")


def _expr(doc, key) -> Expression:
    text = doc[key]
    span = doc.value_spans[key]
    try:
        return Expression(text, span, expressions.parse(_as_laid_out(text, span), span))
    except RulespecError as err:
        return Expression(text, span, None, error=err)


def _as_laid_out(text, span: Span):
    """A block scalar's expression with its lines as in the file, so that every node's span is right.

    YAML folds `>-` lines into one and strips `|` lines of their indentation;
    parsing the text as laid out (line breaks are blanks to the grammar) keeps
    each column where the file has it. Anything else is parsed as it is.
    """
    if not isinstance(text, str) or span is None:
        return text
    first = source_line(span)
    if first is None or first[span.column - 1:].startswith(text):
        return text
    indent = span.column - 1
    lines, line = [], span.line
    while True:
        raw = source_line(Span(span.file, line, 1))
        if raw is None or (raw.strip() and len(raw) - len(raw.lstrip(" ")) < indent):
            break
        lines.append(raw)
        line += 1
    while lines and not lines[-1].strip():
        lines.pop()
    content = [raw[indent:] for raw in lines]
    if " ".join(c.strip() for c in content if c.strip()) != " ".join(text.split()) and \
            "\n".join(content) != text.rstrip("\n"):
        return text
    laid_out = "\n".join([content[0]] + lines[1:]) if content else text
    # Only when both read the same: a string literal broken across lines reads differently.
    try:
        if expressions.to_text(expressions.parse(laid_out, span)) != expressions.to_text(expressions.parse(text, span)):
            return text
    except RulespecError:
        return text
    return laid_out


def _enabled(doc):
    if "enabled" not in doc:
        return True
    value = doc["enabled"]
    return value if isinstance(value, bool) else _expr(doc, "enabled")


def _deck(doc) -> Deck:
    spec = doc["deck"]
    if isinstance(spec, str):
        return STANDARD_DECKS[spec]
    ranks = [str(r["rank"]) for r in spec["ranks"]]
    for i, rank in enumerate(ranks):
        if not rank or not all(c.isupper() or c.isdigit() for c in rank):
            raise RulespecError(f"a rank is written in capital letters or digits, found '{rank}'",
                                spec["ranks"][i].value_spans["rank"])
        if ranks.index(rank) != i:
            raise RulespecError(f"rank '{rank}' is listed twice", spec["ranks"][i].value_spans["rank"])
    suits = list(spec["suits"])
    if len(set(suits)) != len(suits):
        raise RulespecError("a suit is listed twice", spec.value_spans["suits"])
    names = list(spec.get("suit_names") or ())
    if names and len(names) != len(suits):
        raise RulespecError(f"suit_names gives {len(names)} name{'s' if len(names) != 1 else ''} for "
                            f"{len(suits)} suits: one name per suit, in the order of suits",
                            spec.value_spans["suit_names"])
    if len(set(names)) != len(names):
        raise RulespecError("a suit name is listed twice", spec.value_spans["suit_names"])
    deck = Deck(spec["id"], tuple(ranks), tuple(_first(r["value"]) for r in spec["ranks"]), tuple(suits), tuple(names),
                extras=_extra_cards(spec, ranks, suits))
    return _several_values(spec, deck)


def _first(value):
    """A rank's `value` as one value: the first of a list (the value expressions see)."""
    return value[0] if isinstance(value, list) else value


def _values(value) -> tuple[int, ...]:
    """A `value` or `hand_value` as written (a number, a list of them, or null) as a tuple of values."""
    if value is None:
        return ()
    return tuple(dict.fromkeys(value)) if isinstance(value, list) else (value,)


def _several_values(spec, deck: Deck) -> Deck:
    """The deck with its cards' several values: a rank's list of values, its `hand_value`, `card_values`.

    A deck where every card has one value, the same from the hand, is returned as it was.
    """
    ranks = spec["ranks"]
    per_card = spec.get("card_values") or {}
    if not per_card and not any(isinstance(r["value"], list) or "hand_value" in r for r in ranks):
        return deck
    table = tuple(_values(r["value"]) for r in ranks)
    hand = tuple(_values(r["hand_value"]) if "hand_value" in r else table[i] for i, r in enumerate(ranks))
    for i, r in enumerate(ranks):
        if "hand_value" in r and not table[i]:
            raise RulespecError(f"rank {deck.ranks[i]} has no value on the table (value: null) but a hand_value; "
                                f"a card with no value captures by rank only", r.value_spans["hand_value"])
    cards = []
    for name, given in per_card.items():
        index = deck.card(name, per_card.key_spans.get(name), " (in card_values)")
        rank = index % len(deck.ranks)
        values = _values(given["value"]) if "value" in given else table[rank]
        from_hand = _values(given["hand_value"]) if "hand_value" in given else \
            (values if "value" in given and hand[rank] == table[rank] else hand[rank])
        if not values and from_hand:
            raise RulespecError(f"card {name} has no value on the table but a hand_value", given.span)
        cards.append((index, values, from_hand))
    return replace(deck, rank_values=table, rank_hand_values=hand, card_values=tuple(cards))


def _extra_cards(spec, ranks: list, suits: list) -> tuple:
    """A custom deck's `extra` cards (jokers): (rank, suit, value, name) each, in the order written.

    Each is written as a card name (rank symbol, then a suit symbol of one capital letter, the last
    character, as every card); its suit symbol is not one of the deck's suits, so that suit filters over
    the deck's suits never count it, and no two extra cards share a name."""
    out, seen = [], set()
    for i, e in enumerate(spec.get("extra") or ()):
        name, at = str(e["card"]), e.value_spans["card"]
        rank, suit = name[:-1], name[-1:]
        if len(name) < 2 or not (suit.isascii() and suit.isupper()) or \
                not all(c.isascii() and (c.isupper() or c.isdigit()) for c in rank):
            raise RulespecError(f"an extra card is written as a rank (capital letters or digits) and then a suit "
                                f"symbol (one capital letter), such as '25X'; found '{name}'", at)
        if suit in suits:
            raise RulespecError(f"extra card '{name}' has suit symbol '{suit}', one of the deck's suits "
                                f"({' '.join(suits)}): give extra cards a suit symbol of their own, such as X", at)
        if name in seen:
            raise RulespecError(f"extra card '{name}' is listed twice", at)
        seen.add(name)
        out.append((rank, suit, e.get("value"), str(e.get("name", ""))))
    return tuple(out)


def build(doc, files: list[Path], chain_docs: tuple = ()) -> Ruleset:
    """Typed ruleset from a merged, schema-valid document (expressions parsed, not checked).

    Each section is built by its own function; independent problems are all reported.
    """
    missing = [k for k in REQUIRED_SECTIONS if k not in doc]
    if missing:
        raise RulespecError(
            f"ruleset '{doc['id']}' has no {', '.join(missing)} (write them, or extend a ruleset that has them)",
            doc.span)
    deck = _deck(doc)
    errors: list[RulespecError] = []
    wild, declare_as = _wild(doc, deck, errors)
    players, deal, cap, game = doc["players"], doc["deal"], doc["capture"], doc["game"]
    packet = deal.get("packet", 1)
    misdeals = doc.get("misdeals")
    decl = doc.get("declarations") or {}
    rs = Ruleset(
        id=doc["id"], name=doc.get("name", doc["id"]), description=doc.get("description", ""),
        source=doc.get("source", ""), base=doc.get("extends"), files=files, span=doc.span,
        deck=deck, wild=wild, wild_declare_as=declare_as,
        player_counts=list(players["counts"]), default_players=players["default"], sides=_sides(players, errors),
        packet=packet, rounds=_rounds(deal, packet, errors), repeat_last=deal.get("repeat_last", False),
        short_last=deal.get("short_last"),
        deal_checks=_deal_checks(doc, errors),
        misdeal_limit=misdeals["limit"] if misdeals else None,
        dealer_bonuses=[DealerBonus(b["event"], _expr(b, "when"), b["points"], b["category"],
                                    b.get("capture_table", False), _enabled(b)) for b in doc.get("dealer_bonuses", [])],
        hand_bonuses=_hand_bonuses(doc, errors),
        timing=decl.get("timing", "first_turn"), declare_wild=decl.get("wild", True),
        declared_first=decl.get("declared_first", False), per_turn=decl.get("per_turn", "all"),
        forced=_structural(cap, "forced", True, errors),
        leftovers=_structural(cap, "leftovers", "last_capturer", errors),
        prefer=cap.get("prefer", "any"), combine=cap.get("combine", "one"),
        kinds=[CaptureKind(k["kind"], _expr(k, "when") if "when" in k else None, k.get("exclusive", False),
                           k.get("total", 15), k.get("min_cards", 2 if k["kind"] == "sum" else 1),
                           k.get("unless_match", False), k.span, _enabled(k), _run_after(k, errors),
                           k.get("alone", False))
               for k in cap["kinds"]],
        events={name: EventRule(name, _expr(e, "when"), _event_points(e), e.get("category", name), _enabled(e))
                for name, e in (doc.get("events") or {}).items() if e is not None},
        categories=_categories(doc, errors),
        outcomes={name: Outcome(name, _expr(o, "when"), o["result"], _enabled(o), o.get("at", "hand_end"))
                  for name, o in (doc.get("outcomes") or {}).items() if o is not None},
        target=_game_length(game, "target", errors),
        hands=_game_length(game, "hands", errors),
        points_mode=game.get("points", "end_of_hand"),
        lead=_game_length(game, "lead", errors),
        tie=game.get("tie", "play_on"),
        options={name: OptionDecl(name, o["type"], o["default"], o.get("choices"), o.get("min"), o.get("max"),
                                  o.get("description", ""), doc["options"].key_spans[name])
                 for name, o in (doc.get("options") or {}).items()},
        doc=doc, chain_docs=chain_docs,
        bury=_bury(deal), pile=cap.get("table", "spread") == "pile", builds=_builds(cap),
        bid=_bid(doc),
    )
    syntax = [x.error for x in _expressions(rs) if x.error is not None]
    try:
        collect(in_order(errors + syntax, files))
    except RulespecError as err:
        if not errors:
            # Only expressions failed to parse: the rest of the ruleset is whole, so the checker can still
            # type the others (compiler/build.py reports both together; one typo hid every other problem).
            err.parsed_beside = rs
        raise
    return rs


def _expressions(rs: Ruleset) -> list[Expression]:
    """Every expression of a built ruleset (those that did not parse hold their error)."""
    parts = [*rs.deal_checks, *rs.dealer_bonuses, *rs.hand_bonuses.values(), *rs.kinds, *rs.events.values(),
             *rs.outcomes.values()]
    found = [x for p in parts for x in (getattr(p, "when", None), p.enabled)]
    found += [b.open_when for b in rs.hand_bonuses.values()]
    found += [c.points for c in rs.categories.values()] + [rs.target, rs.hands, rs.forced, rs.leftovers, rs.lead]
    found += [rs.bury.when] if rs.bury is not None else []
    found += [e.points for e in rs.events.values()]
    return [x for x in found if isinstance(x, Expression)]


def _event_points(e) -> Expression | int:
    """An event's points: a number (1 when not written) or an expression over the play."""
    points = e.get("points", 1)
    return _expr(e, "points") if isinstance(points, str) else points


def _game_length(game, key: str, errors: list):
    """`game.target`, `game.hands` or `game.lead`: an integer, an expression over options, or None when not
    written.

    A game needs one of them (several: whichever ends it first)."""
    if key == "target" and not {"target", "hands", "lead"} & set(game):
        errors.append(RulespecError("game has no target, no hands and no lead: write the points that end the game "
                                    "(target), the number of hands it lasts (hands), the lead that wins it (lead), "
                                    "or several", game.span))
    if key not in game:
        return None
    return game[key] if isinstance(game[key], int) else _expr(game, key)


# The structural fields of `capture` that may be an expression of the options, with the plain values each takes.
STRUCTURAL_VALUES = {"forced": (True, False), "leftovers": ("last_capturer", "nobody")}


def _structural(cap, key: str, default, errors: list):
    """`capture.forced` or `capture.leftovers`: its plain value, or an Expression over the options.

    `forced` is true, false or a string (an expression); `leftovers` one of its words, or any other
    string (an expression whose value is one of them). A lone word that is neither is a misspelt value."""
    if key not in cap:
        return default
    value = cap[key]
    plain = STRUCTURAL_VALUES[key]
    if value in plain and type(value) is type(default):
        return value
    words = [v for v in plain if isinstance(v, str)]
    if words and isinstance(value, str) and value.isidentifier() and value != "options":
        errors.append(RulespecError(f"capture.{key} is {' or '.join(words)}, or an expression of the options "
                                    f"such as 'options.{key}'; found '{value}'{did_you_mean(value, words)}",
                                    cap.value_spans[key]))
        return default
    return _expr(cap, key)


def _run_after(k, errors: list) -> tuple:
    """A run kind's `after` (the captures it continues; default: a match), checked; () for other kinds."""
    if k["kind"] != "run":
        if "after" in k:
            errors.append(RulespecError(f"`after` belongs to kind run (the captures a run continues); "
                                        f"kind {k['kind']} has none", k.key_spans["after"]))
        return ()
    after = list(k.get("after", ["match"]))
    if len(set(after)) != len(after):
        errors.append(RulespecError("a capture is listed twice in `after`", k.value_spans["after"]))
    return tuple(x for x in ("match", "sum") if x in after)


def _wild(doc, deck: Deck, errors: list) -> tuple[int | None, list[int]]:
    """The wild card's index and the rank indices it may be declared as."""
    wild_doc = doc.get("wild")
    if not wild_doc:
        return None, []
    wild = deck.card(wild_doc["card"], wild_doc.value_spans["card"], " (the wild card)")
    if wild >= deck.regular:
        raise RulespecError(f"the wild card is a card of the deck's ranks and suits, not the extra card "
                            f"{wild_doc['card']}", wild_doc.value_spans["card"])
    declare_as = []
    for i, rank in enumerate(wild_doc["declare_as"]):
        r = deck.rank_index(str(rank))
        if r is None:
            errors.append(RulespecError(f"unknown rank '{rank}' in deck {deck.id} (ranks: "
                                        f"{' '.join(deck.ranks)}){did_you_mean(rank, deck.ranks)}",
                                        wild_doc["declare_as"].item_spans[i]))
            continue
        declare_as.append(r)
    return wild, declare_as


def _sides(players, errors: list) -> dict[int, int]:
    """Sides per number of players; every allowed count forms equal sides."""
    sides = {}
    for key, value in players["sides"].items():
        # ASCII digits only, and few of them: int() refuses '²' and numbers of 4300+ digits.
        if not (isinstance(key, int) or (key.isascii() and key.isdigit() and len(key) <= 4)) or not 2 <= int(key) <= 8:
            errors.append(RulespecError(f"players.sides is keyed by a number of players (2 to 8), found {key!r}",
                                        players["sides"].key_spans.get(key)))
            continue
        sides[int(key)] = value
    for n in players["counts"]:
        if n not in sides:
            errors.append(RulespecError(f"players.sides gives no number of sides for {n} players",
                                        players.value_spans["sides"]))
        elif n % sides[n]:
            errors.append(RulespecError(f"{n} players cannot form {sides[n]} equal sides",
                                        players["sides"].value_spans.get(n) or players.value_spans["sides"]))
    if players["default"] not in players["counts"]:
        errors.append(RulespecError(f"players.default {players['default']} is not one of counts "
                                    f"{players['counts']}", players.value_spans["default"]))
    return sides


def _rounds(deal, packet: int, errors: list) -> list[list[DealStep]]:
    """The deal's rounds as steps (cards to each seat, cards to the table)."""
    rounds = []
    for r in deal["rounds"]:
        steps = []
        for step in r:
            if "each" in step:
                p = step.get("packet", packet)
                if step["each"] % p:
                    errors.append(RulespecError(f"{step['each']} cards each cannot be given {p} at a time", step.span))
                steps.append(DealStep("each", step["each"], p))
            else:
                steps.append(DealStep("table", step["table"], 1, step.get("face_down", 0)))
        rounds.append(steps)
    return rounds


def _builds(cap) -> Builds | None:
    """capture.builds with its defaults (None when not written, or written `false`)."""
    spec = cap.get("builds")
    if spec is None or spec is False:
        return None
    if spec is True:
        spec = {}
    values = spec.get("values")
    return Builds(values=sorted(set(values)) if values is not None else None, raise_=spec.get("raise", True),
                  multiple=spec.get("multiple", True), owner_must_act=spec.get("owner_must_act", True),
                  subtract=spec.get("subtract", False), one_per_value=spec.get("one_per_value", False),
                  owner_may_trail=spec.get("owner_may_trail", False), owners=spec.get("owners", "last"),
                  span=cap.key_spans.get("builds"))


def _bid(doc) -> Bid | None:
    """bid with its defaults (None when not written)."""
    spec = doc.get("bid")
    if spec is None:
        return None
    return Bid(after_cards=spec["after_cards"], values=sorted(set(spec["values"])),
               binds=spec.get("binds", "first_play"), void=spec.get("void", "no_bid"), who=spec.get("who", "first"),
               span=doc.key_spans.get("bid"))


def _bury(deal) -> Bury | None:
    """deal.bury, its condition parsed (None when not written)."""
    bury = deal.get("bury")
    if not bury:
        return None
    return Bury(_expr(bury, "when"), bury["to"], deal.key_spans["bury"])


def _deal_checks(doc, errors: list) -> list[DealCheck]:
    for c in doc.get("deal_checks", []):
        if c["result"] == "dealer_wins" and "event" in c:
            # A deal that wins is an outcome (named by the check), not a dealer event.
            errors.append(RulespecError(f"deal check {c['name']}: result dealer_wins ends the game with the outcome "
                                        f"'{c['name']}' and reports no dealer event; remove `event:`",
                                        c.key_spans.get("event")))
    return [DealCheck(c["name"], _expr(c, "when"), c["result"], c.get("event", c["name"]), _enabled(c))
            for c in doc.get("deal_checks", [])]


def _hand_bonuses(doc, errors: list) -> dict[str, HandBonus]:
    hand_bonuses = {}
    for name, b in (doc.get("hand_bonuses") or {}).items():
        if b is None:
            continue
        missing = [k for k in ("size", "when", "points", "category") if k not in b]
        if missing:
            need = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
            errors.append(RulespecError(f"hand bonus '{name}' needs {need}", b.span))
            continue
        hand_bonuses[name] = HandBonus(
            name, b["size"], _expr(b, "when"), b["points"], b["category"], b.get("wild", True),
            list(b.get("excluded_by", [])), list(b.get("shares_cards_with", [])), list(b.get("rounds", [])),
            b.get("unique_by"), doc["hand_bonuses"].key_spans[name], _enabled(b),
            _expr(b, "open_when") if "open_when" in b else None)
    return hand_bonuses


def _categories(doc, errors: list) -> dict[str, Category]:
    categories = {}
    for name, c in doc["scoring"].items():
        if c is None:
            continue
        if ("points" in c) == bool(c.get("from_events")):
            errors.append(RulespecError(f"scoring category '{name}' needs exactly one of points or from_events",
                                        c.span))
            continue
        pts = None
        if "points" in c:
            pts = c["points"] if isinstance(c["points"], int) else _expr(c, "points")
        categories[name] = Category(name, pts, bool(c.get("from_events")), doc["scoring"].key_spans[name],
                                    c.get("carry"))
    return categories


def load(ref: str | Path, *, relative_to: Path | None = None, span: Span | None = None,
         root: str | Path | None = None) -> Ruleset:
    """Load, validate, merge and parse a ruleset given by id or path (every file under `root`, if given)."""
    doc, files, docs = load_merged(ref, relative_to=relative_to, span=span, root=root)
    try:
        # What the ruleset was built from: each file's resolved name and the SHA-256 of the bytes read.
        stamps = tuple((str(p.resolve()), d.digest) for p, d in zip(files, docs))
        return replace(build(doc, files, docs), stamps=stamps)
    except RulespecError as err:
        try:
            collect(note_inherited([err], files))
        except RulespecError as noted:
            noted.parsed_beside = getattr(err, "parsed_beside", None)
            raise noted from None
        raise
