"""A variant against its base (`rulespec simulate VARIANT --compare BASE`): paired hands, common random numbers.

Hand `i` of a comparison is played twice, once under each ruleset, from the
same random streams: the same shuffled deck order (the same cards where the
decks have the same size), the same bots with the same seeds (so the same
choices wherever the two hands offer the same moves). The difference of the
two hands' points, per side and category, is then a paired sample: its mean
and 95% interval are far tighter than two independent runs would give, and a
category the variant does not change shows a difference of exactly 0.
A category one ruleset lacks counts 0 in it. Each event and hand bonus is
paired the same way, per side: the times it fired in the hand and the points
it brought (0 in a ruleset that lacks it). Like `simulate`, the figures
depend on (seed, hands) only, never on the number of workers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import mul, sub

from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.bots.simulate import half_width95, json_figure
from rulespec.errors import RulespecError
from rulespec.run.engine import Hand, shuffled_source
from rulespec.run.stream import Stream


@dataclass
class Paired:
    """Integer sums over paired hands: per (side, category) each ruleset's points and their difference."""

    sides: int
    categories: tuple[str, ...]
    hands: int = 0
    base: dict = field(default_factory=dict)        # (side, cat) -> sum of the base's points
    variant: dict = field(default_factory=dict)     # (side, cat) -> sum of the variant's points
    diff: dict = field(default_factory=dict)        # (side, cat) -> sum of (variant - base)
    diff_sq: dict = field(default_factory=dict)     # (side, cat) -> sum of (variant - base)^2
    same_deal: int = 0                              # hands in which both were dealt the same cards
    variant_id: str = ""
    base_id: str = ""
    only_base: tuple = ()                           # categories the variant lacks (0 there)
    only_variant: tuple = ()                        # categories the base lacks (0 there)
    events: tuple = ()                              # (name, kind) of both rulesets' events and bonuses
    fired: dict = field(default_factory=dict)       # (side, name, "times" | "points", which) -> sum
    fired_sq: dict = field(default_factory=dict)    # (side, name, "times" | "points") -> sum of differences^2

    def add_fired(self, base: dict, variant: dict) -> None:
        """One paired hand's events: each ruleset's {(side, name): (times, points)}."""
        for side in range(self.sides):
            for name, _kind in self.events:
                b, v = base.get((side, name), (0, 0)), variant.get((side, name), (0, 0))
                for k, what in enumerate(("times", "points")):
                    for which, x in (("base", b[k]), ("variant", v[k]), ("diff", v[k] - b[k])):
                        key = (side, name, what, which)
                        self.fired[key] = self.fired.get(key, 0) + x
                    key = (side, name, what)
                    self.fired_sq[key] = self.fired_sq.get(key, 0) + (v[k] - b[k]) ** 2

    def add_fired_columns(self, side: int, name: str, what: str, base: list[int], variant: list[int]) -> None:
        """Many paired hands' times fired or points brought (`what`) of one event and side at once, as add_fired
        adds them hand by hand (the hands counted by `add_columns`' caller)."""
        d = list(map(sub, variant, base))
        for which, x in (("base", sum(base)), ("variant", sum(variant)), ("diff", sum(d))):
            key = (side, name, what, which)
            self.fired[key] = self.fired.get(key, 0) + x
        key = (side, name, what)
        self.fired_sq[key] = self.fired_sq.get(key, 0) + sum(map(mul, d, d))

    def fired_mean(self, which: str, side: int, name: str, what: str) -> float:
        return self.fired.get((side, name, what, which), 0) / self.hands if self.hands else 0.0

    def fired_difference(self, side: int, name: str, what: str) -> tuple[float, float]:
        """Mean per hand of (variant - base) times fired or points brought, and its 95% half-width."""
        if self.hands == 0:
            return 0.0, 0.0
        total = self.fired.get((side, name, what, "diff"), 0)
        return total / self.hands, half_width95(self.hands, total, self.fired_sq.get((side, name, what), 0))

    def add(self, base_rows: list[dict], variant_rows: list[dict]) -> None:
        self.hands += 1
        for side in range(self.sides):
            for cat in self.categories:
                b = base_rows[side].get(cat, 0) if base_rows else 0
                v = variant_rows[side].get(cat, 0) if variant_rows else 0
                key = (side, cat)
                self.base[key] = self.base.get(key, 0) + b
                self.variant[key] = self.variant.get(key, 0) + v
                self.diff[key] = self.diff.get(key, 0) + (v - b)
                self.diff_sq[key] = self.diff_sq.get(key, 0) + (v - b) ** 2

    def add_columns(self, side: int, cat: str, base: list[int], variant: list[int]) -> None:
        """Many paired hands' points of one side and category at once (a hand the deal ended: 0), as add adds
        them hand by hand; the caller counts the hands in `hands`."""
        d = list(map(sub, variant, base))
        key = (side, cat)
        self.base[key] = self.base.get(key, 0) + sum(base)
        self.variant[key] = self.variant.get(key, 0) + sum(variant)
        self.diff[key] = self.diff.get(key, 0) + sum(d)
        self.diff_sq[key] = self.diff_sq.get(key, 0) + sum(map(mul, d, d))

    def merge(self, other: "Paired") -> None:
        self.hands += other.hands
        self.same_deal += other.same_deal
        for name in ("base", "variant", "diff", "diff_sq", "fired", "fired_sq"):
            mine = getattr(self, name)
            for k, v in getattr(other, name).items():
                mine[k] = mine.get(k, 0) + v

    def mean(self, which: str, side: int, cat: str) -> float:
        return getattr(self, which).get((side, cat), 0) / self.hands if self.hands else 0.0

    def difference(self, side: int, cat: str) -> tuple[float, float]:
        """Mean of (variant - base) per hand and the half-width of its 95% interval."""
        n = self.hands
        if n == 0:
            return 0.0, 0.0
        total = self.diff.get((side, cat), 0)
        return total / n, half_width95(n, total, self.diff_sq.get((side, cat), 0))

    def significant(self, side: int, cat: str) -> bool:
        """Whether the 95% interval of the difference excludes 0."""
        m, half = self.difference(side, cat)
        return abs(m) > half


