"""Static checks at compile time (Ludii's "missing requirements"), run after check.py by stage.py.

Each check is one function in CHECKS; it reads the typed ruleset (and, for
`extends`, the files of the chain) and reports located errors and warnings:
what is used but never defined, defined but never used, can never happen, or
overridden in conflict with the base. Errors stop the compile; warnings are
printed by `rulespec validate` and `rulespec compile` and do not.
"""
from __future__ import annotations

from itertools import combinations

from rulespec.errors import RulespecError, Span, did_you_mean
from rulespec.lang.expressions import Attr, BinOp, Call, IfElse, Int, Name, Neg, uses_runtime, walk
from rulespec.lang.model import Expression, Ruleset
from rulespec.lang.typecheck import BOOL as _BOOL
from rulespec.lang.words import rounds_words
from rulespec.source.rulesets import merge
from rulespec.source.yamlsafe import plain as _plain

# Hand bonuses made by at most this many cards are tried on every combination of the deck.
MAX_BONUS_SIZE = 3
# The budget of the searches lint makes over the deck (conditions evaluated, all bonuses together):
# a few tenths of a second. Past it the search stops with a warning; a check never decides how long
# a compile takes (a 160-card deck with 64 bonuses would be minutes of search).
CHECK_BUDGET = 100_000
# An evaluation is charged by its condition's steps (a node; a filter that must run per card costs its
# condition once per card index): one evaluation per STEPS_PER_EVALUATION steps or part of them. Forty
# filters over a 160-card deck are a thousand times the work of `same_rank(cards)`, and so they
# spend the budget a thousand times faster (they took minutes of a validate, charged as one).
STEPS_PER_EVALUATION = 50


class _Budget:
    """What is left of CHECK_BUDGET for one ruleset's searches."""

    def __init__(self, evaluations: int = CHECK_BUDGET):
        self.left = evaluations

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise _OutOfBudget


class _OutOfBudget(Exception):
    """The static checks' budget is spent."""


class LintWarning(RulespecError):
    """A located problem that does not stop the compile: `file:line:col: warning: message`."""

    def headline(self) -> str:
        return f"{self.span}: warning: {self.message}" if self.span else f"warning: {self.message}"


class _Report:
    """Collects the findings of every check."""

    def __init__(self):
        self.errors: list[RulespecError] = []
        self.warnings: list[LintWarning] = []

    def error(self, message: str, span: Span | None) -> None:
        self.errors.append(RulespecError(message, span))

    def warning(self, message: str, span: Span | None) -> None:
        self.warnings.append(LintWarning(message, span))


def lint(rs: Ruleset) -> tuple[list[RulespecError], list[LintWarning]]:
    """Every check on a ruleset whose expressions are type-checked (those that failed are skipped)."""
    report = _Report()
    for check in CHECKS:
        check(rs, report)
    return report.errors, report.warnings


# ------------------------------------------------------------ where things are written


def _section(rs: Ruleset, key: str):
    value = rs.doc.get(key) if rs.doc is not None else None
    return value if value is not None else {}


def _key_span(mapping, key) -> Span | None:
    return getattr(mapping, "key_spans", {}).get(key) or getattr(mapping, "span", None)


def _value_span(mapping, key) -> Span | None:
    spans = getattr(mapping, "value_spans", {})
    return spans.get(key) or _key_span(mapping, key)


def _item_span(items, i: int) -> Span | None:
    spans = getattr(items, "item_spans", [])
    return spans[i] if i < len(spans) else getattr(items, "span", None)


def expressions(rs: Ruleset):
    """Every expression of the ruleset (conditions, points, switches, the target, `capture.forced` and
    `capture.leftovers` written over the options)."""
    items = [*rs.deal_checks, *rs.dealer_bonuses, *rs.hand_bonuses.values(), *rs.kinds, *rs.events.values(),
             *rs.outcomes.values()]
    for item in items:
        for value in (getattr(item, "when", None), getattr(item, "enabled", None)):
            if isinstance(value, Expression):
                yield value
    for c in [*rs.categories.values(), *rs.events.values()]:
        if isinstance(c.points, Expression):
            yield c.points
    for length in (rs.target, rs.hands, rs.lead, rs.forced, rs.leftovers, rs.forced_rule, rs.leftovers_rule):
        if isinstance(length, Expression):
            yield length


