"""The names a transcript writes (events, bonuses, categories, outcomes), checked against its ruleset.

Read without playing (`rulespec validate`): a name the ruleset does not have is located where it was
written, with the nearest name it does have, instead of failing at replay as a difference.
"""
from __future__ import annotations

from rulespec.errors import RulespecError, did_you_mean, or_list

# engine.TARGET_OUTCOME: a hand that ends at the target as its points are made (`game.points: as_made`).
TARGET_OUTCOME = "target"
_LISTED = 20     # names listed after a message at most (a stranger's ruleset may declare thousands)


def _unique(*groups) -> list[str]:
    return list(dict.fromkeys(name for group in groups for name in group))


def names_of(ruleset) -> dict[str, list[str]]:
    """What each place of a transcript may name, in the ruleset's order (every rule, enabled or not: one
    an option turns off is a difference replay reports, not a misspelling)."""
    dealer_bonus = [b.event for b in ruleset.dealer_bonuses]
    return {
        "bonus": list(ruleset.hand_bonuses),
        "play event": _unique(ruleset.events, ruleset.hand_bonuses),
        "side event": _unique(ruleset.events, ruleset.hand_bonuses, dealer_bonus),
        "dealer event": _unique(dealer_bonus, (c.event for c in ruleset.deal_checks if c.result != "dealer_wins"),
                                [ruleset.bid.void] if getattr(ruleset, "bid", None) is not None else []),
        "category": _unique(ruleset.categories, ["total"]),
        "outcome": _unique(ruleset.outcomes, (c.name for c in ruleset.deal_checks if c.result == "dealer_wins"),
                           ["misdeal"] if ruleset.misdeal_limit else [],
                           [TARGET_OUTCOME] if ruleset.points_mode == "as_made" else []),
    }


# What each kind is called in a message, and how the list of known names is introduced.
_WORDS = {
    "bonus": ("bonus", "{id}'s bonuses"),
    "play event": ("event", "a play's events in {id}"),
    "side event": ("event", "a side's events in {id}"),
    "dealer event": ("dealer event", "{id}'s dealer events"),
    "category": ("category", "{id}'s categories"),
    "outcome": ("outcome", "{id}'s outcomes"),
}


# A name written in the wrong place: what it is where the ruleset has it, and where a transcript writes that.
_ELSEWHERE = (
    ("outcome", "an outcome", "write it as `outcome: {name}`"),
    ("category", "a scoring category", "categories are written under expect.score"),
    ("dealer event", "a dealer event", "write it under expect.dealer_events"),
    ("side event", "an event", "a play's `events:` or expect.events"),
)


def _unknown(kind: str, name, names: dict[str, list[str]], ruleset_id: str, span) -> RulespecError:
    word, listed = _WORDS[kind]
    known = names[kind]
    shown = ", ".join(known[:_LISTED]) + (", ..." if len(known) > _LISTED else "")
    listing = f" ({listed.format(id=ruleset_id)}: {shown})" if known else f" ({ruleset_id} has none)"
    text = str(name)
    quoted = text if len(text) <= 60 else text[:57] + "..."
    for other, what, where in _ELSEWHERE:
        if other != kind and text in names[other]:
            hint = f": in {ruleset_id} it is {what} ({where.format(name=quoted)})"
            break
    else:
        hint = did_you_mean(text[:100], known)
    return RulespecError(f"unknown {word} '{quoted}'{hint}{listing}", span)


def _at(spans, i: int, fallback):
    return spans[i] if i < len(spans) else fallback


def check_names(transcript, ruleset) -> list[RulespecError]:
    """Every name the transcript writes that its ruleset does not have, each located, in file order; up to
    a play that expects a refusal, where replay stops (its `expect:` is not read either)."""
    known = names_of(ruleset)
    rid = ruleset.id
    errors: list[RulespecError] = []

    def check(kind, names, spans, fallback):
        for i, name in enumerate(names or ()):
            if name not in known[kind]:
                errors.append(_unknown(kind, name, known, rid, _at(spans, i, fallback)))

    for play in transcript.plays:
        if play.error is not None:
            # An expected refusal (a bonus the ruleset lacks, say) ends the replay: nothing after it is read.
            return errors
        for d in play.declare:
            if d.bonus not in known["bonus"]:
                errors.append(_unknown("bonus", d.bonus, known, rid, d.bonus_span or d.span))
        check("play event", play.events, play.event_item_spans, play.events_span or play.span)
    e = transcript.expect
    if e is not None:
        check("dealer event", e.dealer_events, e.dealer_event_spans, e.dealer_events_span or e.span)
        for side, names in sorted((e.events or {}).items()):
            check("side event", names, e.event_item_spans.get(side, ()), e.event_spans.get(side) or e.span)
        for side, cats in sorted((e.score or {}).items()):
            keys = e.score_key_spans.get(side, {})
            for cat in cats:
                if cat not in known["category"]:
                    errors.append(_unknown("category", cat, known, rid, keys.get(cat) or e.score_span))
        if e.outcome is not None and e.outcome not in known["outcome"]:
            errors.append(_unknown("outcome", e.outcome, known, rid, e.outcome_span or e.span))
        errors += _totals(e, ruleset)
        errors += _build_owners(e, ruleset)
    return errors


