"""Observations of the reference solutions, computed once and cached on disk, or read sealed.

The reference runs through the same sandbox and probes as a student, one task
per child, and its results are kept under the user cache folder, keyed by
everything that could change them (reference code, probes, inputs, library
versions). Beside them sits the JAX compilation cache those runs filled; each
student run reads its exercise's part in place, so compiling the same
operations is a file read. A student run writes nothing there (JAX in it keeps
nothing it compiles, and a confined child may only read the folder), so no
submission can tamper with what another one reads.

Without the reference code (an installed grader), the observations come from a
sealed reference (:mod:`grader.expected.sealed`): the one the package ships for the
public inputs, or a folder passed as ``--reference``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from grader.expected import sealed
from grader.results import RUN_ENDINGS
from grader.observations import FILES, Limits, Observations, RunResult, read_observations
from grader.sandbox import run_task
from grader.exercises import MODULES, REFERENCED, WARMED

_REPO_REFERENCE = Path(__file__).resolve().parents[2] / "reference"


class ReferenceRunError(RuntimeError):
    """The reference solutions are missing or failed; the grader cannot judge."""


@dataclass(frozen=True)
class Reference:
    observations: dict[str, Observations]
    compilation_cache: Path | None
    """JAX compilation caches filled by the reference runs, a folder per task (copy one before use); the ones
    sealed with them, if any. See :func:`~grader.expected.sealed.task_compilation_cache`."""
    digest: str = ""
    """Hash of the cached observations used, so a batch can tell if they changed under it."""
    root: Path | None = None
    """The folder holding the per-task observation files."""
    manifest: sealed.Manifest | None = None
    """How the observations were sealed; ``None`` when they come from the reference code."""
    notes: tuple[str, ...] = ()
    """What a reader of the report should know (versions that differ from the sealed ones...)."""

    def describe(self) -> dict:
        """The report's ``reference`` field."""
        return self.manifest.describe() if self.manifest else {"kind": "code"}


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


#: Reference observations this process has read, by the digest of their files (:func:`_digest`): a process that
#: grades submission after submission (a batch worker, ``--watch``, a notebook) reads and checks them once. The
#: last few digests only; files that change have another digest and are read again.
_READ: dict[str, dict[str, Observations]] = {}
_READ_KEPT = 2


def _read_once(digest: str, read: Callable[[], dict[str, Observations]]) -> dict[str, Observations]:
    """``read()``, or what it gave for ``digest`` before. Every grade gets its own dicts and lists around the same
    arrays, made read-only: nothing one grade's judging does reaches the next one's."""
    if digest not in _READ:
        observations = read()
        for obs in observations.values():
            _read_only(obs.values)
        while len(_READ) >= _READ_KEPT:
            _READ.pop(next(iter(_READ)))
        _READ[digest] = observations
    return {task: replace(obs, values=_fresh(obs.values), errors=dict(obs.errors))
            for task, obs in _READ[digest].items()}


def _read_only(value: object) -> None:
    """Every array in ``value`` (an observation: an array, a tree of them, or JSON) made read-only."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, dict):
        for item in value.values():
            _read_only(item)
    elif isinstance(value, list):
        for item in value:
            _read_only(item)


def _fresh(value: Any) -> Any:
    """``value``'s dicts and lists anew, its arrays and scalars as they are."""
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def _is_code(folder: Path) -> bool:
    return all((Path(folder) / f"{m}.py").is_file() for m in MODULES.values())


def find_code_reference(explicit: Path | None = None) -> Path | None:
    """The reference code: ``explicit``, then ``$JAX_GRADER_REFERENCE``, then the checkout's ``reference/``."""
    for candidate in (explicit, os.environ.get("JAX_GRADER_REFERENCE"), _REPO_REFERENCE):
        if candidate and _is_code(Path(candidate)):
            return Path(os.path.abspath(candidate))
    return None


def find_reference(explicit: Path | None = None) -> Path:
    """What to judge against: a folder of reference code or a sealed reference.

    ``--reference``, then ``$JAX_GRADER_REFERENCE`` (either kind), then the
    checkout's ``reference/``, then the sealed reference the package ships.
    """
    for candidate in (explicit, os.environ.get("JAX_GRADER_REFERENCE")):
        if candidate:
            # absolute, as every path handed to a run must be (runs work from other folders)
            if _is_code(Path(candidate)) or sealed.is_sealed(Path(candidate)):
                return Path(os.path.abspath(candidate))
            raise ReferenceRunError(
                f"{candidate} holds neither the reference solutions (the five exercise files) nor a sealed "
                "reference (manifest.json, made by `python -m grader seal`); pass a folder holding one of them")
    if _is_code(_REPO_REFERENCE):
        return _REPO_REFERENCE
    if sealed.is_sealed(sealed.SHIPPED):
        return sealed.SHIPPED
    raise ReferenceRunError(
        "cannot find the reference to compare against: neither reference solutions nor a sealed reference. "
        "Pass --reference DIR, set JAX_GRADER_REFERENCE, or reinstall jax-autograder (its package ships one)."
    )