# ------------------------------------------------------------ categories


def _scorers(rs: Ruleset):
    """(what, category, span of the category, whether it is the default) for everything that scores."""
    for i, b in enumerate(rs.dealer_bonuses):
        node = _section(rs, "dealer_bonuses")[i]
        yield f"dealer bonus '{b.event}'", b.category, _value_span(node, "category"), False
    bonuses = _section(rs, "hand_bonuses")
    for name, b in rs.hand_bonuses.items():
        node = bonuses.get(name)
        yield f"hand bonus '{name}'", b.category, _value_span(node, "category") if node else b.span, False
    events = _section(rs, "events")
    for name, e in rs.events.items():
        node = events.get(name)
        if node is not None and "category" in node:
            yield f"event '{name}'", e.category, _value_span(node, "category"), False
        else:  # an event scores in the category of its own name
            yield f"event '{name}'", e.category, _key_span(events, name), True


def check_categories(rs: Ruleset, report: _Report) -> None:
    """Every category scored in exists and is from_events; every from_events category is scored in."""
    used = set()
    # An event of 0 points that names no category is only counted (made() in scoring): it scores nowhere.
    counted_only = {e.category for e in rs.events.values() if e.points == 0}
    for what, cat, span, defaulted in _scorers(rs):
        used.add(cat)
        c = rs.categories.get(cat)
        if c is None and defaulted and cat in counted_only:
            continue
        if c is None:
            hint = " (an event scores in the category of its own name unless it says category:)" if defaulted else ""
            report.error(f"{what} scores in unknown scoring category '{cat}'{did_you_mean(cat, rs.categories)}"
                         f"{hint}", span)
        elif not c.from_events:
            report.error(f"{what} scores in category '{cat}', which is computed from points, so nothing can "
                         f"score in it; give it from_events: true", span)
    if "total" in rs.categories:
        report.error("'total' is the sum of the categories; it cannot be a category itself",
                     rs.categories["total"].span)
    for name, c in rs.categories.items():
        if c.from_events and name not in used:
            # Inherited, it is written in a base the author may not edit (a shipped one): say what their file writes.
            own = rs.files[0] if len(rs.files) > 1 else None
            where = (f" (inherited by {own.name}: `scoring: {{{name}: null}}` there removes it)"
                     if own is not None and c.span is not None and str(c.span.file) != str(own) else "")
            report.warning(f"scoring category '{name}' is from_events but no event or bonus scores in it, "
                           f"so it is always 0{where}", c.span)


# ------------------------------------------------------------ names of bonuses and events


def check_bonus_names(rs: Ruleset, report: _Report) -> None:
    """excluded_by and shares_cards_with name other hand bonuses of the ruleset."""
    section = _section(rs, "hand_bonuses")
    for name, b in rs.hand_bonuses.items():
        node = section.get(name) or {}
        for key in ("excluded_by", "shares_cards_with"):
            items = node.get(key) if hasattr(node, "get") else None
            for i, other in enumerate(getattr(b, key)):
                span = _item_span(items, i) if items is not None else b.span
                if other == name:
                    report.error(f"hand bonus '{name}' names itself in {key}", span)
                elif other not in rs.hand_bonuses:
                    known = ", ".join(sorted(set(rs.hand_bonuses) - {name})) or "none"
                    report.error(f"hand bonus '{name}' names unknown bonus '{other}' in {key} (hand bonuses: "
                                 f"{known}){did_you_mean(other, rs.hand_bonuses)}", span)


