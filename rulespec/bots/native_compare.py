"""A paired comparison (bots/compare.py) on the native engine: each ruleset's hands played in generated C, the
pairs summed in Python.

Hand i of either ruleset is hand i of a native `simulate` run with the comparison's seed, which is the hand
the Python engine plays from the same stream (rulespec/run/stream.py): the paired sums, and so every
figure, are the Python engine's. Random and greedy bots only (the bots the C plays a whole hand with).
"""
from __future__ import annotations

from operator import and_, eq, mul

from rulespec.errors import RulespecError

BATCH = 5_000           # hands per native call of each ruleset (two rows of each come back to Python)
NATIVE_BOTS = ("random", "greedy")


def choose_pair(engine: str, variant, base, *, bots: list[str], err=None) -> bool:
    """Whether a comparison of two compiled rulesets plays on the native engine (each library built or taken
    from the cache). `engine` as `simulate --engine`: native raises a RulespecError naming the obstacle;
    auto says it in one line on `err` and plays Python."""
    from rulespec.bots.native_sim import choose_engine
    if engine == "python":
        return False
    if any(b not in NATIVE_BOTS for b in bots):
        why = f"--compare plays {' and '.join(NATIVE_BOTS)} bots on the native engine"
        if engine == "native":
            raise RulespecError(why)
        if err is not None:
            print(f"rulespec: using the Python engine: {why}", file=err)
        return False
    return all(choose_engine(engine, compiled, bots=bots, err=err) is not None for compiled in (variant, base))


def run_native_pairs(job: dict, start: int, stop: int, out):
    """Add paired hands start..stop-1 of a comparison's job, played on the native engine (libraries loaded from
    the cache, built there by the process that started the comparison), to `out` (bots/compare.py's Paired,
    as its run_pair_chunk adds Hands); return it. Each batch's rows are summed a column at a time (a side's
    category, an event's times or points over the batch's hands), not hand by hand."""
    from rulespec.compiler import native
    from rulespec.compiler.build import compile_ruleset
    base = compile_ruleset(job["base"], job["base_options"], root=job["root"])
    variant = compile_ruleset(job["variant"], job["variant_options"], root=job["root"])
    nb, nv = native.load(base), native.load(variant)
    same_cards = base.module.CARD_NAMES == variant.module.CARD_NAMES
    for first in range(start, stop, BATCH):
        count = min(BATCH, stop - first)
        raw_b, raw_v = (nat.run(job["seed"], first, count, job["seats"], per_hand=True, bots=job["bots"],
                                pairs=True, raw=True).raw for nat in (nb, nv))
        cols_b = _Columns(nb.meta, raw_b, job["seats"], count)
        cols_v = _Columns(nv.meta, raw_v, job["seats"], count)
        out.hands += count
        for side in range(out.sides):
            for cat in out.categories:
                out.add_columns(side, cat, cols_b.points(side, cat), cols_v.points(side, cat))
            for name, _kind in out.events:
                for what in ("times", "points"):
                    out.add_fired_columns(side, name, what, cols_b.fired(side, name, what),
                                          cols_v.fired(side, name, what))
        if same_cards:
            out.same_deal += cols_b.same_deals(cols_v)
    return out


class _Columns:
    """One batch of a ruleset's rows (Native.run's raw rows and pair rows) read a column at a time: a list per
    side and category or event, one entry per hand, as compare's hand-by-hand sums read them."""

    def __init__(self, meta, raw, seats: int, count: int):
        self.rows, self.stride, self.pairs, self.pstride = raw
        self.count, self.seats, self.k = count, seats, meta.sides[seats]
        self.cats = list(meta.categories) + ["total"]
        self.names = list(meta.events)
        self.scoring = {name: scoring for name, _kind, scoring in meta.fired}
        # a hand the deal ended (no plays) counts no events, as compare's _fired counts a Hand's
        self.played = [1 if plays else 0 for plays in self.rows[0::self.stride]]

    def points(self, side: int, cat: str) -> list[int]:
        """The side's points in a category per hand (0 where the ruleset lacks it; a hand the deal ended: 0)."""
        if cat not in self.cats:
            return [0] * self.count
        return self.rows[2 + side * len(self.cats) + self.cats.index(cat)::self.stride]

    def fired(self, side: int, name: str, what: str) -> list[int]:
        """Per hand the times the event fired for the side (`what` "times"), or the points it brought ("points":
        0 for an event that scores in no category); 0 where the ruleset lacks it or the deal ended the hand."""
        if name not in self.names or (what == "points" and not self.scoring.get(name)):
            return [0] * self.count
        at = (side if what == "times" else self.k + side) * len(self.names) + self.names.index(name)
        return list(map(mul, self.pairs[at::self.pstride], self.played))

    def same_deals(self, other: "_Columns") -> int:
        """In how many hands the two rulesets kept the same deal's first round (the table, each seat's hand)."""
        kept = 2 * self.k * len(self.names)
        same = [True] * self.count
        for j in range(kept, kept + 1 + self.seats):
            same = list(map(and_, same, map(eq, self.pairs[j::self.pstride],
                                            other.pairs[j - kept + 2 * other.k * len(other.names)::other.pstride])))
        return sum(same)
