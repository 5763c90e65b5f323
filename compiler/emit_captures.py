"""Capture enumeration, specialised to the ruleset's capture kinds by the plan.

Two functions share one body: `_options` (the capture masks of one played
card, for `captures`) and `legal` (every (card, mask) move of a hand). A
`_Body` writes that body for one of them; each capture kind has its own
small emitter giving the list of sets it offers.
"""
from __future__ import annotations

from rulespec.checks.check import CAPTURE_NAMES, pile_names
from rulespec.lang.model import CaptureKind, Ruleset

from .emit_expr import emit_rule
from .plan import CapturePlan, Plan, run_tables
from .writer import Writer, file_name

# In the capture functions the played card's index is already the local `p`.
_PLAYED_AT_P = {"played": "p"}

_RANK_MATCHES = "[1 << i for i in _rt.bits(table) if not _NUMBERED[i] and _RANK[i] == _RANK[p]]"


def emit_captures(w: Writer, rs: Ruleset, plan: Plan) -> None:
    cp = plan.captures
    w(f"FORCED = {rs.forced!r}")
    w("_SUMS = {}  # table mask -> its subsets by total (runtime.subset_sums)")
    w(f"LEFTOVERS = {rs.leftovers!r}")
    if any(k.kind == "run" for k in rs.kinds):
        _run_tables(w, rs)
    w()
    w()
    if cp.general:
        _general(w, rs, cp)
        return
    w("def _options(p, played, table, sums, round, turn, play):")
    w('    """The capture sets of card index `p` (mask `played`) against a non-empty table."""')
    with w.block():
        _Body(w, rs, cp, pairs=False).write()
    w()
    w()
    w("def captures(played, table, round, turn, play):")
    w('    """Every capture set (masks) the played card has against the table, at this point of the hand."""')
    w("    if not table:")
    w("        return []")
    w(f"    return _options(played.bit_length() - 1, played, table, {cp.sums_call}, round, turn, play)")
    w()
    w()
    _legal(w, rs, cp)
    if cp.reading:
        _reading(w, cp)


def _general(w: Writer, rs: Ruleset, cp: CapturePlan) -> None:
    """The capture functions where a card has several values or takes several sets (capture.combine):
    a card's sets are listed for each value it may count as, then combined (runtime.combine)."""
    w(f"COMBINE = {cp.combine!r}")
    w()
    w()
    w("def _options(p, played, table, sums, round, turn, play, v):")
    w('    """The capture sets of card index `p` (mask `played`) counted as value `v`, against a non-empty table."""')
    with w.block():
        _Body(w, rs, cp, pairs=False, value_given=True).write()
    w()
    w()
    w("def _offered(p, played, table, sums, round, turn, play):")
    w('    """Every set card index `p` is offered, over the values it may count as (before they are combined)."""')
    w("    found = []")
    w(f"    for v in {_played_values(cp)}:")
    w("        found += _options(p, played, table, sums, round, turn, play, v)")
    w("    return _rt.unique(found) if len(found) > 1 else found")
    w()
    w()
    take = "_rt.combine({}, COMBINE)" if cp.combine != "one" else "{}"
    if cp.alone:     # a kind's sets marked with _rt.ALONE are offered as they are, unmarked, never combined
        take = "_rt.combine_alone({}, COMBINE)"
    w("def captures(played, table, round, turn, play):")
    w('    """Every capture set (masks) the played card has against the table, at this point of the hand."""')
    w("    if not table:")
    w("        return []")
    w("    p = played.bit_length() - 1")
    w("    return " + take.format(f"_offered(p, played, table, {cp.sums_call}, round, turn, play)"))
    w()
    w()
    w("def offered(played, table, round, turn, play):")
    w('    """The sets `captures` combines (capture.combine), as they are offered: a capture is judged by them alone."""')
    w("    if not table:")
    w("        return []")
    w(f"    return _offered(played.bit_length() - 1, played, table, {cp.sums_call}, round, turn, play)")
    w()
    w()
    def moves() -> None:
        w("got = " + take.format("_offered(p, 1 << p, table, sums, round, turn, play)"))
        w("out += [(p, m) for m in got]")
        w("if not got or not FORCED:")
        w("    out.append((p, 0))")
    _legal_frame(w, cp, moves)
    if cp.reading:
        _reading(w, cp)


def _played_values(cp: CapturePlan) -> str:
    """The values card index `p` may count as when played (a card with no value: 0, its rank matches)."""
    return "(_HVALUES[p] or (0,))" if cp.several else "(_VALUE[p],)"


