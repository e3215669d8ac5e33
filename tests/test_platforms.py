"""Classroom 50, PrairieLearn and plain GitHub Actions: what each platform accepts, checked by its own rules.

Most tests build the documents from synthetic reports (no grading). Three run
a real grade of one exercise, each through the platform's own entry point in a
simulated layout: Classroom 50's ``autograder.py`` in a student checkout with
the runner's environment, and PrairieLearn's ``run.sh`` in a ``/grade`` tree.
"""

from __future__ import annotations

import base64
import datetime as dt
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from grader import cli
from grader.engine import CHECKS, _Run, _student_error, failure_report
from grader.harness.recorder import Recorder
from grader.report import WRITERS, actions, classroom50, prairielearn
from grader.results import CheckResult, Report, RunRecord
from grader.observations import ObservationError, Observations, RunResult

ROOT = Path(__file__).resolve().parent.parent
AUTOGRADER = ROOT / "templates" / "classroom50" / "autograder.py"
RUN_SH = ROOT / "templates" / "prairielearn" / "run.sh"
CI_WORKFLOW = ROOT / "templates" / "grade-in-ci.yml"
CLASSROOM_WORKFLOW = ROOT / ".github" / "classroom" / "autograding.yml"

RUNNER_ENV = {
    "CLASSROOM": "jax-spring",
    "ASSIGNMENT": "intro-jax",
    "SUBMISSION_TAG": "submit/2026-12-01T10-00-00Z-abc1234",
    "COMMIT_URL": "https://github.com/org/jax-spring-intro-jax-alice/commit/abc1234",
    "RELEASE_URL": "https://github.com/org/jax-spring-intro-jax-alice/releases/tag/submit%2F2026-12-01T10-00-00Z-abc1234",
    "REVIEW_URL": "https://github.com/org/jax-spring-intro-jax-alice/compare/000...abc1234",
    "USERNAME": "alice",
    "OWNER": "alice",
    "ASSIGNMENT_TYPE": "individual",
}


# --- Classroom 50's contract, as its runner and collector check it ------------------------------------------------


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def validate_result(data: Any, classroom: str, assignment: str, owner: str | None = None,
                    assignment_type: str = "individual") -> str | None:
    """Every rule ``validate_result`` in Classroom 50's runner.py and collect_scores.py applies; None when valid.

    The runner stamps ``owner`` and ``assignment_type`` before validating, so a file without them passes
    there; ``owner`` is checked when ``owner`` is given (as the collector does).
    """
    if not isinstance(data, dict):
        return "not an object"
    if data.get("schema") != "classroom50/result/v1":
        return "schema"
    if data.get("classroom") != classroom or data.get("assignment") != assignment:
        return "identity"
    if owner is not None:
        if not isinstance(data.get("owner"), str) or not data["owner"] or data["owner"].lower() != owner.lower():
            return "owner"
        if data.get("assignment_type") != assignment_type:
            return "assignment_type"
    submission = data.get("submission")
    if not isinstance(submission, str) or not submission.startswith("submit/"):
        return "submission"
    for key in ("commit", "release", "review", "datetime"):
        if not isinstance(data.get(key), str) or not data[key]:
            return key
    score, max_score = data.get("score"), data.get("max-score")
    if not _int(score) or not _int(max_score) or score > max_score:
        return "score"
    tests = data.get("tests")
    if not isinstance(tests, list):
        return "tests"
    for test in tests:
        if not isinstance(test, dict) or not isinstance(test.get("test-name"), str) or not test["test-name"]:
            return "test-name"
        if not isinstance(test.get("passed"), bool):
            return "passed"
        if not _int(test.get("score")) or not _int(test.get("max-score")) or test["score"] > test["max-score"]:
            return "test score"
    submitted_by = data.get("submitted_by")
    if submitted_by is not None and (not isinstance(submitted_by, dict) or not submitted_by.get("username")):
        return "submitted_by"
    return None


def strict_load(text: str) -> Any:
    """JSON as the collector reads it: NaN and Infinity rejected."""
    def reject(value: str) -> None:
        raise ValueError(f"non-finite number {value}")
    return json.loads(text, parse_constant=reject)