def default_cache_dir() -> Path:
    base = os.environ.get("JAX_GRADER_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "jax-autograder")
    return Path(os.path.abspath(base))  # the runs' compilation cache lives here, and they work elsewhere


def code_digest(reference_dir: Path) -> str:
    """sha256 over the reference solutions' files."""
    digest = hashlib.sha256()
    for name in sorted(MODULES.values()):
        digest.update((reference_dir / f"{name}.py").read_bytes())
    return digest.hexdigest()


def cache_key(reference_dir: Path, inputs_path: Path) -> str:
    digest = hashlib.sha256()
    digest.update(code_digest(reference_dir).encode())
    digest.update(inputs_path.read_bytes())
    digest.update(sealed.probes_digest().encode())
    digest.update(json.dumps(sealed.library_versions(), sort_keys=True).encode())
    return digest.hexdigest()[:24]


def cache_folder(source: Path, inputs_path: Path, cache_dir: Path | None = None) -> Path:
    """Where the observations of ``source`` on these inputs are cached."""
    return (cache_dir or default_cache_dir()) / f"reference-{cache_key(source, inputs_path)}"


def _start_from_shipped(xla: Path) -> None:
    """A new compilation cache starts as a copy of the one the package ships with its sealed reference.

    The reference's children then load most of what they would compile (entries of another JAX version or
    machine simply never match, so only speed is at stake). The copy is made aside and renamed into place, so
    a process computing the same reference at the same time never reads a half-written entry.
    """
    shipped = sealed.compilation_cache(sealed.SHIPPED)
    if shipped is None or xla.exists():
        return
    staging = Path(tempfile.mkdtemp(prefix="xla-", dir=xla.parent))
    try:
        shutil.copytree(shipped, staging, dirs_exist_ok=True)
        staging.rename(xla)  # another process that got there first keeps its own
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)


#: The prefix of a grade's private reference folder (``--no-cache``, or a cache folder that cannot be written).
_PRIVATE = "jax-grader-reference-"
#: Beside a cached reference: ``<task>.compiled`` once the reference's run of a :data:`WARMED` task has filled
#: its part of the compilation cache.
_COMPILED = ".compiled"


