"""`rulespec test --coverage RULESET [PATH...]`: the rules of RULESET that no transcript pins down."""
from __future__ import annotations


def run_coverage(ruleset: str, files: list, out, own_only: bool = False) -> int:
    """Print the coverage report; exit 1 when some mutation survives every transcript (like a failing test).
    `own_only`: mutate only the rules the ruleset's own file writes."""
    from rulespec.transcripts.coverage import coverage
    report = coverage(ruleset, files, own_only=own_only)
    print("\n".join(report.render()), file=out)
    return 1 if report.survivors else 0