def _check(id_: str, status: str, score: float, max_score: float, message: str = "", hint: str = "",
           file: str = "", line: int = 0) -> CheckResult:
    return CheckResult(id=id_, exercise=id_.split(".")[0], name=f"what {id_} checks",
                       status=status,  # type: ignore[arg-type]
                       score=score, max_score=max_score, message=message, hint=hint, file=file, line=line)


FRACTIONAL = Report(
    checks=(
        _check("ex1.rescale", "pass", 3, 3),
        _check("ex2.values", "fail", 0, 6, "values differ at [3]: 0.5 vs 0.25", "Sum over the batch axis."),
        _check("ex3.depths", "error", 0, 6, "mlp_forward raised KeyError: 'layer1'\n  File \"ex3_mlp_forward.py\", "
               "line 9, in mlp_forward", "Read the traceback.", "ex3_mlp_forward.py", 9),
        _check("ex5.chain", "pass", 5, 5),
        _check("accuracy.threshold", "fail", 6.37, 10, "accuracy 0.879 below 0.91", "Check ex5."),
    ),
    submission="exercises",
    notes=("a note",),
)


def _write_classroom50(report: Report, tmp_path: Path, monkeypatch) -> dict[str, Any]:
    for name, value in RUNNER_ENV.items():
        monkeypatch.setenv(name, value)
    dest = tmp_path / "result.json"
    WRITERS["classroom50"](report, dest)
    return strict_load(dest.read_text(encoding="utf-8"))


