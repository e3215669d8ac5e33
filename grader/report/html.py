"""The report as an HTML fragment, for a notebook cell (``grader.check``).

A score table per exercise, then each check that did not pass with its
message, hint and (for a failed value check) the snippet that reproduces it.
Everything a submission controls (messages quoting its errors, answers) is
escaped. A long report folds its details into ``<details>`` blocks, so the
cell stays short; the pictures of the lesson's questions come inline, as PNG.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from grader.exercises import title_of
from grader.report._common import (bounded, exercise_groups, explain_command, fmt_points, inert_report,
                                   not_implemented, tally)
from grader.lesson import describe as lesson_lines
from grader.results import Report

#: More failures than this and each exercise's details start folded.
FOLD_AFTER = 4
_MESSAGE_LIMIT = 4000
_COLOUR = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#8250df", "skipped": "#6e7781"}
_CSS = (
    ".jaxg table{border-collapse:collapse;margin:4px 0}.jaxg td,.jaxg th{padding:2px 10px;text-align:left;"
    "border-bottom:1px solid #ddd}.jaxg .num{text-align:right}.jaxg pre{white-space:pre-wrap;margin:2px 0 6px 0;"
    "padding:4px 6px;background:rgba(127,127,127,.08)}.jaxg .hint{color:#0969da}.jaxg summary{cursor:pointer}"
)


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _status(status: str) -> str:
    return f'<b style="color:{_COLOUR.get(status, "#000")}">{_e(status.upper())}</b>'


def _check_block(check, submission: str = "") -> str:
    parts = [f"<li>{_status(check.status)} <code>{_e(check.id)}</code> "
             f"({fmt_points(check.score)}/{fmt_points(check.max_score)}): {_e(check.name)}"]
    if check.message:
        parts.append(f"<pre>{_e(bounded(check.message, _MESSAGE_LIMIT))}</pre>")
    if check.hint:
        parts.append(f'<div class="hint">hint: {_e(bounded(check.hint, _MESSAGE_LIMIT))}</div>')
    snippet = (check.reproduce or {}).get("snippet")
    if snippet:
        command = explain_command(check.id, submission)
        run = f" (or run <code>{_e(command)}</code>)" if command else ""
        parts.append(f"<details><summary>reproduce it in Python{run}</summary><pre>{_e(snippet)}</pre></details>")
    parts.append("</li>")
    return "".join(parts)


def _image(path: Path, alt: str) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}" style="max-width:640px">'


def render(report: Report, images: tuple[Path, ...] = ()) -> str:
    """The whole report as one ``<div>``; ``images`` are PNG files shown at the end (the lesson's plots)."""
    report = inert_report(report)
    groups = exercise_groups(report)
    rows = []
    for exercise, checks in groups:
        got, total, passed = tally(checks)
        colour = "#1a7f37" if got == total else "#cf222e" if got == 0 else "#9a6700"
        rows.append(f"<tr><td>{_e(exercise)}</td><td>{_e(title_of(exercise))}</td>"
                    f'<td class="num" style="color:{colour}">{fmt_points(got)} / {fmt_points(total)}</td>'
                    f'<td class="num">{passed}/{len(checks)} passed</td></tr>')
    out = [f'<div class="jaxg"><style>{_CSS}</style>',
           f"<b>jax-autograder</b>: {_e(report.submission)} &mdash; <b>{fmt_points(report.score)} / "
           f"{fmt_points(report.max_score)}</b>",
           "<table><tr><th>exercise</th><th></th><th>score</th><th>checks</th></tr>", *rows, "</table>"]
    failing = sum(c.status != "pass" for c in report.checks)
    fold = failing > FOLD_AFTER
    for exercise, checks in groups:
        title = f"{exercise}: {title_of(exercise)}"
        if not_implemented(checks):
            out.append(f"<p><b>{_e(title)}</b>: not implemented yet "
                       f"({fmt_points(sum(c.max_score for c in checks))} points).</p>")
            continue
        shown = [c for c in checks if c.status != "pass"]
        if not shown:
            continue
        body = "<ul>" + "".join(_check_block(c, report.submission) for c in shown) + "</ul>"
        if fold:
            out.append(f"<details><summary><b>{_e(title)}</b>: {len(shown)} check(s) to fix</summary>{body}</details>")
        else:
            out.append(f"<p><b>{_e(title)}</b></p>{body}")
    for note in report.notes:
        out.append(f'<p style="color:#9a6700">note: {_e(note)}</p>')
    for line in lesson_lines(report.lesson):
        out.append(f"<p><b>lesson</b>: {_e(line)}</p>")
    if report.answers is not None and report.answers.strip():
        out.append("<details><summary><b>Your answers</b> (shown for your instructor, not scored)</summary>"
                   f"<pre>{_e(report.answers)}</pre></details>")
    for path in images:
        out.append(_image(path, Path(path).stem.replace("_", " ")))
    out.append("</div>")
    return "\n".join(out)
