"""``grader.check`` in a notebook: the kernel's executed cells, joined and graded in the sandbox."""

from __future__ import annotations

import json
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grader.notebook import NOT_IN_IPYTHON, kernel_source
from grader.report.html import render
from grader.results import CheckResult, Report
from grader.submission import answers_cell

IMPORTS = "import jax\nimport jax.numpy as jnp"
MLP_GOOD = (
    "def mlp_forward(params, x):\n"
    "    names = sorted(params, key=lambda n: int(n.removeprefix('layer')))\n"
    "    for i, name in enumerate(names):\n"
    "        x = x @ params[name]['w'] + params[name]['b']\n"
    "        if i < len(names) - 1:\n"
    "            x = jax.nn.relu(x)\n"
    "    return x"
)
MLP_STRING_ORDER = MLP_GOOD.replace("sorted(params, key=lambda n: int(n.removeprefix('layer')))", "sorted(params)")
CHECK = ("import grader\nreport = grader.check('ex3')\n"
         "print('SCORE', json.dumps([report.score, report.max_score, [c.id for c in report.checks if c.status != 'pass']]))")


def _scores(cell) -> tuple[float, float, list[str]]:
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    line = next(line for line in text.splitlines() if line.startswith("SCORE "))
    return tuple(json.loads(line[len("SCORE "):]))


@pytest.mark.e2e
@pytest.mark.floor
def test_notebook_kernel_checks_redefinition(tmp_path, cache_dir, monkeypatch):
    """A real kernel: define over cells, check, redefine one wrongly, check again: the score drops.

    Cells that raised, before the first check and after it, are left out and the report says so, on
    IPython 9 (which records failed cells) and on Colab's IPython 7.34 / ipykernel 6.17 (which does not).
    """
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("JAX_GRADER_CACHE", str(cache_dir))
    nb = new_notebook(cells=[
        new_markdown_cell("# My exercises"),
        new_code_cell("import json\n" + IMPORTS),
        new_code_cell("%time x = 1\ndef relu(z):\n    return jax.nn.relu(z)"),
        new_code_cell(MLP_GOOD),
        new_code_cell("mlp_forward(1, 2)  # raises in the kernel: must not break the graded module"),
        new_code_cell(CHECK),
        new_code_cell(MLP_STRING_ORDER),
        new_code_cell("raise ValueError('a later cell raises too')"),
        new_code_cell(CHECK),
        new_markdown_cell("## Answers\n\nThe last example has the largest gradient."),
    ])
    for raising in (4, 7):
        nb.cells[raising].metadata["tags"] = ["raises-exception"]
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    first, second = _scores(nb.cells[5]), _scores(nb.cells[8])
    assert first == (20.0, 20.0, []), first
    assert second[0] < first[0] and second[1] == 20.0
    assert "ex3.deep" in second[2] and "ex3.depths" not in second[2]  # the module imported: In[7] left out
    html_outputs = [o for o in nb.cells[8].outputs if o.output_type == "display_data"]
    assert html_outputs and "text/html" in html_outputs[0].data and "text/plain" in html_outputs[0].data
    shown = html_outputs[0].data["text/html"]
    assert "ex3.deep" in shown and "hint" in shown
    assert "In[4] raised TypeError" in shown and "In[7] raised ValueError" in shown  # left out, and said so
    assert "reproduce it in Python" in shown and "run this in your notebook" in shown  # the snippet, for a notebook
    assert "from ex3_mlp_forward import" not in shown


