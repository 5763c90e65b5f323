"""`rulespec simulate VARIANT --compare BASE`: the same seeds through both rulesets, paired differences."""
from __future__ import annotations

from rulespec.errors import RulespecError


def run_compare(args, options, out, err) -> int:
    """Print (or --json) per category, event and bonus and side the base and variant means and their
    difference ± 95%; a progress bar on a terminal; `--html OUT` also writes the page."""
    import json

    from rulespec.bots.compare import compare, render, to_dict
    from rulespec.cli.progress import progress_bar
    if args.games is not None:
        raise RulespecError("--compare plays paired hands: give --hands, not --games")
    if args.backend != "local":
        raise RulespecError("--compare runs on local processes only (no --backend ray)")
    import io
    hands = args.hands if args.hands is not None else 1000
    notes = io.StringIO()        # why auto plays Python: said once the run is done (an error stays one line)
    with progress_bar(err, f"comparing with {args.compare}", hands, shown=not args.json) as advance:
        paired = compare(args.ruleset, args.compare, hands=hands, seed=args.seed, seats=args.seats,
                         bots=args.bots, variant_options=options, workers=args.workers, progress=advance,
                         root=args.root, engine=args.engine, err=notes)
    err.write(notes.getvalue())
    title = f"{paired.variant_id} against {paired.base_id}: {hands} paired hands, seed {args.seed}, bots {args.bots}"
    if args.html is not None:
        from rulespec.authoring.html_compare import render_compare
        from rulespec.cli.pages import write_page
        from rulespec.compiler.build import compile_ruleset
        name = compile_ruleset(args.ruleset, options, root=args.root).ruleset.name
        write_page(args.html, render_compare(paired, variant_name=name, title=title), err if args.json else out)
    if args.json:
        print(json.dumps(to_dict(paired, seed=args.seed, bots=args.bots), indent=2), file=out)
        return 0
    from rulespec.cli.terminal import console
    render(paired, console(out, width=100), title=title)
    return 0
