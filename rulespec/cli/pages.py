"""The `--html OUT` option of replay, record and simulate: one self-contained page written to OUT."""
from __future__ import annotations

from rulespec.errors import RulespecError


def add_html_argument(parser, what: str) -> None:
    parser.add_argument("--html", metavar="OUT", help=f"also write {what} as one self-contained HTML page")


def write_page(path: str, text: str, out) -> None:
    """Write the page to `path` (never through a link, replacing a file whole: source/writes.py)."""
    from rulespec.source.writes import write_file
    write_file(path, text)
    print(f"wrote {path}", file=out)


def replay_page(files: list, path: str, out, root: str | None = None) -> None:
    """`replay FILE --html OUT`: the page of the one transcript replayed (read under `root`, when given)."""
    from rulespec.authoring.html_hand import render_hand
    from rulespec.transcripts.trace import trace_transcript
    if len(files) != 1:
        raise RulespecError(f"--html draws one hand: give one transcript file, not {len(files)}")
    write_page(path, render_hand(trace_transcript(files[0], root)), out)


def record_page(text: str, compiled, path: str, out, transcript_path: str | None = None) -> None:
    """`record ... --html OUT`: the page of the hand just recorded."""
    from rulespec.authoring.html_hand import render_hand
    from rulespec.transcripts.trace import trace_recorded
    write_page(path, render_hand(trace_recorded(text, compiled, transcript_path or "recorded")), out)


def simulate_page(stats, compiled, bots: list[str], title: str, path: str, out) -> None:
    """`simulate ... --html OUT`: the distributions of the run as plots."""
    from rulespec.authoring.html_stats import render_stats
    write_page(path, render_stats(stats, ruleset_name=compiled.ruleset.name, ruleset_id=compiled.id, title=title,
                                  bots=bots), out)
