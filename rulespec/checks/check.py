"""Option values, expression types and deal schedules: the first half of the check stage (stage.py).

Everything it finds is a located error. After it, every `Expression` has its
type; `apply_switches` then folds the compile-time constants (options,
`enabled` switches, the target) on the tree (rulespec/lang/constant.py).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace

from rulespec.errors import RulespecError, Span, collect, did_you_mean
from rulespec.lang import typecheck as tc
from rulespec.lang.constant import value_of
from rulespec.lang.model import Expression, Ruleset

# The runtime names each kind of expression may use (each becomes a local of
# the generated function that evaluates it).
TABLE_NAMES = {"table": tc.CARDS}
BONUS_NAMES = {"cards": tc.CARDS, "hand": tc.CARDS, "round": tc.INT, "last_round": tc.BOOL}
# The play's place in the hand, for capture kinds and events: the deal round (1 = the first deal),
# the player's turn in that round (1 = their first card of this deal) and the play's number in the
# hand (1 = the hand's first card played).
PLAY_CONTEXT = {"round": tc.INT, "turn": tc.INT, "play": tc.INT}
CAPTURE_NAMES = {"played": tc.CARD, "table": tc.CARDS, **PLAY_CONTEXT}
EVENT_NAMES = {"played": tc.CARD, "captured": tc.CARDS, "table": tc.CARDS, "table_before": tc.CARDS,
               "last_play": tc.BOOL, "previous": tc.CARDS, **PLAY_CONTEXT,
               # whether this play is in the hand's last deal round, and the number of players at the table
               "last_round": tc.BOOL, "players": tc.INT}
# An event's points, written as an expression, read the play as its condition does, and how the capture
# counted: `played_value`, the value the played card counted as (of its values, the one the capture used);
# `sets`, how many disjoint offered sets the capture joined (0: nothing taken).
EVENT_POINT_NAMES = {**EVENT_NAMES, "played_value": tc.INT, "sets": tc.INT}
# deal.bury's condition: the table card just dealt face up.
BURY_NAMES = {"dealt": tc.CARD}
# The game's running state (docs/language.md, "The game's running state"): the side's game score and the
# best other side's, before this hand (in an event, with `game.points: as_made`, the points made so far too).
# EVENT_NAMES and SCORE_NAMES are what every back end plays; the *_RULE_NAMES, what a rule may read, add the
# running state, which the Python playout and the C back end refuse (compiler/support.py, codegen_c.unsupported).
RUNNING_NAMES = {"game_score": tc.INT, "rival_score": tc.INT}
# The bid (`bid:`, an auction before play): the value bid in this hand, seen by events (0 in a hand without one).
BID_NAMES = {"bid": tc.INT}
SCORE_NAMES = {"pile": tc.CARDS, "side": tc.INT}
EVENT_RULE_NAMES = {**EVENT_NAMES, **RUNNING_NAMES, **BID_NAMES}
SCORE_RULE_NAMES = {**SCORE_NAMES, **RUNNING_NAMES, "dealer_side": tc.INT}
OUTCOME_NAMES = {"pile": tc.CARDS}
# A deal-time outcome (`at: deal`) is asked of each seat's hand and the table after every deal round.
DEAL_OUTCOME_NAMES = {"hand": tc.CARDS, "table": tc.CARDS}


def pile_names(rs: Ruleset, names: dict) -> dict:
    """A context's names in a ruleset whose table is a pile (capture.table: pile): `top`, the pile's top card
    (a set of one card; empty when nothing is on the table), joins the deal checks and the events; a capture
    kind sees `top` in place of `table`, since the top card is all it can match. Else `names` as they are."""
    if not rs.pile:
        return names
    if names is CAPTURE_NAMES:
        return {"played": tc.CARD, "top": tc.CARDS, **PLAY_CONTEXT}
    return {**names, "top": tc.CARDS}


@dataclass
class Schedule:
    """How one number of players is dealt: per round (cards per seat, table cards, steps)."""

    rounds: list[tuple[int, int, tuple]]


def _shown(value) -> str:
    """A value given for an option, for a message: its repr, cut short (a value may be thousands of characters)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# A str option's value, as the schemas bound a default, a choice and a transcript's option value; an int's digits,
