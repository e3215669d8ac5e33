"""Report writers: one module per format, each ``write(report, dest)``.

Scoring never knows which formats exist; the CLI looks writers up here. Every
writer reads the same :class:`~grader.results.Report`, so the formats of one
run cannot disagree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from grader.report import (classroom, classroom50, gradescope, json_report, junit, markdown, prairielearn,
                           terminal)
from grader.results import Report


class Writer(Protocol):
    def __call__(self, report: Report, dest: Path) -> None: ...


WRITERS: dict[str, Writer] = {
    "json": json_report.write,
    "classroom": classroom.write,
    "gradescope": gradescope.write,
    "junit": junit.write,
    "markdown": markdown.write,
    "classroom50": classroom50.write,
    "prairielearn": prairielearn.write,
}

__all__ = ["WRITERS", "Writer", "classroom", "classroom50", "gradescope", "json_report", "junit", "markdown",
           "prairielearn", "terminal"]