def test_outside_ipython_says_what_to_do():
    proc = subprocess.run([sys.executable, "-c", "import grader, sys; grader.check('ex1')"],
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "NotInIPython" in proc.stderr and "python -m grader" in proc.stderr
    assert NOT_IN_IPYTHON.split(".")[0] in proc.stderr


def test_import_grader_is_cheap():
    code = "import sys, grader; print(sorted(m for m in ('jax', 'numpy', 'grader.engine') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"


def test_kernel_source_drops_the_grader_and_failed_cells():
    cells = ["import grader as g\nx = 1", "def f():\n    return 1", "r = g.check('ex1')\nprint(r.score)",
             "r.score", "f(", "def f():\n    return 2", "boom()"]
    source, notes = kernel_source(cells, raised={7: "NameError"})
    namespace: dict = {}
    exec(compile(source, "joined", "exec"), namespace)
    assert namespace["f"]() == 2 and namespace["x"] == 1 and "g" not in namespace and "r" not in namespace
    assert any("In[5]" in n and "syntax error" in n for n in notes)
    assert any("In[7]" in n and "NameError" in n for n in notes)


def test_answers_under_a_heading():
    cells = ["# Exercises", "## Answers\n\n### 1. Gradients\nExample 3.", "More prose.", "## Notes\nnot answers"]
    assert answers_cell(cells) == "## Answers\n\n### 1. Gradients\nExample 3.\n\nMore prose.\n"
    assert answers_cell(["# Exercises", "## Exercise 1"]) is None


def test_notebook_submission_reads_its_answers_cell(tmp_path):
    from grader.submission import load_submission

    path = tmp_path / "hw.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("x = 1"), new_markdown_cell("# Answers\nBecause.")]), path)
    assert load_submission(path).answers == "# Answers\nBecause.\n"


def test_html_escapes_and_folds():
    fails = tuple(CheckResult(id=f"ex3.c{i}", exercise="ex3", name="n", status="fail", score=0, max_score=1,
                              message="<script>alert(1)</script>", hint="do <b>this</b>") for i in range(6))
    page = render(Report(checks=fails, answers="<img src=x>"))
    assert "<script>" not in page and "&lt;script&gt;" in page and "<img src=x>" not in page
    assert "<details><summary><b>ex3" in page  # more than FOLD_AFTER failures: folded
    short = render(Report(checks=fails[:1]))
    assert "<details><summary><b>ex3" not in short and "ex3.c0" in short


def test_html_shows_the_lesson_and_its_pictures(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    png = tmp_path / "mnist_grad_norms.png"
    plt.figure(figsize=(1, 1))
    plt.savefig(png)
    plt.close("all")
    lesson = {"ex2": {"images": 32, "norms": [1.0] * 32, "index": 3, "largest_gradient_example": 3, "label": 7,
                      "prediction": 1, "loss": 2.5, "norm": 4.0, "median_norm": 2.0, "mean_loss": 2.3}}
    page = render(Report(checks=(), lesson=lesson), images=(png,))
    assert "data:image/png;base64," in page and "example 3" in page and "label is 7" in page


def test_raised_cells_without_ipython_9s_record(monkeypatch):
    """IPython before 9 keeps no failed cells: the last exception is traced to its cell, later ones are watched."""
    from types import SimpleNamespace

    from grader import notebook

    monkeypatch.setattr(notebook, "_WATCHERS", {})
    cells = ["", "x = 1", "1 / 0", "y = 2"]
    callbacks = []
    shell = SimpleNamespace(
        history_manager=SimpleNamespace(input_hist_raw=cells, input_hist_parsed=cells),
        compile=SimpleNamespace(get_code_name=lambda raw, parsed, number: f"<cell-{hash(raw)}>"),
        events=SimpleNamespace(register=lambda event, callback: callbacks.append((event, callback))),
        execution_count=4,
    )
    try:
        exec(compile(cells[2], f"<cell-{hash(cells[2])}>", "exec"), {})
    except ZeroDivisionError:
        monkeypatch.setattr(sys, "last_type", ZeroDivisionError, raising=False)
        monkeypatch.setattr(sys, "last_traceback", sys.exc_info()[2], raising=False)
    assert notebook.raised_cells(shell) == ({2: "ZeroDivisionError"}, False)
    [(event, watcher)] = callbacks
    assert event == "post_run_cell"
    watcher(SimpleNamespace(execution_count=4, error_in_exec=KeyError("k"), error_before_exec=None))
    watcher(SimpleNamespace(execution_count=5, error_in_exec=None, error_before_exec=None))
    monkeypatch.setattr(sys, "last_traceback", None)
    assert notebook.raised_cells(shell) == ({2: "ZeroDivisionError", 4: "KeyError"}, False)
    kept = SimpleNamespace(**vars(shell.history_manager), exceptions={3: {"ename": "NameError"}})
    assert notebook.raised_cells(SimpleNamespace(**{**vars(shell), "history_manager": kept})) == (
        {3: "NameError"}, True)
