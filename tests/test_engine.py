"""End-to-end grading of the reference and the untouched stubs."""

from __future__ import annotations

import json

import pytest

from conftest import EXERCISES_DIR, REFERENCE, by_id

from grader.cli import main
from grader.results import Report


@pytest.mark.e2e
def test_reference_scores_full_marks_and_is_deterministic(grade_with):
    """Twice, the exercises that draw random numbers or time things: the same verdicts and the same accuracy.

    The rest are plain functions of the inputs; the batch and seed tests grade them again too. The whole
    reference's 100 in one default run is ``test_formats.test_cli_writes_every_format_from_one_run``'s.
    """
    again = ("ex1", "ex4", "accuracy")
    first = grade_with(REFERENCE, only=again)
    failed = [(c.id, c.message) for c in first.checks if c.status != "pass"]
    assert failed == []
    assert first.score == first.max_score == sum(c.max_score for c in first.checks) > 0
    second = grade_with(REFERENCE, only=again)
    assert [(c.id, c.status, c.score) for c in second.checks] == [(c.id, c.status, c.score) for c in first.checks]
    assert first.accuracy["accuracy"] == second.accuracy["accuracy"]


@pytest.mark.e2e
def test_stubs_score_zero_with_not_implemented_messages(grade_with):
    report = grade_with(EXERCISES_DIR)
    assert report.score == 0
    assert report.max_score == 100
    for check in report.checks:
        assert check.status in ("fail", "skipped"), check
        assert check.message.startswith("not implemented yet"), check
        assert "Traceback" not in check.message


