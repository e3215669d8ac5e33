"""Grade a class: find the submissions, grade what is new, record each as it lands, write the outputs.

:func:`run_batch` is the whole batch. Each submission is graded by
:func:`grader.batch.grading.grade_entry` in a worker process
(``isolate=True``, the default; :mod:`grader.batch.worker`) with a deadline of
its own, one submission at a time per worker, or in threads of this process
(``isolate=False``: less isolation, for debugging and tests). ``jobs``
submissions run at once; each runs its exercises one at a time
(``Settings.jobs`` 0 chooses that), which keeps every core busy with
independent work instead of waiting for the slowest exercise of one
submission; only a class smaller than ``jobs`` gets more runs per submission.

Resume: a submission whose content hash and grading settings match its row in
``state.jsonl`` is not graded again (unless ``force``), except a row where the
grader failed (``error``), which is retried. Sharding: ``shard=(K,
N)`` grades only the students whose id hashes to slice K of N, a split that
does not depend on the rest of the class folder.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from grader.batch import outputs, state
from grader.batch.discover import Entry, InvalidSubmission, content_digest, discover, safe_name, shard_of
from grader.batch.grading import Outcome, Settings, entry_key, grade_entry
from grader.batch.summary import write_summary
from grader.batch.worker import Worker
from grader.sandbox import NONE, offered, require_full
from grader.report._common import one_line

#: Entries graded without a worker: nothing of theirs is run.
_INSTANT = ("duplicate", "other")
#: Statuses graded again on the next run even when nothing changed: the grader failed, not the submission.
_RETRIED = ("error", "pending")
#: Seconds between rewrites of grades.csv while a batch runs.
_CSV_EVERY = 2.0


@dataclass(frozen=True)
class BatchConfig:
    """One batch: where, how, and how much of it."""

    submissions: Path
    out: Path
    settings: Settings = Settings()
    jobs: int = 0
    """Submissions graded at once; 0 means one per CPU core."""
    force: bool = False
    """Grade everything again, even submissions already graded with the same content and settings."""
    shard: tuple[int, int] = (1, 1)
    """``(K, N)``: grade only slice K (1-based) of N."""
    formats: tuple[str, ...] = outputs.DEFAULT_FORMATS
    isolate: bool = True
    submission_timeout: float | None = None
    """Deadline for one submission's whole grading; ``None``: every exercise's timeout in turn, plus 2 minutes."""
    fresh_reference: bool = False
    """Recompute the reference once for this batch (in OUT_DIR), instead of using the user cache."""
    dask: str | None = None
    """Address of a Dask scheduler: grade each submission as a task there (:mod:`grader.batch.distributed`)."""


@dataclass(frozen=True)
class BatchResult:
    outcomes: list[Outcome]
    graded_now: int
    reused: int
    seconds: float
    interrupted: bool = False


Listener = Callable[[str, object], None]
"""Progress events: ``("start", (total, already_done, to_grade))``, ``("done", outcome)``, ``("warning", text)``,
``("finish", result)``."""


def jobs_or_cores(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def plan(config: BatchConfig) -> tuple[list[Entry], dict[str, str], str]:
    """This shard's entries, their keys (content hash + settings fingerprint), and the fingerprint."""
    k, n = config.shard
    if not (n >= 1 and 1 <= k <= n):
        raise ValueError(f"shard {k}/{n} does not exist; use K/N with 1 <= K <= N")
    entries = [e for e in discover(config.submissions, exclude=(config.out,)) if shard_of(e.id, n) == k - 1]
    fingerprint = config.settings.fingerprint()
    return entries, {e.id: entry_key(content_digest(e), fingerprint) for e in entries}, fingerprint