def check_constructs(transcript, ruleset) -> list[RulespecError]:
    """For `validate`, what replay refuses when it reaches it: a build or a bid written in a play of a
    ruleset without builds (capture.builds) or a bid (bid:), up to and including a play that expects a
    refusal (replay reads that play too), and a build in expect.table of a ruleset without builds."""
    errors = []
    for play in transcript.plays:
        where = f"play {play.number} (seat {play.seat}"
        if play.build is not None and getattr(ruleset, "builds", None) is None:
            errors.append(RulespecError(f"{where}, {play.card}) makes a build, but {ruleset.id} has no builds "
                                        f"(capture.builds)", play.build_span or play.span))
        if play.bid is not None and getattr(ruleset, "bid", None) is None:
            errors.append(RulespecError(f"{where}, bid {play.bid}) is a bid, but {ruleset.id} has no bid (bid:)",
                                        play.bid_span or play.span))
        if play.error is not None:
            return errors
        errors += _values_allowed(play, where, ruleset)
    e = transcript.expect
    if e is not None and e.table_builds and getattr(ruleset, "builds", None) is None:
        errors.append(RulespecError(f"expect.table shows a build, but {ruleset.id} has no builds (capture.builds)",
                                    e.table_builds[0].span or e.table_span or e.span))
    return errors


def _values_allowed(play, where: str, ruleset) -> list[RulespecError]:
    """A bid of a value `bid.values` does not list, or a build of a value `capture.builds.values` does not: the
    rules refuse it whatever the cards (replay would, at the play), so validate says so before any play."""
    errors = []
    bid, builds = getattr(ruleset, "bid", None), getattr(ruleset, "builds", None)
    if play.bid is not None and bid is not None and play.bid not in bid.values:
        errors.append(RulespecError(f"{where}, bid {play.bid}): {ruleset.id} bids {or_list(bid.values)} (bid.values), "
                                    f"not {play.bid}", play.bid_span or play.span))
    if (play.build is not None and play.value is not None and builds is not None and builds.values is not None
            and play.value not in builds.values):
        errors.append(RulespecError(f"{where}, {play.card}): value {play.value}: a build of {ruleset.id} is of "
                                    f"{or_list(builds.values)} (capture.builds.values)", play.value_span or play.span))
    return errors


def _build_owners(expect, ruleset) -> list[RulespecError]:
    """A build of expect.table given several owners where the ruleset's builds have one each
    (capture.builds.owners: last): the transcript asks for what the rules never make."""
    builds = getattr(ruleset, "builds", None)
    if builds is None or builds.owners == "per_side":
        return []
    return [RulespecError(f"owner: {list(tb.owner)}: a build of {ruleset.id} has one owner (capture.builds.owners: "
                          f"{builds.owners}); write its owner as one seat", tb.owner_span or tb.span or expect.span)
            for tb in expect.table_builds if tb.owner is not None and len(tb.owner) > 1]


def _totals(expect, ruleset) -> list[RulespecError]:
    """A side's `total` that is not the sum of its categories, where the expectation lists every category
    (a hand's total is that sum): an author's arithmetic, found before any play."""
    errors = []
    for side, cats in sorted((expect.score or {}).items()):
        if "total" not in cats or any(c not in cats for c in ruleset.categories):
            continue
        parts = [cats[c] for c in ruleset.categories]
        if not all(type(v) is int for v in [*parts, cats["total"]]):
            continue                                  # a value that is not a number is the schema's to report
        if sum(parts) != cats["total"]:
            span = expect.score_spans.get(side, {}).get("total") or expect.score_span or expect.span
            shown = " + ".join(str(v) for v in parts)
            errors.append(RulespecError(f"side {side}'s total is {cats['total']}, but its categories add up to "
                                        f"{sum(parts)} ({shown}): a hand's total is the sum of its categories",
                                        span))
    return errors
