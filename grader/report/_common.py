"""What the writers share: exercise titles, and bounding and cleaning text a submission controls.

Check messages quote student errors and tracebacks (and, through them, anything
the student's code chose to raise), so every writer treats them as untrusted
text of any length. :func:`inert` is the one sanitiser of such text at every
output (terminal, progress logs, every report format, the batch's CSV and
summary): no control character but newline and tab, and no line that GitHub
Actions would run as a workflow command. :func:`inert_report` applies it to
every string of a report; :func:`one_line` also folds text onto one line.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from grader.exercises import IDS
from grader.results import CheckResult, Report, RunRecord

#: Characters XML 1.0 cannot carry at all; also terminal and log hazards: ESC, NUL, the C1 controls (0x9b
#: starts a terminal sequence as ESC [ does), and the bidirectional overrides that reorder what a line shows.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff\ufffe\uffff]")
#: Longest text of one field :func:`inert_report` keeps (writers cut further to their own limits).
MAX_FIELD_CHARS = 200_000
#: A line GitHub Actions would read as a workflow command (``::error::``...), after leading blanks.
_COMMAND_LINE = re.compile(r"^(\s*)::", re.MULTILINE)
#: Invisible, not whitespace to .NET's TrimStart, so the runner no longer sees ``::`` at the start.
_ZERO_WIDTH_SPACE = "\u200b"


#: ``Report.submission`` of a notebook graded in its kernel whose file is unknown (``grader.notebook.check``).
KERNEL_ORIGIN = "notebook (kernel)"


def explain_command(check_id: str, submission: str = "") -> str:
    """The ``explain`` command for one check, naming the submission so that it runs as printed from where the
    grade ran, on a checkout or an installed grader; "" for a kernel's code, which no command can grade."""
    import shlex

    if submission == KERNEL_ORIGIN:
        return ""
    return f"python -m grader explain {check_id}" + (f" {shlex.quote(submission)}" if submission else "")


def fmt_points(points: float) -> str:
    """``3`` for whole points, ``6.4`` otherwise (at most two decimals)."""
    points = round(float(points), 2)
    return f"{points:g}" if points == int(points) else f"{points:.2f}".rstrip("0")


