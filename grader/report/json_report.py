"""The contract's JSON report (``--json PATH``)."""

from __future__ import annotations

import json
from pathlib import Path

from grader.report._common import write_atomic
from grader.results import Report


def dumps(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


def write(report: Report, dest: Path) -> None:
    """Write atomically, so a reader never sees half a report."""
    write_atomic(dest, dumps(report))
