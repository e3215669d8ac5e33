"""Documented commands as a new user runs them: another working folder, a cold cache, relative paths.

Each grader (the checkout, and the wheel installed in a fresh venv) grades the
same submission, whose ex3 plots with matplotlib at the top of the file, with
``grade``, ``explain``, ``--reference DIR`` and ``batch --seed``; both must give
it the reference's full marks. A forked child that dies before running student
code must say why, and the grader must call that its own failure.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest
from conftest import REFERENCE, ROOT, by_id

from grader.batch.grading import Outcome, classify
from grader.batch.outputs import grades_rows
from grader.engine import HARNESS_HINT, Options, _Run, _run_failure_hint, grade
from grader.results import Report, RunRecord
from grader.observations import Limits
from grader.sandbox import forkserver, run_task
from grader.sandbox.environment import run_env, server_env

PLOTTING = '''
import matplotlib.pyplot as plt

plt.plot([0, 1], [1, 0])
plt.title("a student's plot, drawn at import")
plt.show()
'''
EX3 = "ex3_mlp_forward"


def _setup(work: Path) -> None:
    """``ref/`` (the solutions), ``sub/`` (them, ex3 plotting) and ``class/alice`` (the same), in ``work``."""
    shutil.copytree(REFERENCE, work / "ref", ignore=shutil.ignore_patterns("__pycache__"))
    sub = work / "sub"
    shutil.copytree(work / "ref", sub)
    (sub / f"{EX3}.py").write_text((sub / f"{EX3}.py").read_text() + PLOTTING)
    shutil.copytree(sub, work / "class" / "alice")


@pytest.mark.e2e
@pytest.mark.parametrize("where", ["checkout", "wheel"])
def test_documented_commands_from_another_folder_on_a_cold_cache(where, request, tmp_path):
    if where == "wheel":
        command = [str(request.getfixturevalue("installed_grader")[0]), "-m", "grader"]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_GRADER", "PYTHON"))}
    else:
        command = [sys.executable, "-m", "grader"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_GRADER")}
        env["PYTHONPATH"] = str(ROOT)  # this checkout's grader, run from elsewhere
    work = tmp_path / "work"
    work.mkdir()
    _setup(work)
    env["JAX_GRADER_CACHE"] = str(tmp_path / "cold-cache")

    def grader(*args: str, cwd: Path = work) -> subprocess.CompletedProcess:
        return subprocess.run([*command, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)

    graded = grader("sub", "--only", "ex3", "--reference", "ref", "--json", "out/report.json")
    assert graded.returncode == 0, graded.stderr[-3000:]
    report = json.loads((work / "out" / "report.json").read_text())
    assert report["score"] == report["max_score"] == 20, [c["message"][:300] for c in report["checks"]]

    # explain, as the report prints it, and from inside the folder with no submission named
    explained = grader("explain", "ex3.output_linear", "--reference", "../ref", cwd=work / "sub")
    assert explained.returncode == 0, explained.stderr[-3000:]
    assert "ex3.output_linear" in explained.stdout

    batch = grader("batch", "class", "--out", "graded", "--only", "ex3", "--seed", "5", "--reference", "ref", "-q")
    assert batch.returncode == 0, batch.stderr[-3000:]
    with open(work / "graded" / "grades.csv", newline="") as rows:
        (alice,) = [row for row in csv.DictReader(rows) if row["student"] == "alice"]
    assert (alice["status"], float(alice["total"]), float(alice["max"])) == ("graded", 20.0, 20.0), alice


@pytest.mark.parametrize("module", ["sklearn", "ml_dtypes"])
def test_an_import_outside_the_rule_is_named(module, tmp_path, cache_dir):
    """sklearn is installed beside the grader, in a checkout as in a wheel; ml_dtypes is even imported
    already, by jax: refused all the same, by name."""
    sub = tmp_path / "sub"
    shutil.copytree(REFERENCE, sub, ignore=shutil.ignore_patterns("__pycache__"))
    (sub / f"{EX3}.py").write_text(f"import {module}\n" + (sub / f"{EX3}.py").read_text())
    report = grade(sub, Options(only=("ex3",), cache_dir=cache_dir))
    check = by_id(report)["ex3.depths"]
    assert check.status == "error" and check.score == 0
    assert f"{EX3}.py may not import '{module}'" in check.message and "only jax" in check.message


@pytest.mark.parametrize("spelling", ["__import__('sklearn')", "importlib.import_module('sklearn')",
                                      "exec('import sklearn')"])
def test_every_spelling_of_an_import_is_judged(spelling, tmp_path, cache_dir):
    """An import asked for by a call (not an import statement) is the submission's too."""
    sub = tmp_path / "sub"
    shutil.copytree(REFERENCE, sub, ignore=shutil.ignore_patterns("__pycache__"))
    (sub / f"{EX3}.py").write_text("import importlib\n" + (sub / f"{EX3}.py").read_text()
                                   + f"\n\ndef _load():\n    {spelling}\n\n\n_load()\n")
    report = grade(sub, Options(only=("ex3",), cache_dir=cache_dir))
    check = by_id(report)["ex3.depths"]
    assert check.status == "error" and "may not import 'sklearn'" in check.message


