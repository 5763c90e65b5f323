"""Fuzzing: the ruleset loader and compiler, the expression parser and checker, the transcript reader and replay.

    python bench/fuzz.py --seconds 600        (runs this module: bench/fuzz.py is its command line) [--seed 1] [--target all|rulesets|expressions|transcripts|injection] [--out DIR]

Inputs are random, or mutated from the shipped rulesets, their expressions
and the golden transcripts: byte flips, line deletions, duplications and
swaps, token swaps, key renames, odd values, splices. A ruleset that still
compiles is also played for one hand (invariants checked at the end); an
expression that still type-checks is emitted, compiled as Python and run on
random values. The injection target puts mutated hostile strings (quotes,
line breaks, `_rt.most(`, `__import__`, the creation of a canary file) into
string literals of scoring and condition expressions, into str option
defaults, choices and `--option` values, and into names the generated code
carries: the ruleset is refused with a located error, or compiles and plays a
hand, and the canary never appears. The only exception allowed out is RulespecError, and it must
carry a span (SPANLESS lists the few that need none, and why). Prints the
inputs tried and the failures, each saved under --out with its traceback.
tests/test_fuzz.py runs a short, fixed-seed fuzz in the suite.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import linecache
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import yaml as _yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.invariants import check_hand  # noqa: E402
from rulespec.compiler import build  # noqa: E402
from rulespec.compiler.emit_expr import emit  # noqa: E402
from rulespec.checks import check as check_stage  # noqa: E402
from rulespec.lang import expressions
from rulespec.run import runtime
from rulespec.lang import typecheck as tc
from rulespec.bots.policy import play_out  # noqa: E402
from rulespec.bots.random_bot import RandomBot  # noqa: E402
from rulespec.run.engine import Hand, shuffled_source  # noqa: E402
from rulespec.errors import RulespecError, Span  # noqa: E402
from rulespec.transcripts.replay import replay  # noqa: E402
from rulespec.source.rulesets import rulesets_dir, shipped_ids  # noqa: E402
from rulespec.transcripts.transcript import read_transcript  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

# RulespecErrors that may carry no span, each with the reason none is meaningful. None is left:
# every error about a file points into it (the replay puts the engine's "the transcript's deal
# does not list round N" at the transcript's deal), and the CLI's own errors (--option NAME=VALUE,
# an unknown option given on the command line) have no file; the fuzzer does not reach them.
SPANLESS: list[re.Pattern] = []

INTERESTING = ["0", "-1", "1", "52", "53", "999999999999999999", "99999999999999999999", "''", '""', "null", "~",
               "[]", "{}", "true", "false", "yes", "1.5", ".nan", "*a", "&a x", "!!str x", "'\\x00'", "\"\\ud800\"",
               "x" * 300, "[[[[[[]]]]]]", "'''", '"""', "#", "- x", "? x", "{a: b}", "|\n  x", "7H", "10S", "AD",
               "options.target", "count(table)", "most(count(pile))", "(", ")", "not", "and"]


class FuzzTimeout(Exception):
    """One input took longer than its budget."""


# Failures the fuzzer found before (each now a regression test): counted apart, so a run shows what is new.
KNOWN = {
    "redeal loop": "tests/test_fuzz.py::test_a_deal_check_that_always_holds_ends",
    "undefined matches": "tests/test_fuzz.py::test_a_capture_kind_listed_twice_compiles_to_working_code",
    "subset sums blow up": "tests/test_fuzz.py::test_a_big_table_does_not_blow_up_the_capture_search",
}


def known_issue(exc: BaseException | None) -> str | None:
    """The KNOWN label of a failure, if it is one of them."""
    if isinstance(exc, NameError) and "'matches'" in str(exc):
        # codegen: a second match (or an unless_match sum) beside a merged match and sum.
        return "undefined matches"
    if isinstance(exc, FuzzTimeout):
        frames = traceback.extract_tb(exc.__traceback__)
        # Redealing forever: a deal check that holds for every deal (engine.Hand._start never ends).
        if any(f.name == "_start" and f.filename.endswith("engine.py") for f in frames):
            return "redeal loop"
        # Every subset of a big table totalling at most the largest value, even for a match-only ruleset.
        if any(f.name == "subset_sums" for f in frames):
            return "subset sums blow up"
    return None


