"""--watch: grade, re-grade only what changed on save, leave cleanly on Ctrl-C."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from grader.results import CheckResult, Report
from grader.watch import affected, merge
from tests.conftest import CORPUS, ROOT, submission_with


def _lines(proc: subprocess.Popen) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _until(lines: queue.Queue, needle: str, seen: list[str]) -> None:
    while True:
        line = lines.get(timeout=600)
        assert line is not None, "the watch ended early:\n" + "".join(seen)
        seen.append(line)
        if needle in line:
            return


@pytest.mark.e2e
def test_watch_regrades_the_edited_exercise_and_stops_on_ctrl_c(tmp_path, cache_dir):
    folder = submission_with(tmp_path, {})
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache_dir)}
    # -X faulthandler: if Ctrl-C ever fails to end the watch, SIGABRT below makes it print every thread's stack
    # Ctrl-C as a terminal delivers it: a suite started in the background (nohup ... &) passes SIGINT on ignored,
    # and a Python started with SIGINT ignored never raises KeyboardInterrupt.
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "grader", "--watch", str(folder), "--only",
                             "ex3,ex5"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen: list[str] = []
    try:
        lines = _lines(proc)
        _until(lines, "Total: 35 / 35", seen)
        _until(lines, "watching", seen)
        shutil.copy(CORPUS / "mutants" / "ex3_mlp_forward__string_order.py", folder / "ex3_mlp_forward.py")
        _until(lines, "re-graded", seen)
        assert "re-graded ex3 (ex3_mlp_forward.py changed)" in seen[-1]  # not ex5: its file did not change
        _until(lines, "Total:", seen)
        assert "Total: 30 / 35" in seen[-1]
        text = "".join(seen)
        assert "ex3.deep" in text and "python -m grader explain ex3.deep" in text
        _until(lines, "watching", seen)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            proc.wait(timeout=30)
            stacks = "".join(iter(lambda: lines.get(timeout=10), None))
            raise AssertionError("Ctrl-C did not end the watch within 60 s; its threads then:\n" + stacks) from None
        out = "".join(iter(lambda: lines.get(timeout=10), None))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, "".join(seen) + out
    assert "stopped watching" in out and "Traceback" not in out


def _report(*checks: tuple[str, float]) -> Report:
    return Report(checks=tuple(CheckResult(id=i, exercise=i.split(".")[0], name="", status="pass", score=s,
                                           max_score=1) for i, s in checks))


def test_merge_replaces_only_the_graded_exercises():
    old = _report(("ex1.a", 1), ("ex3.b", 1), ("accuracy.threshold", 1))
    new = _report(("ex3.b", 0), ("accuracy.threshold", 0.5))
    merged = merge(old, new, ("ex3", "accuracy"))
    assert [(c.id, c.score) for c in merged.checks] == [("ex1.a", 1), ("ex3.b", 0), ("accuracy.threshold", 0.5)]


def test_affected_exercises(tmp_path):
    only = ("ex1", "ex2", "ex3", "ex4", "ex5", "accuracy")
    assert affected(["ex2_per_example_grads.py"], tmp_path, only) == ("ex2",)
    assert affected([tmp_path / "ex3_mlp_forward.py"], tmp_path, only) == ("ex3", "accuracy")
    assert affected(["ex3_mlp_forward.py"], tmp_path, ("ex3",)) == ("ex3",)
    assert affected(["answers.md", "notes.txt"], tmp_path, only) == ()
    single = tmp_path / "solution.py"
    single.write_text("")
    assert affected(["solution.py"], single, ("ex1", "ex4")) == ("ex1", "ex4")
    assert affected(["other.py"], single, only) == ()


def _options_of(monkeypatch, argv: list[str]):
    """What ``python -m grader ARGV`` grades with: the options watch is started with under ``--watch``, else
    the options a plain grade hands the engine (nothing is run)."""
    from grader import watch
    from grader.cli import main
    from grader.rubric import RubricError

    seen = []

    def watching(submission, options, show, **kwargs):
        seen.append(options)

    def grading(submission, options, **kwargs):
        seen.append(options)
        raise RubricError("not graded in this test")

    monkeypatch.setattr(watch, "watch", watching)
    if "--watch" not in argv:
        import grader.cli.grade

        monkeypatch.setattr(grader.cli.grade, "grade", grading)
    main(argv)
    return seen.pop()


def test_watch_grades_with_what_a_plain_grade_gets(monkeypatch, tmp_path):
    """``reference --watch --seed 5 --allow-unconfined`` once gave watch no seed and required confinement."""
    monkeypatch.delenv("JAX_GRADER_SEED", raising=False)
    argv = ["reference", "--seed", "5", "--allow-unconfined"]
    watched = _options_of(monkeypatch, [*argv, "--watch"])
    assert watched.seed == 5 and watched.require_confinement is False
    assert watched == _options_of(monkeypatch, argv)
    argv += ["--no-cache", "--plots", str(tmp_path / "plots"), "--only", "ex5,ex3", "--timeout", "30", "--jobs", "2"]
    watched = _options_of(monkeypatch, [*argv, "--watch"])
    assert watched == _options_of(monkeypatch, argv)
    assert (watched.use_cache, watched.plots_dir, watched.only) == (False, tmp_path / "plots", ("ex3", "ex5"))
    assert (watched.limits.timeout, watched.jobs) == (30, 2)


def test_each_round_of_the_watch_is_graded_with_those_options(tmp_path):
    """The job a round hands the worker carries the options whole (the worker grades with them)."""
    from grader.batch import Entry, worker_job
    from grader.config import Options
    from grader.sandbox import Limits

    options = Options(only=("ex3",), limits=Limits(timeout=30, memory_bytes=3 << 30), jobs=2, seed=5,
                      use_cache=False, plots_dir=tmp_path / "plots", reference_dir=tmp_path / "ref")
    job = worker_job(Entry.of(tmp_path), options, tmp_path / "round1")
    assert Options.from_json(json.loads(json.dumps(job["options"]))) == options