def _union(a: tuple, b: tuple) -> tuple:
    return tuple(a) + tuple(c for c in b if c not in a)


def _fired(hand, scoring: dict) -> dict:
    """A played hand's events per (side, name): (times fired, points brought); nothing for a hand the deal
    ended (as simulate counts them)."""
    out: dict = {}
    if not hand.plays:
        return out
    for e in hand.events:
        if e.side is None:
            continue
        times, points = out.get((e.side, e.name), (0, 0))
        out[(e.side, e.name)] = (times + 1, points + (e.points if scoring.get(e.name) else 0))
    return out


def _play(rules, n: int, seed: int, i: int, bots: list[str]):
    rng = Stream.for_hand(seed, i)                         # hand i of `simulate` with this seed
    hand = Hand(rules, n, i % n, shuffled_source(rules.N_CARDS, rng))
    players = [make_bot(spec, rng) for spec in bots]      # the hand's one stream, as simulate plays it
    play_out(hand, players)
    return hand


def _kept_deal(hand: Hand):
    """The first round of the deal the hand was played from: the one after the last deal thrown in (each
    thrown-in deal is followed by None in the log; later rounds come after). Where one ruleset throws the
    first deal in and the other does not, their first deals are alike but the hands are not played from
    the same cards."""
    log = hand.deal_log
    thrown = max((k for k, deal in enumerate(log) if deal is None), default=-1)
    return log[thrown + 1:thrown + 2]


