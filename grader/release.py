"""What a student release needs: sealed reference observations (``seal``) and the stubs (``init``).

``python -m grader seal [--reference DIR] [--seed N] OUT`` runs the reference
code through the harness and seals its observations into OUT (see
:mod:`grader.sealed`); ``python -m grader init DIR`` writes the exercise stubs
and ``answers.md`` for a student whose grader was installed from the package.
The package's own sealed reference, ``grader/_sealed/``, is made with
``python -m grader seal grader/_sealed``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import inputs as grader_inputs
from grader import sealed
from grader.exercises import MODULES, REFERENCED
from grader.reference import code_digest, find_code_reference, load_reference
from grader.observations import Limits

STUB_FILES = (*(f"{m}.py" for m in MODULES.values()), "answers.md")
_PACKAGE = Path(__file__).resolve().parent
#: Where the stubs are: inside an installed package (copied there from exercises/ when the wheel is built),
#: else the checkout's exercises/ (an editable install).
STUB_FOLDERS = (_PACKAGE / "_stubs", _PACKAGE.parent / "exercises")


class ReleaseError(RuntimeError):
    """``seal`` or ``init`` cannot do what was asked; the message says why and what to do."""


def seal(out: Path, reference_dir: Path | None = None, seed: int | None = None, *, cache_dir: Path | None = None,
         use_cache: bool = True, limits: Limits = Limits(), jobs: int = 0) -> sealed.Manifest:
    """Run the reference code on the inputs (public, or drawn from ``seed``) and seal what it observed."""
    out = Path(out)
    code = find_code_reference(reference_dir)
    if code is None:
        where = f"{reference_dir} does not hold" if reference_dir else "cannot find"
        raise ReleaseError(f"seal {where} the reference solutions (the five exercise files): pass "
                           "--reference DIR, set JAX_GRADER_REFERENCE, or run it from a checkout with reference/")
    if out.exists() and not sealed.is_sealed(out) and (not out.is_dir() or any(out.iterdir())):
        raise ReleaseError(f"{out} exists and is not a sealed reference; seal into a new or empty folder")
    if out.resolve() == code.resolve():
        raise ReleaseError(f"{out} holds the reference code; seal into another folder")
    with tempfile.TemporaryDirectory(prefix="jax-grader-seal-") as tmp:
        inputs_path = grader_inputs.write(Path(tmp) / "inputs.npz", seed)
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            ref = load_reference(REFERENCED, inputs_path, Path(tmp), pool, reference_dir=code, cache_dir=cache_dir,
                                 use_cache=use_cache, limits=limits)
        manifest = sealed.Manifest(tasks=REFERENCED, seed=seed, inputs_digest=sealed.file_digest(inputs_path),
                                   probes_digest=sealed.probes_digest(), reference_digest=code_digest(code))
        try:
            sealed.write(out, ref.root, manifest, ref.compilation_cache)
        finally:
            if not use_cache and ref.root is not None:
                shutil.rmtree(ref.root, ignore_errors=True)
    return manifest


def stub_folder() -> Path:
    """The folder holding the five stubs and ``answers.md``."""
    for folder in STUB_FOLDERS:
        if all((folder / name).is_file() for name in STUB_FILES):
            return folder
    raise ReleaseError("the exercise stubs are not in this installation of jax-autograder; reinstall it")


def init(dest: Path, force: bool = False) -> list[Path]:
    """Write the stubs and ``answers.md`` into ``dest`` (created); never overwrite unless ``force``."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise ReleaseError(f"{dest} is a file; give a folder to write the exercises into")
    source = stub_folder()
    existing = [name for name in STUB_FILES if (dest / name).exists()]
    if existing and not force:
        raise ReleaseError(f"{dest} already holds {', '.join(existing)}; nothing was written. Choose another "
                           "folder, or pass --force to replace them with fresh stubs")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name in STUB_FILES:
        shutil.copyfile(source / name, dest / name)
        written.append(dest / name)
    return written