@dataclass
class Stats:
    """What a fuzz run did."""

    tried: dict = field(default_factory=dict)
    accepted: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)   # (target, key, message, input): new ones
    keys: set = field(default_factory=set)
    known: dict = field(default_factory=dict)      # KNOWN label -> how many times

    def count(self, target: str, accepted: bool) -> None:
        self.tried[target] = self.tried.get(target, 0) + 1
        self.accepted[target] = self.accepted.get(target, 0) + int(accepted)

    def fail(self, target: str, exc: BaseException | None, message: str, data) -> None:
        if isinstance(getattr(exc, "orig_exc", None), FuzzTimeout):
            # The alarm went off inside Lark's transformer, which wraps it (VisitError): a timeout.
            exc, message = exc.orig_exc, "took too long (in the expression parser)"
        label = known_issue(exc)
        if label is not None:
            self.known[label] = self.known.get(label, 0) + 1
            return
        where = ""
        if exc is not None:
            frames = traceback.extract_tb(exc.__traceback__)
            inner = [f for f in frames if "/rulespec/" in f.filename or "/compiler/" in f.filename] or frames
            if inner:
                where = f"{Path(inner[-1].filename).name}:{inner[-1].lineno}"
        key = (target, type(exc).__name__ if exc else "", where, message[:60] if exc is None else "")
        detail = "".join(traceback.format_exception(exc)) if exc is not None else message
        self.failures.append((target, key, f"{message}\n{detail}", data))
        self.keys.add(key)


# ------------------------------------------------------------------ corpus


def ruleset_corpus() -> list[str]:
    return [(rulesets_dir() / f"{rid}.yaml").read_text(encoding="utf-8") for rid in shipped_ids()]


def transcript_corpus() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(GOLDEN.rglob("*.yaml"))]


# Where an expression is written: its runtime names, the type it must have, whether most() is allowed.
PLACES = {
    "deal check": (check_stage.TABLE_NAMES, tc.BOOL, False),
    "hand bonus": (check_stage.BONUS_NAMES, tc.BOOL, False),
    "capture kind": (check_stage.CAPTURE_NAMES, tc.BOOL, False),
    "event": (check_stage.EVENT_NAMES, tc.BOOL, False),
    "scoring": (check_stage.SCORE_NAMES, tc.INT, True),
    "outcome": (check_stage.OUTCOME_NAMES, tc.BOOL, False),
}


def expression_corpus() -> list[tuple[str, str]]:
    """(place, text) of every expression in the shipped rulesets."""
    out = []
    for rid in shipped_ids():
        rs = build.compile_ruleset(rid).ruleset
        out += [("deal check", c.when.text) for c in rs.deal_checks]
        out += [("deal check", b.when.text) for b in rs.dealer_bonuses]
        out += [("hand bonus", b.when.text) for b in rs.hand_bonuses.values()]
        out += [("capture kind", k.when.text) for k in rs.kinds if k.when is not None]
        out += [("event", e.when.text) for e in rs.events.values()]
        out += [("scoring", c.points.text) for c in rs.categories.values() if hasattr(c.points, "text")]
        out += [("outcome", o.when.text) for o in rs.outcomes.values()]
    return sorted(set(out))


def expression_tokens(corpus) -> list[str]:
    words = {t for _, text in corpus for t in re.findall(r'"[^"]*"|\w+|//|[=!<>]=|[^\w\s]', text)}
    words |= set(tc.BUILTINS) | {"options", "deck", "wild", "pile", "played", "captured", "table", "previous",
                                 "last_play", "round", "cards", "hand", "side", "rank", "suit", "value", "card",
                                 "numbered", "if", "else", "not", "in", "and", "or", "true", "false", "0", "15",
                                 "-", "(", ")", "[", "]", "{", "}", ",", ":", ".", "|", "&", "+", "*", "//", "%",
                                 "==", "!=", "<", "<=", ">", ">=", "__import__", "_c", "7h", "ZZ", "'A'", "\"\\n\""}
    return sorted(words)


# ------------------------------------------------------------------ mutations