# as YAML's integers are bounded (yamlsafe.MAX_INT_DIGITS): `record` writes the values into a transcript, which
# `replay` must be able to read back.
OPTION_VALUE_MAX = 64
OPTION_DIGITS_MAX = 18


def resolve_options(rs: Ruleset, given: dict | None, span: Span | None = None) -> dict:
    """The ruleset's option values: declared defaults overridden by `given` (checked; every problem reported)."""
    values = {name: o.default for name, o in rs.options.items()}
    errors: list[RulespecError] = []
    for name, value in (given or {}).items():
        decl = rs.options.get(name)
        if decl is None:
            known = ", ".join(sorted(rs.options)) or "none"
            errors.append(RulespecError(f"unknown option '{name}' for ruleset {rs.id} (options: {known})"
                                        f"{did_you_mean(name, rs.options)}", span))
            continue
        values[name] = value
    for name, decl in rs.options.items():
        value = values[name]
        given_here = name in (given or {})
        where = span if given_here else (_option_value_span(rs, name) or decl.span)
        what = f"option '{name}'" if given_here else f"the default of option '{name}'"
        want = {"int": int, "bool": bool, "str": str}[decl.type]
        if type(value) is not want:
            errors.append(RulespecError(f"{what} is {decl.type}, found {_shown(value)}{_WRITE[decl.type]}", where))
        elif want is str and len(value) > OPTION_VALUE_MAX:
            errors.append(RulespecError(f"{what} is at most {OPTION_VALUE_MAX} characters, found {_shown(value)}",
                                        where))
        elif want is int and abs(value) >= 10 ** OPTION_DIGITS_MAX:
            errors.append(RulespecError(f"{what} has at most {OPTION_DIGITS_MAX} digits, found {_shown(value)}",
                                        where))
        elif decl.choices is not None and value not in decl.choices:
            errors.append(RulespecError(f"{what} must be one of {decl.choices}, found {_shown(value)}", where))
        elif decl.min is not None and value < decl.min or decl.max is not None and value > decl.max:
            bound = (f"between {decl.min} and {decl.max}" if decl.min is not None and decl.max is not None
                     else f"at least {decl.min}" if decl.min is not None else f"at most {decl.max}")
            errors.append(RulespecError(f"{what} must be {bound}, found {value}", where))
    collect(errors)
    return values


# How a value of each option type is written in YAML (the command line's words: rulespec/cli/options.py).
_WRITE = {"bool": "; write true or false", "int": "; write a whole number", "str": "; write it in quotes"}


def _option_value_span(rs: Ruleset, name: str) -> Span | None:
    node = ((rs.doc or {}).get("options") or {}).get(name)
    return getattr(node, "value_spans", {}).get("default")


def context(rs: Ruleset, names: dict, *, allow_most: bool = False, options_only: str = "") -> tc.Context:
    """A type-checking context for this ruleset with the given runtime names."""
    return tc.Context(deck=rs.deck, names=dict(names), wild=rs.wild, options=rs.option_values,
                      allow_most=allow_most, options_only=options_only)


# What an options-only expression may be, said when it names something unknown.
TARGET_IS = "the target is a whole number such as 61, or an expression of the options such as '31 if options.short else 51'"
HANDS_IS = ("the game's number of hands is a whole number such as 4, or an expression of the options such as "
            "'options.hands'")
LEAD_IS = ("the lead that wins is a whole number such as 100, or an expression of the options such as "
           "'options.lead'")
ENABLED_IS = "`enabled` is true, false, or a condition on the options such as 'options.short'"
FORCED_IS = "capture.forced is true, false, or a condition on the options such as 'not options.free_play'"
LEFTOVERS_IS = ("capture.leftovers is last_capturer, nobody, or an expression of the options such as "
                "'options.leftovers' or '\"nobody\" if options.short else \"last_capturer\"'")


