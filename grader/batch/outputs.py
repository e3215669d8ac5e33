"""What a batch writes per student, and ``grades.csv``.

Per student, in ``students/<id>/``: ``report.json`` (the contract's format),
``feedback.md``, and any integration format asked for (``--formats
junit,gradescope``). A student with no score (an invalid entry, a grader
error) still gets all of them: a report whose every check is an ``error``
saying why, as a single grade writes when it cannot run.

``grades.csv`` has one row per student, sorted by id, ready for an LMS import:
whole points where the rubric gives whole points, and an empty cell (never a
0 that looks like a grade) when there is no score.
"""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from grader.batch.discover import safe_name
from grader.batch.grading import Outcome
from grader.config import DEFAULT_FORMATS
from grader.engine import failure_report
from grader.report._common import inert, inert_report, one_line
from grader.exercises import IDS
from grader.results import Report

#: Integration formats a batch can write per student: writer name -> file name.
STUDENT_FORMATS = {"json": "report.json", "markdown": "feedback.md", "junit": "junit.xml",
                   "gradescope": "gradescope.json"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def fmt_points(points: float) -> str:
    """``3`` for whole points, ``6.5`` otherwise (at most two decimals)."""
    points = round(float(points), 2)
    return str(int(points)) if points == int(points) else f"{points:.2f}".rstrip("0")


def csv_text(value: str) -> str:
    """A text cell a spreadsheet will not run as a formula; line breaks folded, made inert (:func:`one_line`)."""
    value = one_line(str(value))
    return "'" + value if value.startswith(_FORMULA_START) else value


def inert_outcome(outcome: Outcome) -> Outcome:
    """``outcome`` as every batch output shows it: id and entry name on one line, the rest :func:`inert`.

    A student's id is the name of their entry, which they chose: ESC, a newline
    and ``::error`` in it must not reach a log, the CSV or the summary raw.
    """
    return replace(outcome, id=one_line(outcome.id), source=one_line(outcome.source), detail=inert(outcome.detail),
                   report=inert_report(outcome.report) if outcome.report is not None else None)


def grade_columns(only: Iterable[str]) -> list[str]:
    chosen = set(only)
    return ["student", "total", "max", *[e for e in IDS if e in chosen], "status", "seconds", "detail"]


def grades_rows(outcomes: list[Outcome], only: Iterable[str]) -> list[list[str]]:
    columns = grade_columns(only)
    exercises = columns[3:-3]
    rows = [columns]
    for o in sorted(outcomes, key=lambda o: o.id):
        total = maximum = ""
        per: dict[str, str] = {e: "" for e in exercises}
        if o.scored and o.report is not None:
            total, maximum = fmt_points(o.report.score), fmt_points(o.report.max_score)
            for exercise, checks in o.report.by_exercise().items():
                if exercise in per:
                    per[exercise] = fmt_points(sum(c.score for c in checks))
        rows.append([csv_text(o.id), total, maximum, *[per[e] for e in exercises], o.status,
                     f"{o.seconds:.1f}", csv_text(o.detail)])
    return rows


def write_grades(dest: Path, outcomes: list[Outcome], only: Iterable[str]) -> None:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(grades_rows(outcomes, only))
    write_atomic(dest, buffer.getvalue())


def write_atomic(dest: Path, text: str) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(dest)


def student_dir(out: Path, sid: str) -> Path:
    return out / "students" / safe_name(sid)


def student_report(outcome: Outcome, only: tuple[str, ...]) -> Report:
    """The report to show the student: the real one, or one that says why there is none."""
    if outcome.report is not None:
        return outcome.report
    reason = {"pending": "not graded yet"}.get(outcome.status, f"{outcome.status}: {outcome.detail}")
    return failure_report(outcome.source or outcome.id, only, reason, students_fault=outcome.status == "invalid")


def write_student(out: Path, outcome: Outcome, only: tuple[str, ...], formats: Iterable[str] = DEFAULT_FORMATS) -> None:
    """Write the student's files, replacing what an earlier run left (and only that)."""
    from grader.report import WRITERS

    folder = student_dir(out, outcome.id)
    report = student_report(outcome, only)
    folder.mkdir(parents=True, exist_ok=True)
    for name in formats:
        dest = folder / STUDENT_FORMATS[name]
        writer = WRITERS.get(name)
        if writer is None and name == "markdown":
            write_atomic(dest, minimal_markdown(report))
        elif writer is not None:
            writer(report, dest)


def prune_students(out: Path, keep: Iterable[str]) -> None:
    """Remove the folders of students no longer in the class (earlier runs' leftovers)."""
    root = out / "students"
    if not root.is_dir():
        return
    wanted = {safe_name(sid) for sid in keep}
    for folder in root.iterdir():
        if folder.name not in wanted and folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)


def minimal_markdown(report: Report) -> str:
    """Plain feedback, used only when no Markdown writer is installed."""
    report = inert_report(report)
    lines = [f"# {report.score:g} / {report.max_score:g}", ""]
    for check in report.checks:
        lines.append(f"- {check.status}: {check.id} ({check.score:g}/{check.max_score:g})")
        if check.status != "pass" and check.hint:
            lines.append(f"  - hint: {' '.join(check.hint.split())}")
    return "\n".join(lines) + "\n"


def validate_formats(names: Iterable[str]) -> tuple[str, ...]:
    names = tuple(names)
    unknown = [n for n in names if n not in STUDENT_FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {', '.join(unknown)}; choose from {', '.join(STUDENT_FORMATS)}")
    return tuple(dict.fromkeys([*DEFAULT_FORMATS, *names]))
