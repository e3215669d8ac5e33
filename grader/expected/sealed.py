"""Sealed reference observations: what the checks compare with, kept without the reference code.

A sealed reference is a folder: one sub-folder per task (``ex1`` .. ``ex5``)
holding the reference run's observations (the files children write, see
:mod:`grader.observations`), and
``manifest.json`` saying how they were made: the grader's version, the jax,
jaxlib, optax and numpy versions, the platform, and which inputs (public, or a
seed). The manifest also holds digests of the inputs and of the probes that
made the observations, so a grader can tell whether they still apply.

The package ships one for the public inputs (``grader/_sealed/``), so an
installed grader judges without the solutions on the machine. This module
only reads and writes the format; :mod:`grader.expected.sealing` makes one from
the reference code (``python -m grader seal``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from grader.observations import ARRAYS, INDEX, Observations, read_observations
from grader.exercises import BY_ID, CHILD_FILES, REFERENCED, WARMED

MANIFEST = "manifest.json"
FORMAT = 1
SHIPPED = Path(__file__).resolve().parents[1] / "_sealed"
"""The sealed reference for the public inputs that ships inside the package."""
LIBRARIES = ("jax", "jaxlib", "optax", "numpy")
#: JAX's compilation cache as the reference runs left it: a student run reads it in place (and writes nothing
#: there), so its eager operations load compiled programs instead of compiling each one. Entries made for another CPU,
#: jaxlib or XLA version are refused by JAX and compiled afresh, so it speeds up and never changes a grade.
COMPILATION_CACHE = "xla"
#: Inside :data:`COMPILATION_CACHE`: which entries were compiled on which CPU, ``{cpu: {task: [file names]}}``.
#: JAX keys every entry by the CPU it was compiled for (XLA's topology fingerprint); runs on an x86-64 CPU with AVX2
#: (all but the training's) compile for AVX2 and key theirs ``portable-<system>-x86_64-avx2`` instead
#: (:func:`grader.harness.xla_options.portable`), which every such CPU loads. The entries of several kinds of CPU
#: sit side by side and each machine loads its own: a seal replaces its own kind's entries and keeps the others'
#: while the jax and jaxlib versions are the same.
CPUS = "cpus.json"
_PACKAGE = Path(__file__).resolve().parents[1]


class SealedError(RuntimeError):
    """A sealed reference that cannot be used here; the message says why and what to do."""


def library_versions() -> dict[str, str]:
    """The running versions of the libraries whose numerics the observations depend on."""
    versions = {}
    for dist in LIBRARIES:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = "not installed"
    return versions


def grader_version() -> str:
    try:
        return importlib.metadata.version("jax-autograder")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def platform_name() -> str:
    return f"{platform.system()}-{platform.machine()}"


def compile_options() -> dict[str, list[str]]:
    """The XLA options the runs of each task a seal compiles for are given here: ``$XLA_FLAGS``'s, then the
    grader's own (:mod:`grader.harness.xla_options`)."""
    from grader.harness import xla_options as options

    given = os.environ.get("XLA_FLAGS", "")
    return {task: options.added(given, options.for_exercise(task)).split() for task in (*REFERENCED, *WARMED)}


def probes_digest() -> str:
    """Hash of the code that makes observations: the child harness, the exercises' child side, ``protocol.py``,
    ``observations.py`` (which writes them) and ``data.py`` (which loads the images the probes train and test on)."""
    digest = hashlib.sha256()
    child_side = [_PACKAGE / name for name in CHILD_FILES]
    for path in sorted([*(_PACKAGE / "harness").rglob("*.py"), *child_side]) + [
            _PACKAGE / name for name in ("protocol.py", "observations.py", "data.py")]:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@dataclass(frozen=True)
