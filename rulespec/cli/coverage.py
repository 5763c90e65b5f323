"""`rulespec test --coverage RULESET [PATH...]`: the rules of RULESET that no transcript pins down."""
from __future__ import annotations


def run_coverage(ruleset: str, files: list, out, err=None, own_only: bool = False, root: str | None = None) -> int:
    """Print the coverage report; exit 1 when some mutation survives every transcript (like a failing test).
    `own_only`: mutate only the rules the ruleset's own file writes. On a terminal, a progress bar on `err`
    while the mutants are replayed. `root`: every file read must lie under it."""
    from rulespec.cli.progress import progress_bar
    from rulespec.transcripts.coverage import coverage, planned
    bar = progress_bar(err, f"mutating {ruleset}", None)
    if bar.shown:                               # the bar's length: the mutations coverage() will try
        bar.total = len(planned(ruleset, own_only, root))
    with bar as advance:
        report = coverage(ruleset, files, progress=advance and (lambda _result: advance(1)), own_only=own_only,
                          root=root)
    print("\n".join(report.render()), file=out)
    return 1 if report.survivors else 0
