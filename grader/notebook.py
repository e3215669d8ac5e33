"""``grader.check("ex1")`` in a Jupyter cell: grade what the kernel has run so far.

The cells the kernel executed, in the order they ran, are joined as a
notebook submission is (:func:`grader.submission.join_cells`), so the last
definition of a function wins, as in the kernel. Lines that use the grader
itself (``import grader``, ``grader.check(...)``) are left out: a submission
may not import the grader. The joined module is then graded exactly as a
file would be, each exercise in its own sandboxed child; nothing runs in the
kernel's process but the judging, and the notebook need not be saved.

Cells that raised in the kernel are left out, and the report says which.
IPython 9 records them; on older ones (Colab's 7.34) :func:`raised_cells`
watches cells from the first ``check`` on and traces the kernel's last
exception before it to its cell.

This module imports neither jax nor the engine until ``check`` is called, so
``import grader`` in a notebook stays cheap.
"""

from __future__ import annotations

import ast
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Sequence

NOT_IN_IPYTHON = (
    "grader.check() grades the cells a Jupyter (IPython) kernel has run, and there is no such kernel here. "
    "In a terminal, grade your files instead: `python -m grader PATH` (a folder, a .py file or a saved "
    ".ipynb), or `python -m grader --watch PATH` to re-grade on every save."
)
#: Where Jupyter front ends say which notebook a kernel belongs to (JupyterLab / Notebook 7, VS Code).
_NOTEBOOK_PATH_VARS = ("__vsc_ipynb_file__", "__session__")


INCOMPLETE_HISTORY = (
    "this IPython keeps no record of which cells raised: the grader left out the cells that raised since "
    "the first grader.check() in this kernel and the last one that raised before it. If an exercise fails "
    "with an error from another cell that raised, run that cell again once it works, or restart the kernel "
    "and run all cells."
)


class NotInIPython(RuntimeError):
    """``grader.check`` was called outside an IPython kernel."""


def _uses_grader(node: ast.stmt, names: set[str]) -> bool:
    """True for ``import grader...``, ``from grader... import ...`` and statements that only call those names."""
    if isinstance(node, ast.Import):
        found = [a for a in node.names if a.name.split(".")[0] == "grader"]
        names.update((a.asname or a.name).split(".")[0] for a in found)
        return bool(found)
    if isinstance(node, ast.ImportFrom):
        if (node.module or "").split(".")[0] == "grader" and not node.level:
            names.update(a.asname or a.name for a in node.names)
            return True
        return False
    used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if not used & names:
        return False
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    names.update(n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name))
    return True


def kernel_source(cells: Iterable[str], raised: dict[int, str] | None = None) -> tuple[str, list[str]]:
    """The executed cells (``In[1]``, ``In[2]``, ...) as one module, and notes on what was left out.

    A statement that uses the grader (its import, ``grader.check(...)``,
    ``report = check()`` and what uses ``report`` later) is dropped; so is a
    cell that does not parse (the kernel ran none of it) and a cell that
    raised in the kernel (``raised``: execution number -> exception type), whose
    error would otherwise stop the whole module at import.
    """
    from grader.submission import join_cells

    raised = raised or {}
    kept, notes, names = [], [], set()
    for number, cell in enumerate(cells, start=1):
        if not cell.strip():
            continue
        if number in raised:
            notes.append(f"cell In[{number}] raised {raised[number]} in the kernel and was left out; "
                         "run it again once it works")
            continue
        module = join_cells([cell])
        try:
            tree = ast.parse(module)
        except SyntaxError as exc:
            notes.append(f"cell In[{number}] has a syntax error ({exc.msg}, line {exc.lineno}) "
                         "and was left out, as the kernel ran none of it")
            continue
        lines = module.splitlines()
        dropped = [node for node in tree.body if _uses_grader(node, names)]
        if not dropped:
            kept.append(cell)
            continue
        for node in reversed(dropped):  # blank them out, keeping line numbers for tracebacks
            for i in range(node.lineno - 1, node.end_lineno):
                lines[i] = ""
            indent = len(lines[node.lineno - 1]) - len(lines[node.lineno - 1].lstrip())
            lines[node.lineno - 1] = " " * indent + "pass  # (uses the grader; left out)"
        kept.append("\n".join(lines))
    return join_cells(kept), notes


def _shell() -> Any:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        raise NotInIPython(NOT_IN_IPYTHON)
    return shell


class _RaisedWatcher:
    """A ``post_run_cell`` callback that remembers the cells that raised (execution number -> exception type)."""

    def __init__(self, since: int) -> None:
        self.cells: dict[int, str] = {}
        self.since = since
        """The first execution number it saw run."""

    def __call__(self, result: Any = None) -> None:
        error = getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)
        number = getattr(result, "execution_count", None)
        if error is not None and isinstance(number, int):
            self.cells[number] = type(error).__name__


#: One watcher per shell (a kernel has one), registered by its first ``check``.
_WATCHERS: dict[int, _RaisedWatcher] = {}


def _watcher(shell: Any) -> _RaisedWatcher:
    """The shell's watcher, registered on first use (it sees the cell running now and every later one)."""
    watcher = _WATCHERS.get(id(shell))
    if watcher is None:
        watcher = _WATCHERS[id(shell)] = _RaisedWatcher(since=int(getattr(shell, "execution_count", 1) or 1))
        shell.events.register("post_run_cell", watcher)
    return watcher


