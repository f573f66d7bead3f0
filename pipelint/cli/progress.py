"""A progress bar for long `pipelint check` runs, on a terminal only.

Shown on stderr when it is a terminal, the run is not --quiet, and there is
enough work to watch: more than SHOW_FILES files, or SHOW_AFTER seconds
spent. Never on a pipe or in a CI log, where it would be noise. The bar is
drawn from the main thread as files are taken back (no refresh thread: the
pool's workers are forked, parallel.py) and erased when the run ends, so the
findings print as they would without it.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress

SHOW_FILES = 200
SHOW_AFTER = 2.0  # seconds
REFRESH_EVERY = 0.1  # seconds: drawing on every file would cost more than small files take to lint


class FileProgress:
    """Files done out of total, and lines per second."""

    def __init__(self, total: int, enabled: bool, colour: bool = True):
        self.total = total
        self.enabled = enabled
        self.colour = colour
        self.done = 0
        self.lines = 0
        self._started = time.monotonic()
        self._drawn = 0.0
        self._bar: Progress | None = None
        self._task = None

    def advance(self, lines: int) -> None:
        self.done += 1
        self.lines += lines
        if not self.enabled:
            return
        now = time.monotonic()
        if self._bar is None and (self.total > SHOW_FILES or now - self._started > SHOW_AFTER):
            self._start()
        if self._bar is not None and (now - self._drawn >= REFRESH_EVERY or self.done == self.total):
            rate = self.lines / max(now - self._started, 1e-6)
            self._bar.update(self._task, completed=self.done, rate=f"{rate:,.0f}")  # type: ignore[arg-type]
            self._bar.refresh()
            self._drawn = now

    def _start(self) -> None:
        # rich is imported only for a bar about to be drawn: most runs (a pipe, a CI log, a few
        # files) never draw one, and rich's import is a fifth of pipelint's start-up.
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=sys.stderr, no_color=not self.colour)
        if not console.is_terminal:
            self.enabled = False
            return
        self._bar = Progress(
            TextColumn("Checking"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("files · {task.fields[rate]} lines/s"),
            TimeElapsedColumn(),
            console=console,
            auto_refresh=False,
            transient=True,
            redirect_stdout=False,  # diffs and `--fix -` write bytes to stdout's buffer
            redirect_stderr=True,  # error lines print above the bar, not through it
        )
        self._task = self._bar.add_task("check", total=self.total, completed=self.done, rate="…")
        self._bar.start()

    def __enter__(self) -> FileProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.stop()
