"""Entry point of the sandboxed child: ``main([exercise, submission_dir, inputs, out_dir, ...])``.

Order matters: everything the harness needs is imported and bound first; then
the grader's own packages are hidden (the submission cannot import them or
``reference``), and only then is student code imported.
"""

from __future__ import annotations

import builtins
import dis
import gc
import importlib.abc
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from grader.exercises import BY_ID
from grader.harness import probes, xla_options
from grader.harness.recorder import Recorder, flush_and_exit
from grader.protocol import STUDENT_CODE_STARTS

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
    import jax

    known = getattr(jax.config, "values", {})
    for variable, name, kind in _JAX_ENVIRONMENT:
        # A setting this jax lacks (jax_persistent_cache_enable_xla_caches came in 0.4.36) only costs speed.
        if variable in os.environ and name in known:
            jax.config.update(name, kind(os.environ[variable]))


#: What student code may import (the contract's rule), besides the standard library and its own files.
#: matplotlib is allowed so that plotting code never costs points: the grader installs it, forces the
#: non-interactive backend (``MPLBACKEND=Agg``) and never looks at the figures.
ALLOWED_IMPORTS = frozenset({"jax", "jaxlib", "optax", "numpy", "matplotlib"})
NOT_ALLOWED = ("{where} may not import {name!r}: only jax (and jax.numpy), optax, numpy and the Python standard "
               "library are allowed (matplotlib too, for plots the grader ignores). Remove the import, or the code "
               "that needs it, and grade again.")
#: Frames of the import machinery itself, skipped to find the code that asked for an import.
_IMPORT_MACHINERY = (importlib.__file__, "<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")


class _ImportGuard(importlib.abc.MetaPathFinder):
    """Judge every import student code makes by the contract's rule, the same in a checkout and an installed wheel.

    Only imports asked for by the submission's own code (its files, or code it built with ``exec``) are
    judged: jax, optax and numpy import what they need themselves. The grader, the reference solutions
    and the test suite are refused to everyone.
    """

    def __init__(self, submission_dir: Path, own_modules: frozenset[str]) -> None:
        self._roots = tuple({os.path.abspath(submission_dir) + os.sep, str(submission_dir.resolve()) + os.sep})
        self._own = own_modules

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        """Modules not imported yet, however asked for (``import``, ``importlib.import_module``...)."""
        self.judge(fullname, sys._getframe(1))
        return None

    def install(self) -> None:
        """Also judge ``import`` statements of modules the harness already imported (jax's own dependencies,
        such as ml_dtypes or absl, are in ``sys.modules``, where ``find_spec`` is never asked)."""
        original = builtins.__import__

        def judged_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                          level: int = 0) -> ModuleType:
            if level == 0 and name:
                self.judge(name, sys._getframe(1))
            return original(name, globals, locals, fromlist, level)

        sys.meta_path.insert(0, self)
        builtins.__import__ = judged_import

    def judge(self, fullname: str, frame: Any) -> None:
        """Raise ``ImportError`` when the code of ``frame`` (or the code that asked the import machinery at
        ``frame``) is the submission's and ``fullname`` is outside the rule."""
        top = fullname.split(".")[0]
        if top in _HIDDEN:
            raise ImportError(NOT_ALLOWED.format(where=self._student_caller(frame) or "a submission",
                                                 name=fullname), name=fullname)
        if top in ALLOWED_IMPORTS or top in sys.stdlib_module_names or top in self._own:
            return
        where = self._student_caller(frame)
        if where is not None:
            raise ImportError(NOT_ALLOWED.format(where=where, name=fullname), name=fullname)

    def _student_caller(self, frame: Any) -> str | None:
        """The submission file asking for this import (``None`` when library code asks).

        Library code written in C (jaxlib's jit, numpy) imports with no Python frame of its own, so the
        nearest frame can be the submission's line that called the library: the submission asked only when
        that line is an import (``import x``, ``__import__("x")``, ``importlib.import_module("x")``).
        """
        while frame is not None and frame.f_code.co_filename in _IMPORT_MACHINERY:
            frame = frame.f_back
        if frame is None:
            return None
        filename = frame.f_code.co_filename
        if filename == "<string>":
            where = "code the submission runs with exec"
        elif filename.startswith(self._roots):
            where = Path(filename).name
        else:
            return None
        return where if _imports_here(frame) else None


#: Names whose call is an import (``__import__("x")``, ``importlib.import_module("x")``).
_IMPORT_CALLS = frozenset({"__import__", "import_module"})


def _imports_here(frame: Any) -> bool:
    """The instruction ``frame`` is at is an import: an import statement, or a call of an import function on
    that line. True when it cannot be told (the rule is then applied as written)."""
    try:
        instructions = list(dis.get_instructions(frame.f_code))
    except (TypeError, ValueError):
        return True
    at = next((i for i, ins in enumerate(instructions) if ins.offset == frame.f_lasti), None)
    if at is None:
        return True
    current = instructions[at]
    if current.opname == "IMPORT_NAME":
        return True
    if not current.opname.startswith("CALL"):
        return True
    line = frame.f_lineno
    start = at
    while start > 0 and (instructions[start - 1].positions.lineno or line) == line:
        start -= 1
    return any(ins.opname.startswith("LOAD") and ins.argval in _IMPORT_CALLS for ins in instructions[start:at])


