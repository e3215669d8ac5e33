"""``python -m grader --watch [SUBMISSION] [options]``: grade, then re-grade on every save (:mod:`grader.watch`).

The watch grades with the configuration a plain grade of the same command line gets (the same
:func:`~grader.cli.options.configure`); it only draws the report again after every round. Ctrl-C (or
SIGTERM) ends it with status 0.
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import nullcontext
from pathlib import Path

from rich.console import Console

from grader.cli.common import EXIT_GRADER, EXIT_OK, inert_workflow_commands, sigterm_interrupts, write_reports
from grader.config import Options
from grader.report.terminal import print_report
from grader.results import Report
from grader.submission import SubmissionError


def run(args: argparse.Namespace, options: Options, chosen: list[tuple[str, Path, str]]) -> int:
    """Watch ``args.submission``, grading with ``options``; every round's report is printed and written."""
    from grader import watch

    console = Console(highlight=False)
    interactive = console.is_terminal and not args.quiet

    def show(report: Report, graded: tuple[str, ...], changed: tuple[str, ...]) -> None:
        if interactive:
            console.clear()
        when = time.strftime("%H:%M:%S")
        what = f"re-graded {', '.join(graded)} ({', '.join(changed)} changed)" if changed and graded else (
            f"{', '.join(changed)} changed" if changed else "graded")
        with inert_workflow_commands():
            if args.quiet:
                print(f"{report.score:g} / {report.max_score:g}", flush=True)
            else:
                print(f"[{when}] {what}", flush=True)
                print_report(report, verbose=args.verbose)
                print(f"watching {args.submission} for changes; Ctrl-C to stop", flush=True)
            write_reports(report, chosen, args.quiet)

    def busy(exercises: tuple[str, ...]):
        return console.status(f"grading {', '.join(exercises)} ...") if interactive else nullcontext()

    try:
        with sigterm_interrupts():
            watch.watch(args.submission, options, show, busy=busy)
    except KeyboardInterrupt:
        print("stopped watching", file=sys.stderr)
        return EXIT_OK
    except (SubmissionError, watch.GradingFailed) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_GRADER
    return EXIT_OK
