"""The contract's JSON report (``--json PATH``)."""

from __future__ import annotations

import json
from pathlib import Path

from grader.results import Report


def dumps(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


def write(report: Report, dest: Path) -> None:
    """Write atomically, so a reader never sees half a report."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_text(dumps(report), encoding="utf-8")
    tmp.replace(dest)