class Mutator:
    """Random edits of a text: the operators a careless or hostile author would make."""

    def __init__(self, rng: random.Random, corpus: list[str]):
        self.rng = rng
        self.corpus = corpus
        self.keys = sorted({m for text in corpus for m in re.findall(r"^\s*-?\s*([A-Za-z_][\w-]*):", text, re.M)})
        self.tokens = sorted({t for text in corpus for t in re.findall(r"\w+|[^\w\s]", text)})
        self.ops = [self.flip_byte, self.delete_line, self.duplicate_line, self.swap_lines, self.swap_tokens,
                    self.rename_key, self.replace_value, self.splice, self.insert_token, self.truncate,
                    self.delete_span, self.indent_line]

    def mutate(self, text: str, edits: int | None = None):
        data: str | bytes = text
        for _ in range(edits or self.rng.choice([1, 1, 1, 2, 2, 3, 5])):
            op = self.rng.choice(self.ops)
            if isinstance(data, bytes) and op is not self.flip_byte:
                data = data.decode("utf-8", errors="replace")
            data = op(data)
        return data

    def _lines(self, text: str) -> list[str]:
        return text.split("\n")

    def flip_byte(self, data):
        raw = bytearray(data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data)
        if not raw:
            return bytes([self.rng.randrange(256)])
        i = self.rng.randrange(len(raw))
        if self.rng.random() < 0.5:
            raw[i] ^= 1 << self.rng.randrange(8)
        else:
            raw[i] = self.rng.choice([0, 9, 10, 13, 34, 39, 35, 58, 38, 42, 0x80, 0xC3, 0xFF, self.rng.randrange(256)])
        return bytes(raw)

    def delete_line(self, text):
        lines = self._lines(text)
        del lines[self.rng.randrange(len(lines))]
        return "\n".join(lines)

    def duplicate_line(self, text):
        lines = self._lines(text)
        i = self.rng.randrange(len(lines))
        lines.insert(self.rng.randrange(len(lines) + 1), lines[i])
        return "\n".join(lines)

    def swap_lines(self, text):
        lines = self._lines(text)
        i, j = self.rng.randrange(len(lines)), self.rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)

    def indent_line(self, text):
        lines = self._lines(text)
        i = self.rng.randrange(len(lines))
        lines[i] = self.rng.choice([" ", "  ", "\t", "- "]) + lines[i] if self.rng.random() < 0.7 else lines[i].lstrip()
        return "\n".join(lines)

    def _token_spans(self, text):
        return [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]

    def swap_tokens(self, text):
        spans = self._token_spans(text)
        if len(spans) < 2:
            return text
        (a, b), (c, d) = sorted(self.rng.sample(spans, 2))
        if b > c:
            return text
        return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]

    def insert_token(self, text):
        spans = self._token_spans(text)
        at = self.rng.choice(spans)[self.rng.randrange(2)] if spans else 0
        word = self.rng.choice(self.tokens + INTERESTING)
        return text[:at] + word + text[at:]

    def rename_key(self, text):
        found = list(re.finditer(r"^(\s*-?\s*)([A-Za-z_][\w-]*)(:)", text, re.M))
        if not found:
            return text
        m = self.rng.choice(found)
        new = self.rng.choice(self.keys + [m[2] + "s", m[2][:-1], m[2].upper(), "__class__", "<<", "1", "true"])
        return text[:m.start(2)] + new + text[m.end(2):]

    def replace_value(self, text):
        found = list(re.finditer(r"(:\s+|-\s+|\[|,\s*)([^\s,\]\[{}#][^,\]\[{}#\n]*)", text))
        if not found:
            return text
        m = self.rng.choice(found)
        return text[:m.start(2)] + self.rng.choice(INTERESTING + self.tokens) + text[m.end(2):]

    def splice(self, text):
        other = self._lines(self.rng.choice(self.corpus))
        lines = self._lines(text)
        i = self.rng.randrange(len(other))
        chunk = other[i:i + self.rng.randint(1, 8)]
        at = self.rng.randrange(len(lines) + 1)
        return "\n".join(lines[:at] + chunk + lines[at:])

    def truncate(self, text):
        return text[:self.rng.randrange(len(text) + 1)]

    def delete_span(self, text):
        if not text:
            return text
        a = self.rng.randrange(len(text))
        return text[:a] + text[a + self.rng.randint(1, 40):]


# ------------------------------------------------------------------ generated rulesets


_CONDITIONS = {
    "table": ['count(table, rank == "{r}") >= 2', "can_total(table, 15)", "total(table) > 30", "count(table) == 4",
              'count(table, suit == "{s}") >= 3', "same_rank(table)"],
    "cards": ["same_value(cards)", "total(cards) <= 9", "same_suit(cards)", "same_rank(cards)",
              "total(cards) % 10 == 0", 'count(cards, rank == "{r}") == count(cards)'],
    "capture": ['rank(played) == "{r}"', "count(table) >= 3", 'suit(played) == "{s}"', "value(played) > 5"],
    "event": ["not empty(captured) and empty(table) and not last_play", "count(captured) >= 3",
              "same_suit(captured | played)", "not empty(captured & previous) and rank(played) == rank(previous)",
              "count(table_before) == 1 and empty(table)", "round == 1 and not empty(captured)"],
    "score": ["1 if most(count(pile)) else 0", '1 if most(count(pile, suit == "{s}")) else 0',
              '2 if most(count(pile, rank == "{r}")) else 0', "count(pile) // 10", "max_same_rank(pile)",
              "1 if holds(pile, {c}) else 0", '3 if holds_all(pile, select(deck, suit == "{s}")) else 0'],
    "outcome": ['count(pile, suit == "{s}") == count(deck, suit == "{s}")', "count(pile) > 30"],
}


def _schedule_fits(size: int, counts: list[int], rounds: list[list[dict]], repeat: bool) -> bool:
    for n in counts:
        used, i = 0, 0
        while used < size:
            if i < len(rounds):
                steps = rounds[i]
            elif repeat:
                steps = rounds[-1]
            else:
                return False
            need = sum(st.get("each", 0) for st in steps) * n + sum(st.get("table", 0) for st in steps)
            if used + need > size:
                return False
            used, i = used + need, i + 1
    return True


