"""Worker processes for a batch, kept and reused, each grading one submission at a time with a deadline.

:func:`run_workers` grades a list of entries with at most ``Options.batch.jobs`` workers at once, polled
from the calling (main) thread; :func:`grade_isolated` grades one entry the same way, for a Dask task
(:mod:`grader.batch.distributed`). The processes themselves are :mod:`grader.batch.worker`'s.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from grader.batch.discover import Entry, safe_name
from grader.batch.grading import Outcome, grade_entry
from grader.batch.worker import Worker, worker_job
from grader.config import Options

#: Entries graded without a worker: nothing of theirs is run.
INSTANT = ("duplicate", "other")


def jobs_or_cores(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def deadline(options: Options) -> float:
    """Seconds one submission's whole grading may take: ``--submission-timeout``, else every exercise's in turn
    plus 2 minutes."""
    if options.batch.submission_timeout is not None:
        return options.batch.submission_timeout
    return len(options.only) * options.limits.timeout + 120.0


#: Submissions one worker grades before it is replaced by a fresh one (bounds what a long batch accumulates).
_JOBS_PER_WORKER = 50


@dataclass
class _Running:
    entry: Entry
    worker: Worker
    folder: Path
    outcome: Path
    deadline: float
    started: float


class _Workers:
    """Idle worker processes, reused from one submission to the next (see :mod:`grader.batch.worker`)."""

    def __init__(self, logs: Path) -> None:
        self.logs, self._idle, self._count = logs, deque(), 0

    def take(self) -> Worker:
        while self._idle:
            worker = self._idle.popleft()
            if worker.alive:
                return worker
        self._count += 1
        return Worker(self.logs / f"worker-{self._count}.log")

    def give_back(self, worker: Worker) -> None:
        if worker.alive and worker.jobs < _JOBS_PER_WORKER:
            self._idle.append(worker)
        else:
            worker.close()

    def close(self) -> None:
        while self._idle:
            self._idle.popleft().close()


def run_workers(todo: list[Entry], keys: dict[str, str], options: Options, scratch: Path,
                record: Callable[[Outcome], None]) -> None:
    """At most ``jobs`` worker processes at once, polled from this (main) thread."""
    queue = deque(todo)
    running: list[_Running] = []
    jobs = jobs_or_cores(options.batch.jobs)
    limit = deadline(options)
    workers = _Workers(scratch / "workers")
    try:
        while queue or running:
            while queue and len(running) < jobs:
                entry = queue.popleft()
                if entry.kind in INSTANT:
                    record(grade_entry(entry, options, scratch / safe_name(entry.id), keys[entry.id]))
                else:
                    running.append(_start(workers, entry, keys[entry.id], options, scratch, limit))
            time.sleep(0.05)
            for job in list(running):
                outcome = _poll(job, keys[job.entry.id], limit)
                if outcome is not None:
                    running.remove(job)
                    workers.give_back(job.worker)
                    shutil.rmtree(job.folder, ignore_errors=True)
                    record(outcome)
    finally:
        for job in running:
            job.worker.stop()
        workers.close()


_isolated = threading.local()


def grade_isolated(entry: Entry, key: str, options: Options, scratch: Path, limit: float) -> Outcome:
    """One entry in a worker process with a deadline, as the local executor grades it (used by Dask).

    The worker is kept for the calling thread's next entry, as the local executor keeps its workers.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    if entry.kind in INSTANT:
        return grade_entry(entry, options, scratch / safe_name(entry.id), key)
    if not hasattr(_isolated, "workers"):
        _isolated.workers = _Workers(Path(tempfile.mkdtemp(prefix="jax-grader-workers-")))
    job = _start(_isolated.workers, entry, key, options, scratch, limit)
    try:
        while (outcome := _poll(job, key, limit)) is None:
            time.sleep(0.05)
    except BaseException:
        job.worker.stop()
        raise
    _isolated.workers.give_back(job.worker)
    shutil.rmtree(job.folder, ignore_errors=True)
    return outcome


def _start(workers: _Workers, entry: Entry, key: str, options: Options, scratch: Path,
           limit: float) -> _Running:
    folder = scratch / safe_name(entry.id)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    job = worker_job(entry, options, folder, key)
    for attempt in range(2):
        worker = workers.take()
        try:
            outcome = worker.submit(job, folder)
            break
        except OSError:  # it died while idle: start another
            worker.stop()
            if attempt:
                raise
    now = time.monotonic()
    return _Running(entry, worker, folder, outcome, now + limit, now)


def _poll(job: _Running, key: str, limit: float) -> Outcome | None:
    """The entry's outcome once its worker wrote it; a ``timeout`` or ``error`` row if the worker cannot."""
    seconds = round(time.monotonic() - job.started, 2)
    base = Outcome(job.entry.id, "error", seconds=seconds, key=key, source=job.entry.describe())
    code = job.worker.proc.poll()
    if job.outcome.exists() or code is not None:  # the worker writes it whole (atomically) or not at all
        try:
            return Outcome.from_json(json.loads(job.outcome.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        job.worker.stop()
        return replace(base, detail=f"the grading process ended with status {code} without a result; "
                                    f"this is a grader problem, not the student's. Its output ends: "
                                    f"{job.worker.tail()}")
    if time.monotonic() < job.deadline:
        return None
    job.worker.stop()
    return replace(base, status="timeout",
                   detail=f"grading this submission took longer than {limit:.0f} s and was stopped")