def _reading(w: Writer, cp: CapturePlan) -> None:
    """`_reading`: how a play's capture counted, for an event's points (`played_value`, `sets`)."""
    w("def _reading(played, captured, table, round, turn, play):")
    w('    """(played_value, sets) of a play: the value the played card counted as (of its values, the highest')
    w('    that makes the capture) and how many disjoint offered sets the capture joined (0: none taken)."""')
    with w.block():
        w("p = played.bit_length() - 1")
        w(f"values = {_played_values(cp)}" if cp.general else "values = (_VALUE[p],)")
        w("if not captured or not table:")
        w("    return values[0], 0")
        w(f"sums = {cp.sums_call}")
        w("best = values[0], 0")
        w("for v in values:")
        args = "p, played, table, sums, round, turn, play, v" if cp.general else "p, played, table, sums, round, turn, play"
        options = f"_options({args})"
        if cp.alone:
            options = f"[m & ~_rt.ALONE for m in {options}]"
        w(f"    k = _rt.partition_sets(captured, {options})")
        w("    if k and (not best[1] or v > best[0]):")
        w("        best = v, k")
        w("return best")
    w()
    w()


def _run_tables(w: Writer, rs: Ruleset) -> None:
    """What a run kind reads (plan.run_tables): each card index's place in the deck's rank order, and per
    rank the mask of its cards (the wild card declared as that rank too)."""
    rank_no, masks = run_tables(rs)
    w("# kind run: per card index its rank's place in the deck's order; per rank, the mask of its cards")
    w(f"_RANK_NO = {rank_no!r}")
    w(f"_RANK_MASKS = ({''.join(hex(m) + ', ' for m in masks)})")


def _legal(w: Writer, rs: Ruleset, cp: CapturePlan) -> None:
    def moves() -> None:
        if cp.reads_played_mask:
            w("played = 1 << p")
        _Body(w, rs, cp, pairs=True).write()
    _legal_frame(w, cp, moves)


def _legal_frame(w: Writer, cp: CapturePlan, moves) -> None:
    """`legal()` around `moves()`, which writes card index `p`'s moves into `out` (the loop's body)."""
    w("def legal(hand, table, round, turn, play):")
    w('    """Every (card index, capture mask) move of a hand, 0 for no capture (no declared wild card), in')
    w('    ascending order (by card, then by mask: sorted(), the order every engine and bot draws from)."""')
    with w.block():
        w("if not table:")
        w("    return [(p, 0) for p in _rt.bits(hand)]")
        w(f"sums = {cp.sums_call}")
        w("out = []")
        w("for p in _rt.bits(hand):")
        with w.block():
            moves()
        w("out.sort()")
        w("return out")
    w()
    w()


