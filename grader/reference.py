"""Observations of the reference solutions, computed once and cached on disk.

The reference runs through the same sandbox and probes as a student, one task
per child, and its results are kept under the user cache folder, keyed by
everything that could change them (reference code, probes, inputs, library
versions). Beside them sits the JAX compilation cache those runs filled; each
student run gets a private copy, so compiling the same operations is a file
read and no submission can tamper with what another one reads.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import tempfile
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from grader.exercises import ALL
from grader.sandbox import Limits, Observations, read_observations, run_task
from grader.submission import MODULES

TASKS = tuple(e.id for e in ALL if e.reference)  # the accuracy threshold is calibrated offline
_REPO_REFERENCE = Path(__file__).resolve().parent.parent / "reference"
_FILES = ("observations.json", "observations.npz")


class ReferenceRunError(RuntimeError):
    """The reference solutions are missing or failed; the grader cannot judge."""


@dataclass(frozen=True)
class Reference:
    observations: dict[str, Observations]
    compilation_cache: Path
    """JAX compilation cache filled by the reference runs (copy it before use)."""
    digest: str = ""
    """Hash of the cached observations used, so a batch can tell if they changed under it."""


def _digest(root: Path, tasks: Iterable[str]) -> str:
    """Hash of the tasks' cached observations (not of the compilation cache, which grows legitimately).

    The same set of tasks gives the same digest in any order: a batch pins it for ``--only`` in the
    user's order, and each grade checks it in the engine's order.
    """
    digest = hashlib.sha256()
    for folder in (root / t for t in sorted(set(tasks))):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def find_reference(explicit: Path | None = None) -> Path:
    """``--reference``, then ``$JAX_GRADER_REFERENCE``, then the checkout's ``reference/``."""
    for candidate in (explicit, os.environ.get("JAX_GRADER_REFERENCE"), _REPO_REFERENCE):
        if candidate and all((Path(candidate) / f"{m}.py").is_file() for m in MODULES.values()):
            return Path(candidate)
    raise ReferenceRunError(
        "cannot find the reference solutions (the five exercise files) to compare against. Pass "
        "--reference DIR, set JAX_GRADER_REFERENCE, or run the grader from a checkout that has reference/."
    )


def default_cache_dir() -> Path:
    base = os.environ.get("JAX_GRADER_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "jax-autograder")
    return Path(base)


def cache_key(reference_dir: Path, inputs_path: Path) -> str:
    digest = hashlib.sha256()
    for name in sorted(MODULES.values()):
        digest.update((reference_dir / f"{name}.py").read_bytes())
    digest.update(inputs_path.read_bytes())
    package = Path(__file__).resolve().parent
    for path in sorted((package / "harness").rglob("*.py")) + [package / "protocol.py"]:
        digest.update(path.read_bytes())
    for dist in ("jax", "jaxlib", "optax", "numpy"):
        try:
            digest.update(importlib.metadata.version(dist).encode())
        except importlib.metadata.PackageNotFoundError:
            pass
    return digest.hexdigest()[:24]


def cache_folder(source: Path, inputs_path: Path, cache_dir: Path | None = None) -> Path:
    """Where the observations of ``source`` on these inputs are cached."""
    return (cache_dir or default_cache_dir()) / f"reference-{cache_key(source, inputs_path)}"


def load_reference(tasks: tuple[str, ...], inputs_path: Path, workdir: Path, pool: Executor, *,
                   reference_dir: Path | None = None, cache_dir: Path | None = None, use_cache: bool = True,
                   limits: Limits = Limits(), expected_digest: str | None = None) -> Reference:
    """Reference observations for ``tasks``, running (in ``pool``) whatever the cache lacks.

    With ``expected_digest`` (a batch passes the digest it saw before any
    submission ran), cached files that changed since are refused: a submission
    must not be able to change what later ones are judged against.
    """
    source = find_reference(reference_dir)
    if use_cache:
        root = cache_folder(source, inputs_path, cache_dir)
    else:  # private, outside the scratch folder that submissions' children can see
        root = Path(tempfile.mkdtemp(prefix="jax-grader-reference-"))
    wanted = [t for t in tasks if t in TASKS]
    todo = [t for t in wanted if not all((root / t / f).is_file() for f in _FILES)]
    xla = root / "xla"
    try:
        xla.mkdir(parents=True, exist_ok=True)
    except OSError:  # an unwritable cache folder: run everything fresh in the scratch folder
        root = Path(tempfile.mkdtemp(prefix="jax-grader-reference-"))
        todo, xla = wanted, root / "xla"
        xla.mkdir(parents=True, exist_ok=True)
    slow = replace(limits, timeout=max(limits.timeout, 300.0))
    # Results go to private folders outside the scratch folder the submission's children can see.
    results = {t: Path(tempfile.mkdtemp(prefix=f"jax-grader-ref-{t}-")) for t in todo}
    futures = {t: pool.submit(run_task, t, source, inputs_path, workdir / f"reference-{t}", slow, (), xla, results[t])
               for t in todo}
    try:
        for task, future in futures.items():
            result = future.result()
            obs = result.observations
            if result.status != "ok" or obs.import_error or obs.errors:
                problem = obs.import_error or next(iter(obs.errors.items()), None) or result.detail
                raise ReferenceRunError(f"the reference solution of {task} failed ({result.status}: {problem}); "
                                        f"the grader cannot judge without it. Its stderr ends: {result.stderr[-1500:]}")
            _store(results[task], root / task)
    finally:
        for folder in results.values():
            shutil.rmtree(folder, ignore_errors=True)
    digest = _digest(root, wanted)
    if expected_digest is not None and digest != expected_digest:
        raise ReferenceRunError(f"the cached reference results in {root} changed since grading started (a "
                                "submission may have written there); delete the folder and grade again")
    try:
        return Reference({t: read_observations(root / t) for t in wanted}, xla, digest)
    except (OSError, ValueError, KeyError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise ReferenceRunError(f"the cached reference results in {root} are unreadable ({exc}); "
                             "they were removed, grade again") from exc


def _store(out: Path, dest: Path) -> None:
    """Move a run's results into the cache atomically (concurrent graders may race)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists() and not all((dest / f).is_file() for f in _FILES):
        shutil.rmtree(dest, ignore_errors=True)  # left half-written by an interrupted grader
    staging = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".staging-"))
    for name in _FILES:
        shutil.copy2(out / name, staging / name)
    try:
        staging.rename(dest)
    except OSError:  # another grader stored it first
        shutil.rmtree(staging, ignore_errors=True)
