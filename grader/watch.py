"""``python -m grader --watch [SUBMISSION]``: grade, then re-grade on every save.

After the first full grade, each batch of file changes (debounced by
watchfiles) re-grades only the exercises whose files changed, plus
``accuracy`` when ex1, ex3 or ex5 changed (it trains with them); the new
verdicts replace the old ones in the report, which is drawn again. A change
to ``answers.md`` only refreshes the answers shown.

Each round grades with the very :class:`~grader.config.Options` a plain
grade of the same command line uses. Rounds run in a batch's worker process
(:class:`grader.batch.Worker`, in a session of its own) kept from one round
to the next, so JAX is imported once for the whole watch; Ctrl-C stops it at
once: the worker is sent SIGTERM and kills every sandboxed child it started,
and the watch ends cleanly.
"""

from __future__ import annotations

import json
import queue
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable

from grader.config import Options
from grader.exercises import IDS as EXERCISES
from grader.exercises import MODULES, exercises_using
from grader.results import Report
from grader.submission import SubmissionError

#: What trains the accuracy check: a change to any of these re-grades it too.
ACCURACY_INPUTS = tuple(e for e in MODULES if "accuracy" in exercises_using(e))
ANSWERS = "answers.md"
DEBOUNCE_MS = 600
_BY_FILE = {f"{module}.py": exercise for exercise, module in MODULES.items()}


def affected(changed: Iterable[str | Path], submission: Path, only: tuple[str, ...]) -> tuple[str, ...]:
    """The exercises (of ``only``) to re-grade after the files ``changed`` changed, in lesson order.

    A single ``.py`` or ``.ipynb`` submission holds every exercise, so a change to it re-grades all of ``only``.
    """
    names = {Path(p).name for p in changed}
    if submission.is_file():
        hit = set(only) if submission.name in names else set()
    else:
        hit = {_BY_FILE[n] for n in names if n in _BY_FILE}
        if hit & set(ACCURACY_INPUTS):
            hit.add("accuracy")
    return tuple(e for e in EXERCISES if e in hit and e in only)


def answers_changed(changed: Iterable[str | Path]) -> bool:
    return any(Path(p).name == ANSWERS for p in changed)


def merge(old: Report, new: Report, graded: tuple[str, ...]) -> Report:
    """``old`` with the checks of ``graded`` replaced by ``new``'s, in the order of ``old``'s exercises."""
    fresh = {c.id: c for c in new.checks}
    checks = tuple(fresh.pop(c.id, c) if c.exercise in graded else c for c in old.checks)
    checks += tuple(fresh.values())  # exercises graded now and not before
    timings = {**old.timings, **new.timings}
    return replace(old, checks=checks, timings=timings, answers=new.answers, notes=new.notes,
                   accuracy=new.accuracy if "accuracy" in graded else old.accuracy)


def read_answers(folder: Path) -> str | None:
    """``answers.md`` shown again after a save, read as grading reads it; a refused file shows why instead."""
    from grader.submission import answers_beside

    try:
        return answers_beside(folder)
    except (SubmissionError, OSError) as exc:
        return f"(not shown: {exc})"


class GradingFailed(Exception):
    """A round of grading could not finish (the message says why)."""


