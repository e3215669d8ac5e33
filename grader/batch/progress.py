"""Progress of a batch: a one-line bar on a terminal, one plain line per submission otherwise (CI logs).

Ids and details come from students: each is folded onto its line and made
inert (:func:`grader.report._common.one_line`), so a name holding a newline,
ESC or ``::error`` cannot start a line, fake another student's progress or
act on the terminal. Inside GitHub Actions, workflow commands are stopped for
the whole batch, as for a single grade.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from grader.batch.grading import Outcome
from grader.batch.outputs import fmt_points
from grader.report._common import one_line, stop_workflow_commands


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """A batch listener (see :data:`grader.batch.runner.Listener`)."""

    def __init__(self, stream: TextIO | None = None, jobs: int = 1, quiet: bool = False,
                 bar: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.bar = self.stream.isatty() if bar is None else bar
        self.jobs, self.quiet = max(1, jobs), quiet
        self.total = self.done = self.failing = self.todo = self.finished_now = 0
        self.started = time.monotonic()
        self.busy = 0.0
        self._resume: str | None = None

    def __call__(self, event: str, data: object) -> None:
        getattr(self, f"_{event}")(data)

    def _start(self, data: object) -> None:
        self.total, self.done, self.todo = data  # type: ignore[misc]
        self.started = time.monotonic()
        stop = stop_workflow_commands()
        if stop is not None and self._resume is None:
            self._resume = stop[1]
            self._line(stop[0])
        if not self.quiet:
            reused = f" ({self.done} already graded, unchanged)" if self.done else ""
            self._line(f"grading {self.todo} of {self.total} submissions{reused}")
            self._draw()

    def _done(self, outcome: object) -> None:
        assert isinstance(outcome, Outcome)
        self.done += 1
        self.finished_now += 1
        self.busy += outcome.seconds
        if outcome.status != "graded":
            self.failing += 1
        if self.quiet:
            return
        if self.bar:
            self._draw()
        else:
            score = (f"{fmt_points(outcome.report.score)}/{fmt_points(outcome.report.max_score)}"
                     if outcome.scored and outcome.report else "-")
            detail = one_line(outcome.detail, 160)
            self._line(f"[{self.done}/{self.total}] {one_line(outcome.id, 200)}: {outcome.status} {score} "
                       f"({outcome.seconds:.1f} s){' - ' + detail if detail else ''}")

    def _warning(self, text: object) -> None:
        self._line(f"warning: {one_line(str(text))}")
        self._draw()

    def _finish(self, result: object) -> None:
        if self.bar and not self.quiet:
            self.stream.write("\n")
        elapsed = time.monotonic() - self.started
        state = "interrupted" if getattr(result, "interrupted", False) else "done"
        self._line(f"{state}: {self.done}/{self.total} submissions, {self.failing} not graded cleanly, "
                   f"{_clock(elapsed)} elapsed")
        if self._resume is not None:
            self._line(self._resume)
            self._resume = None

    def left(self) -> str:
        remaining = self.total - self.done
        if not self.finished_now or not remaining:
            return "--:--"
        elapsed = time.monotonic() - self.started
        return _clock(elapsed / self.finished_now * remaining)

    def _draw(self) -> None:
        if not self.bar or self.quiet:
            return
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        text = (f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} done, "
                f"{self.failing} failing, {self.left()} left ")
        self.stream.write(text)
        self.stream.flush()

    def _line(self, text: str) -> None:
        if self.bar:
            self.stream.write("\r\x1b[K")
        self.stream.write(text + "\n")
        self.stream.flush()