def _last_raised(shell: Any, before: int) -> dict[int, str]:
    """The cell before ``In[before]`` that raised the kernel's last exception (``sys.last_traceback``), found by
    its code name (ipykernel names a cell by its source: of cells with the same source, the latest is taken)."""
    tb = getattr(sys, "last_traceback", None)
    if tb is None:
        return {}
    history = shell.history_manager
    raw, parsed = list(history.input_hist_raw), list(history.input_hist_parsed)
    numbers: dict[str, int] = {}
    for number in range(1, min(len(raw), len(parsed), before)):
        try:
            numbers[shell.compile.get_code_name(raw[number], parsed[number], number)] = number  # the latest wins
        except Exception:  # noqa: BLE001 - an IPython without get_code_name: no cell can be named
            return {}
    while tb is not None:
        number = numbers.get(tb.tb_frame.f_code.co_filename)
        if number is not None:
            return {number: getattr(getattr(sys, "last_type", None), "__name__", "an exception")}
        tb = tb.tb_next
    return {}


def raised_cells(shell: Any) -> tuple[dict[int, str], bool]:
    """The cells that raised in this kernel (execution number -> exception type), and whether that is all of them.

    IPython 9 keeps each failed cell's exception in its history. Older ones (Colab runs IPython 7.34) do
    not: from the first ``check`` on, a ``post_run_cell`` callback records them, and before it only the
    kernel's last exception can be traced to its cell.
    """
    history = shell.history_manager
    kept = getattr(history, "exceptions", None)
    if kept is not None:
        return {n: str(e.get("ename", "an exception")) if isinstance(e, dict) else "an exception"
                for n, e in dict(kept).items()}, True
    watcher = _watcher(shell)
    # Cells from the watcher's first on, it saw; before it, the last exception may be one's (remembered: a
    # later exception replaces sys.last_traceback).
    watcher.cells.update(_last_raised(shell, before=watcher.since))
    return dict(watcher.cells), watcher.since <= 1


def _notebook_path(shell: Any) -> Path | None:
    for name in _NOTEBOOK_PATH_VARS:
        value = shell.user_ns.get(name)
        if isinstance(value, str) and value.endswith(".ipynb") and Path(value).is_file():
            return Path(value)
    value = os.environ.get("JPY_SESSION_NAME", "")
    return Path(value) if value.endswith(".ipynb") and Path(value).is_file() else None


def kernel_submission(cells: Sequence[str], raised: dict[int, str] | None = None, answers: str | None = None,
                      origin: str | None = None):
    """A :class:`~grader.submission.Submission` of the given executed cells, with notes on what was left out.

    ``origin`` names where the cells come from (the saved notebook), the kernel itself by default.
    """
    from grader.report._common import KERNEL_ORIGIN
    from grader.exercises import MODULES
    from grader.submission import Submission

    source, notes = kernel_source(cells, raised)
    return Submission(Path(origin or KERNEL_ORIGIN), "kernel", {name: source for name in MODULES.values()}, answers), notes


def plots_folder() -> Path:
    """Where ``check`` writes the lesson's pictures before showing them (kept, overwritten by the next check)."""
    import tempfile

    return Path(tempfile.gettempdir()) / f"jax-grader-plots-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


def check(*exercise_ids: str, notebook: str | os.PathLike | None = None, timeout: float | None = None,
          display: bool = True, plots: bool = True):
    """Grade the cells this kernel has run; show the report and return it (a :class:`grader.results.Report`).

    ``check()`` grades every exercise, ``check("ex1")`` or ``check("ex1", "ex3")`` only those
    (``accuracy`` trains ex1, ex3 and ex5 together). The answers to the lesson's questions are
    read from the saved notebook's markdown cell under an "Answers" heading; pass ``notebook=PATH``
    when the front end does not say which notebook this is. ``timeout`` is seconds per exercise.
    ``plots`` shows the lesson's pictures (ex2's gradient norms on 32 MNIST images; with ``accuracy``,
    the loss with and without clipping, which trains twice more).
    """
    from grader.exercises import IDS as EXERCISES

    unknown = [e for e in exercise_ids if e not in EXERCISES]
    if unknown:
        raise ValueError(f"unknown exercise(s) {unknown}; choose from {', '.join(EXERCISES)}, or none for all")
    shell = _shell()
    history = shell.history_manager
    cells = list(history.input_hist_raw[1:])
    raised, complete = raised_cells(shell)
    from grader.config import Options
    from grader.engine import grade
    from grader.observations import Limits
    from grader.submission import notebook_answers

    path = Path(notebook) if notebook is not None else _notebook_path(shell)
    answers = notebook_answers(path) if path is not None else None
    submission, notes = kernel_submission(cells, raised, answers, origin=str(path) if path else None)
    figures = plots_folder() if plots else None
    if figures is not None and figures.is_dir():
        for old in figures.glob("*.png"):
            old.unlink()
    options = Options(only=tuple(exercise_ids) or EXERCISES,
                      limits=Limits(timeout=timeout) if timeout else Limits(), plots_dir=figures,
                      keep_compiled=True)
    report = grade(submission, options)
    if not complete and any(c.status == "error" and c.message.startswith("importing the submission")
                            for c in report.checks):
        notes.append(INCOMPLETE_HISTORY)
    report = replace(report, notes=(*notes, *report.notes))
    if display:
        from grader.plots import LESSON_PICTURES

        pictures = [figures / name for name in LESSON_PICTURES] if figures is not None else []
        show(report, tuple(p for p in pictures if p.is_file()))
    return report


def show(report, images: tuple[Path, ...] = ()) -> None:
    """Display ``report`` in the running front end: HTML in a notebook, text in a terminal IPython."""
    from IPython.display import display

    from grader.report.html import render as render_html
    from grader.report.terminal import render_text

    display({"text/html": render_html(report, images), "text/plain": render_text(report)}, raw=True)