def clean(text: str) -> str:
    r"""Text safe for files, logs and XML: ``\r\n`` -> ``\n``, control characters shown as ``\xNN`` / ``\uNNNN``."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(_shown_control, text)


def _shown_control(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return "\ufffd" if 0xD800 <= code <= 0xDFFF or code >= 0xFFFE else f"\\u{code:04x}"


def inert(text: str) -> str:
    """The one sanitiser for text a submission controls, wherever it is written or printed.

    :func:`clean` (no control characters but newline and tab, nothing that
    moves a terminal's cursor or writes its clipboard), then no line read as a
    GitHub Actions workflow command (:func:`neutralise_workflow_commands`).
    """
    return neutralise_workflow_commands(clean(text))


def one_line(text: str, limit: int | None = None) -> str:
    """:func:`inert` text folded onto one line (every run of whitespace, newlines included, becomes a space).

    For the lines of a log where one line is one student: a name with a
    newline cannot start a line of its own (a fake progress line, ``::error``).
    """
    if limit is not None:
        text = text[: limit * 4]
    folded = " ".join(clean(text).split())
    if limit is not None and len(folded) > limit:
        folded = folded[: max(limit - 3, 0)] + "..."
    return neutralise_workflow_commands(folded)


def inert_report(report: Report) -> Report:
    """``report`` with every string a submission can reach made :func:`inert` (each at most
    :data:`MAX_FIELD_CHARS`), the submission's name on one line; what every writer renders."""
    def text(value: str) -> str:
        return inert(value if len(value) <= MAX_FIELD_CHARS else truncate(value[:MAX_FIELD_CHARS], MAX_FIELD_CHARS,
                                                                           total=len(value)))

    checks = tuple(replace(c, id=text(c.id), exercise=text(c.exercise), name=text(c.name), message=text(c.message),
                           hint=text(c.hint), mistake=text(c.mistake),
                           reproduce=_inert_data(c.reproduce, text) if c.reproduce is not None else None)
                   for c in report.checks)
    runs = {text(exercise): replace(run, detail=text(run.detail)) for exercise, run in report.runs.items()}
    return replace(report, checks=checks, submission=one_line(text(report.submission)),
                   answers=text(report.answers) if report.answers is not None else None,
                   notes=tuple(text(n) for n in report.notes), runs=runs,
                   lesson=_inert_data(report.lesson, text), accuracy=_inert_data(report.accuracy, text))


def _inert_data(value, text):
    """Every string in plain data (dicts, lists, strings, numbers) through ``text``."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {text(k) if isinstance(k, str) else k: _inert_data(v, text) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_inert_data(v, text) for v in value)
    return value


def stop_workflow_commands() -> tuple[str, str] | None:
    """Inside GitHub Actions, the line that stops workflow commands and the line that resumes them; else None.

    Printed around a log that quotes students (a batch's progress), nothing
    in between runs as a command whatever it says.
    """
    if os.environ.get("GITHUB_ACTIONS") != "true":
        return None
    token = secrets.token_hex(16)
    return f"::stop-commands::{token}", f"::{token}::"


def truncate(text: str, limit: int, total: int | None = None) -> str:
    """At most ``limit`` characters; a cut is marked with the original length (``total``, default ``len(text)``)."""
    total = len(text) if total is None else total
    if limit <= 0:
        return ""
    if len(text) <= limit and total <= len(text):
        return text
    marker = f" ... [cut; {total:,} characters in all]"
    if limit <= len(marker) + 20:
        return text[:limit]
    return text[:limit - len(marker)] + marker


def bounded(text: str, limit: int) -> str:
    """:func:`clean` then :func:`truncate`, cleaning only what is kept (messages can be megabytes)."""
    head = clean(text[:limit])
    return truncate(head, limit, total=max(len(text), len(head)))


def first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0] if text.strip() else ""


def neutralise_workflow_commands(text: str) -> str:
    """Stop a line of untrusted text from acting as a GitHub Actions workflow command when printed."""
    return _COMMAND_LINE.sub(lambda m: m.group(1) + _ZERO_WIDTH_SPACE + "::", text)


def detail(message: str, hint: str, limit: int) -> str:
    """A check's message and hint as one block of clean text, at most ``limit`` characters.

    The hint keeps its place however long the message is: it says what to do.
    """
    message, hint = message.strip(), hint.strip()
    hint_text = bounded(f"Hint: {hint}", max(limit // 3, 1)) if hint else ""
    room = limit - len(hint_text) - (1 if hint_text else 0)
    message_text = bounded(message, room) if message and room > 0 else ""
    return "\n".join(part for part in (message_text, hint_text) if part)


def exercise_groups(report: Report) -> list[tuple[str, list[CheckResult]]]:
    """``(exercise, checks)`` in lesson order, for the exercises the report has checks for."""
    groups = report.by_exercise()
    order = [e for e in IDS if e in groups] + [e for e in groups if e not in IDS]
    return [(e, groups[e]) for e in order]


def tally(checks: Iterable[CheckResult]) -> tuple[float, float, int]:
    """``(score, max_score, checks passed)`` of a group of checks."""
    checks = list(checks)
    return sum(c.score for c in checks), sum(c.max_score for c in checks), sum(c.status == "pass" for c in checks)


def not_implemented(checks: Iterable[CheckResult]) -> bool:
    """True when every check failed only because the functions are still stubs."""
    checks = list(checks)
    return bool(checks) and all(c.message.startswith("not implemented yet") for c in checks)


def unfinished_run(report: Report, exercise: str) -> RunRecord | None:
    """How ``exercise``'s run ended when it did not run to the end (crash, timeout, missing file...), else None.

    Every check of such an exercise carries the same error, so writers say it once.
    """
    run = report.runs.get(exercise)
    return run if run is not None and not run.finished else None


def run_summary(exercise: str, run: RunRecord, checks: list[CheckResult]) -> tuple[str, str]:
    """``(what happened, hint)`` for an exercise whose run did not finish: one line and one hint for all its checks."""
    points = fmt_points(sum(c.max_score for c in checks))
    what = f"{run.sentence(exercise)}: {run.detail}" if run.detail else run.sentence(exercise)
    hint = next((c.hint for c in checks if c.status == "error" and c.hint), "")
    return f"{what} (all {len(checks)} checks, {points} points, score 0)", hint


def confinement_line(report: Report) -> str:
    """How the runs were confined, in one line ("" for a report that says nothing about it)."""
    described = report.confinement.get("description")
    if not described:
        return ""
    return f"Exercise runs confined: {described}"


def write_atomic(dest: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``dest`` through a temporary file, so no reader sees half a report."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(dest)


def graded_against(report: Report) -> list[str]:
    """One line on the inputs and one on the reference the grade was judged against (none if unknown).

    Never the seed's value: a student must not learn the official grade's inputs.
    """
    lines = []
    inputs = report.inputs.get("kind")
    if inputs == "public":
        lines.append("Inputs: public. " + report.inputs.get("note", ""))
    elif inputs:
        lines.append("Inputs: drawn from a secret seed (the official grade's inputs).")
    reference = report.reference
    if reference.get("kind") == "sealed":
        versions = ", ".join(f"{name} {v}" for name, v in sorted(reference.get("versions", {}).items()))
        lines.append(f"Reference: sealed observations (jax-autograder {reference.get('grader', '?')}; {versions}; "
                     f"{reference.get('platform', '?')}).")
    elif reference.get("kind") == "code":
        lines.append("Reference: the reference solutions, run on this machine.")
    return [line.strip() for line in lines]