class _Body:
    """The capture kinds of card index `p` against `table`.

    pairs=False: collect the capture masks in `found` and return them. pairs=True (legal
    moves): append (p, mask) moves straight to `out`, from position `n0` on.
    """

    def __init__(self, w: Writer, rs: Ruleset, cp: CapturePlan, pairs: bool, value_given: bool = False):
        self.w, self.rs, self.cp, self.pairs = w, rs, cp, pairs
        self.value_given = value_given      # `v` is a parameter: the value the card counts as (the general path)

    def comp(self, source: str, cond: str = "") -> str:
        """A list comprehension of the sets (or moves) in `source` that pass `cond`."""
        item = "(p, m)" if self.pairs else "m"
        return f"[{item} for m in {source}{' if ' + cond if cond else ''}]"

    def add(self, sets: str, pad: str = "") -> None:
        self.w(f"{pad}{'out' if self.pairs else 'found'} += {sets}")

    def write(self) -> None:
        w, cp = self.w, self.cp
        if not self.value_given:
            w("v = _VALUE[p]")
        # What the compiler knows: in a deck where every card has a value, `numbered` is always true.
        w("numbered = True" if cp.all_numbered else "numbered = _NUMBERED[p]")
        w("n0 = len(out)" if self.pairs else "found = []")
        if cp.needs_matches:
            self.matches()
        for n, k in enumerate(cp.kinds):
            with w.at(k.when.span if k.when is not None else k.span):
                w(f"# capture kind {n + 1}: {k.kind} ({file_name(k.span.file)}:{k.span.line})")
                if cp.merged and k is cp.summ:
                    w("# (merged with the match above)")
                elif cp.merged and k is cp.match:
                    self.merged()
                else:
                    self.kind(k)
        self.tail()

    def matches(self) -> None:
        w = self.w
        w("# a match: one table card of the same value (a card with no value: of the same rank)")
        singles = "[m for m in sums.get(v, ()) if m.bit_count() == 1]" if self.cp.needs_sums else \
            "[1 << i for i in _rt.bits(table) if _NUMBERED[i] and v in _TVALUES[i]]" if self.cp.several else \
            "[1 << i for i in _rt.bits(table) if _NUMBERED[i] and _VALUE[i] == v]"
        w(f"matches = ({singles} if numbered")
        w(f"           else {_RANK_MATCHES})")

    def merged(self) -> None:
        w = self.w
        w("# match and sum: every set of table cards totalling the played value")
        if self.cp.all_numbered:
            self.add(self.comp("sums.get(v, ())"))
            return
        w("if numbered:")
        self.add(self.comp("sums.get(v, ())"), "    ")
        w("else:")
        self.add(f"[(p, m) for m in {_RANK_MATCHES}]" if self.pairs else _RANK_MATCHES, "    ")

    def kind(self, k: CaptureKind) -> None:
        """One capture kind: its condition, then the sets it offers (all of them, or only them)."""
        w = self.w
        cond = []
        if k.when is not None:
            w.where(k.when)
            # With a pile the engine passes its top card as `table`: a condition's `top` is that local.
            pile_top = {"top": "table"} if self.rs.pile else None
            rule = emit_rule(self.rs, k.when, pile_names(self.rs, CAPTURE_NAMES), card_indices=_PLAYED_AT_P,
                             locals_as=pile_top)
            cond.append(f"({rule})")
        if k.kind in ("sum", "fifteen") and not self.cp.all_numbered:
            cond.insert(0, "numbered")
        if k.unless_match and k.kind != "run":      # a run's sums wait for no match, not its matches (run())
            cond.append("not matches")
        sets = _KIND_SETS[k.kind](self, k)
        if k.alone and self.cp.general and not self.pairs:
            sets = f"[m | _rt.ALONE for m in {sets}]"        # taken by itself (runtime.combine_alone)
        test = " and ".join(cond) if cond else "True"
        if k.exclusive:
            self.exclusive(test, sets)
        elif test == "True":
            self.add(sets)
        else:
            w(f"if {test}:")
            self.add(sets, "    ")

    def exclusive(self, test: str, sets: str) -> None:
        """An exclusive kind: when it offers anything, that is all that is offered."""
        w = self.w
        w(f"if {test}:")
        w(f"    got = {sets}")
        w("    if got:")
        if not self.pairs:
            w("        return got")
            return
        w("        del out[n0:]          # exclusive: the only captures offered")
        w("        out += got")
        if not self.cp.forced:
            w("        out.append((p, 0))")
        w("        continue")

    def tail(self) -> None:
        w, cp = self.w, self.cp
        if not self.pairs:
            if cp.prefer != "any":
                self.prefer()
            w("return (_rt.unique(found) if len(found) > 1 else found)" if cp.overlap else "return found")
            return
        if cp.overlap:
            w("out[n0:] = list(dict.fromkeys(out[n0:]))")
        if cp.prefer != "any":
            self.prefer()
        if cp.forced:
            w("if len(out) == n0:")
            w("    out.append((p, 0))")
        else:
            w("out.append((p, 0))")

    def prefer(self) -> None:
        """capture.prefer: of the sets offered (an exclusive kind's aside), only those with the fewest
        (or most) cards."""
        w, pick = self.w, "min" if self.cp.prefer == "fewest_cards" else "max"
        sets, each = ("out[n0:]", "_, m in out[n0:]") if self.pairs else ("found", "m in found")
        w(f"if len({'out) - n0' if self.pairs else 'found)'} > 1:          # prefer: {self.cp.prefer}")
        w(f"    k = {pick}(m.bit_count() for {each})")
        w(f"    {sets} = [x for x in {sets} if {'x[1]' if self.pairs else 'x'}.bit_count() == k]")

    # -- the sets each kind offers
    def sweep(self, k: CaptureKind) -> str:
        return "[(p, table)]" if self.pairs else "[table]"

    def match(self, k: CaptureKind) -> str:
        return "[(p, m) for m in matches]" if self.pairs else "matches"

    def sum(self, k: CaptureKind) -> str:
        return self.comp("sums.get(v, ())", f"m.bit_count() >= {max(k.min_cards, 2)}")

    def fifteen(self, k: CaptureKind) -> str:
        return self.comp(f"sums.get({k.total} - v, ())", f"m.bit_count() >= {k.min_cards}" if k.min_cards > 1 else "")

    def run(self, k: CaptureKind) -> str:
        """A match (and, with `after: [.., sum]`, a sum) each continued by the table's cards of the next
        ranks up from the played card, one per rank, as far as the table goes (runtime.run_sets)."""
        bases = []
        if "match" in k.after:
            same = "_NUMBERED[i] and _VALUE[i] == v" if self.cp.all_numbered else \
                "(_NUMBERED[i] and _VALUE[i] == v if numbered else not _NUMBERED[i] and _RANK[i] == _RANK[p])"
            bases.append(f"[1 << i for i in _rt.bits(table) if {same}]")
        if "sum" in k.after:
            when = " and not matches" if k.unless_match else ""
            sums = "[m for m in sums.get(v, ()) if m.bit_count() >= 2]"
            bases.append(sums if self.cp.all_numbered and not when else f"({sums} if numbered{when} else [])")
        sets = f"_rt.run_sets(p, table, {' + '.join(bases)}, _RANK_NO, _RANK_MASKS)"
        return self.comp(sets, f"m.bit_count() >= {k.min_cards}" if k.min_cards > 1 else "")


_KIND_SETS = {"sweep": _Body.sweep, "match": _Body.match, "sum": _Body.sum, "fifteen": _Body.fifteen,
              "run": _Body.run}
