"""Find a submission's code, whatever its form: a folder, one ``.py`` file, or a notebook.

The result is plain text per exercise module; the sandbox writes it into a
scratch folder, so the student's own files are never touched. Every file is
read through :mod:`grader.untrusted`: a submission holding a link or a special
file anywhere in its folder is refused as a whole, with a message naming them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from grader import untrusted
from grader.exercises import MODULES

_MAX_SOURCE_BYTES = 2 << 20
_MAX_NOTEBOOK_BYTES = 32 << 20
#: Folders of a submission that never hold its code: not searched for links, never read.
JUNK_DIRS = frozenset({"__pycache__", ".ipynb_checkpoints", ".git", ".hg", ".svn", "__MACOSX", ".venv", "venv",
                       "node_modules"})
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*)$")
_MAGIC = re.compile(r"^\s*([%!].*|get_ipython\(\).*)$")


class SubmissionError(ValueError):
    """The path given cannot be graded; the message says what was expected."""


@dataclass(frozen=True)
class Submission:
    """Source text per exercise module, plus the prose answers if any."""

    origin: Path
    kind: str
    """``folder``, ``py``, ``ipynb``, or ``kernel`` (the cells a Jupyter kernel ran, see ``grader.notebook``)."""
    sources: dict[str, str]
    """Module name (``ex1_dropout``) -> source; exercises with no file are absent."""
    answers: str | None = None

    def missing(self) -> list[str]:
        return [f"{name}.py" for name in MODULES.values() if name not in self.sources]

    def write(self, dest: Path) -> Path:
        dest.mkdir(parents=True, exist_ok=True)
        for name, source in self.sources.items():
            (dest / f"{name}.py").write_text(source, encoding="utf-8")
        return dest


def _read(path: Path, root: Path | None = None) -> str:
    """A student's text file, read through :mod:`grader.untrusted` (no link below ``root``, at most 2 MB)."""
    try:
        return untrusted.read_text(path, _MAX_SOURCE_BYTES, root)
    except untrusted.UnsafeFile as exc:
        raise SubmissionError(str(exc)) from None


def _read_notebook(path: Path):
    import nbformat

    try:
        data = untrusted.read_bytes(path, _MAX_NOTEBOOK_BYTES)
    except untrusted.UnsafeFile as exc:
        raise SubmissionError(str(exc)) from None
    try:
        return nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - nbformat raises many kinds
        raise SubmissionError(f"{untrusted.shown(path)} is not a readable Jupyter notebook "
                              f"({type(exc).__name__}: {untrusted.shown(str(exc)[:500])})") from exc


def notebook_source(path: Path) -> str:
    """The code cells of a notebook as one module, IPython magics and shell lines dropped."""
    notebook = _read_notebook(path)
    return join_cells(cell.source for cell in notebook.cells if cell.cell_type == "code")


def join_cells(cells: Iterable[str]) -> str:
    """Code cells as one module, in the order given, IPython magics and shell lines dropped.

    The one definition of how a notebook becomes a module: a notebook file's
    code cells and a kernel's executed cells (``grader.check``) are joined alike.
    """
    return "\n\n".join("\n".join(_strip_magic(line) for line in cell.splitlines()) for cell in cells) + "\n"


def answers_cell(markdown_cells: Iterable[str]) -> str | None:
    """The prose answers kept in a notebook: the markdown cells from a heading naming "Answers" on.

    Everything from the first markdown cell whose heading contains the word
    "answers" up to the next heading of the same or a higher level (or the end
    of the notebook's markdown) is taken, as ``answers.md`` would be.
    ``None`` when no such heading exists.
    """
    taken: list[str] = []
    level = 0
    for cell in markdown_cells:
        for line in cell.splitlines():
            heading = _HEADING.match(line)
            if heading and level and len(heading.group(1)) <= level:
                return "\n".join(taken).strip() + "\n"
            if heading and not level and re.search(r"\banswers?\b", heading.group(2), re.IGNORECASE):
                level = len(heading.group(1))
            if level:
                taken.append(line)
        if level:
            taken.append("")
    return "\n".join(taken).strip() + "\n" if level else None


def notebook_answers(path: Path) -> str | None:
    """The answers cell of the notebook at ``path`` (see :func:`answers_cell`), if it has one."""
    try:
        notebook = _read_notebook(path)
    except SubmissionError:  # an unreadable notebook has no answers to show
        return None
    return answers_cell(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def _strip_magic(line: str) -> str:
    """Turn IPython-only syntax into Python: ``%time x = f()`` keeps ``x = f()``; other magics become ``pass``."""
    if not _MAGIC.match(line):
        return line
    indent = line[: len(line) - len(line.lstrip())]
    match = re.match(r"\s*%time\s+(.+)$", line)
    if match:
        return indent + match.group(1)
    return indent + "pass  # (notebook magic removed)"


def answers_beside(folder: Path) -> str | None:
    """The ``answers.md`` in ``folder``, ``None`` if there is none; :class:`SubmissionError` if it is not read."""
    path = folder / "answers.md"
    return _read(path) if untrusted.lstat_kind(path) != "missing" else None


def load_submission(path: str | Path) -> Submission:
    """Load a folder of exercise files, a single ``.py`` file or an ``.ipynb`` notebook.

    The path given is the operator's (followed as given); below it nothing is
    followed. A link or special file anywhere in a folder submission (its junk
    folders such as ``.git`` aside), or a single file or ``answers.md`` that is
    one, refuses the whole submission (:class:`SubmissionError` naming them).
    """
    path = Path(path)
    if not path.exists():
        raise SubmissionError(f"{path} does not exist; pass a submission folder, a .py file or an .ipynb notebook")
    if path.is_dir():
        try:
            untrusted.refuse_unsafe(path, JUNK_DIRS)
        except untrusted.UnsafeFile as exc:
            raise SubmissionError(str(exc)) from None
        sources = {name: _read(path / f"{name}.py", path) for name in MODULES.values()
                   if untrusted.lstat_kind(path / f"{name}.py") != "missing"}
        if not sources:
            expected = ", ".join(f"{n}.py" for n in MODULES.values())
            raise SubmissionError(f"{path} holds none of the exercise files ({expected}); "
                                  "pass the folder that contains them, or a single .py or .ipynb file")
        return Submission(path, "folder", sources, answers_beside(path))
    if path.suffix == ".py":
        source = _read(path)
        return Submission(path, "py", {name: source for name in MODULES.values()}, answers_beside(path.parent))
    if path.suffix == ".ipynb":
        source = notebook_source(path)
        answers = notebook_answers(path)
        return Submission(path, "ipynb", {name: source for name in MODULES.values()},
                          answers if answers is not None else answers_beside(path.parent))
    raise SubmissionError(f"{path} is neither a folder, a .py file nor an .ipynb notebook")