def test_cli_writes_contract_json(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    out = tmp_path / "report.json"
    code = main([str(REFERENCE), "--only", "ex3", "--json", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["schema_version"] == 1
    assert data["score"] == sum(c["score"] for c in data["checks"]) == 20
    assert data["max_score"] == sum(c["max_score"] for c in data["checks"]) == 20
    for check in data["checks"]:
        assert set(check) >= {"id", "exercise", "name", "status", "score", "max_score", "message", "hint"}
        assert check["exercise"] == "ex3"
        assert check["status"] in {"pass", "fail", "error", "skipped"}
    assert Report.from_json(data).score == 20
    assert "Total: 20 / 20" in capsys.readouterr().out


def test_fail_under_sets_exit_status(cache_dir, monkeypatch):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    assert main([str(EXERCISES_DIR), "--only", "ex3", "--fail-under", "10", "-q"]) == 1
    assert main([str(REFERENCE), "--only", "ex3", "--fail-under", "10", "-q"]) == 0


def test_missing_submission_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2
    assert "none of the exercise files" in capsys.readouterr().err


def test_only_grades_the_chosen_exercises(grade_with):
    report = grade_with(REFERENCE, only=("ex3",))
    assert {c.exercise for c in report.checks} == {"ex3"}
    assert by_id(report)["ex3.deep"].status == "pass"


@pytest.mark.e2e
def test_the_default_invocation_grades_the_stubs_in_exercises(cache_dir):
    """``python -m grader`` with no argument, from the checkout, as the README's quick start runs it."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    proc = subprocess.run([sys.executable, "-m", "grader"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "JAX_GRADER_CACHE": str(cache_dir)})
    assert proc.returncode == 0, proc.stderr
    assert "jax-autograder: exercises" in proc.stdout and proc.stdout.rstrip().endswith("Total: 0 / 100")
    for exercise in ("ex1", "ex2", "ex3", "ex4", "ex5", "accuracy"):
        assert f"\n{exercise}: not implemented yet" in proc.stdout, exercise


def test_the_rubric_refuses_requires_and_accuracy_tables_and_says_where_they_live(tmp_path):
    from grader.checks.registry import CHECKS
    from grader.rubric import RubricError, load_rubric

    shipped = (REFERENCE.parent / "grader" / "rubric.toml").read_text()
    path = tmp_path / "rubric.toml"
    path.write_text(shipped + '\n[requires]\n"ex3.jit" = ["ex3.depths"]\n')
    with pytest.raises(RubricError, match=r"\[requires\].*grader/exercises/<exercise>/checks.py"):
        load_rubric(CHECKS, path)
    path.write_text(shipped + "\n[accuracy]\nthreshold = 0.5\nfloor = 0.1\n")
    with pytest.raises(RubricError, match=r"\[accuracy\].*grader/exercises/accuracy/rule.toml"):
        load_rubric(CHECKS, path)
    path.write_text(shipped)
    assert load_rubric(CHECKS, path).total == 100


def test_checks_declare_what_they_require_and_read_within_their_exercise():
    from grader.checks import Check
    from grader.checks.registry import CHECKS, CheckDefinitionError, _validated

    by_id = {c.id: c for c in CHECKS}
    assert by_id["ex3.jit"].requires == ("ex3.depths",) and by_id["ex3.deep"].reads == ("ex3.depths", "ex3.jit")
    judge = by_id["ex3.jit"].judge
    with pytest.raises(CheckDefinitionError, match="same exercise"):
        _validated([by_id["ex3.depths"], Check("ex5.x", "x", judge, requires=("ex3.depths",))])
    with pytest.raises(CheckDefinitionError, match="depends on itself"):
        _validated([Check("ex3.a", "a", judge, requires=("ex3.b",)), Check("ex3.b", "b", judge, reads=("ex3.a",))])


def test_a_judge_cannot_tolerate_a_function_not_written_yet():
    from grader.checks import Context, StudentError, Unfinished
    from grader.observations import ObservationError, Observations

    ctx = Context(Observations({}, {"out": ObservationError("NotImplementedError", "write it")}), Observations(), {})
    with pytest.raises(Unfinished):
        try:
            ctx.got("out")
        except (StudentError, Exception):  # what a tolerant judge catches
            pass


def test_a_malformed_rubric_is_a_clear_error_not_a_traceback(tmp_path):
    """An instructor's bad edit of the accuracy rule: every command says what is wrong, exit 2."""
    import os
    import shutil
    import subprocess
    import sys

    from conftest import ROOT

    package = tmp_path / "grader"
    shutil.copytree(ROOT / "grader", package, ignore=shutil.ignore_patterns("__pycache__", "_sealed"))
    rule = package / "exercises" / "accuracy" / "rule.toml"
    rule.write_text(rule.read_text().replace("\nthreshold = ", '\nthreshold = "high"\n# was: ', 1))
    proc = subprocess.run([sys.executable, "-c", "import sys; from grader.cli import main; sys.exit(main(sys.argv[1:]))",
                           str(REFERENCE), "--only", "ex3"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert "accuracy/rule.toml is malformed" in proc.stderr and "threshold" in proc.stderr


def test_the_lesson_answer_is_kept_by_the_submissions_content(tmp_path, cache_dir, compilation_cache):
    """ex2's run answers the lesson's question once per content: graded again, the run skips it and the report
    shows the kept answer; other content asks again, and a kept file that does not read is asked again too."""
    from conftest import observe_here, submission_with

    from grader.config import Options
    from grader.engine import grade
    from grader.protocol import SKIP_LESSON

    asked = []

    def runner(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache):
        asked.append(SKIP_LESSON not in extra_args)
        return observe_here(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache)

    options = Options(only=("ex2",), cache_dir=tmp_path / "cache")
    first, second = (grade(REFERENCE, options, runner=runner) for _ in range(2))
    assert asked == [True, False]
    assert first.lesson["ex2"] and second.lesson == first.lesson
    (tmp_path / "other").mkdir()
    other = submission_with(tmp_path / "other", {"ex2_per_example_grads": "# another file\n" + (
        REFERENCE / "ex2_per_example_grads.py").read_text()})
    grade(other, options, runner=runner)
    assert asked[-1] is True
    for kept in (tmp_path / "cache" / "lesson").glob("*.npz"):
        kept.write_bytes(b"not an npz")
    assert grade(REFERENCE, options, runner=runner).lesson == first.lesson and asked[-1] is True


def test_each_exercise_is_judged_as_its_run_ends_and_the_order_changes_no_grade(tmp_path, cache_dir, compilation_cache,
                                                                                 monkeypatch):
    """The grading process judges an exercise's checks while the other runs go on; whichever run ends last, the
    report is the same, check for check and detail for detail."""
    import time

    from conftest import CORPUS, observe_here, submission_with

    from grader import engine
    from grader.config import Options

    judged = []
    ready = engine.Judging.ready

    def recording(self, task, runs):
        judged.append((task, len(runs)))
        return ready(self, task, runs)

    monkeypatch.setattr(engine.Judging, "ready", recording)
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "mutants" / "ex3_mlp_forward__gelu_for_relu.py"})
    only = ("ex1", "ex3", "ex5")

    def graded(last: str):
        def runner(task, *args):
            if task == last:
                time.sleep(1.0)
            return observe_here(task, *args)

        judged.clear()
        report = engine.grade(folder, Options(only=only, cache_dir=cache_dir, jobs=3), runner=runner)
        assert judged[-1] == (last, 3) and sorted(t for t, _ in judged) == sorted(only)
        assert [n for _, n in judged] == [1, 2, 3]  # each judged when its run ended, before the next
        return report

    first, second = graded("ex1"), graded("ex3")
    verdicts = [[{k: v for k, v in c.to_json().items() if k != "seconds"} for c in r.checks] for r in (first, second)]
    assert verdicts[0] == verdicts[1]
    assert any(c.status == "fail" for c in first.checks if c.exercise == "ex3")
    assert first.accuracy == second.accuracy and first.timings.keys() == second.timings.keys()
    assert list(first.timings) == list(second.timings) == ["ex5", "ex1", "ex3", "total"]  # not the order they ended


@pytest.mark.parametrize("sealed", [False, True], ids=["cached", "sealed"])
def test_runs_start_before_the_reference_observations_are_read(sealed, cache_dir, compilation_cache, monkeypatch):
    """A run needs the reference's compiled programs, not its observations: every run whose reference is ready
    starts before the grading process reads them (a tenth of a second of the grade's critical path)."""
    import threading

    from conftest import ROOT, observe_here

    from grader import engine
    from grader.config import Options
    from grader.expected import cache

    entered, order = threading.Event(), []

    def runner(task, *args):
        entered.set()
        return observe_here(task, *args)

    read = cache._read_once

    def reading(digest, fn):
        order.append(entered.wait(timeout=10))  # True: a run had started; False: none started until the read
        return read(digest, fn)

    monkeypatch.setattr(cache, "_read_once", reading)
    options = Options(only=("ex3",), cache_dir=cache_dir, reference_dir=ROOT / "grader" / "_sealed" if sealed else None)
    report = engine.grade(REFERENCE, options, runner=runner)
    assert order == [True] and report.score == report.max_score