def _nearest(spans, files) -> Span | None:
    """Of `spans`, the one written nearest the ruleset given along its `extends` chain `files` (its own file
    first; on a tie the first listed): where a variant made an inherited setting wrong, not the base it came from."""
    order = {str(f): i for i, f in enumerate(files)}
    return min((s for s in spans if s is not None), key=lambda s: order.get(str(s.file), len(order)), default=None)


def check_unique_by(rs: Ruleset, report: _Report) -> None:
    """`unique_by` compares the value or rank of the one card a bonus is made with: a bonus of more cards has no
    single value or rank to compare (the engine would silently compare its highest card's)."""
    section = _section(rs, "hand_bonuses")
    for name, b in rs.hand_bonuses.items():
        if b.unique_by and b.size != 1:
            node = section.get(name) if hasattr(section, "get") else None
            spans = [_value_span(node, key) for key in ("unique_by", "size") if node is not None and key in node]
            span = _nearest(spans, rs.files) or b.span
            report.error(f"hand bonus '{name}' has unique_by {b.unique_by} but is made by {b.size} cards: unique_by "
                         f"compares the {b.unique_by} of a one-card bonus (size: 1), and {b.size} cards have no "
                         f"single {b.unique_by}", span)


def check_event_names(rs: Ruleset, report: _Report) -> None:
    """Event names are told apart in the event log: no name is made by two kinds of rule."""
    seen: dict[str, str] = {}

    def see(name: str, kind: str, what: str, span):
        first = seen.setdefault(name, kind)
        if first != kind:
            clash = f"has the name of a {first}" if what.endswith(f"'{name}'") else \
                f"makes event '{name}', the name of a {first}"
            report.warning(f"{what} {clash}: the event log cannot tell them apart", span)

    for i, c in enumerate(rs.deal_checks):
        see(c.event, "deal check", f"deal check '{c.name}'", _item_span(_section(rs, "deal_checks"), i))
    for i, b in enumerate(rs.dealer_bonuses):
        see(b.event, "dealer bonus", f"dealer bonus '{b.event}'", _item_span(_section(rs, "dealer_bonuses"), i))
    for name, b in rs.hand_bonuses.items():
        see(name, "hand bonus", f"hand bonus '{name}'", b.span)
    for name in rs.events:
        see(name, "play event", f"event '{name}'", _key_span(_section(rs, "events"), name))


def check_made_names(rs: Ruleset, report: _Report) -> None:
    """made("x") and rivals_made("x") in scoring count an event of the ruleset: a play event, a hand bonus, a
    dealer bonus or a deal check's event (a name it never makes would count 0 in every hand)."""
    made = {*rs.events, *rs.hand_bonuses, *(b.event for b in rs.dealer_bonuses),
            *(c.event for c in rs.deal_checks if c.result != "dealer_wins")}
    for c in rs.categories.values():
        if not isinstance(c.points, Expression) or c.points.tree is None:
            continue
        for node in walk(c.points.tree):
            if isinstance(node, Call) and node.func in ("made", "rivals_made", "fewest_made") and node.args:
                name = getattr(node.args[0], "value", None)
                if isinstance(name, str) and name not in made:
                    known = ", ".join(sorted(made)) or "none"
                    report.error(f"{node.func}() counts event '{name}', which this ruleset does not make (events: "
                                 f"{known}){did_you_mean(name, made)}", node.args[0].span)


def check_running_game(rs: Ruleset, report: _Report) -> None:
    """`game.points: as_made` ends a game at its target: without one it changes nothing; `carry` on a category
    that can give points to several sides at once (a from_events one) would carry on every hand they both score."""
    game = _section(rs, "game")
    if rs.points_mode == "as_made" and rs.target is None:
        report.warning("game.points is as_made but the game has no target: points made in play end nothing, "
                       "and count as at the end of the hand", _value_span(game, "points"))
    for name, c in rs.categories.items():
        if c.carry and c.from_events:
            node = _section(rs, "scoring").get(name)
            report.warning(f"scoring category '{name}' carries its {c.carry} point{'s' if c.carry != 1 else ''} when no one side scores the most "
                           f"in it, but it is from_events: every hand that no event or bonus scores in it, or that "
                           f"two sides score alike, carries them on", _value_span(node, "carry"))