def _flow(value) -> str:
    """A value as one line of YAML flow text (strings quoted: expressions hold ': ', quotes and brackets)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(value)


def random_ruleset(rng: random.Random) -> str:
    """A ruleset valid by construction (most of the time), drawn from the language's whole range."""
    c = rng.choice
    if rng.random() < 0.4:
        deck_id, ranks, values, suits = c([("french40", "A234567JQK", list(range(1, 11)), "HDCS"),
                                           ("latin40", "A234567FCR", list(range(1, 11)), "CDBS")])
        ranks = list(ranks)
        deck = deck_id
    else:
        nr, ns = rng.randint(3, 13), rng.randint(1, 6)
        ranks = [str(i) for i in range(1, nr + 1)]
        values = [rng.choice([i, i, i, None, rng.randint(1, 12)]) if i <= 12 else None for i in range(1, nr + 1)]
        suits = rng.sample("HDCSXYZW", ns)
        deck = {"id": "gen", "ranks": [{"rank": r, "value": v} for r, v in zip(ranks, values)], "suits": suits}
    size = len(ranks) * len(suits)

    def fill(template: str) -> str:
        return template.format(r=c(ranks), s=c(suits), c=c(ranks) + c(suits))

    counts = sorted(rng.sample([2, 3, 4, 6], rng.randint(1, 3)))
    sides = {n: c([d for d in (1, 2, 3, n) if n % d == 0 and d > 1] or [n]) for n in counts}
    for _ in range(60):
        packet = rng.randint(1, 3)
        first = [{"each": packet * rng.randint(1, 3)}] + ([{"table": rng.randint(1, 5)}] if rng.random() < 0.8 else [])
        later = [{"each": packet * rng.randint(1, 3)}]
        rounds = [first, later] if rng.random() < 0.8 else [first]
        repeat = rng.random() < 0.9
        if _schedule_fits(size, counts, rounds, repeat):
            break
    doc = {"id": "generated", "deck": deck, "players": {"counts": counts, "default": c(counts), "sides": sides},
           "deal": {"packet": packet, "rounds": rounds, "repeat_last": repeat}}
    if rng.random() < 0.4:
        doc["wild"] = {"card": c(ranks) + c(suits), "declare_as": rng.sample(ranks, rng.randint(1, len(ranks)))}
    if rng.random() < 0.4:
        result = c(["redeal", "misdeal", "dealer_wins"])
        doc["deal_checks"] = [{"name": "check", "when": fill(c(_CONDITIONS["table"])), "result": result}]
        if result == "misdeal":
            doc["misdeals"] = {"limit": rng.randint(1, 3)}
    if rng.random() < 0.4:
        doc["dealer_bonuses"] = [{"event": "dealer_bonus", "when": fill(c(_CONDITIONS["table"])),
                                  "points": rng.randint(0, 3), "category": "scope",
                                  "capture_table": rng.random() < 0.5}]
    if rng.random() < 0.6:
        doc["hand_bonuses"] = {}
        for name in rng.sample(["one", "two", "three"], rng.randint(1, 3)):
            bonus = {"size": rng.randint(1, 4), "when": fill(c(_CONDITIONS["cards"])), "points": rng.randint(0, 10),
                     "category": "scope"}
            if rng.random() < 0.3:
                bonus["wild"] = False
            if rng.random() < 0.2:
                bonus["rounds"] = c([[1], ["last"], [1, 2]])
            if rng.random() < 0.2:
                bonus["unique_by"] = c(["value", "rank"])
                bonus["size"] = 1
            doc["hand_bonuses"][name] = bonus
        names = list(doc["hand_bonuses"])
        if len(names) > 1 and rng.random() < 0.5:
            doc["hand_bonuses"][names[0]]["excluded_by"] = [names[1]]
        if len(names) > 1 and rng.random() < 0.3:
            doc["hand_bonuses"][names[0]]["shares_cards_with"] = [names[-1]]
        doc["declarations"] = {"timing": c(["first_turn", "own_turn", "before_first_turn", "after_deal"]),
                               "wild": rng.random() < 0.7, "declared_first": rng.random() < 0.3,
                               "per_turn": c(["all", "one"])}
    kinds = []
    for kind in rng.sample(["sweep", "match", "sum", "fifteen"], rng.randint(1, 4)):
        k = {"kind": kind}
        if rng.random() < 0.3:
            k["when"] = fill(c(_CONDITIONS["capture"]))
        if rng.random() < 0.2:
            k["exclusive"] = True
        if kind == "fifteen":
            k["total"] = rng.randint(5, 25)
        if kind in ("sum", "fifteen") and rng.random() < 0.3:
            k["min_cards"] = rng.randint(1, 4)
        if kind == "sum" and rng.random() < 0.3:
            k["unless_match"] = True
        kinds.append(k)
    doc["capture"] = {"forced": rng.random() < 0.7, "leftovers": c(["last_capturer", "nobody"]), "kinds": kinds}
    doc["events"] = {f"e{i}": {"when": fill(c(_CONDITIONS["event"])), "points": rng.randint(0, 3), "category": "scope"}
                     for i in range(rng.randint(0, 3))}
    doc["scoring"] = {"scope": {"from_events": True}}
    doc["scoring"].update({f"s{i}": {"points": fill(c(_CONDITIONS["score"]))} for i in range(rng.randint(0, 4))})
    if rng.random() < 0.3:
        doc["outcomes"] = {"sweep_all": {"when": fill(c(_CONDITIONS["outcome"])), "result": "win"}}
    doc["game"] = {"target": rng.randint(1, 60), "tie": "play_on"}
    return "".join(f"{key}: {_flow(value)}\n" for key, value in doc.items())


