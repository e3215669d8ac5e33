"""GitHub Actions annotations: an error in the student's code shown on the line that raised it.

``python -m grader.report.actions REPORT.json`` prints one ``::error`` workflow
command per place in the student's files where their code raised (a crash, or
a check that errored with a traceback into their file), read from the JSON
report's per-check ``file`` and ``line``. GitHub then marks that line in the
commit and pull-request views. Checks raising at the same line share one
annotation (GitHub shows at most 10 errors per step).

Run it as its own step, after grading: the grader turns workflow commands off
while it prints (student text must not act as commands), so annotations printed
there would be ignored. Everything in a command is escaped the way GitHub's
toolkit does (``%`` -> ``%25``, CR -> ``%0D``, LF -> ``%0A``; in properties also
``:`` -> ``%3A`` and ``,`` -> ``%2C``), so a message cannot end the command or
start another.

Paths are relative to the working folder, the repository root in a workflow:
a folder submission's ``ex1_dropout.py`` is ``SUBMISSION/ex1_dropout.py``; a
single ``.py`` submission is that file (all exercises share its lines). A
notebook's lines are not the file's lines, so it gets no annotations.
"""

from __future__ import annotations

import json
import posixpath
import sys
from pathlib import Path, PurePosixPath

from grader.report._common import clean, first_line, inert_report, truncate
from grader.results import Report
from grader.exercises import MODULES

MESSAGE_LIMIT = 2000
MAX_ANNOTATIONS = 10
"""GitHub shows at most 10 error annotations per step."""
_MODULE_FILES = {f"{name}.py" for name in MODULES.values()}


def escape_data(text: str) -> str:
    """A command's message, escaped as GitHub's toolkit does (``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value, escaped as GitHub's toolkit does (``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str | int) -> str:
    """``::name key=value,...::message``, every part escaped."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def student_path(submission: str, file: str) -> str | None:
    """The repository path of ``file`` (an exercise module) in ``submission``, or None when it has no such path."""
    if file not in _MODULE_FILES:
        return None
    root = PurePosixPath(Path(submission).as_posix())
    if root.suffix == ".ipynb":
        return None
    path = root if root.suffix == ".py" else root / file
    return posixpath.normpath(str(path))


def annotations(report: Report) -> list[str]:
    """One ``::error`` command per (file, line) where the student's code raised, at most :data:`MAX_ANNOTATIONS`."""
    places: dict[tuple[str, int], list] = {}
    for check in inert_report(report).checks:
        if check.status not in ("error", "fail") or not check.file or check.line <= 0:
            continue
        path = student_path(report.submission or ".", check.file)
        if path is not None:
            places.setdefault((path, int(check.line)), []).append(check)
    lines = []
    for (path, line), checks in list(places.items())[:MAX_ANNOTATIONS]:
        first = checks[0]
        ids = ", ".join(c.id for c in checks)
        title = f"{first.exercise}: your code raised here ({len(checks)} check{'s' if len(checks) > 1 else ''})"
        text = truncate(clean(f"{first_line(first.message)}\nChecks: {ids}\nHint: {first.hint.strip()}"),
                        MESSAGE_LIMIT)
        lines.append(command("error", text, file=path, line=line, title=title))
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m grader.report.actions REPORT.json  (the JSON report of python -m grader --json)",
              file=sys.stderr)
        return 2
    try:
        report = Report.from_json(json.loads(Path(argv[0]).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: cannot read the JSON report {argv[0]}: {exc}. Grade with --json {argv[0]} first.",
              file=sys.stderr)
        return 2
    for line in annotations(report):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