def load_reference(tasks: tuple[str, ...], inputs_path: Path, workdir: Path, pool: Executor, *,
                   reference_dir: Path | None = None, cache_dir: Path | None = None, use_cache: bool = True,
                   limits: Limits = Limits(), expected_digest: str | None = None, seed: int | None = None,
                   start_from_shipped: bool = True, warm: bool = True,
                   start: Callable[[dict[str, Path | None]], None] | None = None) -> Reference:
    """Reference observations for ``tasks``, running (in ``pool``) whatever the cache lacks.

    With ``expected_digest`` (a batch passes the digest it saw before any
    submission ran), cached files that changed since are refused: a submission
    must not be able to change what later ones are judged against. A sealed
    reference is read as it is, unless it does not fit (other inputs, other
    probes, other library versions) and the reference code is at hand. Without
    ``start_from_shipped`` the runs compile everything themselves (sealing keeps what they compiled).

    The :data:`WARMED` tasks among ``tasks`` need no observations; with ``warm``, the reference runs them once
    for the compilation cache they fill. ``start`` is called once, before any reference run is waited for and
    before any observations are read, with the tasks whose runs can start at once: each with the compilation
    cache it starts from (``None`` for a warmed task whose part is not filled yet). A submission's run needs the
    reference's compiled programs, never its observations; a task whose reference must run first is left out.
    """
    begin = start or (lambda ready: None)
    source = find_reference(reference_dir)
    notes: tuple[str, ...] = ()
    if sealed.is_sealed(source):
        found, notes = _sealed_or_code(source, tasks, inputs_path, seed, expected_digest,
                                       lambda cache: begin({t: cache for t in tasks}))
        if isinstance(found, Reference):
            return found
        source = found
    if use_cache:
        root = cache_folder(source, inputs_path, cache_dir)
    else:  # private, outside the scratch folder that submissions' children can see
        root = Path(tempfile.mkdtemp(prefix=_PRIVATE))
    wanted = [t for t in tasks if t in REFERENCED]
    todo = [t for t in wanted if not all((root / t / f).is_file() for f in FILES)]
    xla = root / "xla"
    try:
        root.mkdir(parents=True, exist_ok=True)
        if start_from_shipped:
            _start_from_shipped(xla)
        xla.mkdir(exist_ok=True)
    except OSError:  # an unwritable cache folder: run everything fresh in the scratch folder
        root = Path(tempfile.mkdtemp(prefix=_PRIVATE))
        todo, xla, warm = wanted, root / "xla", False  # a cache that does not last is not worth warming
        if start_from_shipped:
            _start_from_shipped(xla)
        xla.mkdir(exist_ok=True)
    warming = [t for t in tasks if t in WARMED and warm and not (root / f"{t}{_COMPILED}").is_file()]
    begin({t: None if warming and t in WARMED else xla for t in tasks if t not in todo})
    slow = replace(limits, timeout=max(limits.timeout, 300.0))
    # Results go to private folders outside the scratch folder the submission's children can see.
    results = {t: Path(tempfile.mkdtemp(prefix=f"jax-grader-ref-{t}-")) for t in (*todo, *warming)}
    for t in results:
        (xla / t).mkdir(exist_ok=True)
    futures = {t: pool.submit(run_task, t, source, inputs_path, workdir / f"reference-{t}", slow, (), xla / t,
                              results[t]) for t in results}
    try:
        for task, future in futures.items():
            result = future.result()
            obs = result.observations
            if result.status != "ok" or obs.import_error or obs.errors:
                raise ReferenceRunError(_reference_failure(task, source, result))
            if task in warming:
                (root / f"{task}{_COMPILED}").touch()
            else:
                _store(results[task], root / task)
    except BaseException:
        if root.name.startswith(_PRIVATE):  # a private folder of this grade's: nobody else will use it
            shutil.rmtree(root, ignore_errors=True)
        raise
    finally:
        for folder in results.values():
            shutil.rmtree(folder, ignore_errors=True)
    digest = _digest(root, wanted)
    if expected_digest is not None and digest != expected_digest:
        raise ReferenceRunError(f"the cached reference results in {root} changed since grading started (a "
                                "submission may have written there); delete the folder and grade again")
    try:
        observations = _read_once(digest, lambda: {t: read_observations(root / t) for t in wanted})
        return Reference(observations, xla, digest, root, notes=notes)
    except (OSError, ValueError, KeyError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise ReferenceRunError(f"the cached reference results in {root} are unreadable ({exc}); "
                             "they were removed, grade again") from exc


def _reference_failure(task: str, source: Path, result: RunResult) -> str:
    """Why the reference run of ``task`` cannot be judged against, in words, with the error it raised."""
    obs = result.observations
    if obs.import_error is not None:
        problem = f"importing it raised {obs.import_error.summary()}"
        trace = obs.import_error.traceback
    elif obs.errors:
        name, error = next(iter(obs.errors.items()))
        problem, trace = f"observing {name} raised {error.summary()}", error.traceback
    else:
        problem = f"its run {RUN_ENDINGS[result.status]}: {result.detail}"
        trace = "" if result.status == "harness" else result.stderr.strip()[-1500:]  # a harness detail has it
    return (f"the reference solution of {task} (in {source}) failed, so the grader cannot judge without it; "
            f"{problem}" + (f"\n{trace.rstrip()}" if trace else ""))


def _sealed_or_code(source: Path, tasks: tuple[str, ...], inputs_path: Path, seed: int | None,
                    expected_digest: str | None,
                    fits: Callable[[Path | None], None]) -> tuple[Reference | Path, tuple[str, ...]]:
    """The sealed reference in ``source`` when it fits this grade, else the reference code to run (and why).
    ``fits`` is called with its compilation cache once it is known to fit, before its observations are read."""
    try:
        manifest = sealed.read_manifest(source)
    except sealed.SealedError as exc:
        raise ReferenceRunError(str(exc)) from exc
    wanted = [t for t in tasks if t in REFERENCED]
    unfit = sealed.mismatch(manifest, inputs_path, seed, wanted)
    differ = sealed.version_differences(manifest)
    code = find_code_reference()
    if code is not None and (unfit or differ):
        why = unfit or "its versions differ: " + "; ".join(differ)
        return code, (f"the sealed reference in {source} does not fit ({why}): recomputed from the reference "
                      f"code in {code}",)
    if unfit:
        secret = seed is not None or manifest.seed is not None
        raise ReferenceRunError(
            f"the sealed reference in {source} cannot judge this grade: {unfit}. "
            + ("Secret inputs need the reference code (--reference DIR with the five solution files) or a "
               "reference sealed for them (python -m grader seal --seed N OUT)." if secret else
               "Make it again with this grader (python -m grader seal OUT), or grade with the reference code "
               "(--reference DIR)."))
    digest = _digest(source, wanted)
    if expected_digest is not None and digest != expected_digest:
        raise ReferenceRunError(f"the sealed reference in {source} changed since grading started")
    notes = (f"graded against a sealed reference made with other versions ({'; '.join(differ)}); its "
             "observations are used as they are",) if differ else ()
    compilation_cache = sealed.compilation_cache(source)
    fits(compilation_cache)
    try:
        observations = _read_once(digest, lambda: sealed.read(source, wanted))
    except sealed.SealedError as exc:
        raise ReferenceRunError(str(exc)) from exc
    return Reference(observations, compilation_cache, digest, source, manifest, notes), ()


def _store(out: Path, dest: Path) -> None:
    """Move a run's results into the cache atomically (concurrent graders may race)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists() and not all((dest / f).is_file() for f in FILES):
        shutil.rmtree(dest, ignore_errors=True)  # left half-written by an interrupted grader
    staging = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".staging-"))
    for name in FILES:
        shutil.copy2(out / name, staging / name)
    try:
        staging.rename(dest)
    except OSError:  # another grader stored it first
        shutil.rmtree(staging, ignore_errors=True)
