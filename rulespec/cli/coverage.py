"""`rulespec test --coverage RULESET [PATH...]`: the rules of RULESET that no transcript pins down."""
from __future__ import annotations


def run_coverage(ruleset: str, files: list, out, root: str | None = None) -> int:
    """Print the coverage report; exit 1 when some mutation survives every transcript (like a failing test).
    `root`: every file read must lie under it."""
    from rulespec.transcripts.coverage import coverage
    report = coverage(ruleset, files, root=root)
    print("\n".join(report.render()), file=out)
    return 1 if report.survivors else 0
