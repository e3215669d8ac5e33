"""The student-facing terminal report (rich): table, failures with hints, answers, total.

Everything a submission controls (messages quoting its errors, its answers)
is printed as plain text, never interpreted as markup. Colour follows rich's
rules: off when output is not a terminal or ``NO_COLOR`` is set.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from grader.report._common import (confinement_line, exercise_groups, explain_command, graded_against,
                                   inert_report, not_implemented, run_summary, tally, unfinished_run)

from grader.lesson import describe as lesson_lines
from grader.results import Report
from grader.exercises import MODULES, title_of

_STYLE = {"pass": "green", "fail": "red", "error": "magenta", "skipped": "dim"}
_MARK = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "skipped": "SKIP"}


def _fmt(points: float) -> str:
    return f"{points:g}" if points == int(points) else f"{points:.1f}"


def render(report: Report, console: Console, verbose: bool = False) -> None:
    report = inert_report(report)  # every string a submission reaches: no terminal sequence, no workflow command
    table = Table(title=Text(f"jax-autograder: {report.submission}"), title_justify="left")
    table.add_column("exercise")
    table.add_column("", overflow="fold")
    table.add_column("score", justify="right")
    table.add_column("checks", justify="right")
    for exercise, checks in exercise_groups(report):
        got, total, passed = tally(checks)
        style = "green" if got == total else "red" if got == 0 else "yellow"
        table.add_row(exercise, title_of(exercise),
                      Text(f"{_fmt(got)} / {_fmt(total)}", style=style), f"{passed}/{len(checks)} passed")
    console.print(table)
    if line := confinement_line(report):
        full = report.confinement.get("level") == "full"
        console.print(Text(line if full else f"{line}; grading went on, as an official grade would not.",
                           style="dim" if full else "yellow"))

    for exercise, checks in exercise_groups(report):
        if not_implemented(checks):
            where = (f"write the functions in {MODULES[exercise]}.py (see their docstrings)" if exercise in MODULES
                     else "it trains with your ex1, ex3 and ex5 functions: finish those first")
            console.print(Text(f"\n{exercise}: not implemented yet; ", style="bold yellow")
                          + Text(f"{where}. ({_fmt(sum(c.max_score for c in checks))} points)"))
            continue
        run = unfinished_run(report, exercise)
        if run is not None and not verbose:
            what, hint = run_summary(exercise, run, checks)
            console.print(Text(f"\n{exercise}: {title_of(exercise)}", style="bold"))
            console.print(Text(f"  {_MARK['error']:<5} ", style=_STYLE["error"]) + Text(what))
            if hint:
                console.print(Text("        hint: ", style="cyan") + Text(hint))
            continue
        shown = [c for c in checks if verbose or c.status != "pass" or (c.message and c.exercise in ("ex4", "accuracy"))]
        if not shown:
            continue
        console.print(Text(f"\n{exercise}: {title_of(exercise)}", style="bold"))
        for c in shown:
            line = Text(f"  {_MARK[c.status]:<5} ", style=_STYLE[c.status])
            line.append(f"{c.id} ({_fmt(c.score)}/{_fmt(c.max_score)}): {c.name}")
            if verbose:
                line.append(f"  [{c.seconds:.1f} s]", style="dim")
            console.print(line)
            if c.message:
                console.print(Text("        " + c.message.replace("\n", "\n        ")))
            if c.hint:
                console.print(Text("        hint: ", style="cyan") + Text(c.hint))
            command = explain_command(c.id, report.submission)
            if c.reproduce:
                if command or verbose:
                    console.print(Text("        see it yourself: ", style="cyan")
                                  + Text(f"{command} (or paste:)" if command and verbose else command or "paste:"))
                if verbose:
                    console.print(Text("          " + c.reproduce.get("snippet", "").rstrip().replace("\n", "\n          ")))

    for note in report.notes:
        console.print(Text(f"\nnote: {note}", style="yellow"))
    for line in lesson_lines(report.lesson):
        console.print(Text("\nlesson: ", style="bold") + Text(line))
    if report.answers is not None and report.answers.strip():
        console.print(Text("\nYour answers (answers.md, shown for your instructor, not scored):", style="bold"))
        console.print(Markdown(report.answers, hyperlinks=False))
    if verbose and report.timings:
        timing = ", ".join(f"{k} {v:.1f} s" for k, v in report.timings.items())
        console.print(Text(f"\ntimings: {timing}", style="dim"))
    for line in graded_against(report):
        console.print(Text(f"\n{line}" if line.startswith("Inputs") else line, style="dim"))
    console.print(Text(f"\nTotal: {_fmt(report.score)} / {_fmt(report.max_score)}", style="bold"))


def print_report(report: Report, file: TextIO | None = None, verbose: bool = False) -> None:
    console = Console(file=file, highlight=False)
    if not console.is_terminal:
        console = Console(file=file, highlight=False, soft_wrap=True, width=120)
    render(report, console, verbose)


def render_text(report: Report, verbose: bool = False, width: int = 100) -> str:
    """The terminal report as plain text (no colour), e.g. for a front end that shows no HTML."""
    import io

    buffer = io.StringIO()
    console = Console(file=buffer, highlight=False, width=width, color_system=None, force_terminal=False,
                      force_jupyter=False)
    render(report, console, verbose)
    return buffer.getvalue()
