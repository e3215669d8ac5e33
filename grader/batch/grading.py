"""Grade one class entry and say what happened, whatever happened.

:func:`grade_entry` is the unit of work of a batch: it runs in a worker
process (see :mod:`grader.batch.worker`), or in the batch's
process with ``--in-process``. It never raises for a bad submission or a
grader failure: it returns an :class:`Outcome` whose ``status`` says what
happened and whose ``detail`` says why, in words for the instructor.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from grader.batch.discover import Entry, InvalidSubmission, find_code, unpack_zip
from grader.expected import sealed
from grader.config import Options
from grader.engine import grade
from grader.sandbox import ConfinementRefused
from grader.expected.cache import ReferenceRunError, find_reference
from grader.exercises import IDS as EXERCISES
from grader.results import Report
from grader.rubric import RubricError
from grader.exercises import MODULES
from grader.submission import SubmissionError

STATUSES = ("graded", "crashed", "timeout", "error", "invalid", "duplicate", "pending")
"""Every row status, in the order the summary lists them.

``graded``: every exercise ran to the end (the student's exceptions cost points, as usual).
``crashed``: graded, but the process of some exercise died (segfault, exit, memory); it scores 0.
``timeout``: graded, but some exercise ran past ``--timeout`` and scores 0; or (no score) the whole
submission ran past its deadline.
``error``: the grader failed on this submission (no score), or an exercise's run failed in the grader's own
machinery before the student's code ran (run status ``harness``); a grader problem, not the student's fault.
``invalid``: the entry cannot be graded (corrupt or unsafe archive, empty folder, no exercise files...).
``duplicate``: several entries claim the same student id; none was graded.
``pending``: not graded yet (an interrupted batch).
"""
SCORED = ("graded", "crashed", "timeout")
_PACKAGE = Path(__file__).resolve().parent.parent


def fingerprint(options: Options) -> str:
    """Everything that can change a grade besides the submission: resume re-grades when it changes.

    The exercises chosen, the limits, the inputs' seed, the reference (solutions or sealed) and the
    grader's own code (checks, probes, rubric); not ``jobs``, the cache
    or the report writers, which change no grade.
    """
    digest = hashlib.sha256(json.dumps(
        {"only": list(options.only), "timeout": options.limits.timeout,
         "memory_gb": options.limits.memory_bytes / 2**30, "max_archive_mb": options.batch.max_archive_mb,
         "seed": options.seed}, sort_keys=True).encode())
    code = sorted(p for p in _PACKAGE.rglob("*") if p.suffix in (".py", ".toml", ".npz") and p.is_file()
                  and p.relative_to(_PACKAGE).parts[0] not in ("batch", "report", "cli"))
    for path in code:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    try:
        reference = find_reference(options.reference_dir)
    except ReferenceRunError:
        digest.update(b"no reference")
    else:
        names = [f"{name}.py" for name in sorted(MODULES.values())]
        if sealed.is_sealed(reference):
            names = [sealed.MANIFEST]
        for name in names:
            digest.update((reference / name).read_bytes())
    return digest.hexdigest()[:32]


@dataclass(frozen=True)
class Outcome:
    """One student's row: what happened, and the report when there is one."""

    id: str
    status: str
    """One of :data:`STATUSES`."""
    detail: str = ""
    """Why, for anything but a clean ``graded``; also notes such as missing files."""
    seconds: float = 0.0
    """Wall time spent on this submission."""
    report: Report | None = None
    key: str = ""
    """Content hash of the entry and :func:`fingerprint`: resume reuses a row whose key still matches."""
    source: str = ""
    """The entry (or entries) in the class folder, e.g. ``alice.zip``."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return self.report is not None and self.status in SCORED

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "detail": self.detail, "seconds": self.seconds,
                "report": self.report.to_json() if self.report is not None else None, "key": self.key,
                "source": self.source, "extra": dict(self.extra)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        report = data.get("report")
        return cls(id=str(data["id"]), status=str(data["status"]), detail=str(data.get("detail", "")),
                   seconds=float(data.get("seconds", 0.0)),
                   report=Report.from_json(report) if report is not None else None,
                   key=str(data.get("key", "")), source=str(data.get("source", "")),
                   extra=dict(data.get("extra") or {}))


def entry_key(digest: str, fingerprint: str) -> str:
    return hashlib.sha256(f"{digest}:{fingerprint}".encode()).hexdigest()[:32]


def classify(report: Report, only: tuple[str, ...] = EXERCISES) -> tuple[str, str]:
    """``(status, detail)`` for a finished report: runs that did not finish, then the report's notes.

    Read from how each run ended (``report.runs``), never from the wording of a message. A missing
    file (``not_run``) is the student's loss of points, said in the notes, not a failed run. Notes
    about the files of exercises not graded (``--only``) are left out.
    """
    failed = {exercise: run for exercise, run in report.runs.items() if run.status not in ("ok", "not_run")}
    statuses = {run.status for run in failed.values()}
    status = ("error" if "harness" in statuses else "timeout" if "timeout" in statuses else "crashed" if failed
              else "graded")
    ignored = [f"{module}.py" for exercise, module in MODULES.items() if exercise not in only]
    notes = [n for n in report.notes if not any(name in n for name in ignored)]
    detail = [run.sentence(exercise) for exercise, run in failed.items()] + notes
    return status, "; ".join(detail)


def grade_entry(entry: Entry, options: Options, scratch: Path, key: str = "") -> Outcome:
    """Grade ``entry``; ``scratch`` is a private folder for unpacking (emptied afterwards)."""
    started = time.monotonic()

    def done(status: str, detail: str, report: Report | None = None) -> Outcome:
        return Outcome(entry.id, status, text(detail), round(time.monotonic() - started, 2),
                       scrub(report) if report is not None else None, key, entry.describe())

    if entry.kind == "duplicate":
        return done("duplicate", f"{entry.describe()} all claim the student id {entry.id!r}; none was graded. "
                                 "Keep one of them and run the batch again.")
    if entry.kind == "other":
        return done("invalid", f"{entry.describe()} is not a folder, a .py file, an .ipynb notebook or a .zip "
                               "archive")
    unpacked = Path(scratch) / "unpacked"
    try:
        if entry.kind == "zip":
            target = find_code(unpack_zip(entry.path, unpacked, int(options.batch.max_archive_mb * 2**20)))
        elif entry.kind == "folder":
            target = find_code(entry.path)
        else:
            target = entry.path
        report = grade(target, replace(options, lesson=False))  # a batch's reports show no lesson question
    except (InvalidSubmission, SubmissionError) as exc:
        message = _hide(str(exc), unpacked, entry)
        named = message.startswith(entry.path.name) or message.startswith(str(entry.path))
        return done("invalid", message if named else f"{entry.describe()}: {message}")
    except (ReferenceRunError, RubricError, ConfinementRefused) as exc:
        return done("error", f"the grader could not run: {exc}")
    except Exception as exc:  # noqa: BLE001 - one submission's grader failure must not stop the batch
        return done("error", f"the grader failed on this submission ({type(exc).__name__}: "
                             f"{_hide(str(exc), unpacked, entry)}); this is a grader problem, not the student's")
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
    status, detail = classify(report, options.only)
    return done(status, detail, replace(report, submission=entry.describe()))


def text(value: str) -> str:
    """``value`` with anything UTF-8 cannot encode (lone surrogates, undecodable file names) replaced."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape" if _escaped_only(value) else "replace").decode(
            "utf-8", "replace")


def _escaped_only(value: str) -> bool:
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in value)


def scrub(report: Report) -> Report:
    """The report with every string encodable, so every writer (and the state file) can write it.

    Check messages quote student exceptions, which may carry lone surrogates.
    """
    checks = tuple(replace(c, name=text(c.name), message=text(c.message), hint=text(c.hint)) for c in report.checks)
    return replace(report, checks=checks, submission=text(report.submission),
                   answers=text(report.answers) if report.answers is not None else None,
                   notes=tuple(text(n) for n in report.notes))


def _hide(text: str, unpacked: Path, entry: Entry) -> str:
    """Messages name the archive, not the scratch folder it was unpacked to."""
    return text.replace(str(unpacked), entry.path.name)