# ------------------------------------------------------------ options


def check_options(rs: Ruleset, report: _Report) -> None:
    """Every declared option is read by some expression."""
    used = {node.name for expr in expressions(rs) for node in walk(expr.tree)
            if isinstance(node, Attr) and node.base == "options"}
    for name, decl in rs.options.items():
        if name not in used:
            report.warning(f"option '{name}' is declared but no expression reads options.{name}", decl.span)


# ------------------------------------------------------------ deal and declarations


def check_deal_settings(rs: Ruleset, report: _Report) -> None:
    """Settings that only matter together with something the ruleset lacks."""
    doc = rs.doc
    if rs.misdeal_limit is None and any(c.result == "misdeal" for c in rs.deal_checks):
        report.error("a deal check gives a misdeal but the ruleset sets no misdeals.limit",
                     doc.value_spans.get("deal_checks"))
    if rs.misdeal_limit is not None and not any(c.result == "misdeal" for c in rs.deal_checks):
        report.warning("misdeals.limit is set but no deal check has result: misdeal", doc.key_spans.get("misdeals"))
    decl = doc.get("declarations")
    if decl and not rs.hand_bonuses:
        report.warning("declarations are set but the ruleset has no hand bonuses to declare",
                       doc.key_spans.get("declarations"))
    elif decl and rs.per_turn == "one" and rs.timing != "own_turn":
        report.warning(f"per_turn: one only matters with timing: own_turn (timing is {rs.timing})",
                       _value_span(decl, "per_turn"))


def check_pile_and_bury(rs: Ruleset, report: _Report) -> None:
    """A pile's sum kind never applies (its kinds see one table card); a bury condition that does not read
    `dealt` buries every card (an error: the table could never be dealt) or none; a bury with no table card
    dealt face up never applies, nor one `to: under` with no face-down card to turn up (an error)."""
    if rs.pile:
        for k in rs.kinds:
            if k.kind == "sum":
                report.warning("a sum takes two or more table cards, but a pile's capture kinds see only its top "
                               "card: this kind never applies", k.span)
    bury = rs.bury
    if bury is None or bury.when.tree is None or getattr(bury.when.tree, "type", None) is None:
        return
    if not any(isinstance(node, Name) and node.id == "dealt" for node in walk(bury.when.tree)):
        import copy

        from rulespec.checks.check import constant
        try:
            always = constant(rs, copy.deepcopy(bury.when), _BOOL)   # a copy: typing it again marks no tree
        except RulespecError:
            return
        if always and bury.to == "under":
            report.warning("deal.bury.when holds for every card (it does not read `dealt`): every face-down card "
                           "is turned up as the table is dealt", bury.when.span)
        elif always:
            report.error("deal.bury.when holds for every card (it does not read `dealt`): every table card dealt "
                         "face up would be buried and the table could never be dealt", bury.when.span)
        else:
            report.warning("deal.bury.when holds for no card (it does not read `dealt`): nothing is buried",
                           bury.when.span)
    if not any(s.kind == "table" and s.count > s.face_down for steps in rs.rounds for s in steps):
        report.warning("deal.bury: no table card is dealt face up, so none is ever buried", bury.span)
    elif bury.to == "under" and not any(s.face_down for steps in rs.rounds for s in steps):
        report.error("deal.bury to: under turns a face-down card up onto a buried one, but no table step lays "
                     "face-down cards (a table step's face_down): nothing would ever be turned up", bury.span)


def _seat_cards(rs: Ruleset) -> dict[int, list[int]]:
    """Per number of players: the cards each seat receives in each round."""
    out = {}
    for n, schedule in rs.schedules.items():
        out[n] = [seat for seat, _table, _steps in schedule.rounds]
    return out