# ------------------------------------------------------------------ targets


def _located_or_justified(err: RulespecError) -> bool:
    if err.span is not None:
        return err.span.line >= 1 and err.span.column >= 1
    return any(p.search(err.message) for p in SPANLESS)


def _timeout(_signum, _frame):
    raise FuzzTimeout("input took too long")


def _forget_compiled() -> None:
    # Every mutated ruleset compiles under a new cache key: keep memory flat.
    build._CACHE.clear()
    for name in [n for n in linecache.cache if n.startswith("<rulespec ")]:
        del linecache.cache[name]


def fuzz_ruleset(data, folder: Path, stats: Stats, rng: random.Random, budget: float = 3.0) -> None:
    """Compile one (mutated) ruleset file; if it compiles, play a hand with it."""
    path = folder / "fuzz-ruleset.yaml"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
    accepted = False
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        compiled = build.compile_ruleset(path)
        accepted = True
        rules = compiled.module
        seats = rng.choice(rules.SEATS_ALLOWED)
        hand = Hand(rules, seats, rng.randrange(seats), shuffled_source(rules.N_CARDS, random.Random(rng.random())))
        play_out(hand, [RandomBot(random.Random(s)) for s in range(seats)])
        problems = check_hand(compiled, hand)
        if problems:
            stats.fail("rulesets", None, "invariants: " + "; ".join(problems), data)
    except RulespecError as err:
        if not _located_or_justified(err):
            stats.fail("rulesets", err, f"RulespecError without a span: {err.message}", data)
    except FuzzTimeout as err:
        stats.fail("rulesets", err, "compiling or playing took too long", data)
    except Exception as err:  # noqa: BLE001 - a fuzzer reports whatever escapes
        stats.fail("rulesets", err, f"{type(err).__name__} escaped: {err}", data)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _forget_compiled()
    stats.count("rulesets", accepted)


_EXPR_RULESETS = ["cirulla", "cicera", "cirullone"]   # french40 with a wild card, latin40, bresciane52
_MADE_NAMES = ("scopa", "sweep", "mokki")             # event names made() may count in a mutated expression
_ORIGIN = Span("fuzz-expression.yaml", 3, 11)


_COMPILED: dict = {}


def _expression_ruleset(rid: str):
    # Kept here: compile_ruleset reloads the YAML before it looks in its cache.
    if rid not in _COMPILED:
        _COMPILED[rid] = build.compile_ruleset(rid)
    return _COMPILED[rid]


def _random_value(typ, rules, rng: random.Random, n_all: int):
    if typ == tc.CARD:
        return 1 << rng.randrange(n_all)
    if typ == tc.CARDS:
        return rng.getrandbits(rules.N_CARDS) & rng.getrandbits(rules.N_CARDS)
    if typ == tc.INT:
        return rng.randint(0, 8)
    if typ == tc.BOOL:
        return rng.random() < 0.5
    raise AssertionError(typ)


