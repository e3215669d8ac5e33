"""Hostile submissions: each misbehaves in one exercise; the grader survives and judges correctly.

Every hostile module is graded together with one untouched reference exercise,
which must keep its full marks: one exercise's crash, hang or exit costs only
that exercise.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest
from conftest import CORPUS, REFERENCE, alive_under, submission_with

from grader.sandbox import offered
from grader.observations import Limits
from grader.submission import MODULES

CONFINED = offered().level == "full"

HOSTILE = sorted((CORPUS / "hostile").glob("*.py"))
EXERCISE_OF = {module: ex for ex, module in MODULES.items()}


def _expect(path: Path) -> dict:
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "EXPECT":
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} has no EXPECT")


def _leftover(pattern: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.strip() == pattern]


@pytest.mark.e2e
@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.stem)
def test_hostile_submission_is_contained(path, tmp_path, grade_with):
    module = path.stem.split("__")[0]
    exercise = EXERCISE_OF[module]
    expect = _expect(path)
    if expect.get("confined") and not CONFINED:
        pytest.skip(f"needs full confinement; this machine offers {offered().describe()}")
    bystander = "ex3" if exercise != "ex3" else "ex5"
    folder = submission_with(tmp_path, {module: path})
    limits = Limits(timeout=expect.get("timeout", 30), memory_bytes=6 << 30)
    report = grade_with(folder, only=(exercise, bystander), limits=limits)

    bystanders = [c for c in report.checks if c.exercise == bystander]
    assert bystanders and all(c.status == "pass" for c in bystanders), [(c.id, c.message) for c in bystanders]

    checks = [c for c in report.checks if c.exercise == exercise]
    assert checks
    if expect["status"] in ("error", "fail") and "check" not in expect:  # checks gated on a failed one are skipped, not judged
        assert all(c.status in (expect["status"], "skipped") for c in checks), [(c.id, c.status) for c in checks]
        checks = [c for c in checks if c.status != "skipped"]
        assert checks
    if expect["status"] == "pass":
        assert all(c.status == "pass" for c in checks), [(c.id, c.message) for c in checks]
    elif "check" in expect:
        target = next(c for c in checks if c.id == expect["check"])
        assert target.status == expect["status"], target
    elif expect["status"] == "not pass":
        assert all(c.status != "pass" for c in checks), [(c.id, c.status, c.message) for c in checks]
    else:
        assert all(c.status == expect["status"] for c in checks), [(c.id, c.status, c.message) for c in checks]
        if "message" in expect:
            wanted = expect["message"] if isinstance(expect["message"], list) else [expect["message"]]
            assert all(any(w in c.message for w in wanted) for c in checks), [c.message for c in checks]
    if "max_points" in expect:
        assert sum(c.score for c in checks) <= expect["max_points"]
    if "leftover" in expect:
        assert _leftover(expect["leftover"]) == []


def test_forged_output_does_not_reach_the_cli_report(tmp_path, cache_dir, monkeypatch, capsys):
    from grader.cli import main

    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "hostile" / "ex3_mlp_forward__forged_report.py"})
    assert main([str(folder), "--only", "ex3", "-q"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == ["0 / 20"]  # -q prints the total only; the forged "20 / 20" lines are nowhere


def test_reference_is_not_importable_from_a_submission_even_from_the_repo(tmp_path, grade_with):
    assert (REFERENCE / "ex3_mlp_forward.py").exists()
    folder = submission_with(tmp_path, {"ex3_mlp_forward": "import reference\n"})
    report = grade_with(folder, only=("ex3",))
    judged = [c for c in report.checks if c.status != "skipped"]
    assert judged and all(c.status == "error" and "may not import 'reference'" in c.message for c in judged)


def test_no_sandbox_process_survives_grading(tmp_path, grade_with, monkeypatch):
    """A submission that leaves processes behind (as it can where fork is allowed) has none once grading ends."""
    import tempfile

    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "hostile" / "ex3_mlp_forward__fork_bomb.py"})
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # the grade's children work in there
    report = grade_with(folder, only=("ex3",), limits=Limits(timeout=60, confine=False))  # unconfined: forks work
    assert report.runs["ex3"].status == "ok" and report.score > 0  # the children really were started
    assert alive_under(scratch) == []


def test_a_changed_reference_cache_is_refused(tmp_path):
    """Batch grading pins the reference digest; files changed afterwards are refused, not trusted."""
    from grader.engine import Options, grade
    from grader.expected.cache import ReferenceRunError, _digest

    private = tmp_path / "cache"
    assert grade(REFERENCE, Options(only=("ex3",), cache_dir=private)).score == 20
    (folder,) = private.glob("reference-*")
    pinned = _digest(folder, ["ex3"])
    assert grade(REFERENCE, Options(only=("ex3",), cache_dir=private, reference_digest=pinned)).score == 20
    observed = folder / "ex3" / "observations.json"
    observed.write_text(observed.read_text() + " ")
    with pytest.raises(ReferenceRunError, match="changed since grading started"):
        grade(REFERENCE, Options(only=("ex3",), cache_dir=private, reference_digest=pinned))


def test_the_pinned_digest_does_not_depend_on_the_order_of_the_exercises(tmp_path, cache_dir):
    """Batch pins the digest for ``--only`` in the user's order; each grade checks it in cost order."""
    from dataclasses import replace

    from grader.batch.runner import warm_reference
    from grader.config import Options
    from grader.engine import grade
    from grader import inputs as grader_inputs
    from grader.expected.cache import _digest, cache_folder

    only = ("ex3", "ex5")  # the engine runs ex5 first: it costs more
    options = Options(only=only, cache_dir=cache_dir)
    pinned = warm_reference(options, tmp_path)
    folder = cache_folder(REFERENCE, grader_inputs.write(tmp_path / "public.npz"), cache_dir)  # other seeds: others
    assert pinned == _digest(folder, ["ex5", "ex3"]) == _digest(folder, ["ex3", "ex5", "ex3"])
    assert pinned != _digest(folder, ["ex3"])
    assert grade(REFERENCE, replace(options, reference_digest=pinned)).score == 35


def test_unencodable_error_text_still_gives_every_report(tmp_path, cache_dir, monkeypatch):
    """A lone surrogate in a student's exception message must not break the report writers."""
    import json

    from grader.cli import main

    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    folder = submission_with(tmp_path, {"ex3_mlp_forward": 'def mlp_forward(params, x):\n    raise ValueError("bad \\ud800 text")\n'})
    out = tmp_path / "r.json"
    assert main([str(folder), "--only", "ex3", "--json", str(out), "--markdown", str(tmp_path / "r.md"), "-q"]) == 0
    message = json.loads(out.read_text())["checks"][0]["message"]
    assert "raised ValueError: bad" in message