def check_bonus_rounds(rs: Ruleset, report: _Report) -> None:
    """A hand bonus limited to rounds that never happen, or bigger than every hand it could be in."""
    per_count = _seat_cards(rs)
    if not per_count:
        return
    for name, b in rs.hand_bonuses.items():
        possible = []
        for rounds in per_count.values():
            for r, cards in enumerate(rounds, start=1):
                if not b.rounds or r in b.rounds or ("last" in b.rounds and r == len(rounds)):
                    possible.append(cards)
        if not possible:
            longest = max(len(r) for r in per_count.values())
            report.warning(f"hand bonus '{name}' is limited to {rounds_words(b.rounds, 'or')}, but the "
                           f"deal has at most {longest} round{'s' if longest > 1 else ''}", b.span)
        elif max(possible) < b.size:
            report.warning(f"hand bonus '{name}' is made by {b.size} cards, but a hand holds at most "
                           f"{max(possible)} in the rounds it may be declared", b.span)


# ------------------------------------------------------------ bonuses that can never be made
# This check runs the bonus conditions on every few cards of the deck, so it needs them as
# functions: the compiler calls never_made() with the compiled module's conditions.


def _runtime_names(expr: Expression) -> set[str]:
    return {n.id for n in walk(expr.tree) if isinstance(n, Name) and n.ref == "local"}


def _round_contexts(rs: Ruleset, b, uses_round: bool) -> list[tuple[int, bool]]:
    """(round, last_round) pairs the bonus may be declared in."""
    if not uses_round:
        return [(1, False)]
    pairs = set()
    for rounds in _seat_cards(rs).values():
        for r in range(1, len(rounds) + 1):
            last = r == len(rounds)
            if not b.rounds or r in b.rounds or ("last" in b.rounds and last):
                pairs.add((r, last))
    return sorted(pairs) or [(1, False)]


def never_made(rs: Ruleset, conditions: dict) -> list[LintWarning]:
    """Warnings for hand bonuses of at most 3 cards that no cards of the deck make.

    `conditions` maps a bonus name to its condition as a function (cards, hand, round,
    last_round) -> bool, such as the compiled module's; the wild card is tried as any rank
    it may be declared as.
    """
    report = _Report()
    functions = {name: f for name, f in conditions.items()
                 if name in rs.hand_bonuses and "hand" not in _runtime_names(rs.hand_bonuses[name].when)}
    size = rs.deck.size
    wild_bit = 1 << rs.wild if rs.wild is not None else 0
    virtual = [1 << (size + r) for r in rs.wild_declare_as] if rs.wild is not None and rs.declare_wild else []

    def variants(name: str, mask: int) -> list[int]:
        """The masks the condition sees: as dealt, and with the wild card declared as each rank."""
        if mask & wild_bit and rs.hand_bonuses[name].wild and virtual:
            return [mask] + [(mask ^ wild_bit) | v for v in virtual]
        return [mask]

    budget = _Budget()
    n_indices = size + (len(rs.deck.ranks) if rs.wild is not None else 0)
    costs = {name: evaluation_cost(rs.hand_bonuses[name].when.tree, n_indices) for name in functions}
    todo = [name for name, b in rs.hand_bonuses.items()
            if name in functions and b.size <= MAX_BONUS_SIZE and b.size <= size]
    for i, name in enumerate(todo):
        b = rs.hand_bonuses[name]
        names = _runtime_names(b.when) | {n for other in b.excluded_by if other in rs.hand_bonuses
                                          for n in _runtime_names(rs.hand_bonuses[other].when)}
        contexts = _round_contexts(rs, b, bool(names & {"round", "last_round"}))
        excluders = [o for o in b.excluded_by if o in functions]
        try:
            made, excluded = _search(functions, name, excluders, variants, contexts, size, b.size, budget, costs)
        except ArithmeticError:  # the condition fails on some cards (the engine would too): no verdict here
            continue
        except _OutOfBudget:
            left = ", ".join(f"'{n}'" for n in todo[i:i + 5]) + (f" and {len(todo) - i - 5} more"
                                                                 if len(todo) > i + 5 else "")
            report.warning(f"stopped checking whether hand bonuses can be made after {CHECK_BUDGET} evaluations "
                           f"(the budget of static checks); not checked: {left}",
                           _key_span(rs.doc, "hand_bonuses") if rs.doc is not None else b.when.span)
            return report.warnings
        if not made:
            report.warning(_never_message(rs, name, b, excluded, excluders, bool(wild_bit and b.wild and virtual)),
                           b.when.span)
    return report.warnings


