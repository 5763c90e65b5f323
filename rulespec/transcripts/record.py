"""Record a hand played by bots as a transcript (labelled recorded, not hand-verified)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import yaml

from rulespec.bots.policy import play_out
from rulespec.bots.registry import make_bot, parse_bots
from rulespec.run.bid import BID_MOVE
from rulespec.run.engine import Hand, shuffled_source
from rulespec.source.rulesets import locate, rulesets_dir


def ruleset_reference(ref: str | Path, folder: Path) -> str:
    """What a transcript in `folder` writes as `ruleset:` for the ruleset `ref` names, so it replays from anywhere.

    A shipped ruleset by its id; a ruleset file by its path relative to the transcript's folder
    (shared/spec/transcripts.md: a path is relative to the transcript).
    """
    path = locate(ref)
    if path.resolve().parent == rulesets_dir().resolve() and str(ref) == path.stem:
        return path.stem
    relative = Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()
    # A bare `x.yaml` reads as a path already; `x` alone would read as a shipped id.
    return relative if relative.endswith((".yaml", ".yml")) or "/" in relative else f"./{relative}"


def record(compiled, *, seed: int, seats: int | None = None, dealer: int = 0, bots: str = "random",
           command: str = "", ruleset: str | None = None) -> str:
    """A complete hand as transcript YAML text; the expectations are the engine's own results.

    `ruleset` is what the transcript names (see ruleset_reference); the compiled id by default.
    """
    rules = compiled.module
    n = seats if seats is not None else rules.DEFAULT_SEATS
    rng = random.Random(f"rulespec-record:{seed}")
    hand = Hand(rules, n, dealer, shuffled_source(rules.N_CARDS, rng))
    names = rules.CARD_NAMES
    plays = []

    def on_play(seat, decls, card, capture, events):
        entry = {"seat": seat}
        if card == BID_MOVE:           # a bid (bid:): the value bid, no card
            entry["bid"] = capture
            plays.append(entry)
            return
        if decls:
            out = []
            for d in decls:
                item = {"bonus": d.bonus}
                if d.wild_rank is not None:
                    item["matta"] = rules.RANK_NAMES[d.wild_rank]
                item["cards"] = rules.card_names(d.cards).split()
                out.append(item)
            entry["declare"] = out
        if card is not None:
            entry["card"] = names[card]
            cards, value = capture & ((1 << rules.N_CARDS) - 1), capture >> rules.N_CARDS
            if value:                  # a build (capture.builds): the table cards it joins, and its value
                entry["build"], entry["value"] = rules.card_names(cards).split(), value
            else:
                entry["capture"] = rules.card_names(capture).split() if capture else []
        entry["events"] = [e.name for e in events]
        plays.append(entry)

    specs = parse_bots(bots, n, rules.SIDES[n])     # `greedy`, `random,ismcts:50`: as simulate's --bots
    bot_list = [make_bot(spec, random.Random(f"rulespec-bot:{seed}:{s}")) for s, spec in enumerate(specs)]
    if not hand.is_over:
        play_out(hand, bot_list, on_play)

    deal = []
    rounds = hand.deal_log
    bid_seen = iter(hand.bid_log)          # per first round: the cards the bidder bid on, which it lists first
    for i, r in enumerate(rounds):
        if r is None:
            continue
        table, hands = r
        entry = {}
        laid = hand.table_laid[i] if rules.PILE else None
        if laid:                       # a pile's order matters: bottom first, the top last (face-down ones too)
            entry["table"] = [rules.CARD_NAMES[c] for c in laid]
        elif table:
            entry["table"] = rules.card_names(table).split()
        entry["hands"] = {seat: rules.card_names(mask).split() for seat, mask in enumerate(hands)}
        if hand.bidder is not None and (i == 0 or rounds[i - 1] is None):
            seen = next(bid_seen)
            entry["hands"][hand.bidder] = (rules.card_names(seen).split()
                                           + rules.card_names(hands[hand.bidder] & ~seen).split())
        if i + 1 < len(rounds) and rounds[i + 1] is None:
            entry["redeal"] = True
        deal.append(entry)
    doc = {"ruleset": ruleset or compiled.id}
    if compiled.ruleset.option_values != {k: o.default for k, o in compiled.ruleset.options.items()}:
        doc["options"] = dict(compiled.ruleset.option_values)
    doc.update({"seats": n, "dealer": dealer, "deal": deal, "plays": plays})
    doc["expect"] = expectations(hand)
    header = (f"# recorded: engine output frozen for regression, not hand-verified\n"
              f"# {command or f'rulespec record {compiled.id} --seed {seed}'}\n")
    return header + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)


def expectations(hand) -> dict:
    """The `expect:` block of a recorded transcript: the engine's own results for a finished hand."""
    expect = {"dealer_events": list(hand.dealer_events),
              "events": {s: sorted(v) for s, v in hand.events_by_side(include_dealer=False).items()}}
    if hand.outcome is not None:
        expect["outcome"] = hand.outcome[0]
        expect["winner"] = list(hand.outcome[1])
    if hand.plays:
        expect["score"] = {s: row for s, row in enumerate(hand.score())}
    return expect
