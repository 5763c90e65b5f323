"""A pytest plugin: an author's golden transcripts as test items, one per transcript.

Registered through the `pytest11` entry point, and off until asked for (so
a project that replays its transcripts another way does not run them
twice): `pytest --rulespec-golden`, or `rulespec_golden = true` in the
pytest settings. Then every YAML (or JSON) file pytest visits that is a
transcript (by its content, as `rulespec test` decides) is one item, `FILE::replay`;
a ruleset file beside it is not collected. A failure is replay's report:
the play number, seat and card, what was expected and what happened.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import RulespecError, terminal_text


def pytest_addoption(parser) -> None:
    group = parser.getgroup("rulespec", "rulespec golden transcripts")
    group.addoption("--rulespec-golden", action="store_true", default=None,
                    help="collect golden hand transcripts (YAML) as tests, one per transcript")
    parser.addini("rulespec_golden", type="bool", default=False,
                  help="collect golden hand transcripts (YAML) as tests (as --rulespec-golden)")


def _enabled(config) -> bool:
    given = config.getoption("rulespec_golden")
    return bool(given) if given is not None else bool(config.getini("rulespec_golden"))


def pytest_collect_file(file_path: Path, parent):
    # .json too: a transcript may be written as JSON (transcripts.md); taken, as `rulespec test` takes it
    # in a folder, only when its keys are a transcript's (other JSON files are passed over)
    if file_path.suffix not in (".yaml", ".yml", ".json") or not _enabled(parent.config):
        return None
    from rulespec.transcripts.testrun import file_kind
    if file_kind(file_path) != "transcript":
        return None
    return TranscriptFile.from_parent(parent, path=file_path)


class TranscriptFile(pytest.File):
    """One transcript file: it holds one item, its replay."""

    def collect(self):
        yield TranscriptItem.from_parent(self, name="replay")


class TranscriptFailed(Exception):
    """Replay found differences; the lines say where."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


class TranscriptItem(pytest.Item):
    """Replays its transcript through the engine; fails with replay's report."""

    def runtest(self) -> None:
        from rulespec.transcripts.replay import replay
        try:
            result = replay(self.path)
        except RulespecError as err:  # the file itself is invalid (or names a ruleset that is)
            raise TranscriptFailed(err.render().splitlines()) from None
        if not result.ok:
            raise TranscriptFailed(result.failures)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, TranscriptFailed):
            # pytest prints this to the terminal: a stranger's names escaped, as every command's output is.
            return terminal_text("\n".join(excinfo.value.lines))
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"transcript {self.path.name}"