def _typed(rs, expr: Expression, names, expected, errors, allow_most=False, options_only=""):
    if expr.tree is None:        # it did not parse: its syntax error is reported (errors_beside_syntax)
        return
    try:
        tc.check(expr.tree, context(rs, names, allow_most=allow_most, options_only=options_only), expected)
    except RulespecError as err:
        elsewhere = _visible_elsewhere(err.message, names, rs.wild is not None)
        if elsewhere:
            errors.append(RulespecError(elsewhere, err.span))
            return
        errors.append(RulespecError(err.message + _HINTS.get(err.message, ""), err.span)
                      if err.span == expr.tree.span else _pile_hint(rs, err))


def _pile_hint(rs: Ruleset, err: RulespecError) -> RulespecError:
    """`top` read where the table is not a pile (or a pile's capture kind reading `table`): say why."""
    if err.message.startswith("unknown name 'top'") and not rs.pile:
        return RulespecError("unknown name 'top': it names the top card of a pile; declare capture.table: pile",
                             err.span)
    if err.message.startswith("unknown name 'table'") and rs.pile:
        return RulespecError("unknown name 'table': with capture.table: pile a capture kind matches only the top "
                             "card; write top", err.span)
    return err


# Each context of the runtime names, as a message names it (docs/language.md, "Names by context").
CONTEXTS = (("deal checks and dealer bonuses", TABLE_NAMES), ("hand bonuses", BONUS_NAMES),
            ("capture kinds", CAPTURE_NAMES), ("events", EVENT_NAMES), ("scoring", SCORE_NAMES),
            ("outcomes", OUTCOME_NAMES))
_UNKNOWN_NAME = re.compile(r"unknown name '([a-z_][a-z0-9_]*)'")


def _visible_elsewhere(message: str, names: dict, wild: bool) -> str | None:
    """For an unknown name that another context has: the message saying what is visible here and where that
    name is (None for any other message)."""
    found = _UNKNOWN_NAME.match(message)
    if not found or not message.startswith("unknown name"):
        return None
    name = found.group(1)
    where = [label for label, seen in CONTEXTS if name in seen]
    here = next((label for label, seen in CONTEXTS if seen is names), None)
    if not where or here is None:
        return None
    visible = ", ".join(names) or "none but options"
    return (f"'{name}' is not visible in {here} (visible here: {visible}; and deck,{' wild,' * wild} "
            f"options.<name>); "
            f"'{name}' is visible in {' and '.join(where)}")


# What to write instead, when a whole expression has the other type.
_HINTS = {
    "expected int, found bool": "; points are a number: write '1 if <condition> else 0'",
    "expected bool, found int": "; a condition is true or false: compare the number, e.g. '... >= 1'",
}


def constant(rs: Ruleset, expr: Expression | bool | int, expected):
    """The value of an options-only expression (an `enabled` switch, the target), folded on its tree."""
    if not isinstance(expr, Expression):
        return expr
    ctx = context(rs, {})
    tc.check(expr.tree, ctx, expected)
    return value_of(expr.tree, ctx)


def pile_problems(rs: Ruleset) -> list[RulespecError]:
    """Face-down table cards only under a pile, and never all of a step's cards (its top card is the face-up
    one that is matched); a pile game has no wild card (declaring it would change what the top card is)."""
    errors = []
    rounds = rs.doc["deal"].get("rounds") if isinstance(rs.doc, dict) else None
    for i, steps in enumerate(rs.rounds):
        for j, step in enumerate(steps):
            if not step.face_down:
                continue
            written = rounds[i][j] if rounds is not None else None
            at = written.value_spans.get("face_down") if written is not None else None
            if not rs.pile:
                errors.append(RulespecError("face_down table cards lie under a pile: declare capture.table: pile "
                                            "(on a spread table a face-down card could be captured unseen)", at))
            elif step.face_down >= step.count:
                errors.append(RulespecError(f"face_down {step.face_down} of a table step of {step.count} cards: "
                                            f"at least the last card laid (the top) lies face up", at))
    if rs.pile and rs.wild is not None:
        errors.append(RulespecError("a pile game (capture.table: pile) has no wild card",
                                    rs.doc.value_spans.get("wild") if isinstance(rs.doc, dict) else None))
    return errors