class Rounds:
    """Grade rounds in one worker process, kept between rounds; :meth:`stop` ends it (and a running round) at once."""

    def __init__(self, submission: Path, options: Options, scratch: Path) -> None:
        self.submission, self.options, self.scratch = submission, options, scratch
        self._worker = None
        self._lock = threading.Lock()
        self._count = 0

    def grade(self, only: tuple[str, ...]) -> Report:
        from grader.batch import Entry, Outcome, Worker, worker_job

        self._count += 1
        folder = self.scratch / f"round{self._count}"
        folder.mkdir(parents=True)
        job = worker_job(Entry.of(self.submission), replace(self.options, only=tuple(only)), folder)
        with self._lock:
            if self._worker is None or not self._worker.alive:
                self._worker = Worker(self.scratch / "worker.log")
            worker = self._worker
            try:
                result = worker.submit(job, folder)
            except OSError:  # the worker died before it took the job
                raise GradingFailed(f"grading stopped (status {worker.proc.poll()}): {worker.tail()}") from None
        while not result.exists() and worker.alive:
            time.sleep(0.05)
        try:
            data = json.loads(result.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise GradingFailed(f"grading stopped (status {worker.proc.poll()}): {worker.tail()}") from None
        outcome = Outcome.from_json(data)
        if outcome.report is None:
            raise GradingFailed(outcome.detail)
        return replace(outcome.report, submission=str(self.submission))

    def stop(self) -> None:
        """End the worker, and the running round if any: it is sent SIGTERM and kills its sandboxed children."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()


def watch(submission: str | Path, options: Options, show: Callable[[Report, tuple[str, ...], tuple[str, ...]], None],
          *, stop_event: threading.Event | None = None, busy: Callable[[tuple[str, ...]], object] | None = None,
          debounce_ms: int = DEBOUNCE_MS) -> None:
    """Grade ``submission`` with ``options`` (as a plain grade would), then re-grade on changes.

    ``show(report, graded, changed_files)`` draws each new report; ``busy(exercises)`` returns a context
    manager shown while a round runs (a spinner). Returns when ``stop_event`` is set; Ctrl-C
    (KeyboardInterrupt) stops the running round and propagates.

    The files are watched from before the first grade, in a thread of their own, so a save made while a
    round runs is not lost: it starts the next round.
    """
    import contextlib

    path = Path(submission).resolve()
    if not path.exists():
        raise SubmissionError(f"{submission} does not exist; pass a submission folder, a .py file or an .ipynb notebook")
    only = tuple(options.only)
    busy = busy or (lambda exercises: contextlib.nullcontext())
    stop = stop_event or threading.Event()
    changes: queue.Queue = queue.Queue()
    watcher = threading.Thread(target=_watch_files, args=(path, debounce_ms, stop, changes), daemon=True)
    watcher.start()
    with tempfile.TemporaryDirectory(prefix="jax-grader-watch-") as tmp:
        rounds = Rounds(path, options, Path(tmp))
        try:
            with busy(only):
                report = rounds.grade(only)
            show(report, only, ())
            while not stop.is_set():
                try:
                    changed = set(changes.get(timeout=0.2))  # short waits: Ctrl-C is handled at once
                except queue.Empty:
                    continue
                while not changes.empty():  # every save since the last round, in one round
                    changed |= set(changes.get())
                names = tuple(sorted(changed))
                exercises = affected(names, path, only)
                if exercises:
                    with busy(exercises):
                        new = rounds.grade(exercises)
                    report = merge(report, new, exercises)
                elif answers_changed(names) and path.is_dir():
                    report = replace(report, answers=read_answers(path))
                else:
                    continue
                show(report, exercises, names)
        finally:
            stop.set()
            rounds.stop()
            watcher.join(timeout=5)


def _watch_files(path: Path, debounce_ms: int, stop: threading.Event, out: queue.Queue) -> None:
    """Put the names of the submission's files that changed, one debounced batch at a time, on ``out``."""
    import watchfiles

    watched = path if path.is_dir() else path.parent
    for batch in watchfiles.watch(watched, debounce=debounce_ms, stop_event=stop, watch_filter=_relevant(path),
                                  raise_interrupt=False):
        out.put(sorted({Path(p).name for _, p in batch}))


def _relevant(path: Path) -> Callable[[object, str], bool]:
    """Only the files that make up the submission (ignore editors' swap files, caches...)."""
    if path.is_file():
        return lambda change, name: Path(name).name in (path.name, ANSWERS)
    return lambda change, name: Path(name).parent == path and (Path(name).name in _BY_FILE or Path(name).name == ANSWERS)