def run_pair_chunk(job: dict, start: int, stop: int) -> Paired:
    """Hands start..stop-1 under both rulesets; the unit of work of the local process pool."""
    from rulespec.compiler.build import compile_ruleset
    out = Paired(job["sides"], tuple(job["categories"]), events=tuple(job["events"]))
    if job.get("native"):
        from rulespec.bots.native_compare import run_native_pairs
        return run_native_pairs(job, start, stop, out)
    base = compile_ruleset(job["base"], job["base_options"], root=job["root"]).module
    variant = compile_ruleset(job["variant"], job["variant_options"], root=job["root"]).module
    base_scores = {name: scoring for name, _kind, scoring in base.EVENTS}
    variant_scores = {name: scoring for name, _kind, scoring in variant.EVENTS}
    for i in range(start, stop):
        hb = _play(base, job["seats"], job["seed"], i, job["bots"])
        hv = _play(variant, job["seats"], job["seed"], i, job["bots"])
        out.add(hb.score() if hb.plays else [], hv.score() if hv.plays else [])
        out.add_fired(_fired(hb, base_scores), _fired(hv, variant_scores))
        out.same_deal += _kept_deal(hb) == _kept_deal(hv) and base.CARD_NAMES == variant.CARD_NAMES
    return out


def compare(variant, base, *, hands: int, seed: int = 0, seats: int | None = None, bots: str = "random",
            variant_options: dict | None = None, base_options: dict | None = None, workers: int | None = None,
            progress=None, root: str | None = None, engine: str = "python", err=None) -> Paired:
    """Play `hands` paired hands of `variant` and `base` (ids or paths) and sum their differences; with `root`,
    every file of both rulesets must lie under that folder.

    `engine` as `simulate --engine` (python, native or auto): the native engine plays the same hands, so
    the figures are the same; auto says on `err`, in one line, why it plays Python."""
    from rulespec.bots.simulate import _chunks, check_workers, default_workers
    from rulespec.compiler.build import compile_ruleset
    cv = compile_ruleset(variant, variant_options, root=root)
    cb = compile_ruleset(base, base_options, root=root)
    rv, rb = cv.module, cb.module
    n = seats if seats is not None else rv.DEFAULT_SEATS
    for rules in (rv, rb):
        if n not in rules.SEATS_ALLOWED:
            raise RulespecError(f"{rules.RULESET_ID} is played by {', '.join(map(str, rules.SEATS_ALLOWED))} "
                                f"players, not {n}: compare them with --seats a count both allow")
    if rv.SIDES[n] != rb.SIDES[n]:
        raise RulespecError(f"with {n} players {rv.RULESET_ID} has {rv.SIDES[n]} sides and {rb.RULESET_ID} "
                            f"{rb.SIDES[n]}: their points per side cannot be paired")
    if hands < 2:
        raise RulespecError("a comparison needs at least 2 hands (an interval needs two differences)")
    check_workers(workers)
    job = {"variant": str(variant), "base": str(base), "variant_options": variant_options,
           "base_options": base_options, "root": None if root is None else str(root), "seats": n,
           "sides": rv.SIDES[n], "seed": seed,
           "bots": parse_bots(bots, n, rv.SIDES[n]),
           "categories": _union(tuple(rb.CATEGORIES), tuple(rv.CATEGORIES)) + ("total",),
           "events": _union(tuple((name, kind) for name, kind, _s in rb.EVENTS),
                            tuple((name, kind) for name, kind, _s in rv.EVENTS if name not in
                                  {e[0] for e in rb.EVENTS}))}
    from rulespec.bots.native_compare import choose_pair
    job["native"] = choose_pair(engine, cv, cb, bots=job["bots"], err=err)
    chunks = _chunks(hands, workers or default_workers())
    parts = _run_pairs(job, chunks, workers, progress, engine, err)
    out = Paired(job["sides"], tuple(job["categories"]), events=tuple(job["events"]), variant_id=rv.RULESET_ID,
                 base_id=rb.RULESET_ID,
                 only_base=tuple(c for c in rb.CATEGORIES if c not in rv.CATEGORIES),
                 only_variant=tuple(c for c in rv.CATEGORIES if c not in rb.CATEGORIES))
    for part in parts:
        out.merge(part)
    return out


