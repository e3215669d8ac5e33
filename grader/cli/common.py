"""What the commands share besides their options: exit statuses, the default submission, writing reports,
and keeping printed text inert in GitHub Actions."""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from grader.report import WRITERS
from grader.report._common import stop_workflow_commands
from grader.results import Report
from grader.submission import MODULES

EXIT_OK, EXIT_BELOW, EXIT_GRADER, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_SUBMISSION = "exercises"


def default_submission() -> str:
    """What to grade when no SUBMISSION is given: ``exercises/`` (a checkout, or a folder made by ``init``
    under that name), else the working folder when it holds exercise files (run inside the folder ``init``
    wrote), else ``exercises`` (whose absence the error then names)."""
    if not Path(DEFAULT_SUBMISSION).exists() and any(Path(f"{m}.py").is_file() for m in MODULES.values()):
        return "."
    return DEFAULT_SUBMISSION


def write_reports(report: Report, chosen: list[tuple[str, Path, str]], quiet: bool = False) -> bool:
    """Write every format; a failure to write one does not stop the others. True when all were written."""
    ok = True
    for writer, dest, label in chosen:
        try:
            WRITERS[writer](report, dest)
        except OSError as exc:
            print(f"error: could not write the {label} to {dest}: {exc}", file=sys.stderr)
            ok = False
            continue
        if not quiet:
            print(f"{label} written to {dest}")
    return ok


@contextmanager
def inert_workflow_commands() -> Iterator[None]:
    """Inside GitHub Actions, keep printed text (which quotes student errors) from acting as ``::commands::``."""
    lines = stop_workflow_commands()
    if lines is None:
        yield
        return
    stop, resume = lines
    print(stop, flush=True)
    try:
        yield
    finally:
        print(resume, flush=True)


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """A job scheduler's SIGTERM stops a batch or a watch like Ctrl-C: outputs written, resumable."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