def test_an_import_jax_makes_on_the_submissions_line_is_jaxs(tmp_path, cache_dir):
    """jaxlib imports from C while refusing a jit argument, with the submission's line as the nearest Python
    frame: not the submission's import. The report names what the code did (it jitted the step it was given)."""
    sub = tmp_path / "sub"
    shutil.copytree(REFERENCE, sub, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "tests" / "corpus" / "mutants" / "ex4_jit_speedup__time_steps_jits_the_step.py",
                sub / "ex4_jit_speedup.py")
    report = grade(sub, Options(only=("ex4",), cache_dir=cache_dir))
    check = by_id(report)["ex4.n_steps"]
    assert check.mistake == "ex4.step_transformed" and "may not import" not in check.message, check.message


def _forked_child(server: forkserver.ForkServer, argv: list[str], cwd: Path) -> tuple[int, str]:
    child = server.start(argv, cwd, run_env(cwd), "{}")
    code = child.wait(120)
    with child.stdout as out, child.stderr as err:
        out.read()
        return code, err.read().decode()


def test_a_forked_child_that_dies_says_why(tmp_path):
    server = forkserver.ForkServer(server_env())
    try:
        code, stderr = _forked_child(server, ["ex3"], tmp_path / "no-such-folder")
    finally:
        server.close()
    assert code == forkserver.EXIT_CHILD_FAILED
    assert "Traceback" in stderr and "FileNotFoundError" in stderr and "no-such-folder" in stderr


def test_a_harness_failure_is_the_graders_with_its_traceback(tmp_path):
    """No student code ran (the inputs are missing): status ``harness``, the real traceback, no blame."""
    sub = tmp_path / "sub"
    shutil.copytree(REFERENCE, sub, ignore=shutil.ignore_patterns("__pycache__"))
    result = run_task("ex3", sub, tmp_path / "missing-inputs.npz", tmp_path / "work", Limits(timeout=120))
    assert result.status == "harness", (result.status, result.detail)
    assert "FileNotFoundError" in result.detail and "missing-inputs.npz" in result.detail
    run = _Run("ex3", result)
    assert _run_failure_hint(run) == HARNESS_HINT and "sys.exit" not in HARNESS_HINT
    report = Report(checks=(), runs={"ex3": run.record()})
    assert classify(report, ("ex3",))[0] == "error"


def test_a_submission_that_exits_is_still_the_students(tmp_path, cache_dir):
    sub = tmp_path / "sub"
    shutil.copytree(REFERENCE, sub, ignore=shutil.ignore_patterns("__pycache__"))
    (sub / f"{EX3}.py").write_text("import os\nos._exit(70)\n")
    report = grade(sub, Options(only=("ex3",), cache_dir=cache_dir))
    assert report.runs["ex3"].status == "crashed"
    assert classify(report, ("ex3",))[0] == "crashed"
    assert "sys.exit" in by_id(report)["ex3.depths"].hint


def test_batch_rows_read_run_statuses_as_data():
    harness = Report(checks=(), runs={"ex1": RunRecord("ok"), "ex3": RunRecord("harness", "whatever it says")})
    timeout = Report(checks=(), runs={"ex3": RunRecord("timeout", "the grader's own words")})
    assert classify(harness, ("ex1", "ex3"))[0] == "error"
    assert classify(timeout, ("ex3",))[0] == "timeout"
    status, detail = classify(harness, ("ex1", "ex3"))
    row = grades_rows([Outcome("alice", status, detail, report=harness)], ("ex1", "ex3"))[1]
    assert row[:5] == ["alice", "", "", "", ""] and row[5] == "error", row  # no score, not 0
    assert "ex3 failed in the grader" in row[-1]