def _run_pairs(job: dict, chunks: list, workers: int | None, progress, engine: str, err) -> list[Paired]:
    """The chunks' Paired, in chunk order; a hand past one of the C's fixed lists plays the comparison again
    on the Python engine under auto (as simulate does)."""
    from rulespec.bots.simulate import replayed, run_chunks
    from rulespec.compiler.native import NativeLimit
    progress = replayed(progress)
    try:
        return run_chunks(job, chunks, workers, progress, work=run_pair_chunk)[0]
    except NativeLimit as error:
        if not job["native"] or engine != "auto":
            raise
        if err is not None:
            print(f"rulespec: using the Python engine: {error.headline()}", file=err)
        if progress is not None:
            progress.again()              # the hands the native chunks reported are not counted twice
        return run_chunks(dict(job, native=False), chunks, workers, progress, work=run_pair_chunk)[0]


def to_dict(p: Paired, **head) -> dict:
    """The comparison as JSON-ready data."""
    r4 = json_figure
    doc = dict(head)
    doc.update({"variant": p.variant_id, "base": p.base_id, "hands": p.hands,
                "same_deal": p.same_deal, "categories": {}})
    for cat in p.categories:
        doc["categories"][cat] = {
            str(s): {"base": r4(p.mean("base", s, cat)), "variant": r4(p.mean("variant", s, cat)),
                     "difference": r4(p.difference(s, cat)[0]), "ci95": r4(p.difference(s, cat)[1]),
                     "significant": p.significant(s, cat)}
            for s in range(p.sides)}
    doc["events"] = {name: {"kind": kind, "side": {str(s): {what: _paired_figures(p, s, name, what)
                                                              for what in ("times", "points")}
                                                      for s in range(p.sides)}}
                     for name, kind in p.events}
    return doc


def _paired_figures(p: Paired, side: int, name: str, what: str) -> dict:
    m, half = p.fired_difference(side, name, what)
    return {"base": json_figure(p.fired_mean("base", side, name, what)),
            "variant": json_figure(p.fired_mean("variant", side, name, what)),
            "difference": json_figure(m), "ci95": json_figure(half), "significant": abs(m) > half}


def render(p: Paired, console, title: str) -> None:
    """Per category and side: base mean, variant mean, the difference ± its 95% interval, significant or not."""
    from rich.table import Table
    table = Table(title=title)
    table.add_column("category")
    table.add_column("side", justify="right")
    for col in ("base", "variant", "variant - base (95%)", "significant"):
        table.add_column(col, justify="right")
    for cat in p.categories:
        for s in range(p.sides):
            m, half = p.difference(s, cat)
            table.add_row(cat if s == 0 else "", str(s), f"{p.mean('base', s, cat):.3f}",
                          f"{p.mean('variant', s, cat):.3f}", f"{m:+.3f} ± {half:.3f}",
                          "yes" if p.significant(s, cat) else "no")
    console.print(table)
    if p.events:
        table = Table(title="events and bonuses per hand (*: the 95% interval excludes 0)")
        table.add_column("event or bonus")
        table.add_column("side", justify="right")
        for col in ("times: base", "variant", "variant - base", "points: variant - base"):
            table.add_column(col, justify="right")
        for name, kind in p.events:
            for s in range(p.sides):
                cells = []
                for what in ("times", "points"):
                    m, half = p.fired_difference(s, name, what)
                    cells.append(f"{m:+.3f} ± {half:.3f}{' *' if abs(m) > half else '  '}")
                table.add_row(f"{name} ({kind})" if s == 0 else "", str(s),
                              f"{p.fired_mean('base', s, name, 'times'):.3f}",
                              f"{p.fired_mean('variant', s, name, 'times'):.3f}", *cells)
        console.print(table)
    notes = [f"{p.hands} paired hands; {p.same_deal} dealt the same cards in both"]
    if p.only_base:
        notes.append(f"only in {p.base_id}: {', '.join(p.only_base)} (0 in {p.variant_id})")
    if p.only_variant:
        notes.append(f"only in {p.variant_id}: {', '.join(p.only_variant)} (0 in {p.base_id})")
    console.print("; ".join(notes))
