"""Entry point of the sandboxed child: ``main([task, submission_dir, inputs, out_dir, ...])``.

Order matters: everything the harness needs is imported and bound first; then
the grader's own packages are hidden (the submission cannot import them or
``reference``), and only then is student code imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from grader.exercises import ALL
from grader.harness import probes
from grader.harness.recorder import Recorder, flush_and_exit

#: Which student modules each task imports.
TASK_MODULES = {e.id: e.modules for e in ALL}
_HIDDEN = ("grader", "reference", "tests", "benchmarks")
#: JAX settings read from the environment when jax is imported: (variable, config name, type).
_JAX_ENVIRONMENT = (
    ("JAX_COMPILATION_CACHE_DIR", "jax_compilation_cache_dir", str),
    ("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "jax_persistent_cache_min_compile_time_secs", float),
    ("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "jax_persistent_cache_min_entry_size_bytes", int),
    ("JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES", "jax_persistent_cache_enable_xla_caches", str),
)


def apply_jax_environment() -> None:
    """Apply the run's JAX settings, for a child forked from a process that imported jax before they were set."""
    import os

    import jax

    for variable, name, kind in _JAX_ENVIRONMENT:
        if variable in os.environ:
            jax.config.update(name, kind(os.environ[variable]))


class _ImportGuard(importlib.abc.MetaPathFinder):
    """Refuse imports of the grader, the reference solutions and the test suite."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname.split(".")[0] in _HIDDEN:
            raise ImportError(
                f"a submission may not import {fullname!r}: only jax, jax.numpy, optax, numpy "
                "and the standard library are allowed"
            )
        return None


def load_inputs(path: Path) -> dict[str, Any]:
    """Rebuild the nested input dict from the flat ``a/b/c`` keys of the npz."""
    tree: dict[str, Any] = {}
    with np.load(path, allow_pickle=False) as npz:
        for flat_key in npz.files:
            node = tree
            *parents, leaf = flat_key.split("/")
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = npz[flat_key]
    return tree


def _import_student(name: str, submission_dir: Path) -> ModuleType:
    path = submission_dir / f"{name}.py"
    if not path.exists():
        raise FileNotFoundError(f"the submission has no {name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> None:
    task, submission_dir, inputs_path, out_dir = argv[0], Path(argv[1]), Path(argv[2]), Path(argv[3])
    options = argv[4:]
    probe = probes.PROBES[task]
    inputs = load_inputs(inputs_path)
    if task in probes.PREPARE:
        probes.PREPARE[task](inputs, options)
    recorder = Recorder(submission_dir)

    package_parent = sys.path.pop(0)  # put there by the sandbox's bootstrap
    sys.path[:] = [str(submission_dir)] + [p for p in sys.path if p and p != package_parent]
    for name in [m for m in sys.modules if m.split(".")[0] in _HIDDEN]:
        del sys.modules[name]
    sys.meta_path.insert(0, _ImportGuard())
    sys.dont_write_bytecode = True
    sys.argv[:] = [sys.argv[0]]  # the submission has no business knowing where results go

    modules: dict[str, ModuleType] = {}
    for name in TASK_MODULES[task]:
        try:
            modules[name] = _import_student(name, submission_dir)
        except BaseException as exc:  # noqa: BLE001 - the submission failed to import
            recorder.import_error = {"module": name, **recorder.describe(exc)}
            break
    else:
        probe(recorder, modules, inputs, options)
    recorder.write(out_dir)
    flush_and_exit(0)
