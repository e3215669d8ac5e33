"""--watch: grade, re-grade only what changed on save, leave cleanly on Ctrl-C."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

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


def test_watch_regrades_the_edited_exercise_and_stops_on_ctrl_c(tmp_path, cache_dir):
    folder = submission_with(tmp_path, {})
    env = {**os.environ, "JAX_GRADER_CACHE": str(cache_dir)}
    proc = subprocess.Popen([sys.executable, "-m", "grader", "--watch", str(folder), "--only", "ex3,ex5"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
        proc.wait(timeout=60)
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
