"""What the writers share: exercise titles, and bounding and cleaning text a submission controls.

Check messages quote student errors and tracebacks (and, through them, anything
the student's code chose to raise), so every writer treats them as untrusted
text of any length.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from grader.exercises import ALL
from grader.results import EXERCISES, CheckResult, Report, RunRecord

TITLES = {e.id: e.title for e in ALL}

#: Characters XML 1.0 cannot carry at all; also terminal and log hazards (ESC, NUL...).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
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
    r"""Text safe for files, logs and XML: ``\r\n`` -> ``\n``, control characters shown as ``\xNN``."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else "\ufffd", text)


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
    order = [e for e in EXERCISES if e in groups] + [e for e in groups if e not in EXERCISES]
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