def test_classroom50_result_meets_the_contract_with_exact_sums(tmp_path, monkeypatch):
    data = _write_classroom50(FRACTIONAL, tmp_path, monkeypatch)
    assert validate_result(data, "jax-spring", "intro-jax", owner="alice") is None
    assert data["submission"] == RUNNER_ENV["SUBMISSION_TAG"] and data["commit"] == RUNNER_ENV["COMMIT_URL"]
    assert data["release"] == RUNNER_ENV["RELEASE_URL"] and data["review"] == RUNNER_ENV["REVIEW_URL"]
    when = dt.datetime.strptime(data["datetime"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    assert abs((dt.datetime.now(dt.timezone.utc) - when).total_seconds()) < 120  # now, in UTC
    # Hundredths of a point: the integer sums are exactly the report's total times the scale.
    assert data["score"] == sum(t["score"] for t in data["tests"]) == 1437
    assert data["max-score"] == sum(t["max-score"] for t in data["tests"]) == 3000
    assert data["score"] == round(FRACTIONAL.score * classroom50.SCALE)
    assert data["max-score"] == round(FRACTIONAL.max_score * classroom50.SCALE)
    by_id = {t["id"]: t for t in data["tests"]}
    assert by_id["accuracy.threshold"]["score"] == 637 and by_id["accuracy.threshold"]["passed"] is False
    assert by_id["ex1.rescale"]["passed"] is True and by_id["ex1.rescale"]["test-name"].startswith("ex1.rescale: ")
    assert by_id["ex2.values"]["message"] == "values differ at [3]: 0.5 vs 0.25"
    assert by_id["ex2.values"]["hint"] == "Sum over the batch axis."
    assert (by_id["ex3.depths"]["file"], by_id["ex3.depths"]["line"]) == ("ex3_mlp_forward.py", 9)
    assert "file" not in by_id["ex2.values"]


@pytest.mark.parametrize("breaks", [
    lambda d: d.update(schema="classroom50/result/v2"),
    lambda d: d.update(classroom="other"),
    lambda d: d.update(owner="mallory"),
    lambda d: d.update(assignment_type="group"),
    lambda d: d.update(submission="v1.0"),
    lambda d: d.update(review=""),
    lambda d: d.update(score=True),
    lambda d: d.update(score=d["max-score"] + 1),
    lambda d: d.update(tests={}),
    lambda d: d["tests"][0].update(passed="yes"),
    lambda d: d["tests"][0].update(score=1.5),
    lambda d: d["tests"][0].update({"test-name": ""}),
    lambda d: d.update(submitted_by={"id": 3}),
])
def test_the_contract_validator_rejects_what_classroom50_rejects(tmp_path, monkeypatch, breaks):
    data = _write_classroom50(FRACTIONAL, tmp_path, monkeypatch)
    breaks(data)
    assert validate_result(data, "jax-spring", "intro-jax", owner="alice") is not None


def test_classroom50_whole_points_never_round_a_failure_up_to_full_marks():
    assert classroom50.whole(_check("accuracy.threshold", "fail", 9.999, 10)) == (999, 1000)
    assert classroom50.whole(_check("ex1.rescale", "pass", 3, 3)) == (300, 300)
    assert classroom50.whole(_check("ex1.rescale", "error", 0, 3)) == (0, 300)


def test_classroom50_needs_the_runners_environment(monkeypatch, capsys):
    for name in RUNNER_ENV:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(classroom50.Classroom50Error, match=r"\$CLASSROOM, \$ASSIGNMENT, \$SUBMISSION_TAG"):
        classroom50.identity_from_env()
    env = dict(RUNNER_ENV, SUBMISSION_TAG="main")
    with pytest.raises(classroom50.Classroom50Error, match="submit/"):
        classroom50.identity_from_env(env)
    env = dict(RUNNER_ENV, REVIEW_URL="", OWNER="")
    identity = classroom50.identity_from_env(env)
    assert identity.review == RUNNER_ENV["COMMIT_URL"] and identity.owner == "alice"  # $USERNAME
    # The command line says so before grading anything.
    assert cli.main(["exercises", "--classroom50", "result.json"]) == cli.EXIT_GRADER
    assert "$CLASSROOM" in capsys.readouterr().err


# --- PrairieLearn ----------------------------------------------------------------------------------------------------


def _png(size: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * (size // 256)


def test_prairielearn_results_for_a_graded_submission(tmp_path):
    results_dir = tmp_path / "grade" / "results"
    (results_dir / "plots").mkdir(parents=True)
    (results_dir / "plots" / "training_loss.png").write_bytes(_png(20_000))
    prairielearn.write(FRACTIONAL, results_dir / "results.json")
    data = strict_load((results_dir / "results.json").read_text(encoding="utf-8"))
    assert data["gradable"] is True
    assert 0 <= data["score"] <= 1
    assert math.isclose(data["score"], FRACTIONAL.score / FRACTIONAL.max_score, abs_tol=1e-6)
    assert "14.37 / 30" in data["message"]
    assert [t["name"].split(":")[0] for t in data["tests"]] == [c.id for c in FRACTIONAL.checks]
    for test, check in zip(data["tests"], FRACTIONAL.checks):
        assert set(test) >= {"name", "points", "max_points", "message", "output"}
        assert (test["points"], test["max_points"]) == (check.score, check.max_score)
    values = data["tests"][1]
    assert "values differ at [3]" in values["output"] and "Hint: Sum over the batch axis." in values["output"]
    assert data["images"] == [{"label": "training loss",
                               "url": "data:image/png;base64," + base64.b64encode(_png(20_000)).decode()}]
    assert data["output"].startswith("## jax-autograder: 14.37 / 30")


def test_prairielearn_results_stay_under_one_megabyte(tmp_path):
    huge = "x" * 3_000_000
    report = Report(checks=tuple(_check(f"ex2.c{i}", "fail", 0, 1, huge, huge) for i in range(30)),
                    answers=huge, submission="s")
    results_dir = tmp_path / "results"
    (results_dir / "plots").mkdir(parents=True)
    for i in range(4):
        (results_dir / "plots" / f"p{i}.png").write_bytes(_png(300_000))
    prairielearn.write(report, results_dir / "results.json")
    raw = (results_dir / "results.json").read_bytes()
    assert len(raw) < 1_000_000
    data = strict_load(raw.decode("utf-8"))
    assert 1 <= len(data["images"]) < 4 and "left out" in data["message"]
    assert len(data["tests"]) == 30


def _import_error(check_id: str, error: ObservationError) -> CheckResult:
    check = next(c for c in CHECKS if c.id == check_id)
    run = _Run(check.exercise, RunResult("ok", Observations({}, {}, error), 1.0))
    return _student_error(check, 2.0, run, error, importing=True)


def test_prairielearn_a_submission_that_cannot_be_graded_costs_no_attempt(tmp_path):
    empty = failure_report("upload", ("ex1", "ex2"), "the submission cannot be graded: upload holds none of the "
                           "exercise files", students_fault=True)
    data = prairielearn.results(empty)
    assert data["gradable"] is False and "score" not in data
    assert data["format_errors"] == ["the submission cannot be graded: upload holds none of the exercise files"]
    syntax = ObservationError("SyntaxError", "invalid syntax (ex1_dropout.py, line 3)")
    broken = Report(checks=tuple(_import_error(c.id, syntax) for c in CHECKS if c.exercise == "ex1"),
                    runs={"ex1": RunRecord("ok")})
    data = prairielearn.results(broken)
    assert data["gradable"] is False
    assert data["format_errors"] == ["ex1_dropout.py, line 3: SyntaxError: invalid syntax (ex1_dropout.py, line 3)"]
    # One working exercise makes it gradable: the syntax error then costs that exercise's points only.
    mixed = Report(checks=broken.checks + (_check("ex3.depths", "pass", 6, 6),))
    assert prairielearn.results(mixed)["gradable"] is True


# --- GitHub Actions annotations ----------------------------------------------------------------------------------


def test_workflow_command_escaping_follows_githubs_toolkit():
    assert actions.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert actions.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert actions.command("error", "x\ny", file="a,b.py", line=3) == "::error file=a%2Cb.py,line=3::x%0Ay"


HOSTILE = '''import os


def dropout(key, x, rate, train=True):
    raise ValueError("50% off, really: ::error file=README.md,line=1::forged\\r\\nsecond line")
'''


def test_a_crash_at_a_known_line_becomes_one_escaped_annotation(tmp_path):
    """From a real exception in a student file, through the recorder and the engine, to the workflow command."""
    submission = tmp_path / "work"
    submission.mkdir()
    (submission / "ex1_dropout.py").write_text(HOSTILE)
    spec = importlib.util.spec_from_file_location("ex1_dropout_under_test", submission / "ex1_dropout.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.dropout(None, None, 0.5)
    except ValueError as exc:
        error = ObservationError.from_record(Recorder(submission).describe(exc))
    assert error.location() == ("ex1_dropout.py", 5)
    checks = tuple(_import_error(c.id, error) for c in CHECKS if c.exercise == "ex1")
    assert {(c.file, c.line) for c in checks} == {("ex1_dropout.py", 5)}
    lines = actions.annotations(Report(checks=checks, submission="exercises"))
    assert len(lines) == 1  # every ex1 check failed at the same line: one annotation
    line = lines[0]
    assert line.startswith("::error file=exercises/ex1_dropout.py,line=5,title=ex1%3A your code raised here (")
    message = line.split("::", 2)[2]
    assert "\n" not in line and "\r" not in line
    # The forged command stays inside the message, on the annotation's one line; only the first line is shown.
    assert "raised ValueError: 50%25 off, really: ::error file=README.md,line=1::forged%0A" in message
    assert "second line" not in line
    assert "Checks: ex1.zero_fraction" in message.replace("%0A", "\n")


def test_syntax_errors_and_submission_kinds_place_annotations(tmp_path):
    broken = tmp_path / "ex3_mlp_forward.py"
    broken.write_text("def mlp_forward(params, x):\n    return (\n\n")
    try:
        compile(broken.read_text(), str(broken), "exec")
    except SyntaxError as exc:
        error = ObservationError.from_record(Recorder(tmp_path).describe(exc))
    assert error.location() == ("ex3_mlp_forward.py", 2)
    assert actions.student_path("work/", "ex3_mlp_forward.py") == "work/ex3_mlp_forward.py"
    assert actions.student_path("solution.py", "ex3_mlp_forward.py") == "solution.py"  # one file holds all
    assert actions.student_path("lab.ipynb", "ex3_mlp_forward.py") is None  # a notebook's lines are not the file's
    assert actions.student_path("work", "../../etc/passwd.py") is None
    crash = _check("ex3.depths", "error", 0, 6, "boom", "", "ex3_mlp_forward.py", 2)
    report = tmp_path / "report.json"
    report.write_text(json.dumps(Report(checks=(crash,), submission="solution.py").to_json()))
    out = subprocess.run([sys.executable, "-m", "grader.report.actions", str(report)], capture_output=True,
                         text=True, cwd=ROOT, check=False)
    assert out.returncode == 0 and out.stdout.startswith("::error file=solution.py,line=2,"), out.stderr
    missing = subprocess.run([sys.executable, "-m", "grader.report.actions", str(tmp_path / "none.json")],
                             capture_output=True, text=True, cwd=ROOT, check=False)
    assert missing.returncode == 2 and "--json" in missing.stderr


def _step(text: str, name: str) -> str:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- name: {name}")
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((j for j in range(start + 1, len(lines))
                if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) <= indent), len(lines))
    return "\n".join(lines[start:end])


@pytest.mark.parametrize("workflow", [CI_WORKFLOW, CLASSROOM_WORKFLOW])
def test_workflows_annotate_cache_and_summarise(workflow):
    text = workflow.read_text()
    assert "--json grade/report.json" in _step(text, "Grade") and '--markdown "$GITHUB_STEP_SUMMARY"' in text
    annotate = _step(text, "Annotate errors on the student's lines")
    assert "if: always()" in annotate and "python -m grader.report.actions grade/report.json" in annotate
    if workflow == CI_WORKFLOW:  # uv, with its cache kept between runs (docs/integrations.md has the figures)
        assert "enable-cache: true" in _step(text, "Set up uv") and "prune-cache: false" in _step(text, "Set up uv")
        assert 'uv pip install --system "$GRADER_PACKAGE"' in _step(text, "Install the grader")
    else:
        assert "cache: pip" in _step(text, "Set up Python")
    assert "sunset" in text


def test_ci_template_grades_on_linux_and_informs_on_macos_and_windows():
    text = CI_WORKFLOW.read_text()
    assert "os: [ubuntu-latest, macos-latest, windows-latest]" in text
    assert "continue-on-error: ${{ matrix.os != 'ubuntu-latest' }}" in text
    assert "shell: bash" in text
    grade = _step(text, "Grade")
    assert "if: runner.os == 'Linux'" in grade and "--require-confinement" in grade
    assert "if: runner.os != 'Linux'" in _step(text, "Grade (informative)")


# --- the platforms' entry points, end to end (one exercise each) -----------------------------------------------


def _work(folder: Path, solved: tuple[str, ...] = ("ex3_mlp_forward.py",)) -> Path:
    folder.mkdir(parents=True)
    for stub in (ROOT / "exercises").glob("ex*.py"):
        shutil.copy(stub, folder / stub.name)
    for name in solved:
        shutil.copy(ROOT / "reference" / name, folder / name)
    return folder


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "JAX_GRADER_SEED"))}
    env.update({"PYTHONPATH": str(ROOT), "JAX_GRADER_PYTHON": sys.executable, **extra})
    return env


def _runner(tmp_path: Path, checkout: Path, **extra: str) -> subprocess.CompletedProcess:
    bundle = tmp_path / "bundle"
    bundle.mkdir(exist_ok=True)
    shutil.copy(AUTOGRADER, bundle / "autograder.py")
    env = _env(**RUNNER_ENV, CLASSROOM50_BUNDLE_DIR=str(bundle), RUNNER_TEMP=str(tmp_path / "runner-temp"), **extra)
    return subprocess.run([sys.executable, str(bundle / "autograder.py")], cwd=checkout, env=env,
                          capture_output=True, text=True, check=False, timeout=900)


@pytest.mark.e2e
def test_classroom50_autograder_in_a_simulated_runner(tmp_path):
    checkout = tmp_path / "jax-spring-intro-jax-alice"
    _work(checkout / "exercises")
    (checkout / "result.json").write_text('{"score": 100, "max-score": 100}')  # planted: must not survive
    (checkout / "result.json.tmp").symlink_to(tmp_path / "elsewhere.json")  # planted: the grader writes here first
    (checkout / "grader").mkdir()  # planted: the checkout is not on the grader's import path
    (checkout / "grader" / "__main__.py").write_text("raise SystemExit('the student planted this')\n")
    done = _runner(tmp_path, checkout, JAX_GRADER_ARGS="--only ex3 --allow-unconfined")
    assert done.returncode == 0, done.stderr[-3000:]
    data = strict_load((checkout / "result.json").read_text(encoding="utf-8"))
    assert validate_result(data, "jax-spring", "intro-jax", owner="alice") is None
    assert data["score"] == data["max-score"] == 2000, [t["message"] for t in data["tests"] if not t["passed"]]
    body = (checkout / "release-body.md").read_text(encoding="utf-8")
    assert body.startswith("## jax-autograder: 20 / 20")
    assert not (checkout / "result.json").is_symlink() and not (tmp_path / "elsewhere.json").exists()


def test_classroom50_autograder_exit_status_says_who_failed(tmp_path):
    nothing = tmp_path / "empty-checkout"
    nothing.mkdir()
    done = _runner(tmp_path, nothing)
    assert done.returncode == 0, done.stderr[-3000:]  # graded: the student submitted nothing gradable
    data = strict_load((nothing / "result.json").read_text(encoding="utf-8"))
    assert validate_result(data, "jax-spring", "intro-jax", owner="alice") is None
    assert data["score"] == 0 and data["tests"] and "does not exist" in data["tests"][0]["message"]
    assert "the submission cannot be graded" in (nothing / "release-body.md").read_text(encoding="utf-8")
    broken = tmp_path / "checkout"
    _work(broken / "exercises")
    fake = tmp_path / "python-without-the-grader"
    fake.write_text("#!/bin/sh\necho 'No module named grader' >&2\nexit 1\n")
    fake.chmod(0o755)
    no_grader = _runner(tmp_path, broken, JAX_GRADER_PYTHON=str(fake))
    assert no_grader.returncode == 1 and "could not grade" in no_grader.stderr
    assert not (broken / "result.json").exists()
    missing = _runner(tmp_path, broken, JAX_GRADER_PYTHON=str(tmp_path / "no-python"))
    assert missing.returncode == 1 and "could not start" in missing.stderr


def test_classroom50_autograder_finds_the_seed_where_the_instructor_keeps_it(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("c50_autograder", AUTOGRADER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.delenv("JAX_GRADER_SEED", raising=False)
    assert module.find_seed(tmp_path) is None
    (tmp_path / "seed").write_text("918273\n")
    assert module.find_seed(tmp_path) == "918273"
    monkeypatch.setenv("JAX_GRADER_SEED", "5")
    assert module.find_seed(tmp_path) == "5"
    monkeypatch.setenv("CLASSROOM50_BUNDLE_DIR", str(tmp_path))
    assert module.bundle_dir() == tmp_path
    assert module.find_reference(tmp_path, tmp_path) is None
    # A Release's text is at most 125,000 characters: a flooded report is cut, its open code block closed.
    body = "## jax-autograder\n\n````text\n" + "flood\n" * 50_000 + "````\n\nthe end\n"
    fitted = module.fit_release_body(body)
    assert len(fitted) <= module.RELEASE_BODY_LIMIT < 125_000 and "the end" not in fitted
    assert fitted.endswith("````\n\n_The report is cut here to fit a GitHub Release; the whole report is in the "
                           "workflow's log._\n")
    assert module.fit_release_body("short\n") == "short\n"
    monkeypatch.setenv("JAX_GRADER_REFERENCE", "sealed-7")
    assert module.find_reference(tmp_path, tmp_path) == (tmp_path / "sealed-7").resolve()  # absolute: the grader
    # runs its children elsewhere, and a relative --reference loses ex4's reference run


@pytest.mark.e2e
def test_prairielearn_entry_script_in_a_simulated_grade_layout(tmp_path):
    grade = tmp_path / "grade"
    _work(grade / "student")
    done = subprocess.run(["bash", str(RUN_SH)], env=_env(JAX_GRADER_ROOT=str(grade),
                          JAX_GRADER_ARGS="--only ex3 --allow-unconfined"),
                          capture_output=True, text=True, check=False, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    data = strict_load((grade / "results" / "results.json").read_text(encoding="utf-8"))
    assert data["gradable"] is True and data["score"] == 1.0, data["message"]
    assert len(data["tests"]) == 5 and all(t["points"] == t["max_points"] for t in data["tests"])
    empty = tmp_path / "empty"
    done = subprocess.run(["bash", str(RUN_SH)], env=_env(JAX_GRADER_ROOT=str(empty)),
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    data = strict_load((empty / "results" / "results.json").read_text(encoding="utf-8"))
    assert data["gradable"] is False and "none of the exercise files" in data["format_errors"][0]
    assert re.search(r"student", data["format_errors"][0])
    # The grader cannot even start: the attempt still does not count, and the student is told to ask.
    fake = tmp_path / "python-without-the-grader"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    broken = tmp_path / "broken"
    _work(broken / "student")
    done = subprocess.run(["bash", str(RUN_SH)], env=_env(JAX_GRADER_ROOT=str(broken), JAX_GRADER_PYTHON=str(fake)),
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    data = strict_load((broken / "results" / "results.json").read_text(encoding="utf-8"))
    assert data["gradable"] is False and "Tell your instructor" in data["format_errors"][0]
