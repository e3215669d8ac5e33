"""The fork server gives the same grades as fresh interpreters, ends runs the same way, and falls back cleanly."""

from __future__ import annotations

import os
import signal

import pytest
from conftest import CORPUS, REFERENCE, submission_with

from grader.sandbox import forkserver, offered
from grader.observations import Limits

pytestmark = pytest.mark.skipif(not offered().processes,
                                reason=f"the fork server needs seccomp; this machine: {offered().describe()}")

#: Submissions of every kind (a correct variant, mutants, a run that ends badly), on the cheaper exercises.
SAMPLE = (
    ("ex1", CORPUS / "correct" / "ex1_dropout__bernoulli_multiply.py"),
    ("ex3", CORPUS / "mutants" / "ex3_mlp_forward__string_order.py"),
    ("ex4", CORPUS / "hostile" / "ex4_jit_speedup__os_exit.py"),
    ("ex5", CORPUS / "mutants" / "ex5_clipping__arguments_swapped.py"),
)


def _verdicts(report):
    return [(c.id, c.status, c.score, c.message if c.exercise != "ex4" else "", c.hint) for c in report.checks], \
        {ex: run.status for ex, run in report.runs.items()}


@pytest.mark.e2e
def test_forked_and_fresh_children_give_the_same_grades(tmp_path, grade_with):
    """The corpus tests grade forked (the default); here a sample is graded both ways and compared."""
    overrides = {path.name.split("__")[0]: path for _, path in SAMPLE}
    folder = submission_with(tmp_path, overrides)
    only = tuple(exercise for exercise, _ in SAMPLE)
    forked = grade_with(folder, only=only, limits=Limits(timeout=60, fork=True))
    fresh = grade_with(folder, only=only, limits=Limits(timeout=60, fork=False))
    assert _verdicts(forked) == _verdicts(fresh)
    assert forked.runs["ex4"].status == "crashed" and forked.score < forked.max_score


@pytest.mark.e2e
def test_a_hang_and_a_segfault_end_the_same_way_when_forked(tmp_path, grade_with):
    for name in ("hang", "crash"):
        (tmp_path / name).mkdir()
    hang = submission_with(tmp_path / "hang", {"ex3_mlp_forward": CORPUS / "hostile" / "ex3_mlp_forward__waits_forever.py"})
    report = grade_with(hang, only=("ex3",), limits=Limits(timeout=6, fork=True))
    assert report.runs["ex3"].status == "timeout"
    crash = submission_with(tmp_path / "crash", {"ex1_dropout": CORPUS / "hostile" / "ex1_dropout__segfault.py"})
    report = grade_with(crash, only=("ex1",), limits=Limits(timeout=60, fork=True))
    assert report.runs["ex1"].status == "crashed" and "SIGSEGV" in report.runs["ex1"].detail


@pytest.mark.e2e
def test_a_dead_server_falls_back_to_fresh_interpreters(tmp_path, grade_with):
    assert grade_with(REFERENCE, only=("ex3",)).score == 20
    server = forkserver._server
    assert server is not None and server.alive
    os.killpg(server._proc.pid, signal.SIGKILL)
    server._proc.wait()
    assert grade_with(REFERENCE, only=("ex3",)).score == 20  # fresh, or a new server once the death is noticed
    assert grade_with(REFERENCE, only=("ex3",)).score == 20
    assert forkserver._server is not server and forkserver._server.alive


@pytest.mark.e2e
def test_the_server_reports_each_reaped_childs_task_and_cpu(grade_with):
    # What benchmarks/bench_children.py reads: one entry per child, named by its task, with the CPU it used.
    before = len(forkserver.children_cpu())
    grade_with(REFERENCE, only=("ex1", "ex3"), limits=Limits(timeout=60, fork=True))
    ended = forkserver.children_cpu()[before:]
    assert {task for task, _ in ended} == {"ex1", "ex3"}  # the reference's own runs too, on a cold cache
    assert all(0.05 < cpu < 60 for _, cpu in ended), ended  # each ran JAX on the reference