def fuzz_expression(place: str, text: str, stats: Stats, rng: random.Random) -> None:
    """Parse, check, emit, compile and run one expression in the context of `place`."""
    names, expected, allow_most = PLACES[place]
    compiled = _expression_ruleset(rng.choice(_EXPR_RULESETS))
    rs = compiled.ruleset
    accepted = False
    try:
        tree = expressions.parse(text, _ORIGIN)
        ctx = check_stage.context(rs, names, allow_most=allow_most)
        tc.check(tree, ctx, expected)
        code = emit(tree, ctx)
        accepted = True
        program = compile(code, "<fuzz expression>", "eval")
        rules = compiled.module
        env = {"__builtins__": {"min": min, "max": max, "abs": abs, "tuple": tuple}, "_rt": runtime,
               **runtime.tables(rs.deck, rs.wild)}
        for _ in range(3):
            for name, typ in names.items():
                env[name] = _random_value(typ, rules, rng, len(env["_RANK"]))
            if allow_most:
                env["piles"] = [env["pile"], _random_value(tc.CARDS, rules, rng, 0)]
                env["side"] = rng.randrange(2)
                env["pile"] = env["piles"][env["side"]]
                # made("x") / rivals_made("x") read the score function's per-side event counts (a shipped
                # ruleset's scoring, kasino's, is among the expressions mutated)
                env["_made"] = [{name: rng.randint(0, 3) for name in _MADE_NAMES} for _ in env["piles"]]
            try:
                value = eval(program, env)  # noqa: S307 - emitted from a checked tree
            except ZeroDivisionError:
                continue    # `x // count(table)`: a run-time division by zero is the rule author's to avoid
            want = {tc.BOOL: bool, tc.INT: int}[expected]
            if type(value) is not want:
                stats.fail("expressions", None, f"{text!r} in {place} gave {value!r}, not {want.__name__}", text)
                break
    except RulespecError as err:
        if not _located_or_justified(err):
            stats.fail("expressions", err, f"RulespecError without a span: {err.message}", text)
        elif err.span.file != _ORIGIN.file:
            stats.fail("expressions", err, f"error located in another file: {err.span}", text)
    except Exception as err:  # noqa: BLE001
        stats.fail("expressions", err, f"{type(err).__name__} escaped for {text!r} in {place}: {err}", text)
    stats.count("expressions", accepted)


def random_expression(rng: random.Random, tokens: list[str]) -> str:
    return " ".join(rng.choice(tokens) for _ in range(rng.randint(1, 25)))


def fuzz_transcript(data, folder: Path, stats: Stats, budget: float = 5.0) -> None:
    """Read and replay one (mutated) transcript."""
    path = folder / "fuzz-transcript.yaml"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
    accepted = False
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        read_transcript(path)
        replay(path)
        accepted = True
    except RulespecError as err:
        if not _located_or_justified(err):
            stats.fail("transcripts", err, f"RulespecError without a span: {err.message}", data)
    except FuzzTimeout as err:
        stats.fail("transcripts", err, "replay took too long", data)
    except Exception as err:  # noqa: BLE001
        stats.fail("transcripts", err, f"{type(err).__name__} escaped: {err}", data)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if len(build._CACHE) > 200:
            _forget_compiled()
    stats.count("transcripts", accepted)


# ------------------------------------------------------------------ injection

CANARY = "FUZZ-CANARY"
# What runs code if it ever reaches the generated module as code: each creates the canary file.
_RUNNERS = ["open({canary!r}, 'w')", "__import__('pathlib').Path({canary!r}).touch()",
            "exec(\"open({canary!r}, 'w')\")", "__import__('os').system('touch ' + {canary!r})",
            # Double quotes only: repr() of the whole string keeps them unescaped inside its single quotes.
            'open("{canary}", "w")', '__import__("pathlib").Path("{canary}").touch()']
# Pieces a hostile author puts around them: closers of every literal the generator might write, the
# markers the old text-level rewriting looked for, line breaks Python or YAML treat as new lines.
_FRAGMENTS = ['"', "'", '"""', "'''", "\\", ")", "(", ",", "]", "}", "{", "#", ";", "\n", "\r", "\u2028",
              "\x85", "\x0c", " ", "_rt.most(", "_rt.idx(played)", "most(", "pile", "__builtins__", "x", "0",
              "lambda: 0", "{{", "}}", "%s", "\\x00", "\\n", "\t"]


def _payload(rng: random.Random, canary: str) -> str:
    """A hostile string: a random run of fragments, most often around a canary-creating call."""
    if rng.random() < 0.25:   # the issue's shape: what the old text-level hoisting lifted into score()
        return "_rt.most(" + rng.choice(_RUNNERS).format(canary=canary) + rng.choice(["),", ")", ") ,"])
    parts = [rng.choice(_FRAGMENTS) for _ in range(rng.randint(0, 7))]
    if rng.random() < 0.85:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_RUNNERS).format(canary=canary))
    if rng.random() < 0.5:
        parts.insert(0, rng.choice(["_rt.most(", "most(", "\"", "'", "x'), ", "\")", "\\'"]))
    if rng.random() < 0.3:
        parts.append(rng.choice(["),", ")", "#", "\n", "'", "\""]))
    return "".join(parts)


def _quoted(text: str, rng: random.Random) -> str:
    """`text` as a string literal of the expression language (sometimes deliberately badly quoted)."""
    roll = rng.random()
    if roll < 0.5:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if roll < 0.8:
        return repr(text)
    return '"' + text + '"'


