"""`rulespec simulate VARIANT --compare BASE`: the same seeds through both rulesets, paired differences."""
from __future__ import annotations

from rulespec.errors import RulespecError


def run_compare(args, options, out, err) -> int:
    """Print (or --json) per category and side the base and variant means and their difference ± 95%."""
    import json

    from rulespec.bots.compare import compare, render, to_dict
    if args.games is not None:
        raise RulespecError("--compare plays paired hands: give --hands, not --games")
    if args.backend != "local":
        raise RulespecError("--compare runs on local processes only (no --backend ray)")
    if args.html is not None:
        raise RulespecError("--html draws one ruleset's distributions: leave out --compare")
    hands = args.hands if args.hands is not None else 1000
    paired = compare(args.ruleset, args.compare, hands=hands, seed=args.seed, seats=args.seats, bots=args.bots,
                     variant_options=options, workers=args.workers)
    if args.json:
        print(json.dumps(to_dict(paired, seed=args.seed, bots=args.bots), indent=2), file=out)
        return 0
    from rulespec.cli.terminal import console
    render(paired, console(out, width=100), title=f"{paired.variant_id} against {paired.base_id}: "
                                                  f"{hands} paired hands, seed {args.seed}, bots {args.bots}")
    return 0