@pytest.mark.parametrize("submission, printed", [
    ("my work", "python -m grader explain ex3.deep 'my work'"),
    ("exercises", "python -m grader explain ex3.deep exercises"),
    ("notebook (kernel)", None),  # a kernel's code: no command can grade it, the snippet is the way
])
def test_the_explain_command_names_what_was_graded(submission, printed):
    from grader.report.html import render as render_html
    from grader.report.terminal import render_text
    from grader.results import CheckResult

    check = CheckResult(id="ex3.deep", exercise="ex3", name="deep", status="fail", score=0, max_score=4,
                        message="differs", reproduce={"snippet": "print('reproduced')\n"})
    report = Report(checks=(check,), submission=submission)
    text, page = render_text(report, width=200), render_html(report)
    verbose = render_text(report, verbose=True, width=200)
    assert "print('reproduced')" in verbose
    if printed is None:
        assert "python -m grader explain" not in text + page + verbose
    else:
        assert printed in text and printed in verbose
        assert f"<code>{printed.replace(chr(39), '&#x27;')}</code>" in page


def test_a_failing_reference_is_described_in_words(tmp_path, monkeypatch):
    """A relative --reference whose ex3 raises: the error names the module's exception, never a Python repr."""
    from concurrent.futures import ThreadPoolExecutor

    from grader import inputs as grader_inputs
    from grader.expected.cache import ReferenceRunError, load_reference

    broken = tmp_path / "broken"
    shutil.copytree(REFERENCE, broken, ignore=shutil.ignore_patterns("__pycache__"))
    (broken / f"{EX3}.py").write_text("raise RuntimeError('the reference is broken')\n")
    monkeypatch.chdir(tmp_path)
    inputs_path = grader_inputs.write(tmp_path / "inputs.npz")
    scratch = tmp_path / "tmp"  # where the grade's private folders go
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with ThreadPoolExecutor(1) as pool, pytest.raises(ReferenceRunError) as failed:
        load_reference(("ex3",), inputs_path, tmp_path / "work", pool, reference_dir=Path("broken"), use_cache=False)
    message = str(failed.value)
    assert "importing it raised RuntimeError: the reference is broken" in message, message
    assert str(broken) in message and "ObservationError(" not in message
    assert list(scratch.iterdir()) == []  # its private reference folder went with the failure


def test_the_default_submission_is_found_from_inside_the_folder_too(tmp_path, monkeypatch):
    """The stubs' and answers.md's commands name no folder: they work from a checkout and inside init's folder."""
    from grader.cli import DEFAULT_SUBMISSION, default_submission
    from grader.stubs import init

    monkeypatch.chdir(tmp_path)
    assert default_submission() == DEFAULT_SUBMISSION  # nothing here: the error will name exercises/
    init(tmp_path / "mywork")
    monkeypatch.chdir(tmp_path / "mywork")
    assert default_submission() == "."
    (tmp_path / "mywork" / DEFAULT_SUBMISSION).mkdir()
    assert default_submission() == DEFAULT_SUBMISSION
    assert "run in this\nfolder" in (tmp_path / "mywork" / "answers.md").read_text()


def test_a_grade_starts_its_fork_server_before_it_imports_numpy():
    """Every run waits for the fork server's import of jax: the command line starts it first, before its own
    modules (numpy among them) import."""
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from grader.sandbox import forkserver\n"
            "seen = []\n"
            "forkserver.start_shared = lambda env: seen.append(sorted(m for m in ('numpy', 'jax') if m in sys.modules))\n"
            "from grader.cli import main\n"
            "main(['/nonexistent/submission'])\n"
            "print(seen)\n")
    out = subprocess.run([sys.executable, "-I", "-c", code, str(ROOT)], capture_output=True, text=True, timeout=120)
    assert "[[], " in out.stdout and out.stdout.strip().endswith("]]"), out.stdout + out.stderr


def test_a_warm_up_that_fails_prints_nothing_and_leaves_the_work_to_the_runs(monkeypatch):
    """The confinement probe starts in a thread ahead of the runs; when it fails there (its scratch folder removed
    as a quick command exits, say), nothing is printed from that thread: the runs probe again and report."""
    import threading

    from grader.sandbox import launch

    def failing():
        raise FileNotFoundError("the probe's scratch folder is gone")

    printed = []
    monkeypatch.setattr(threading, "excepthook", lambda args: printed.append(args.exc_value))
    monkeypatch.setattr(launch, "offered", failing)
    launch.warm_up(Limits(fork=False)).join(timeout=60)
    assert printed == []
