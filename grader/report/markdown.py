"""The student-facing report as Markdown (``--markdown PATH``), e.g. for ``$GITHUB_STEP_SUMMARY``.

Score table, what to fix (message and hint per failed check), notes, the
student's answers, and every check in a collapsed table. Everything a
submission controls is quoted so it renders as the text it is: messages (which
quote student errors) and ``answers.md`` go in fenced blocks whose fence is
longer than any run of backticks inside, and text placed inline (hints, notes,
the submission path) is escaped, HTML included. The whole document stays under
GitHub's 1 MiB step-summary limit by shortening messages and answers.
"""

from __future__ import annotations

import re
from pathlib import Path

from grader.report._common import (clean, confinement_line, exercise_groups, fmt_points, graded_against,
                                   inert_report, not_implemented, run_summary, tally, truncate, unfinished_run,
                                   write_atomic)
from grader.results import CheckResult, Report
from grader.exercises import MODULES, title_of

MAX_BYTES = 900 * 1024
"""Below GitHub's 1 MiB limit for a step summary, with room for anything else the step writes."""
_LIMITS = ((4000, 20000), (1000, 5000), (300, 2000), (80, 500))
"""(message, answers) character limits, tried in turn until the document fits."""
_MARK = {"pass": "✅ pass", "fail": "❌ fail", "error": "💥 error", "skipped": "⏭️ skipped"}
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|~#!])")


def inline(text: str) -> str:
    """``text`` as one line of literal Markdown: no emphasis, links, code, HTML or table breaks."""
    text = clean(text).replace("\n", " ")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _INLINE_SPECIAL.sub(r"\\\1", text)


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a fenced code block that nothing inside can close."""
    text = clean(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def _points(got: float, total: float) -> str:
    return f"{fmt_points(got)} / {fmt_points(total)}"


def _summary_table(report: Report) -> list[str]:
    lines = ["| Exercise | | Score | Checks passed |", "| --- | --- | ---: | ---: |"]
    for exercise, checks in exercise_groups(report):
        got, total, passed = tally(checks)
        title = title_of(exercise)
        lines.append(f"| {exercise} | {title} | {_points(got, total)} | {passed} / {len(checks)} |")
    passed = tally(report.checks)[2]
    lines.append(f"| **Total** | | **{_points(report.score, report.max_score)}** | "
                 f"**{passed} / {len(report.checks)}** |")
    return lines


def _failure(check: CheckResult, limit: int) -> list[str]:
    lines = [f"**{_MARK[check.status]}: `{check.id}`**: {inline(check.name)} "
             f"({_points(check.score, check.max_score)} points)", ""]
    if check.message.strip():
        lines += [fenced(truncate(check.message.strip(), limit)), ""]
    if check.hint.strip():
        lines += [f"**Hint:** {inline(truncate(check.hint.strip(), limit))}", ""]
    return lines


def _to_fix(report: Report, limit: int) -> list[str]:
    lines: list[str] = []
    for exercise, checks in exercise_groups(report):
        if not_implemented(checks):
            where = (f"write the functions in `{MODULES[exercise]}.py` (see their docstrings)" if exercise in MODULES
                     else "it trains with your ex1, ex3 and ex5 functions: finish those first")
            points = fmt_points(sum(c.max_score for c in checks))
            lines += [f"#### {exercise}: {title_of(exercise)}", "",
                      f"Not implemented yet: {where} ({points} points).", ""]
            continue
        run = unfinished_run(report, exercise)
        if run is not None:
            what, hint = run_summary(exercise, run, checks)
            lines += [f"#### {exercise}: {title_of(exercise)}", "", fenced(truncate(what, limit)), ""]
            if hint.strip():
                lines += [f"**Hint:** {inline(truncate(hint.strip(), limit))}", ""]
            continue
        shown = [c for c in checks if c.status != "pass"]
        if shown:
            lines += [f"#### {exercise}: {title_of(exercise)}", ""]
            for check in shown:
                lines += _failure(check, limit)
    return ["### What to fix", "", *lines] if lines else []


def _all_checks(report: Report) -> list[str]:
    lines = ["<details><summary>All checks</summary>", "",
             "| | Check | What it checks | Points |", "| --- | --- | --- | ---: |"]
    for c in report.checks:
        lines.append(f"| {_MARK[c.status]} | `{c.id}` | {inline(c.name)} | {_points(c.score, c.max_score)} |")
    return lines + ["", "</details>", ""]


def render(report: Report, message_limit: int = _LIMITS[0][0], answers_limit: int = _LIMITS[0][1]) -> str:
    """The Markdown document, with messages and answers cut to the given lengths."""
    report = inert_report(report)
    if report.checks:
        title = f"## jax-autograder: {_points(report.score, report.max_score)}"
    else:
        title = "## jax-autograder could not grade this submission"
    lines = [title, ""]
    if report.submission:
        lines += [f"Submission: {inline(report.submission)}", ""]
    if line := confinement_line(report):
        lines += [inline(line), ""]
    if report.checks:
        lines += [*_summary_table(report), ""]
        lines += _to_fix(report, message_limit)
        passed_notes = [c for c in report.checks if c.status == "pass" and c.message.strip()]
        if passed_notes:
            lines += ["### Measurements", ""]
            lines += [f"- `{c.id}`: {inline(truncate(c.message.strip(), message_limit))}" for c in passed_notes]
            lines += [""]
    if report.notes:
        lines += ["### Notes", ""] + [f"- {inline(truncate(n, message_limit))}" for n in report.notes] + [""]
    if graded_against(report):
        lines += ["### Graded against", ""] + [f"- {inline(line)}" for line in graded_against(report)] + [""]
    if report.answers is not None and report.answers.strip():
        lines += ["### Your answers", "", "From `answers.md`, shown for your instructor to read; not scored.", "",
                  fenced(truncate(report.answers.strip(), answers_limit), "markdown"), ""]
    if report.checks:
        lines += _all_checks(report)
    return "\n".join(lines).rstrip("\n") + "\n"


def dumps(report: Report) -> str:
    """:func:`render` with the longest limits that keep the document under :data:`MAX_BYTES`."""
    for message_limit, answers_limit in _LIMITS:
        text = render(report, message_limit, answers_limit)
        if len(text.encode("utf-8")) <= MAX_BYTES:
            return text
    return truncate(text, MAX_BYTES // 4) + "\n"


def write(report: Report, dest: Path) -> None:
    """Write the document to ``dest`` (replacing it), atomically."""
    write_atomic(dest, dumps(report))
