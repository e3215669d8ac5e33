"""The stubs a student starts from: ``python -m grader init DIR``.

It writes the exercise stubs and ``answers.md`` for a student whose grader was
installed from the package. (The other half of a release, the sealed reference
observations, is :mod:`grader.expected.sealing`.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

from grader.exercises import MODULES

STUB_FILES = (*(f"{m}.py" for m in MODULES.values()), "answers.md")
_PACKAGE = Path(__file__).resolve().parent
#: Where the stubs are: inside an installed package (copied there from exercises/ when the wheel is built),
#: else the checkout's exercises/ (an editable install).
STUB_FOLDERS = (_PACKAGE / "_stubs", _PACKAGE.parent / "exercises")


class InitError(RuntimeError):
    """``init`` cannot do what was asked; the message says why and what to do."""


def stub_folder() -> Path:
    """The folder holding the five stubs and ``answers.md``."""
    for folder in STUB_FOLDERS:
        if all((folder / name).is_file() for name in STUB_FILES):
            return folder
    raise InitError("the exercise stubs are not in this installation of jax-autograder; reinstall it")


def init(dest: Path, force: bool = False) -> list[Path]:
    """Write the stubs and ``answers.md`` into ``dest`` (created); never overwrite unless ``force``."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise InitError(f"{dest} is a file; give a folder to write the exercises into")
    source = stub_folder()
    existing = [name for name in STUB_FILES if (dest / name).exists()]
    if existing and not force:
        raise InitError(f"{dest} already holds {', '.join(existing)}; nothing was written. Choose another "
                           "folder, or pass --force to replace them with fresh stubs")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name in STUB_FILES:
        shutil.copyfile(source / name, dest / name)
        written.append(dest / name)
    return written

