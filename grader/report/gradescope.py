"""Gradescope's ``results.json`` (``--gradescope PATH``).

One Gradescope test per check: ``name`` is the check's id and sentence,
``number`` is ``<exercise>.<position>`` (``1.3``; the accuracy check is exercise
6), ``status`` is ``passed`` only for a passing check (partial credit shows as
``failed`` with its score), ``output`` is the message and hint as plain text,
``tags`` hold the exercise. The top-level ``output`` (Markdown) has the total,
the notes and the student's answers, quoted. Nothing the submission printed is
included: messages only quote its errors, cut to a bounded length, and
``stdout_visibility`` stays ``hidden`` so the grader's own log is for
instructors only. Scores are the JSON report's, unrounded (Gradescope takes
fractions).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.report._common import (confinement_line, detail, fmt_points, graded_against, inert_report, truncate,
                                   write_atomic)
from grader.report.markdown import fenced, inline
from grader.exercises import IDS
from grader.results import CheckResult, Report

MESSAGE_LIMIT = 8000
"""Characters of a check's message and hint kept in its ``output``."""
ANSWERS_LIMIT = 20000
VISIBILITY = "visible"
STDOUT_VISIBILITY = "hidden"


def _test(check: CheckResult, number: str) -> dict[str, Any]:
    return {
        "name": f"{check.id}: {check.name}",
        "number": number,
        "score": round(check.score, 4),
        "max_score": round(check.max_score, 4),
        "status": "passed" if check.status == "pass" else "failed",
        "output": detail(check.message, check.hint, MESSAGE_LIMIT),
        "output_format": "text",
        "tags": [check.exercise],
        "visibility": VISIBILITY,
    }


def _numbers(report: Report) -> list[str]:
    seen: dict[str, int] = {}
    numbers = []
    for check in report.checks:
        seen[check.exercise] = seen.get(check.exercise, 0) + 1
        major = IDS.index(check.exercise) + 1 if check.exercise in IDS else len(IDS) + 1
        numbers.append(f"{major}.{seen[check.exercise]}")
    return numbers


def _official(line: str, report: Report) -> str:
    note = report.inputs.get("note", "")
    return line.replace(note, "").strip() if note else line


def _output(report: Report) -> str:
    if report.checks:
        passed = sum(c.status == "pass" for c in report.checks)
        lines = [f"**Total: {fmt_points(report.score)} / {fmt_points(report.max_score)}** "
                 f"({passed} of {len(report.checks)} checks passed)"]
    else:
        lines = ["**The grader could not grade this submission.**"]
    lines += [f"- {inline(truncate(note, 2000))}" for note in report.notes]
    # Gradescope's grade is the official one: the public-inputs caveat ("the official grade uses other
    # inputs") is for a student grading at home, not for it.
    lines += [f"- {inline(_official(line, report))}" for line in graded_against(report)]
    if line := confinement_line(report):
        lines += ["", inline(line)]
    if report.answers is not None and report.answers.strip():
        # answers.md or a notebook's answer cells: name neither
        lines += ["", "Your answers to the lesson's questions, shown for your instructor to read; not scored:", "",
                  fenced(truncate(report.answers.strip(), ANSWERS_LIMIT), "markdown")]
    return "\n".join(lines) + "\n"


def results(report: Report) -> dict[str, Any]:
    """The ``results.json`` document for ``report``."""
    report = inert_report(report)
    return {
        "score": round(report.score, 4),
        "execution_time": round(report.timings.get("total", sum(report.timings.values()))),
        "output": _output(report),
        "output_format": "md",
        "tests": [_test(c, n) for c, n in zip(report.checks, _numbers(report))],
        "visibility": VISIBILITY,
        "stdout_visibility": STDOUT_VISIBILITY,
    }


def dumps(report: Report) -> str:
    return json.dumps(results(report), indent=2, ensure_ascii=False) + "\n"


def write(report: Report, dest: Path) -> None:
    """Write atomically, so Gradescope never uploads half a file."""
    write_atomic(dest, dumps(report))
