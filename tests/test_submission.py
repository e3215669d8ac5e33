"""Loading a submission: folders, single files, notebooks, and clear errors for the rest."""

from __future__ import annotations

import nbformat
import pytest
from conftest import EXERCISES_DIR, REFERENCE

from grader.submission import MODULES, SubmissionError, load_submission


def test_folder_reads_each_module_and_the_answers():
    sub = load_submission(EXERCISES_DIR)
    assert sub.kind == "folder"
    assert set(sub.sources) == set(MODULES.values())
    assert sub.missing() == []
    assert sub.answers is not None and "Per-example gradients" in sub.answers


def test_partial_folder_lists_what_is_missing(tmp_path):
    (tmp_path / "ex3_mlp_forward.py").write_text((REFERENCE / "ex3_mlp_forward.py").read_text())
    sub = load_submission(tmp_path)
    assert list(sub.sources) == ["ex3_mlp_forward"]
    assert "ex1_dropout.py" in sub.missing() and len(sub.missing()) == 4
    assert sub.answers is None


def test_single_py_serves_every_module(tmp_path):
    path = tmp_path / "all.py"
    path.write_text("def mlp_forward(params, x):\n    return x\n")
    sub = load_submission(path)
    assert sub.kind == "py"
    assert set(sub.sources.values()) == {path.read_text()}
    assert set(sub.sources) == set(MODULES.values())


def test_notebook_code_cells_with_magics(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# My work"),
        nbformat.v4.new_code_cell("!pip install jax\nimport jax"),
        nbformat.v4.new_code_cell("%time value = 1 + 1\n%timeit value * 2\n%%capture"),
        nbformat.v4.new_code_cell("def mlp_forward(params, x):\n    return x"),
    ]
    path = tmp_path / "work.ipynb"
    nbformat.write(nb, path)
    source = load_submission(path).sources["ex3_mlp_forward"]
    namespace: dict = {}
    exec(compile(source, "nb", "exec"), namespace)
    assert namespace["value"] == 2
    assert callable(namespace["mlp_forward"])
    assert "My work" not in source


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "does not exist"),
        (lambda p: p, "none of the exercise files"),
        (lambda p: (p / "notes.txt").write_text("hi") and p / "notes.txt", "neither a folder"),
        (lambda p: (p / "bad.ipynb").write_text("{not json") and p / "bad.ipynb", "not a readable Jupyter notebook"),
        (lambda p: (p / "latin.py").write_bytes(b"x = '\xe9'\n") and p / "latin.py", "not UTF-8"),
    ],
)
def test_bad_input_names_the_problem(tmp_path, make, message):
    with pytest.raises(SubmissionError, match=message):
        load_submission(make(tmp_path))