def build_problems(rs: Ruleset) -> list[RulespecError]:
    """capture.builds on a spread table without a wild card (a build joins cards every seat sees; a declared
    wild card would change a build's value as it lies), with values some card of the deck can capture as."""
    b = rs.builds
    if b is None:
        return []
    errors = []
    if rs.pile:
        errors.append(RulespecError("capture.builds needs a spread table: a pile (capture.table: pile) has no "
                                    "loose cards to build with", b.span))
    if rs.wild is not None:
        errors.append(RulespecError("capture.builds and a wild card do not go together: a declared wild card "
                                    "would change the value of a build it lies in", b.span))
    deck = rs.deck
    capturing = {v for i in range(deck.size) for v in deck.hand_values_of(i)}
    if b.values is not None:
        spans = getattr(rs.doc["capture"]["builds"], "value_spans", {}) if isinstance(rs.doc, dict) else {}
        never = [v for v in b.values if v not in capturing]
        if never:
            errors.append(RulespecError(f"capture.builds.values: no card of the deck captures as "
                                        f"{', '.join(map(str, never))}, so no build of that value could be made "
                                        f"(values cards capture as: {', '.join(map(str, sorted(capturing)))})",
                                        spans.get("values", b.span)))
    return errors


def bid_problems(rs: Ruleset, found: dict) -> list[RulespecError]:
    """`bid`: values some card of the deck captures as, no more cards seen than the first round gives the
    bidder (per number of players, `found` the schedules); `bid` read by an event only in a ruleset with a bid."""
    from rulespec.checks.running import first_read
    errors = []
    b = rs.bid
    if b is None:
        for e in rs.events.values():
            at = first_read(e.when, "bid")
            if at is not None:
                errors.append(RulespecError(f"event '{e.name}' reads bid, but the ruleset has no bid (write bid: "
                                            f"with its values)", at))
        return errors
    spans = getattr(rs.doc.get("bid"), "value_spans", {}) if isinstance(rs.doc, dict) else {}
    deck = rs.deck
    capturing = {v for i in range(deck.size) for v in deck.hand_values_of(i)}
    never = [v for v in b.values if v not in capturing]
    if never:
        errors.append(RulespecError(f"bid.values: no card of the deck captures as {', '.join(map(str, never))}, so "
                                    f"no bidder could hold it (values cards capture as: "
                                    f"{', '.join(map(str, sorted(capturing)))})", spans.get("values", b.span)))
    for n, schedule in sorted(found.items()):
        first = schedule.rounds[0][0] if schedule.rounds else 0
        if b.after_cards > first:
            errors.append(RulespecError(f"bid.after_cards is {b.after_cards}, but with {n} players the first deal "
                                        f"round gives each player {first} cards", spans.get("after_cards", b.span)))
            break
    return errors


def _round_span(rs: Ruleset, i: int) -> Span:
    """Where deal round `i` (0-based) is written: its own item, or the last one, which repeats."""
    rounds = rs.doc["deal"].get("rounds")
    spans = getattr(rounds, "item_spans", [])
    return spans[min(i, len(spans) - 1)] if spans else rs.doc["deal"].value_spans["rounds"]


def schedules(rs: Ruleset) -> dict[int, Schedule]:
    """The deal schedule for each allowed number of players; it must use exactly the deck."""
    out = {}
    size = rs.deck.size
    for n in rs.player_counts:
        rounds = []
        used = 0
        shapes = list(rs.rounds)
        i = 0
        while used < size:
            if i < len(shapes):
                steps = shapes[i]
            elif rs.repeat_last:
                steps = shapes[-1]
            else:
                break
            seat_cards = sum(s.count for s in steps if s.kind == "each")
            table_cards = sum(s.count for s in steps if s.kind == "table")
            need = seat_cards * n + table_cards
            if table_cards and not seat_cards:
                # The seats would have nothing to play after this deal, and a hand never ends.
                raise RulespecError(f"round {i + 1} deals {table_cards} cards to the table and none to the "
                                    f"players, who would have nothing to play (give each player cards with "
                                    f"`each`)", _round_span(rs, i))
            if used + need > size and rs.short_last == "even":
                rounds.append(_short_round(rs, n, size - used, steps, i))
                used = size
                break
            if used + need > size:
                raise RulespecError(
                    f"with {n} players round {i + 1} needs {need} cards but only {size - used} remain "
                    f"of the {size}-card deck", _round_span(rs, i))
            rounds.append((seat_cards, table_cards, tuple((s.kind, s.count, s.packet) for s in steps)))
            used += need
            i += 1
            if need == 0:
                break
        if used != size:
            raise RulespecError(f"with {n} players the deal uses {used} of the {size} cards "
                                f"(set repeat_last or add rounds)", rs.doc["deal"].value_spans["rounds"])
        out[n] = Schedule(rounds)
    return out