def _inject_literal(doc: dict, text: str, rng: random.Random) -> None:
    """`text` as a string literal in one expression of the document: a scoring, an event, a hand bonus."""
    spots = [("points", c) for c in (doc.get("scoring") or {}).values()
             if isinstance(c, dict) and isinstance(c.get("points"), str)]
    for section in ("events", "hand_bonuses"):
        spots += [("when", e) for e in (doc.get(section) or {}).values()
                  if isinstance(e, dict) and isinstance(e.get("when"), str)]
    if not spots:
        return
    key, node = rng.choice(spots)
    lit, expr = _quoted(text, rng), node[key]
    if key == "points":
        node[key] = rng.choice([f"({expr}) + (1 if {lit} in [rank(pile)] else 0)",
                                f"({expr}) if {lit} != \"\" else 0",
                                f"(1 if most(count(pile, rank == {lit})) else 0) + ({expr})",
                                f"(1 if most(count(pile)) else 0) + (1 if {lit} in [rank(pile)] else 0) + ({expr})"])
    else:
        node[key] = rng.choice([f"({expr}) and {lit} != \"\"", f"({expr}) or rank(played) == {lit}",
                                f"({expr}) and not ({lit} in [rank(played)])"])


def _inject_option(doc: dict, text: str, rng: random.Random) -> dict:
    """A str option whose default, choices or given value is `text`, read by expressions; the values to give."""
    name = rng.choice(["label", "x", "most", "played"])
    default = text if rng.random() < 0.5 else "plain"
    decl = {"type": "str", "default": default}
    if rng.random() < 0.5:
        decl["choices"] = sorted({default, text, "other"})
    if rng.random() < 0.3:
        decl["description"] = text
    if not isinstance(doc.get("options"), dict):
        doc["options"] = {}
    doc["options"][name] = decl
    events = [e for e in (doc.get("events") or {}).values() if isinstance(e, dict) and isinstance(e.get("when"), str)]
    if events:
        ev = rng.choice(events)
        ev["when"] = f"({ev['when']}) and options.{name} != \"other\""
    cats = [c for c in (doc.get("scoring") or {}).values() if isinstance(c, dict) and isinstance(c.get("points"), str)]
    if cats and rng.random() < 0.6:
        cat = rng.choice(cats)
        cat["points"] = f"({cat['points']}) + (1 if options.{name} == {_quoted(text, rng)} else 0)"
    return {name: text} if rng.random() < 0.6 else {}


def _inject_name(doc: dict, text: str, rng: random.Random) -> None:
    """`text` as a name or text the generated code carries: an event name, a description, the id."""
    where = rng.choice(["event", "category", "description", "id", "name"])
    if where == "event" and isinstance(doc.get("events"), dict) and doc["events"]:
        old = rng.choice(sorted(doc["events"]))
        doc["events"] = {(text if k == old else k): v for k, v in doc["events"].items()}
    elif where == "category" and isinstance(doc.get("scoring"), dict) and doc["scoring"]:
        cat = doc["scoring"][rng.choice(sorted(doc["scoring"]))]
        if isinstance(cat, dict):
            cat["description"] = text
    else:
        doc[where] = text


def fuzz_injection(base: dict, folder: Path, stats: Stats, rng: random.Random, budget: float = 3.0) -> None:
    """A shipped ruleset with hostile strings in literals, options and names: refused, or run without effect."""
    canary = folder / CANARY
    doc = copy.deepcopy(base)
    options: dict = {}
    for _ in range(rng.randint(1, 3)):
        text = _payload(rng, str(canary))
        roll = rng.random()
        if roll < 0.45:
            _inject_literal(doc, text, rng)
        elif roll < 0.85:
            options.update(_inject_option(doc, text, rng))
        else:
            _inject_name(doc, text, rng)
    data = _yaml.safe_dump(doc, sort_keys=False, allow_unicode=rng.random() < 0.5)
    (folder / "fuzz-injection.yaml").write_text(data, encoding="utf-8", errors="surrogatepass")
    accepted = False
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        compiled = build.compile_ruleset(folder / "fuzz-injection.yaml", options or None)
        accepted = True
        rules = compiled.module
        seats = rng.choice(rules.SEATS_ALLOWED)
        hand = Hand(rules, seats, rng.randrange(seats), shuffled_source(rules.N_CARDS, random.Random(rng.random())))
        play_out(hand, [RandomBot(random.Random(s)) for s in range(seats)])
        hand.score()
    except RulespecError as err:
        if not _located_or_justified(err) and not options:   # an --option error has no file to point into
            stats.fail("injection", err, f"RulespecError without a span: {err.message}", data)
    except FuzzTimeout as err:
        stats.fail("injection", err, "compiling or playing took too long", data)
    except Exception as err:  # noqa: BLE001
        stats.fail("injection", err, f"{type(err).__name__} escaped: {err}", data)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _forget_compiled()
    if canary.exists():
        canary.unlink()
        stats.fail("injection", None, f"CODE RAN: the canary was created (options {options!r})", data)
    stats.count("injection", accepted)


# ------------------------------------------------------------------ driver