def _never_message(rs: Ruleset, name: str, b, excluded: bool, excluders: list[str], wild_any: bool) -> str:
    wild = " (the wild card declared as any rank it may take)" if wild_any else ""
    cards = "card" if b.size == 1 else f"{b.size} cards"
    if excluded:
        others = " or ".join(f"'{o}'" for o in excluders)
        return (f"hand bonus '{name}' can never be made: every {cards} of deck {rs.deck.id} that "
                f"satisfy its condition can make {others}, which excludes it{wild}")
    return f"hand bonus '{name}' can never be made: no {cards} of deck {rs.deck.id} satisfy its condition{wild}"


def evaluation_cost(tree, n_indices: int) -> int:
    """How many evaluations of CHECK_BUDGET one evaluation of a checked condition is charged (1 or more)."""
    return max(1, -(-condition_steps(tree, n_indices) // STEPS_PER_EVALUATION))


def condition_steps(node, n_indices: int) -> int:
    """An over-estimate of the steps of one evaluation of a checked tree (see STEPS_PER_EVALUATION)."""
    if isinstance(node, Call) and node.func in ("count", "select") and len(node.args) == 2:
        pred = node.args[1]
        per_card = condition_steps(pred, n_indices) if uses_runtime(pred, node.pred_depth or 0) else 0
        return 1 + condition_steps(node.args[0], n_indices) + n_indices * per_card
    return 1 + sum(condition_steps(child, n_indices) for child in node.children())


def _search(functions, name, excluders, variants, contexts, size: int, k: int, budget: _Budget,
            costs: dict | None = None) -> tuple[bool, bool]:
    """(made, excluded): whether some k cards make the bonus, and whether some did but were excluded.

    `costs`: what an evaluation of each condition is charged (evaluation_cost; 1 if not given).
    """
    costs = costs or {}
    excluded = False
    for combo in combinations(range(size), k):
        mask = 0
        for c in combo:
            mask |= 1 << c
        # each condition once per variant (the wild card declared as each rank multiplies them)
        budget.spend(len(contexts) * sum(costs.get(f, 1) * len(variants(f, mask)) for f in [name, *excluders]))
        for ctx in contexts:
            if not any(functions[name](m, m, *ctx) for m in variants(name, mask)):
                continue
            if any(functions[o](m, m, *ctx) for o in excluders for m in variants(o, mask)):
                excluded = True
                continue
            return True, excluded
    return False, excluded


# ------------------------------------------------------------ division by what may be 0

# Lower and upper bounds of an int expression (None: unbounded), as far as they follow from
# its shape: counts and totals are 0 or more, a round is 1 or more, options are known.
_NON_NEGATIVE = frozenset({"count", "total", "max_same_rank", "run", "best_per_suit", "value", "abs"})
_LOCAL_LOW = {"round": 1, "side": 0}


def _bounds(node) -> tuple[int | None, int | None]:
    if isinstance(node, Int):
        return node.value, node.value
    if isinstance(node, Attr) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value, node.value
    if isinstance(node, Name) and node.ref == "local" and node.id in _LOCAL_LOW:
        return _LOCAL_LOW[node.id], None
    if isinstance(node, Neg):
        lo, hi = _bounds(node.operand)
        return (None if hi is None else -hi), (None if lo is None else -lo)
    if isinstance(node, IfElse):
        (a, b), (c, d) = _bounds(node.then), _bounds(node.other)
        return (None if a is None or c is None else min(a, c)), (None if b is None or d is None else max(b, d))
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        (a, b), (c, d) = _bounds(node.left), _bounds(node.right)
        if node.op == "-":
            c, d = (None if d is None else -d), (None if c is None else -c)
        return (None if a is None or c is None else a + c), (None if b is None or d is None else b + d)
    if isinstance(node, Call) and node.func in ("min", "max") and node.args:
        pairs = [_bounds(a) for a in node.args]
        los, his = [p[0] for p in pairs], [p[1] for p in pairs]
        if node.func == "max":
            known = [x for x in los if x is not None]
            return (max(known) if known else None), (None if None in his else max(his))
        known = [x for x in his if x is not None]
        return (None if None in los else min(los)), (min(known) if known else None)
    if isinstance(node, Call) and node.func in _NON_NEGATIVE:
        return 0, None
    return None, None


def check_divisions(rs: Ruleset, report: _Report) -> None:
    """A `//` or `%` whose divisor may be 0: the hand would stop there with an error."""
    for expr in expressions(rs):
        for node in walk(expr.tree):
            if isinstance(node, BinOp) and node.op in ("//", "%"):
                lo, hi = _bounds(node.right)
                if (lo is None or lo <= 0) and (hi is None or hi >= 0) and not (lo == hi == 0):
                    report.warning(f"the divisor of '{node.op}' may be 0, and a division by 0 stops the hand "
                                   f"with an error; divide by max(1, ...) or test it first", node.right.span)


# ------------------------------------------------------------ extends


def _path(path: list) -> str:
    return ".".join(str(p) for p in path)


# Sections whose keys are names the ruleset chooses: a new key there may be a misspelt inherited one.
_OPEN_SECTIONS = ("hand_bonuses", "events", "scoring", "outcomes", "options")


def _overrides(over, base, path: list, base_id: str, report: _Report) -> None:
    for key, value in over.items():
        here = path + [key]
        inherited = base.get(key) if isinstance(base, dict) else None
        if value is None:
            if inherited is None:
                known = list(base) if isinstance(base, dict) else []
                where = f" {_path(path)}" if path else ""
                report.error(f"'{_path(here)}' is set to null to remove it, but {base_id} has no '{key}'"
                             f"{' in' + where if where else ''} to remove{did_you_mean(key, known)}",
                             _key_span(over, key))
        elif isinstance(value, list) and isinstance(inherited, list) and _plain(value) == _plain(inherited):
            report.warning(f"'{_path(here)}' repeats the list {base_id} has: a list replaces the inherited one "
                           f"whole, so this changes nothing; remove it", _key_span(over, key))
        elif isinstance(value, dict) and isinstance(inherited, dict):
            _overrides(value, inherited, here, base_id, report)
        elif len(path) == 1 and path[0] in _OPEN_SECTIONS and key not in base:
            close = [k for k in base if isinstance(k, str) and _typo(str(key), k)]
            if close:
                report.warning(f"'{_path(here)}' is new here, not a change to {base_id}'s '{close[0]}'",
                               _key_span(over, key))


def _typo(a: str, b: str) -> bool:
    """Whether `a` is `b` with one slip (two in longer names): a letter added, dropped, changed or swapped."""
    if a == b or min(len(a), len(b)) <= 3:
        return False
    limit = 1 if max(len(a), len(b)) <= 6 else 2
    if abs(len(a) - len(b)) > limit:
        return False
    # Optimal string alignment distance.
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1] <= limit


def check_extends(rs: Ruleset, report: _Report) -> None:
    """Each file of an `extends` chain against what it inherits."""
    if len(rs.files) < 2:
        return
    docs = rs.chain_docs
    if len(docs) != len(rs.files):     # a ruleset built without the documents of its chain
        return
    for i in range(len(docs) - 1):
        over = docs[i]
        base = docs[-1]
        for d in reversed(docs[i + 1:-1]):
            base = merge(base, d)
        base_id = docs[i + 1]["id"]
        if over["id"] == base_id:
            report.error(f"id '{over['id']}' is the id of the ruleset it extends; give the variant an id of its own",
                         over.value_spans.get("id"))
        body = {k: v for k, v in over.items() if k not in ("id", "extends")}
        body = type(over)(body)
        body.key_spans, body.value_spans = over.key_spans, over.value_spans
        _overrides(body, base, [], base_id, report)


def check_short_deal_and_runs(rs: Ruleset, report: _Report) -> None:
    """A short last deal that no number of players needs; unless_match on a run that takes no sums."""
    from rulespec.checks.check import is_short
    deal = rs.doc.get("deal") or {}
    if rs.short_last and rs.schedules and not any(is_short(rs, s) for s in rs.schedules.values()):
        report.warning("deal.short_last: the rounds use the deck exactly for every number of players, so no last "
                       "round is short", _value_span(deal, "short_last"))
    kinds = (rs.doc.get("capture") or {}).get("kinds") or []
    for i, k in enumerate(rs.kinds):
        if k.kind == "run" and k.unless_match and "sum" not in k.after:
            report.warning("unless_match on a run keeps its sums back when a match exists, but this run takes no "
                           "sums (after: [match, sum])", _value_span(kinds[i], "unless_match") if i < len(kinds)
                           else k.span)


def check_build_owners(rs: Ruleset, report: _Report) -> None:
    """capture.builds.owners: per_side only decides who owns a build a set is added to, which needs multiple
    builds: with `multiple: false` nothing is ever added to a build, and the option does nothing."""
    b = rs.builds
    if b is None or b.owners != "per_side" or b.multiple:
        return
    builds = rs.doc.get("capture", {}).get("builds") if isinstance(rs.doc, dict) else None
    report.warning("capture.builds.owners: per_side only matters when a set is added to a build, which "
                   "multiple: false never allows: every build keeps its one owner",
                   _value_span(builds, "owners") if isinstance(builds, dict) else b.span)


def check_bid_and_builds(rs: Ruleset, report: _Report) -> None:
    """A bid that binds the first play to "a build of the value, or a card of it", of a value no build may have
    (capture.builds.values): the build is never open, so the bid binds the card alone; said, as a house rule that
    widened the bids and not the builds (or the reverse) likely meant otherwise."""
    bid, builds = rs.bid, rs.builds
    if bid is None or builds is None or builds.values is None or bid.binds != "first_play":
        return
    never = [v for v in bid.values if v not in builds.values]
    if never:
        section = rs.doc.get("bid") if isinstance(rs.doc, dict) else None
        written = (rs.doc.get("capture") or {}).get("builds") if isinstance(rs.doc, dict) else None
        # located at whichever of the two lists the variant wrote (the nearest along the extends chain)
        span = _nearest([_value_span(section, "values") if isinstance(section, dict) else bid.span,
                         _value_span(written, "values") if isinstance(written, dict) else None], rs.files)
        shown = ", ".join(map(str, never))
        report.warning(f"bid.values: a bid of {shown} binds the first play to a build of its value or a card of it, "
                       f"but no build is of {shown} (capture.builds.values: "
                       f"{', '.join(map(str, sorted(builds.values)))}): only the card keeps such a bid",
                       span or bid.span)


CHECKS = [
    check_extends,
    check_categories,
    check_bonus_names,
    check_unique_by,
    check_event_names,
    check_made_names,
    check_running_game,
    check_options,
    check_deal_settings,
    check_pile_and_bury,
    check_bonus_rounds,
    check_divisions,
    check_short_deal_and_runs,
    check_build_owners,
    check_bid_and_builds,
]