def _short_round(rs: Ruleset, n: int, left: int, steps, i: int) -> tuple:
    """deal.short_last even: the last round, which `left` cards cannot fill (round `i`, 0-based, shaped by
    `steps`): every player the same number of cards, as many as go round (at most the round's own count),
    one at a time, and the cards that do not go round face up to the table."""
    seat_cards = min(left // n, sum(s.count for s in steps if s.kind == "each"))
    if seat_cards == 0:
        raise RulespecError(f"with {n} players the last round would deal the {left} card{'s' * (left != 1)} left to "
                            f"the table and none to the players (short_last: even needs at least one card for each "
                            f"player)",
                            _round_span(rs, i))
    table_cards = left - seat_cards * n
    shaped = (("each", seat_cards, 1),) + ((("table", table_cards, 1),) if table_cards else ())
    return seat_cards, table_cards, shaped


def is_short(rs: Ruleset, schedule: Schedule) -> bool:
    """Whether a schedule's last round is a short one (deal.short_last), not the round as written."""
    if not schedule.rounds:
        return False
    written = rs.rounds[min(len(schedule.rounds), len(rs.rounds)) - 1]
    seat, table, _steps = schedule.rounds[-1]
    return (seat, table) != (sum(s.count for s in written if s.kind == "each"),
                             sum(s.count for s in written if s.kind == "table"))


# The fields of a ruleset that hold expressions: the check stage types copies of them, so the
# ruleset it was given keeps its trees as they were.
EXPRESSION_FIELDS = ("deal_checks", "dealer_bonuses", "hand_bonuses", "kinds", "events", "categories",
                     "outcomes", "target", "hands", "bury", "forced", "leftovers", "lead")


def with_options(rs: Ruleset, options: dict | None = None, options_span: Span | None = None) -> Ruleset:
    """A new ruleset with its option values resolved and its own copies of the expressions to type."""
    values = resolve_options(rs, options, options_span)
    return replace(rs, option_values=values, **{f: copy.deepcopy(getattr(rs, f)) for f in EXPRESSION_FIELDS})


def check_types(rs: Ruleset) -> tuple[list[RulespecError], dict[int, Schedule]]:
    """Every expression's type (annotating the ruleset's trees) and the deal schedules: (problems, schedules)."""
    errors: list[RulespecError] = []
    for c in rs.deal_checks:
        _typed(rs, c.when, pile_names(rs, TABLE_NAMES), tc.BOOL, errors)
    if rs.bury is not None:
        _typed(rs, rs.bury.when, BURY_NAMES, tc.BOOL, errors)
    for b in rs.dealer_bonuses:
        _typed(rs, b.when, TABLE_NAMES, tc.BOOL, errors)
    for b in rs.hand_bonuses.values():
        _typed(rs, b.when, BONUS_NAMES, tc.BOOL, errors)
        if b.open_when is not None:
            _typed(rs, b.open_when, RUNNING_NAMES, tc.BOOL, errors)
    for k in rs.kinds:
        if k.when is not None:
            _typed(rs, k.when, pile_names(rs, CAPTURE_NAMES), tc.BOOL, errors)
    for e in rs.events.values():
        _typed(rs, e.when, pile_names(rs, EVENT_RULE_NAMES), tc.BOOL, errors)
        if isinstance(e.points, Expression):
            _typed(rs, e.points, pile_names(rs, EVENT_POINT_NAMES), tc.INT, errors)
    for c in rs.categories.values():
        if isinstance(c.points, Expression):
            _typed(rs, c.points, SCORE_RULE_NAMES, tc.INT, errors, allow_most=True)
    for o in rs.outcomes.values():
        _typed(rs, o.when, DEAL_OUTCOME_NAMES if o.at == "deal" else OUTCOME_NAMES, tc.BOOL, errors)
    for item in [*rs.deal_checks, *rs.dealer_bonuses, *rs.hand_bonuses.values(), *rs.kinds,
                 *rs.events.values(), *rs.outcomes.values()]:
        if isinstance(item.enabled, Expression):
            _typed(rs, item.enabled, {}, tc.BOOL, errors, options_only=ENABLED_IS)
    for length, says in ((rs.target, TARGET_IS), (rs.hands, HANDS_IS), (rs.lead, LEAD_IS)):
        if isinstance(length, Expression):
            _typed(rs, length, {}, tc.INT, errors, options_only=says)
    errors += pile_problems(rs)
    errors += build_problems(rs)
    errors += _structural_fields(rs)
    try:
        found = schedules(rs)
    except RulespecError as err:
        return errors + [err] + bid_problems(rs, {}), {}
    return errors + bid_problems(rs, found), found


def _structural_fields(rs: Ruleset) -> list[RulespecError]:
    """`capture.forced` and `capture.leftovers` written as expressions of the options: typed, and
    leftovers' value one of its words (with the options given)."""
    from rulespec.lang.model import STRUCTURAL_VALUES
    errors: list[RulespecError] = []
    if isinstance(rs.forced, Expression):
        _typed(rs, rs.forced, {}, tc.BOOL, errors, options_only=FORCED_IS)
    if isinstance(rs.leftovers, Expression):
        before = len(errors)
        _typed(rs, rs.leftovers, {}, tc.STR, errors, options_only=LEFTOVERS_IS)
        if len(errors) == before:
            value = constant(rs, copy.deepcopy(rs.leftovers), tc.STR)   # a copy: typing it again marks no tree
            if value not in STRUCTURAL_VALUES["leftovers"]:
                errors.append(RulespecError(f"capture.leftovers is last_capturer or nobody; this expression gives "
                                            f"{_shown(value)} with the options given", rs.leftovers.span))
    return errors


def apply_switches(rs: Ruleset) -> Ruleset:
    """A new ruleset without what compile-time switches disable, its target a number."""
    return replace(
        rs,
        deal_checks=[c for c in rs.deal_checks if constant(rs, c.enabled, tc.BOOL)],
        dealer_bonuses=[b for b in rs.dealer_bonuses if constant(rs, b.enabled, tc.BOOL)],
        hand_bonuses={n: b for n, b in rs.hand_bonuses.items() if constant(rs, b.enabled, tc.BOOL)},
        kinds=[k for k in rs.kinds if constant(rs, k.enabled, tc.BOOL)],
        events={n: e for n, e in rs.events.items() if constant(rs, e.enabled, tc.BOOL)},
        outcomes={n: o for n, o in rs.outcomes.items() if constant(rs, o.enabled, tc.BOOL)},
        target=constant(rs, rs.target, tc.INT),
        target_rule=rs.target if isinstance(rs.target, Expression) else None,
        hands_rule=rs.hands if isinstance(rs.hands, Expression) else None,
        hands=constant(rs, rs.hands, tc.INT),
        forced=constant(rs, rs.forced, tc.BOOL),
        forced_rule=rs.forced if isinstance(rs.forced, Expression) else None,
        leftovers=constant(rs, rs.leftovers, tc.STR),
        leftovers_rule=rs.leftovers if isinstance(rs.leftovers, Expression) else None,
        lead=constant(rs, rs.lead, tc.INT),
        lead_rule=rs.lead if isinstance(rs.lead, Expression) else None,
    )


# At most this many errors are reported at once.
MAX_ERRORS = 20
# The longest game a ruleset may ask for (`game.hands`; the schema's bound on a literal, here on an
# options expression's value too).
MAX_GAME_HANDS = 500    # below simulate.MAX_HANDS_PER_GAME, so a long game is no guard failure


def target_span(rs: Ruleset, key: str = "target") -> Span | None:
    """Where `game.target` (or another key of `game`) is written (in the file that wrote it)."""
    game = rs.doc.get("game") if isinstance(rs.doc, dict) else None
    return getattr(game, "value_spans", {}).get(key) if game is not None else None


# The declaration search (run/declarations.py) checks each hand bonus on the combinations of its size of
# a hand's cards: more than this many in all and one search could take minutes (a 12-card bonus over hands
# of 30 has 86 million), so such a ruleset is refused here, at the bonus. The native back end lists fewer
# (codegen_c.MAX_OPTS) and falls back to this engine between the two.
MAX_BONUS_COMBINATIONS = 50_000


def bonus_search(rs: Ruleset) -> list[RulespecError]:
    """The hand bonuses whose combinations of a hand are too many to search (none, or one error at the
    size of the bonus that brings the most), over the largest hand a round deals a seat."""
    from math import comb
    hand = max([seat for s in rs.schedules.values() for seat, _table, _steps in s.rounds] + [0])
    bonuses = list(rs.hand_bonuses.values())
    checked = sum(comb(hand, b.size) for b in bonuses)
    if checked <= MAX_BONUS_COMBINATIONS:
        return []
    bonus = max(bonuses, key=lambda b: comb(hand, b.size))
    doc = (rs.doc or {}).get("hand_bonuses") or {}
    at = getattr(doc.get(bonus.name) or {}, "value_spans", {}).get("size", bonus.span)
    return [RulespecError(f"hand bonus '{bonus.name}' takes {bonus.size} cards of hands of {hand}: the hand bonuses "
                          f"would be searched over {checked} combinations of a hand's cards, more than the "
                          f"{MAX_BONUS_COMBINATIONS} the engine searches (fewer cards per bonus, or smaller hands)", at)]


def guards(rs: Ruleset) -> list[RulespecError]:
    """What the engine's guards would only stop after 1000 tries, caught here when it is plain.

    A deal check that throws in every deal (its condition reads no table:
    `when: true`) would redeal forever; a target that no hand can bring closer
    (no category, event or bonus gives a point, no outcome ends the game)
    would deal hands forever.
    """
    errors = []
    for c in rs.deal_checks:
        if c.result == "dealer_wins" or (c.result == "misdeal" and rs.misdeal_limit):
            continue                       # the first such deal ends the game: no loop
        try:
            always = constant(rs, copy.deepcopy(c.when), tc.BOOL)   # a copy: typing it again marks no tree
        except RulespecError:
            continue                       # it reads the table: decided deal by deal
        if always:
            errors.append(RulespecError(f"deal check '{c.name}' holds for every deal (its condition does not "
                                        f"read the table), so every deal would be thrown in", c.when.span))
    points = [e.points if isinstance(e.points, int) else 1 for e in rs.events.values()]   # an expression may score
    points += [b.points for b in rs.hand_bonuses.values()]
    points += [b.points for b in rs.dealer_bonuses]
    for cat in rs.categories.values():
        if isinstance(cat.points, Expression):
            try:
                points.append(constant(rs, copy.deepcopy(cat.points), tc.INT))
            except RulespecError:
                points.append(1)           # it reads the piles: it may give points
        elif isinstance(cat.points, int):
            points.append(cat.points)
    if isinstance(rs.hands, int) and not 1 <= rs.hands <= MAX_GAME_HANDS:
        errors.append(RulespecError(f"the game lasts {rs.hands} hands: it needs at least 1 and at most "
                                    f"{MAX_GAME_HANDS}", target_span(rs, "hands")))
    pointless = not rs.outcomes and max(points, default=0) <= 0
    if pointless and rs.hands is not None:
        # every hand ties at 0, and a tie at the end plays on: the game would never end
        errors.append(RulespecError(f"the game of {rs.hands} hands can never be won: no category, event or bonus "
                                    f"gives a point and no outcome ends the game, so every game ties and plays on",
                                    target_span(rs, "hands")))
    elif pointless and isinstance(rs.target, int) and rs.target > 0:
        errors.append(RulespecError(f"the target {rs.target} can never be reached: no category, event or bonus "
                                    f"gives a point and no outcome ends the game", target_span(rs)))
    return errors
