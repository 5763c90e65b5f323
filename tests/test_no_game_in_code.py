"""Rules live in rulesets/: the engine and the compiler name no game, variant, rule name or card.

(Issue 3: "a test that fails when engine or compiler code names a game, a
variant or a specific card".) The deck module is the notation contract
(shared/spec/notation.md) and the transcript reader the format contract, so
they are not scanned; everything that plays or compiles is.
"""
import io
import re
import tokenize
from pathlib import Path

import pytest

from rulespec.lang.decks import STANDARD_DECKS
from rulespec.source.rulesets import rulesets_dir, shipped_ids
from rulespec.source.yamlsafe import load

ROOT = Path(__file__).resolve().parent.parent
# Every stage that plays or compiles, whole folders (new modules are scanned as they come).
SCANNED = sorted([*(ROOT / "compiler").glob("*.py")] + [
    p for folder in ("run", "checks", "bots", "cli") for p in (ROOT / "rulespec" / folder).glob("*.py")] + [
    ROOT / "rulespec" / f for f in ("lang/model.py", "lang/typecheck.py", "lang/expressions.py",
                                    "source/rulesets.py")])


def _forbidden() -> set[str]:
    words = set()
    for rid in shipped_ids():
        words |= set(rid.split("-")) - {"deal", "long", "short", "free", "play", "early", "after", "low", "in",
                                        "hand", "ones", "twos", "threes", "double", "bonus", "keep", "aces",
                                        "always", "sweeps", "extended", "sequential", "9", "6", "3", "75", "7",
                                        "re", "no", "match", "priority", "tournament", "interleaved", "knock"}
        doc = load((rulesets_dir() / f"{rid}.yaml").read_bytes(), rid)
        for section in ("events", "scoring", "hand_bonuses", "outcomes"):
            words |= {k for k in (doc.get(section) or {}) if len(k) > 3}
        for check in doc.get("deal_checks") or []:
            words.add(check["name"])
        for bonus in doc.get("dealer_bonuses") or []:
            words.add(bonus["event"])
    # The transcript format's own words (spec), and English words that are also category names.
    # "sweep" is also a capture kind of the language (capture.kinds: sweep), "sweeps" a plain English plural.
    words -= {"redeal", "misdeal", "carte", "total", "dealer", "scope", "cards", "sweep", "sweeps"}
    return {w for w in words if len(w) > 3}


WORDS = _forbidden()
CARDS = {name for deck in STANDARD_DECKS.values() for name in deck.names}


@pytest.mark.parametrize("path", SCANNED, ids=[str(p.relative_to(ROOT)) for p in SCANNED])
def test_code_names_no_game_and_no_card(path):
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for tok in tokens:
        if tok.type in (tokenize.NAME, tokenize.STRING, tokenize.COMMENT):
            for word in re.findall(r"[A-Za-z0-9_]+", tok.string):
                if word.lower() in WORDS or (word in CARDS and len(word) >= 2 and not word.isdigit()):
                    found.append(f"{path.name}:{tok.start[0]}: {word}")
    assert not found, "game-specific names in engine/compiler code:\n" + "\n".join(found)


def test_the_scan_would_catch_a_game_name():
    assert {"cirulla", "cicera", "scopa", "barsega", "settebello", "napola"} <= WORDS
    assert {"7H", "7D", "FC", "10D"} <= CARDS
