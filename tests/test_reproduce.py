"""Reproducing a failed value check: the snippet, run in a fresh interpreter, shows the grader's mismatch."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from grader import inputs as grader_inputs
from grader.cli import main
from grader.reproduce import explain_text, like, mismatch, recipes, reproduction
from grader.results import CheckResult
from grader.observations import ObservationError, Observations
from tests.conftest import CORPUS, REFERENCE, by_id, submission_with


@pytest.mark.e2e
def test_snippet_of_a_failing_check_shows_the_same_mismatch(tmp_path, judge_with):
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "mutants" / "ex3_mlp_forward__string_order.py"})
    check = by_id(judge_with(folder, only=("ex3",)))["ex3.deep"]
    assert check.status == "fail" and check.reproduce is not None
    data = check.reproduce
    assert data["inputs_path"] == "ex3/d12" and data["seed"] == 303 and not data["secret"]
    assert {"name": "x", "shape": [6, 16], "dtype": "float32", "kind": "float inputs"} in data["inputs"]
    assert data["differences"] and all(d["got"] != d["want"] for d in data["differences"])
    run = subprocess.run([sys.executable, "-c", data["snippet"]], capture_output=True, text=True, cwd=folder,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    counted = re.search(r"(\d+ of \d+ elements differ; largest absolute error [\d.]+)", check.message).group(1)
    assert counted in run.stdout
    passing = by_id(judge_with(REFERENCE, only=("ex3",)))["ex3.deep"]
    assert passing.status == "pass" and passing.reproduce is None


def test_explain_prints_inputs_differences_and_snippet(tmp_path, cache_dir, monkeypatch, capsys):
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    folder = submission_with(tmp_path, {"ex3_mlp_forward": CORPUS / "mutants" / "ex3_mlp_forward__relu_on_output.py"})
    assert main(["explain", "ex3.output_linear", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "ex3.output_linear (fail" in out and "numpy seed 303" in out
    assert "shape (6, 16) float32" in out or "shape (4, 784) float32" in out
    assert "First values that differ" in out and "from ex3_mlp_forward import mlp_forward" in out
    assert main(["explain", "ex3.nope", str(folder)]) == 2
    assert "ex3.deep" in capsys.readouterr().err  # the valid ids are listed


def _fake(recipe_id: str, value) -> tuple[Observations, Observations]:
    name = recipes()[recipe_id].cases[0][2]
    return Observations({name: value}), Observations({name: np.zeros_like(value)})


def test_secret_inputs_give_shapes_and_kinds_never_values():
    inputs = grader_inputs.build()
    student, reference = _fake("ex3.deep", np.ones((6, 16), np.float32))
    data = reproduction("ex3.deep", student, reference, inputs, secret=True)
    assert data["secret"] and "seed" not in data and not data["differences"]
    assert "build()" not in data["snippet"] and "like(" in data["snippet"]
    x = inputs["ex3"]["d12"]["x"]
    assert f"{float(x[0, 0]):.4f}"[:6] not in data["snippet"]
    text = explain_text(CheckResult("ex3.deep", "ex3", "n", "fail", 0, 5, "m", "h", reproduce=data))
    assert "secret inputs" in text and "shape (6, 16) float32" in text and "First values" not in text
    spec = like({"x": ((3, 4), "float32"), "y": ((3,), "int32")})
    assert spec["x"].shape == (3, 4) and spec["y"].dtype == np.int32


def test_a_raising_case_is_the_one_reproduced():
    name = recipes()["ex3.depths"].cases[2][2]
    student = Observations({}, {name: ObservationError("KeyError", "'layer3'")})
    data = reproduction("ex3.depths", student, Observations(), grader_inputs.build())
    assert data["case"] == "d3" and data["raised"].startswith("KeyError") and "['d3']" in data["snippet"]


def test_mismatch_reads_nested_trees():
    assert mismatch({"a": {"b": np.ones(3)}}, {"a/b": np.ones(3)}) is None
    assert "1 of 3 elements differ" in mismatch({"a": {"b": np.array([1.0, 2.0, 3.0])}}, {"a/b": np.ones(3) * [1, 2, 4]})


def test_every_recipe_names_cases_the_probes_record():
    from grader.engine import CHECKS

    ids = {c.id for c in CHECKS}
    assert set(recipes()) <= ids
    inputs = grader_inputs.build()
    for check_id, recipe in recipes().items():
        for i, (_, path, _) in enumerate(recipe.cases):
            node = inputs
            for part in path.split("/"):
                node = node[part]
            compile(reproduction(check_id, Observations(), Observations(), inputs)["snippet"], check_id, "exec")
