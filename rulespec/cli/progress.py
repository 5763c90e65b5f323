"""A progress bar on standard error while a long command works (simulate --compare, test --coverage): drawn only
on a terminal, refreshed by hand (no thread: worker processes fork while it is shown), gone when done."""
from __future__ import annotations


class progress_bar:  # noqa: N801 - used as a function
    """`with progress_bar(err, "comparing", total) as advance:` gives `advance(k)` to call as k units finish,
    or None where no bar is drawn (`err` not a terminal, or `shown` false: --json)."""

    def __init__(self, err, description: str, total: int | None, shown: bool = True) -> None:
        self.err, self.description, self.total = err, description, total
        self.shown = shown and getattr(err, "isatty", lambda: False)()
        self.bar = None

    def __enter__(self):
        if not self.shown:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(file=self.err), transient=True,
                            auto_refresh=False)
        self.bar.__enter__()
        task = self.bar.add_task(self.description, total=self.total)
        self.bar.refresh()

        def advance(k: int = 1) -> None:
            self.bar.advance(task, k)
            self.bar.refresh()
        return advance

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


class status_line:  # noqa: N801 - used as a function
    """`with status_line(err, "building...") as tick:` gives `tick()` to call while a long step works (a C
    compile); the first call draws a spinner with the time spent, on a terminal only (never when `shown` is
    false: --json), later calls refresh it; nothing is drawn if `tick` is never called."""

    def __init__(self, err, description: str, shown: bool = True) -> None:
        self.err, self.description = err, description
        self.shown = shown and getattr(err, "isatty", lambda: False)()
        self.bar = None

    def __enter__(self):
        return self.tick

    def tick(self) -> None:
        if not self.shown:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
            self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn(),
                                console=Console(file=self.err), transient=True, auto_refresh=False)
            self.bar.__enter__()
            self.bar.add_task(self.description, total=None)
        self.bar.refresh()

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
