"""The progress display: which exercises are waiting, running and done; only on a terminal."""

from __future__ import annotations

import io
import subprocess
import sys

from rich.console import Console

from grader.progress import ExerciseProgress
from tests.conftest import REFERENCE, ROOT


def _drive(console: Console, enabled: bool = True) -> None:
    with ExerciseProgress(("ex1", "ex3"), console, enabled=enabled) as shown:
        shown.update("ex1", "running", 0.0)
        shown.update("ex1", "done", 2.5)
        shown.update("ex3", "running", 0.0)
        shown._progress.refresh()


def test_progress_on_a_terminal_names_running_and_done():
    out = io.StringIO()
    _drive(Console(file=out, force_terminal=True, width=100))
    text = out.getvalue()
    assert "ex1" in text and "ex3" in text and "running" in text and "2.5 s" in text


def test_no_progress_when_piped_or_quiet():
    out = io.StringIO()
    _drive(Console(file=out, force_terminal=False, width=100))
    assert out.getvalue() == ""
    quiet = io.StringIO()
    _drive(Console(file=quiet, force_terminal=True, width=100), enabled=False)
    assert quiet.getvalue() == ""


def test_engine_reports_each_run(grade_with):
    events = []
    grade_with(REFERENCE, only=("ex3",), on_run=lambda task, state, seconds: events.append((task, state)))
    assert events == [("ex3", "running"), ("ex3", "done")]


def test_piped_cli_prints_no_progress(cache_dir):
    env = {"JAX_GRADER_CACHE": str(cache_dir), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "grader", str(REFERENCE), "--only", "ex3", "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "20 / 20" and proc.stderr == ""