def runs_per_submission(jobs: int, gradable: int) -> int:
    """Exercise runs at once within a submission: 1, unless fewer submissions than ``jobs`` are left to grade."""
    return max(1, jobs // max(1, min(jobs, gradable)))


def run_batch(config: BatchConfig, listener: Listener | None = None) -> BatchResult:
    """Grade the class; returns every outcome of this shard (reused and new), sorted by id."""
    started = time.monotonic()
    say = listener or (lambda event, data: None)
    out = Path(config.out)
    if not Path(config.submissions).is_dir():
        raise InvalidSubmission(f"{config.submissions} is not a folder; pass the folder that holds one entry "
                                "per student")
    lock = state.prepare(out, (Path(config.submissions),))
    try:
        entries, keys, fingerprint = plan(config)
        settings = config.settings
        scratch = out / ".work"
        shutil.rmtree(scratch, ignore_errors=True)  # what a killed run left
        scratch.mkdir()
        if config.fresh_reference:
            settings = replace(settings, cache_dir=str(scratch / "reference-cache"))
        previous = state.load(out)
        done = {e.id: previous[e.id] for e in entries if not config.force and e.id in previous
                and previous[e.id].key == keys[e.id] and previous[e.id].status not in _RETRIED}
        todo = [e for e in entries if e.id not in done]
        if settings.jobs <= 0:
            gradable = sum(e.kind not in _INSTANT for e in todo)
            settings = replace(settings, jobs=runs_per_submission(jobs_or_cores(config.jobs), gradable))
        ids = [e.id for e in entries]
        confinement = offered() if settings.confine else NONE
        if settings.require_confinement and any(e.kind not in _INSTANT for e in todo):
            require_full(confinement)  # before anything is graded
        state.write_manifest(out, {
            "kind": "batch", "shard": list(config.shard), "ids": ids, "settings": settings.to_json(),
            "fingerprint": fingerprint, "submissions": str(Path(config.submissions).resolve()),
            "confinement": confinement.to_json(), "complete": False,
        })
        outputs.prune_students(out, ids)
        results: dict[str, Outcome] = dict(done)
        say("start", (len(entries), len(done), len(todo)))
        log = state.StateFile(out)
        last_csv = [0.0]

        def record(outcome: Outcome) -> None:
            log.append(outcome)
            results[outcome.id] = outcome
            try:
                outputs.write_student(out, outcome, settings.only, config.formats)
            except Exception as exc:  # noqa: BLE001 - a writer's failure must not stop the batch; the row stands
                say("warning", f"could not write the files of {outcome.id} ({type(exc).__name__}: {exc})")
            if time.monotonic() - last_csv[0] > _CSV_EVERY:
                _write_grades(out, entries, results, settings)
                last_csv[0] = time.monotonic()
            say("done", outcome)

        interrupted = False
        try:
            if any(e.kind not in _INSTANT for e in todo):
                # Pin what the cache holds now: a submission that rewrites it is refused, not trusted.
                settings = replace(settings, reference_digest=warm_reference(settings, scratch))
            _write_grades(out, entries, results, settings)
            if config.dask:
                from grader.batch import distributed

                distributed.run(config.dask, todo, keys, settings, _deadline(config, settings), record,
                                lambda message: say("warning", message))
            elif config.isolate:
                _run_workers(todo, keys, settings, config, scratch, record)
            else:
                _run_threads(todo, keys, settings, config, scratch, record)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            log.close()
        outcomes = [results.get(e.id) or _pending(e, keys[e.id]) for e in entries]
        if not interrupted:
            log.compact(outcomes)
        finish(out, outcomes, settings, config.formats, interrupted=interrupted,
               rewrite_students=[o for o in outcomes if o.id in done or o.status == "pending"])
        if not interrupted:
            manifest = state.read_manifest(out)
            state.write_manifest(out, {**manifest, "complete": True})
            shutil.rmtree(scratch, ignore_errors=True)
        result = BatchResult(outcomes, len(results) - len(done), len(done), time.monotonic() - started, interrupted)
        say("finish", result)
        return result
    finally:
        lock.close()


def _pending(entry: Entry, key: str) -> Outcome:
    return Outcome(entry.id, "pending", "not graded yet: run the batch again to finish", key=key,
                   source=entry.describe())


def _write_grades(out: Path, entries: list[Entry], results: dict[str, Outcome], settings: Settings) -> None:
    rows = [results.get(e.id) or _pending(e, "") for e in entries]
    outputs.write_grades(out / "grades.csv", rows, settings.only)


def finish(out: Path, outcomes: list[Outcome], settings: Settings, formats: tuple[str, ...],
           interrupted: bool = False, rewrite_students: list[Outcome] | None = None,
           notes: list[str] | None = None) -> None:
    """Write ``grades.csv``, the summary, and the per-student files of ``rewrite_students`` (all when None)."""
    for outcome in outcomes if rewrite_students is None else rewrite_students:
        try:
            outputs.write_student(out, outcome, settings.only, formats)
        except Exception as exc:  # noqa: BLE001 - as in record(): the row and the summary matter more
            message = f"could not write the files of {outcome.id} ({type(exc).__name__}: {exc})"
            print(f"warning: {one_line(message)}", file=sys.stderr)  # the id is a student's folder name
    outputs.write_grades(out / "grades.csv", outcomes, settings.only)
    notes = confinement_notes(outcomes) + list(notes or [])
    pending = sum(o.status == "pending" for o in outcomes)
    if interrupted or pending:
        notes.append(f"Incomplete: {pending} of {len(outcomes)} submissions are not graded yet; "
                     "run the same command again to finish.")
    write_summary(out, outcomes, notes)


def confinement_notes(outcomes: list[Outcome]) -> list[str]:
    """How the graded submissions' runs were confined, from their reports (a merge may join several machines)."""
    seen: dict[str, int] = {}
    for o in outcomes:
        if o.report is not None and o.report.confinement:
            described = o.report.confinement.get("description", "unknown")
            seen[described] = seen.get(described, 0) + 1
    return [f"Exercise runs confined: {described}" + (f" ({n} submissions)" if len(seen) > 1 else "")
            for described, n in seen.items()]


def warm_reference(settings: Settings, scratch: Path) -> str:
    """Compute (or check the cache holds) the reference observations once, before any submission starts.

    Otherwise the first submissions graded at once would each compute them. A
    reference that fails stops the batch (``ReferenceRunError``): every
    submission would fail the same way.
    """
    from grader import inputs
    from grader.reference import load_reference

    options = settings.options()
    tmp = Path(tempfile.mkdtemp(prefix="reference-", dir=scratch))
    try:
        inputs_path = inputs.write(tmp / "inputs.npz", options.seed)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return load_reference(options.only, inputs_path, tmp, pool, reference_dir=options.reference_dir,
                                  cache_dir=options.cache_dir, use_cache=True, limits=options.limits,
                                  seed=options.seed).digest
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _deadline(config: BatchConfig, settings: Settings) -> float:
    if config.submission_timeout is not None:
        return config.submission_timeout
    return len(settings.only) * settings.timeout + 120.0


def _run_threads(todo: list[Entry], keys: dict[str, str], settings: Settings, config: BatchConfig,
                 scratch: Path, record: Callable[[Outcome], None]) -> None:
    with ThreadPoolExecutor(max_workers=jobs_or_cores(config.jobs)) as pool:
        futures = [pool.submit(grade_entry, e, settings, scratch / safe_name(e.id), keys[e.id]) for e in todo]
        try:
            for future in as_completed(futures):
                record(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


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


def _run_workers(todo: list[Entry], keys: dict[str, str], settings: Settings, config: BatchConfig,
                 scratch: Path, record: Callable[[Outcome], None]) -> None:
    """At most ``jobs`` worker processes at once, polled from this (main) thread."""
    queue = deque(todo)
    running: list[_Running] = []
    jobs = jobs_or_cores(config.jobs)
    limit = _deadline(config, settings)
    workers = _Workers(scratch / "workers")
    try:
        while queue or running:
            while queue and len(running) < jobs:
                entry = queue.popleft()
                if entry.kind in _INSTANT:
                    record(grade_entry(entry, settings, scratch / safe_name(entry.id), keys[entry.id]))
                else:
                    running.append(_start(workers, entry, keys[entry.id], settings, scratch, limit))
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


def grade_isolated(entry: Entry, key: str, settings: Settings, scratch: Path, limit: float) -> Outcome:
    """One entry in a worker process with a deadline, as the local executor grades it (used by Dask).

    The worker is kept for the calling thread's next entry, as the local executor keeps its workers.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    if entry.kind in _INSTANT:
        return grade_entry(entry, settings, scratch / safe_name(entry.id), key)
    if not hasattr(_isolated, "workers"):
        _isolated.workers = _Workers(Path(tempfile.mkdtemp(prefix="jax-grader-workers-")))
    job = _start(_isolated.workers, entry, key, settings, scratch, limit)
    try:
        while (outcome := _poll(job, key, limit)) is None:
            time.sleep(0.05)
    except BaseException:
        job.worker.stop()
        raise
    _isolated.workers.give_back(job.worker)
    shutil.rmtree(job.folder, ignore_errors=True)
    return outcome


def _start(workers: _Workers, entry: Entry, key: str, settings: Settings, scratch: Path,
           limit: float) -> _Running:
    folder = scratch / safe_name(entry.id)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    job = {"id": entry.id, "paths": [str(p) for p in entry.paths], "kind": entry.kind, "key": key,
           "settings": settings.to_json(), "scratch": str(folder)}
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