class Manifest:
    """How a sealed reference was made (``manifest.json``)."""

    tasks: tuple[str, ...]
    seed: int | None
    """The inputs' seed; ``None`` for the public inputs."""
    inputs_digest: str
    """sha256 of the inputs ``.npz`` the reference was run on."""
    probes_digest: str
    """:func:`probes_digest` of the grader that made it."""
    reference_digest: str
    """sha256 over the reference code's files, to tell whether the sealed observations are current."""
    grader: str = field(default_factory=grader_version)
    versions: dict[str, str] = field(default_factory=library_versions)
    platform: str = field(default_factory=platform_name)
    format: int = FORMAT
    xla_options: dict[str, list[str]] = field(default_factory=compile_options)
    """The XLA options each task's runs compiled with, part of every compiled program's key: another CPU's
    programs are kept by the next seal only while they are the same (empty in a seal made before they were
    recorded)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["tasks"] = list(self.tasks)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a sealed reference manifest of format {FORMAT}")
        seed = data["seed"]
        return cls(tasks=tuple(str(t) for t in data["tasks"]), seed=None if seed is None else int(seed),
                   inputs_digest=str(data["inputs_digest"]), probes_digest=str(data["probes_digest"]),
                   reference_digest=str(data["reference_digest"]), grader=str(data["grader"]),
                   versions={str(k): str(v) for k, v in dict(data["versions"]).items()},
                   platform=str(data["platform"]),
                   xla_options={str(task): [str(o) for o in options]
                                for task, options in dict(data.get("xla_options", {})).items()})

    def describe(self) -> dict[str, Any]:
        """What a report says about it (never the seed's value)."""
        return {"kind": "sealed", "grader": self.grader, "versions": dict(self.versions), "platform": self.platform}


def is_sealed(folder: Path) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def compilation_cache(folder: Path) -> Path | None:
    """The sealed reference's JAX compilation caches, a folder per task (copy one before use), if it ships them."""
    path = Path(folder) / COMPILATION_CACHE
    return path if path.is_dir() else None


def task_compilation_cache(compilation_cache: Path | None, task: str) -> Path | None:
    """The part of ``compilation_cache`` that ``task``'s reference run filled, if there is one.

    Each task's run keeps its own folder: a student's run then reads, in place, only what its exercise
    compiles, and may read nothing of the other exercises'.
    """
    folder = compilation_cache / task if compilation_cache is not None else None
    return folder if folder is not None and folder.is_dir() else None


def read_manifest(folder: Path) -> Manifest:
    try:
        return Manifest.from_json(json.loads((Path(folder) / MANIFEST).read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SealedError(f"{Path(folder) / MANIFEST} is not a readable sealed-reference manifest ({exc}); "
                          "make it again with `python -m grader seal OUT`") from exc


def read(folder: Path, tasks: list[str]) -> dict[str, Observations]:
    """The sealed observations of ``tasks``."""
    try:
        return {t: read_observations(Path(folder) / t) for t in tasks}
    except (OSError, ValueError, KeyError) as exc:
        raise SealedError(f"the sealed reference in {folder} is incomplete or unreadable ({exc}); "
                          "make it again with `python -m grader seal OUT`") from exc


def version_differences(manifest: Manifest) -> list[str]:
    """``["jax 0.10.2 (sealed) / 0.10.3 (here)", ...]`` for every library and the grader that differ."""
    running = {"jax-autograder": grader_version(), **library_versions()}
    sealed = {"jax-autograder": manifest.grader, **manifest.versions}
    return [f"{name} {sealed.get(name, '?')} (sealed) / {version} (here)"
            for name, version in running.items() if sealed.get(name) != version]


def mismatch(manifest: Manifest, inputs_path: Path, seed: int | None, tasks: list[str]) -> str | None:
    """Why ``manifest``'s observations do not apply to this grade, or ``None`` when they do."""
    if manifest.seed != seed:
        made_for = "the public inputs" if manifest.seed is None else "a secret seed"
        wanted = "the public inputs" if seed is None else "a secret seed" if manifest.seed is None else "another seed"
        return f"it was sealed for {made_for}, and this grade uses {wanted}"
    missing = [t for t in tasks if t not in manifest.tasks]
    if missing:
        return f"it holds no observations for {', '.join(missing)}"
    if manifest.probes_digest != probes_digest():
        return f"it was made by another version of the grader's probes (jax-autograder {manifest.grader})"
    if manifest.inputs_digest != file_digest(inputs_path):
        return f"it was made on other inputs (by jax-autograder {manifest.grader})"
    return None


def write(out: Path, results: Path, manifest: Manifest, compilation_cache: Path | None = None,
          cpu: str | Mapping[str, str] = "unknown") -> None:
    """Seal the per-task results under ``results`` into ``out`` (replaced), manifest last.

    Machine-dependent observations are left out; arrays are stored compressed
    and only those the index refers to. ``compilation_cache`` (the reference runs' JAX caches, a folder
    per task, compiled on this machine, whose CPU is ``cpu``: one name, or each task's, as its runs key their
    programs) is copied beside them, to speed up the students' runs, with the entries that the seal ``out``
    replaces holds for other CPUs (see :data:`CPUS`). An entry
    whose key that seal already holds keeps its bytes (compiling again gives the same program, not always the
    same bytes), so sealing again changes only what changed.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cpu_of = {task: cpu if isinstance(cpu, str) else cpu[task] for task in _compiled_tasks(manifest)}
    others = {other: parts for other, parts in _compiled_elsewhere(out, manifest).items()
              if other not in cpu_of.values()}
    cpus: dict[str, dict[str, list[str]]] = {}
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-"))
    try:
        for task in manifest.tasks:
            _seal_task(results / task, staging / task, BY_ID[task].machine_dependent)
        for task in _compiled_tasks(manifest):
            dest = staging / COMPILATION_CACHE / task
            part = task_compilation_cache(compilation_cache, task)  # each task's part; nothing else
            if part is not None:
                shutil.copytree(part, dest)
                for entry in dest.iterdir():  # one key, one computation: keep the bytes already sealed under it
                    before = out / COMPILATION_CACHE / task / entry.name
                    if before.is_file():
                        shutil.copy2(before, entry)
                cpus.setdefault(cpu_of[task], {})[task] = sorted(p.name for p in dest.iterdir())
            for other, parts in others.items():
                kept = [name for name in parts.get(task, ())  # what this seal compiled is listed as its own
                        if (out / COMPILATION_CACHE / task / name).is_file() and not (dest / name).exists()]
                if kept:
                    dest.mkdir(parents=True, exist_ok=True)
                    for name in kept:
                        shutil.copy2(out / COMPILATION_CACHE / task / name, dest / name)
                    cpus.setdefault(other, {})[task] = kept
        if cpus:
            (staging / COMPILATION_CACHE / CPUS).write_text(json.dumps(cpus, indent=1, sort_keys=True) + "\n")
        (staging / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=2, sort_keys=True) + "\n")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _compiled_elsewhere(out: Path, manifest: Manifest) -> dict[str, dict[str, list[str]]]:
    """The compilation entries per CPU that the seal in ``out`` holds and that still load with ``manifest``'s
    jax, jaxlib and XLA options (none when there is no seal there, or its versions differ; none of a task whose
    runs compiled with other options, or with options the seal does not record). Names that are not plain file
    names are dropped: the listing says what to copy, never where."""
    try:
        before = read_manifest(out)
        listing = json.loads((out / COMPILATION_CACHE / CPUS).read_text())
    except (SealedError, OSError, ValueError):
        return {}
    if any(before.versions.get(lib) != manifest.versions.get(lib) for lib in ("jax", "jaxlib")) \
            or not isinstance(listing, dict):
        return {}
    same_options = [task for task in _compiled_tasks(manifest)
                    if task in before.xla_options and before.xla_options[task] == manifest.xla_options.get(task)]
    return {str(cpu): {task: [n for n in names if isinstance(n, str) and n == Path(n).name and n not in (".", "..")]
                       for task, names in parts.items() if task in same_options and isinstance(names, list)}
            for cpu, parts in listing.items() if isinstance(parts, dict)}


def _compiled_tasks(manifest: Manifest) -> tuple[str, ...]:
    """The tasks whose reference runs' compilation caches a seal holds: those it observed, and the warmed ones."""
    return (*manifest.tasks, *(t for t in WARMED if t not in manifest.tasks))


def _seal_task(source: Path, dest: Path, dropped: tuple[str, ...]) -> None:
    dest.mkdir(parents=True)
    index = json.loads((source / INDEX).read_text())
    values = {name: entry for name, entry in index["values"].items() if name not in dropped}
    keys = []
    for entry in values.values():
        keys += [entry["key"]] if entry["kind"] == "array" else list(entry.get("keys", {}).values())
    with np.load(source / ARRAYS, allow_pickle=False) as npz:
        arrays = {key: npz[key] for key in sorted(set(keys))}
    np.savez_compressed(dest / ARRAYS, **arrays)
    (dest / INDEX).write_text(json.dumps({**index, "values": values}, sort_keys=True))