def share_ir_context() -> None:
    """Lower every computation of this run in one MLIR context instead of a new one each time.

    Eager JAX lowers each operation at each new shape, and each lowering builds a context and loads every
    dialect into it (about 16 ms); that was a third of an exercise run. One context for the run's short
    life gives the same modules, so the same compilation-cache keys and results, for less CPU
    (``benchmarks/bench_child.py``). A JAX without this function is left as it is.
    """
    import functools

    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return
    make = getattr(mlir, "make_ir_context", None)
    if callable(make) and not hasattr(make, "cache_info"):
        mlir.make_ir_context = functools.lru_cache(maxsize=1)(make)


def share_across_cpus() -> None:
    """Key this run's compiled programs by :data:`grader.harness.xla_options.PORTABLE_CPU` instead of this CPU's own
    fingerprint, where the run compiles for it (``$XLA_FLAGS`` holds :data:`~grader.harness.xla_options.PORTABLE_ISA`,
    which :func:`set_compilation` puts there): programs any such CPU compiled then load here, those the package
    ships among them. Programs for other devices, and a JAX whose cache keys are made otherwise, are left as they
    are."""
    if xla_options.PORTABLE_ISA[0] not in os.environ.get("XLA_FLAGS", "").split():
        return
    try:
        from jax._src import cache_key
    except ImportError:
        return
    own = getattr(cache_key, "_hash_accelerator_config", None)
    if not callable(own) or getattr(own, "portable", False):
        return

    def portable(hash_obj: Any, devices: Any, *rest: Any) -> None:
        listed = list(getattr(devices, "flat", devices))
        if not listed or any(getattr(device, "platform", None) != "cpu" for device in listed):
            return own(hash_obj, devices, *rest)
        hash_obj.update(f"{xla_options.PORTABLE_CPU} x{len(listed)}".encode())

    portable.portable = True
    cache_key._hash_accelerator_config = portable


def make_shared_ir_context() -> None:
    """Build the run's one MLIR context now: in the fork server, so that every child inherits it built.

    Loading the dialects is about 60 ms of CPU in each run. It starts no thread and does not touch the
    backend (XLA's threads are what forbid forking a process that has used it); each child gets its own copy."""
    share_ir_context()
    try:
        from jax._src.interpreters import mlir

        mlir.make_ir_context()
    except Exception:  # noqa: BLE001 - a JAX whose internals differ builds its contexts in the child, as before
        pass


def load_inputs(path: Path, exercise: str | None = None) -> dict[str, Any]:
    """Rebuild the nested input dict from the flat ``a/b/c`` keys of the npz: all of it, or the parts ``exercise``'s
    run reads (its record's ``input_parts``)."""
    parts = BY_ID[exercise].input_parts if exercise is not None else None
    tree: dict[str, Any] = {}
    with np.load(path, allow_pickle=False) as npz:
        for flat_key in npz.files:
            if parts is not None and not any(flat_key == p or flat_key.startswith(p + "/") for p in parts):
                continue
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


def set_compilation(exercise: str) -> None:
    """Before JAX starts its backend: the exercise's XLA options (:func:`grader.harness.xla_options.for_exercise`),
    after any the environment gives. They are part of the compilation cache's keys, so the reference's cache is
    made with them too."""
    add_xla_flags(xla_options.for_exercise(exercise))


def add_xla_flags(flags: tuple[str, ...]) -> None:
    """Append to ``$XLA_FLAGS`` each of ``flags`` it does not hold yet (JAX reads it when its backend starts)."""
    os.environ["XLA_FLAGS"] = xla_options.added(os.environ.get("XLA_FLAGS", ""), flags)


def main(argv: list[str]) -> None:
    exercise, submission_dir, inputs_path, out_dir = argv[0], Path(argv[1]), Path(argv[2]), Path(argv[3])
    options = argv[4:]
    set_compilation(exercise)
    share_across_cpus()
    share_ir_context()
    inputs = load_inputs(inputs_path, exercise)
    if exercise in probes.PREPARE:
        probes.PREPARE[exercise](inputs, options)
    recorder = Recorder(submission_dir)

    # The folder holding the grader stays on the path (for an installed grader it is site-packages, where
    # jax finds what it imports lazily): what student code may import is the guard's to judge, by name.
    sys.path[:] = [str(submission_dir)] + [p for p in sys.path if p]
    for name in [m for m in sys.modules if m.split(".")[0] in _HIDDEN]:
        del sys.modules[name]
    own = frozenset(p.stem for p in submission_dir.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file())
    _ImportGuard(submission_dir, own).install()
    sys.dont_write_bytecode = True
    sys.argv[:] = [sys.argv[0]]  # the submission has no business knowing where results go

    gc.freeze()  # what is here now lives as long as the run: the collector need not walk it again and again
    os.write(1, STUDENT_CODE_STARTS.encode())  # from here on, a failure may be the submission's
    observe(exercise, submission_dir, inputs, options, recorder)
    recorder.write(out_dir)
    flush_and_exit(0)


def observe(exercise: str, submission_dir: Path, inputs: dict[str, Any], options: list[str],
            recorder: Recorder) -> None:
    """Import the exercise's modules from ``submission_dir`` and run its probe into ``recorder``; a module that
    fails to import is recorded as the run's import error, and the probe does not run."""
    modules: dict[str, ModuleType] = {}
    for name in BY_ID[exercise].modules:
        try:
            modules[name] = _import_student(name, submission_dir)
        except BaseException as exc:  # noqa: BLE001 - the submission failed to import
            recorder.import_error = {"module": name, **recorder.describe(exc)}
            return
    try:
        probes.PROBES[exercise](recorder, modules, inputs, options)
    except Exception as exc:  # noqa: BLE001 - the probe's own step failed: what it observed before stands
        recorder.stopped(exc)
