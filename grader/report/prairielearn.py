"""PrairieLearn's external-grader ``results.json`` (``--prairielearn PATH``).

PrairieLearn runs the question's entry script in a container with the
student's files in ``/grade/student`` and reads ``/grade/results/results.json``
(docs: "External Grading", in PrairieLearn's documentation). What it reads:

- ``gradable``: ``false`` when the submission could not be graded at all (no
  exercise file, or a syntax error in every file graded): PrairieLearn then
  marks it "invalid, not gradable", awards and takes no points and does not
  count the attempt; ``format_errors`` (a list of strings) says what to fix;
- ``score``: the fraction earned, in [0, 1] (the JSON report's score over its
  maximum);
- ``message`` and ``output``: the total and the student's Markdown report
  (shown as text);
- ``tests``: one per check, ``name``, ``description`` (the exercise),
  ``points``, ``max_points``, ``message`` (what happened, one line) and
  ``output`` (message and hint), as ``<pl-external-grader-results>`` renders
  them;
- ``images``: the lesson's pictures as ``data:image/png;base64,...`` URLs, when
  the run wrote them: the PNG files in the folder :data:`PLOTS_FOLDER` beside
  ``results.json`` (the entry script passes ``--plots /grade/results/plots``).

PrairieLearn limits the file to 1 MB: the document is kept under
:data:`MAX_BYTES` by dropping pictures that do not fit, then shortening texts.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from grader.exercises import title_of
from grader.report._common import (bounded, detail, first_line, fmt_points, inert_report, truncate,
                                   write_atomic)
from grader.report.markdown import render as render_markdown
from grader.results import CheckResult, Report

MAX_BYTES = 900_000
"""Below PrairieLearn's 1 MB limit on ``results.json``, pictures included."""
PLOTS_FOLDER = "plots"
"""The folder beside ``results.json`` whose PNG files become ``images``."""
_LIMITS = ((4000, 20000), (1000, 4000), (300, 1000), (80, 200))
"""(per-check text, whole report text) character limits, tried in turn until the document fits."""
#: How the engine words an error raised while importing a file that does not compile.
_SYNTAX = re.compile(r"^importing the submission raised (SyntaxError|IndentationError|TabError):")


def ungradable(report: Report) -> list[str]:
    """What keeps the submission from being graded at all (PrairieLearn's ``format_errors``), or ``[]``.

    A submission is not gradable when no check ran its code: grading could not
    start (no exercise file, an unreadable notebook...), or every check errored
    because the file it needs does not compile.
    """
    if not report.checks:
        return list(report.notes) or ["nothing was graded"]
    if all(run.status == "not_run" for run in report.runs.values()) and report.runs and all(
            c.status == "error" for c in report.checks):
        return list(report.notes) or [first_line(report.checks[0].message)]
    if all(c.status == "error" and _SYNTAX.match(c.message) for c in report.checks):
        errors: dict[str, str] = {}
        for check in report.checks:
            where = f"{check.file}, line {check.line}" if check.file and check.line else check.exercise
            errors.setdefault(where, f"{where}: {first_line(check.message).split(' raised ', 1)[-1]}")
        return list(errors.values())
    return []


def _images(folder: Path) -> list[dict[str, str]]:
    if not folder.is_dir():
        return []
    return [{"label": path.stem.replace("_", " "),
             "url": "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")}
            for path in sorted(folder.glob("*.png"))]


def _test(check: CheckResult, limit: int) -> dict[str, Any]:
    what = {"pass": "passed", "fail": "failed", "error": "error in your code", "skipped": "skipped"}[check.status]
    summary = first_line(check.message)
    return {
        "name": bounded(f"{check.id}: {check.name}", 200).replace("\n", " "),
        "description": title_of(check.exercise),
        "points": round(float(check.score), 4),
        "max_points": round(float(check.max_score), 4),
        "message": bounded(f"{what}: {summary}" if summary else what, min(limit, 300)).replace("\n", " "),
        "output": detail(check.message, check.hint, limit),
    }


def results(report: Report, images: list[dict[str, str]] | None = None, check_limit: int = _LIMITS[0][0],
            text_limit: int = _LIMITS[0][1]) -> dict[str, Any]:
    """The ``results.json`` document, texts cut to the given lengths."""
    report = inert_report(report)
    errors = ungradable(report)
    if errors:
        return {
            "gradable": False,
            "format_errors": [bounded(e, check_limit) for e in errors],
            "message": "This submission could not be graded, so it does not count as an attempt: "
                       + bounded("; ".join(errors), min(check_limit, 1000)),
        }
    fraction = report.score / report.max_score if report.max_score > 0 else 0.0
    passed = sum(c.status == "pass" for c in report.checks)
    document: dict[str, Any] = {
        "gradable": True,
        "score": round(min(1.0, max(0.0, fraction)), 6),
        "message": f"jax-autograder: {fmt_points(report.score)} / {fmt_points(report.max_score)} points "
                   f"({passed} of {len(report.checks)} checks passed)",
        "output": truncate(render_markdown(report, check_limit, text_limit // 2), text_limit),
        "tests": [_test(c, check_limit) for c in report.checks],
    }
    if images:
        document["images"] = images
    return document


def _size(document: dict[str, Any]) -> int:
    return len(_encode(document).encode("utf-8"))


def _encode(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def dumps(report: Report, images: list[dict[str, str]] | None = None) -> str:
    """The document under :data:`MAX_BYTES`: pictures that do not fit are left out first, then texts are cut."""
    images = list(images or [])
    kept: list[dict[str, str]] = []
    for image in images:  # the smallest document's room decides which pictures fit
        if _size(results(report, kept + [image], *_LIMITS[-1])) <= MAX_BYTES:
            kept.append(image)
    for check_limit, text_limit in _LIMITS:
        document = results(report, kept, check_limit, text_limit)
        if _size(document) <= MAX_BYTES:
            break
    if len(kept) < len(images):
        document["message"] += f" ({len(images) - len(kept)} picture(s) left out: too large for PrairieLearn)"
    return _encode(document)


def write(report: Report, dest: Path) -> None:
    """Write ``results.json`` to ``dest`` atomically, with the pictures in the ``plots`` folder beside it."""
    dest = Path(dest)
    write_atomic(dest, dumps(report, _images(dest.parent / PLOTS_FOLDER)))