def fuzz(*, seconds: float | None = None, counts: dict | None = None, seed: int = 0, targets=("rulesets",
         "expressions", "transcripts", "injection"), folder: Path | None = None, log=None, budget: float = 3.0) -> Stats:
    """Fuzz for `seconds`, or for `counts` inputs per target ({target: n}); returns what happened.

    `budget`: the seconds one ruleset or transcript may take (compiling and playing) before it is a failure.
    """
    rng = random.Random(seed)
    stats = Stats()
    own = None
    if folder is None:
        own = tempfile.TemporaryDirectory(prefix="rulespec-fuzz-")
        folder = Path(own.name)
    previous = signal.signal(signal.SIGALRM, _timeout)
    try:
        rulesets, transcripts = ruleset_corpus(), transcript_corpus()
        exprs = expression_corpus()
        rmut, tmut = Mutator(rng, rulesets), Mutator(rng, transcripts)
        emut = Mutator(rng, [t for _, t in exprs])
        tokens = expression_tokens(exprs)
        bases = [_yaml.safe_load(text) for text in rulesets]
        started = time.monotonic()
        done = {t: 0 for t in targets}
        spent = {t: 0.0 for t in targets}
        plan = dict(counts or {})
        last_report = started
        while True:
            if seconds is not None and time.monotonic() - started >= seconds:
                break
            pending = [t for t in targets if seconds is not None or done[t] < plan.get(t, 0)]
            if not pending:
                break
            # Each target gets an equal share of the time (a ruleset costs far more than an expression).
            target = min(pending, key=lambda t: (spent[t], rng.random())) if seconds is not None else rng.choice(pending)
            done[target] += 1
            began = time.monotonic()
            if target == "rulesets":
                # Half mutated shipped rulesets (the loader's errors), half generated ones (the engine's corners).
                text = rmut.mutate(rng.choice(rulesets)) if rng.random() < 0.5 else random_ruleset(rng)
                fuzz_ruleset(text, folder, stats, rng, budget)
            elif target == "injection":
                fuzz_injection(rng.choice(bases), folder, stats, rng, budget)
            elif target == "transcripts":
                fuzz_transcript(tmut.mutate(rng.choice(transcripts)), folder, stats, budget)
            else:
                place, text = rng.choice(exprs)
                roll = rng.random()
                if roll < 0.15:
                    text = random_expression(rng, tokens)
                elif roll < 0.9:
                    text = emut.mutate(text)
                    text = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
                fuzz_expression(rng.choice(list(PLACES)) if rng.random() < 0.2 else place, text, stats, rng)
            spent[target] += time.monotonic() - began
            if log and time.monotonic() - last_report > 30:
                last_report = time.monotonic()
                log(f"  {time.monotonic() - started:5.0f} s: tried {stats.tried}, failures {len(stats.failures)}")
    finally:
        signal.signal(signal.SIGALRM, previous)
        if own is not None:
            own.cleanup()
    return stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument("--target", choices=["all", "rulesets", "expressions", "transcripts", "injection"], default="all")
    p.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "rulespec-fuzz-failures")
    p.add_argument("--budget", type=float, default=3.0,
                   help="seconds one input may take before it counts as a hang (raise it on a loaded machine)")
    args = p.parse_args(argv)
    targets = ("rulesets", "expressions", "transcripts", "injection") if args.target == "all" else (args.target,)
    print(f"fuzzing {', '.join(targets)} for {args.seconds:.0f} s, seed {args.seed}", flush=True)
    started = time.monotonic()
    stats = fuzz(seconds=args.seconds, seed=args.seed, targets=targets,
                 log=lambda line: print(line, flush=True), budget=args.budget)
    elapsed = time.monotonic() - started
    total = sum(stats.tried.values())
    print(f"inputs tried: {total} in {elapsed:.0f} s ({total / elapsed:.0f}/s)")
    for t in targets:
        print(f"  {t}: {stats.tried.get(t, 0)} tried, {stats.accepted.get(t, 0)} accepted")
    print(f"failures: {len(stats.failures)} ({len(stats.keys)} distinct)")
    for label, times in sorted(stats.known.items()):
        print(f"  known, not counted: {label} x{times} (see {KNOWN[label]})")
    if stats.failures:
        args.out.mkdir(parents=True, exist_ok=True)
        shown = set()
        for target, key, detail, data in stats.failures:
            if key in shown:
                continue
            shown.add(key)
            raw = data if isinstance(data, bytes) else str(data).encode("utf-8", errors="surrogatepass")
            name = hashlib.sha256(raw).hexdigest()[:12]
            (args.out / f"{target}-{name}.input").write_bytes(raw)
            (args.out / f"{target}-{name}.txt").write_text(detail, encoding="utf-8", errors="replace")
            print(f"  {target}: {key[1]} at {key[2]}: {detail.splitlines()[0][:160]} ({args.out}/{target}-{name}.*)")
    return 1 if stats.failures else 0


if __name__ == "__main__":
    sys.exit(main())
