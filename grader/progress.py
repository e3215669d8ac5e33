"""While exercises run, show which are waiting, running and done (a terminal only; nothing when piped).

A rich live display fed by the engine's ``on_run`` events; it
disappears when grading ends, before the report is printed.
"""

from __future__ import annotations

import threading
from types import TracebackType

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from grader.exercises import title_of


class ExerciseProgress:
    """``with ExerciseProgress(tasks) as shown: grade(..., on_run=shown.update)``."""

    def __init__(self, tasks: tuple[str, ...], console: Console | None = None, enabled: bool = True) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = enabled and self.console.is_terminal
        self._lock = threading.Lock()
        self._ids: dict[str, TaskID] = {}
        self._progress = Progress(SpinnerColumn(finished_text="[green]done"), TextColumn("{task.description}"),
                                  TextColumn("{task.fields[state]}", style="dim"), TimeElapsedColumn(),
                                  console=self.console, transient=True)
        if self.enabled:
            for task in tasks:
                self._ids[task] = self._progress.add_task(f"{task:<9} {title_of(task)}", start=False,
                                                          total=1, state="waiting")

    def update(self, task: str, state: str, seconds: float) -> None:
        if not self.enabled or task not in self._ids:
            return
        with self._lock:
            if state == "running":
                self._progress.start_task(self._ids[task])
                self._progress.update(self._ids[task], state="running")
            else:
                self._progress.update(self._ids[task], completed=1, state=f"{seconds:.1f} s")

    def __enter__(self) -> ExerciseProgress:
        if self.enabled:
            self._progress.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.enabled:
            self._progress.stop()
