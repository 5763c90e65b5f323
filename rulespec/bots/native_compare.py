"""A paired comparison (bots/compare.py) on the native engine: each ruleset's hands played in generated C, the
pairs summed in Python.

Hand i of either ruleset is hand i of a native `simulate` run with the comparison's seed, which is the hand
the Python engine plays from the same stream (rulespec/run/stream.py): the paired sums, and so every
figure, are the Python engine's. Random and greedy bots only (the bots the C plays a whole hand with).
"""
from __future__ import annotations

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
    as its run_pair_chunk adds Hands); return it."""
    from rulespec.compiler import native
    from rulespec.compiler.build import compile_ruleset
    base = compile_ruleset(job["base"], job["base_options"], root=job["root"])
    variant = compile_ruleset(job["variant"], job["variant_options"], root=job["root"])
    nb, nv = native.load(base), native.load(variant)
    scoring_b = {name: scoring for name, _kind, scoring in nb.meta.fired}
    scoring_v = {name: scoring for name, _kind, scoring in nv.meta.fired}
    same_cards = base.module.CARD_NAMES == variant.module.CARD_NAMES
    for first in range(start, stop, BATCH):
        count = min(BATCH, stop - first)
        rows_b, rows_v = (nat.run(job["seed"], first, count, job["seats"], per_hand=True, bots=job["bots"],
                                  pairs=True).per_hand for nat in (nb, nv))
        for hb, hv in zip(rows_b, rows_v):
            out.add(hb["scores"] if hb["plays"] else [], hv["scores"] if hv["plays"] else [])
            out.add_fired(_fired(hb, scoring_b), _fired(hv, scoring_v))
            out.same_deal += same_cards and hb["kept"] == hv["kept"]
    return out


def _fired(row: dict, scoring: dict) -> dict:
    """A native row's events per (side, name): (times fired, points brought, 0 for one that scores in no
    category); nothing for a hand the deal ended (as compare's _fired counts a Hand's)."""
    if not row["plays"]:
        return {}
    return {key: (times, points if scoring.get(key[1]) else 0) for key, (times, points) in row["fired"].items()}
