"""Grade a class: find the submissions, grade what is new, record each as it lands, write the outputs.

:func:`run_batch` is the whole batch. Each submission is graded by
:func:`grader.batch.grading.grade_entry` in a worker process
(``isolate=True``, the default; :mod:`grader.batch.worker`) with a deadline of
its own, one submission at a time per worker, or in threads of this process
(``isolate=False``: less isolation, for debugging and tests). ``jobs``
submissions run at once; each runs its exercises one at a time
(``Options.jobs`` 0 chooses that), which keeps every core busy with
independent work instead of waiting for the slowest exercise of one
submission; only a class smaller than ``jobs`` gets more runs per submission.

Resume: a submission whose content hash and grading options match its row in
``state.jsonl`` is not graded again (unless ``force``), except a row where the
grader failed (``error``), which is retried. Sharding: ``shard=(K,
N)`` grades only the students whose id hashes to slice K of N, a split that
does not depend on the rest of the class folder.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from grader.batch import outputs, state
from grader.batch.discover import Entry, InvalidSubmission, content_digest, discover, safe_name, shard_of
from grader.batch.grading import Outcome, entry_key, fingerprint, grade_entry
from grader.batch.pool import INSTANT, deadline, jobs_or_cores, run_workers
from grader.batch.summary import write_summary
from grader.config import Options
from grader.sandbox import NONE, offered, require_full
from grader.report._common import one_line

#: Statuses graded again on the next run even when nothing changed: the grader failed, not the submission.
_RETRIED = ("error", "pending")
#: Seconds between rewrites of grades.csv while a batch runs.
_CSV_EVERY = 2.0


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


def plan(options: Options) -> tuple[list[Entry], dict[str, str], str]:
    """This shard's entries, their keys (content hash + options fingerprint), and the fingerprint."""
    batch = options.batch
    k, n = batch.shard
    if not (n >= 1 and 1 <= k <= n):
        raise ValueError(f"shard {k}/{n} does not exist; use K/N with 1 <= K <= N")
    entries = [e for e in discover(batch.submissions, exclude=(batch.out,)) if shard_of(e.id, n) == k - 1]
    printed = fingerprint(options)
    return entries, {e.id: entry_key(content_digest(e), printed) for e in entries}, printed


def runs_per_submission(jobs: int, gradable: int) -> int:
    """Exercise runs at once within a submission: 1, unless fewer submissions than ``jobs`` are left to grade."""
    return max(1, jobs // max(1, min(jobs, gradable)))


def run_batch(options: Options, listener: Listener | None = None) -> BatchResult:
    """Grade the class ``options.batch`` names; returns every outcome of this shard (reused and new), sorted by id."""
    started = time.monotonic()
    say = listener or (lambda event, data: None)
    config = options.batch
    if config.submissions is None or config.out is None:
        raise ValueError("a batch needs the class folder and the output folder (Options.batch)")
    out = Path(config.out)
    if not Path(config.submissions).is_dir():
        raise InvalidSubmission(f"{config.submissions} is not a folder; pass the folder that holds one entry "
                                "per student")
    lock = state.prepare(out, (Path(config.submissions),))
    try:
        entries, keys, printed = plan(options)
        settings = options
        scratch = out / ".work"
        shutil.rmtree(scratch, ignore_errors=True)  # what a killed run left
        scratch.mkdir()
        if not settings.use_cache:  # the reference computed once for this batch, kept in OUT_DIR
            settings = replace(settings, cache_dir=scratch / "reference-cache", use_cache=True)
        previous = state.load(out)
        done = {e.id: previous[e.id] for e in entries if not config.force and e.id in previous
                and previous[e.id].key == keys[e.id] and previous[e.id].status not in _RETRIED}
        todo = [e for e in entries if e.id not in done]
        if settings.jobs <= 0:
            gradable = sum(e.kind not in INSTANT for e in todo)
            settings = replace(settings, jobs=runs_per_submission(jobs_or_cores(config.jobs), gradable))
        ids = [e.id for e in entries]
        confinement = offered() if settings.limits.confine else NONE
        if settings.require_confinement and any(e.kind not in INSTANT for e in todo):
            require_full(confinement)  # before anything is graded
        state.write_manifest(out, {
            "kind": "batch", "shard": list(config.shard), "ids": ids, "settings": settings.to_json(),
            "fingerprint": printed, "submissions": str(Path(config.submissions).resolve()),
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
            if any(e.kind not in INSTANT for e in todo):
                # Pin what the cache holds now: a submission that rewrites it is refused, not trusted.
                settings = replace(settings, reference_digest=warm_reference(settings, scratch))
            _write_grades(out, entries, results, settings)
            if config.dask:
                from grader.batch import distributed

                distributed.run(config.dask, todo, keys, settings, deadline(settings), record,
                                lambda message: say("warning", message))
            elif config.isolate:
                run_workers(todo, keys, settings, scratch, record)
            else:
                _run_threads(todo, keys, settings, scratch, record)
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


def _write_grades(out: Path, entries: list[Entry], results: dict[str, Outcome], settings: Options) -> None:
    rows = [results.get(e.id) or _pending(e, "") for e in entries]
    outputs.write_grades(out / "grades.csv", rows, settings.only)


def finish(out: Path, outcomes: list[Outcome], settings: Options, formats: tuple[str, ...],
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


def warm_reference(options: Options, scratch: Path) -> str:
    """Compute (or check the cache holds) the reference observations once, before any submission starts.

    Otherwise the first submissions graded at once would each compute them. A
    reference that fails stops the batch (``ReferenceRunError``): every
    submission would fail the same way.
    """
    from grader import inputs
    from grader.expected import load_reference

    tmp = Path(tempfile.mkdtemp(prefix="reference-", dir=scratch))
    try:
        inputs_path = inputs.write(tmp / "inputs.npz", options.seed)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return load_reference(options.only, inputs_path, tmp, pool, reference_dir=options.reference_dir,
                                  cache_dir=options.cache_dir, use_cache=True, limits=options.limits,
                                  seed=options.seed).digest
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run_threads(todo: list[Entry], keys: dict[str, str], settings: Options, scratch: Path,
                 record: Callable[[Outcome], None]) -> None:
    with ThreadPoolExecutor(max_workers=jobs_or_cores(settings.batch.jobs)) as pool:
        futures = [pool.submit(grade_entry, e, settings, scratch / safe_name(e.id), keys[e.id]) for e in todo]
        try:
            for future in as_completed(futures):
                record(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


