"""Shared fixtures: where things are, and a fast way to grade a corpus submission."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import pytest

from grader.harness.child import add_xla_flags
from grader.harness.xla_options import AS_EAGER

# Probes that run in this process compile as a child's do (set before JAX starts its backend; once, though xdist's
# workers import this file after the process that starts them has).
add_xla_flags(AS_EAGER)

from grader.engine import Options, grade  # noqa: E402
from grader.results import Report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "reference"
EXERCISES_DIR = ROOT / "exercises"
CORPUS = Path(__file__).resolve().parent / "corpus"
SHARED = ROOT.parent / "shared"


def pytest_collection_modifyitems(config, items):
    """The end-to-end tests first (a stable sort): the longest start while the short ones fill the cores."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is None)


def run_folder(tmp_path_factory) -> Path:
    """The temporary folder of the whole run: every xdist worker's base folder sits in it."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One reference cache for the whole run, shared by xdist workers (writes are atomic)."""
    path = run_folder(tmp_path_factory) / "grader-cache"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def grade_with(cache_dir):
    """``grade_with(path, only=("ex1",), **options) -> Report`` using the session's cache."""

    def run(path, only=None, on_run=None, **kwargs) -> Report:
        options = Options(only=tuple(only) if only else Options.only, cache_dir=cache_dir, **kwargs)
        return grade(path, options, on_run=on_run)

    return run


@pytest.fixture(scope="session")
def compilation_cache(tmp_path_factory):
    """JAX's persistent compilation cache for probes run in the test process, started from the sealed one.

    Without it, eager JAX in this process compiles every operation of every probe afresh (ex2 alone took
    25 s); the children of a real grade start from such a cache too.
    """
    import jax

    from grader.expected import sealed

    try:
        from jax._src.compilation_cache import reset_cache  # JAX sets its cache up once per process
    except ImportError:
        def reset_cache():
            pass

    from grader.harness.child import share_ir_context

    gc.freeze()  # pytest's, jax's and the grader's objects: each probe's collections then walk its own only
    share_ir_context()  # as a child does: one MLIR context lowers every operation
    folder = tmp_path_factory.mktemp("xla")
    for part in (sealed.SHIPPED / sealed.COMPILATION_CACHE).iterdir():  # a folder per task: here, all in one
        if part.is_dir():
            shutil.copytree(part, folder, dirs_exist_ok=True)
    settings = {"jax_compilation_cache_dir": str(folder), "jax_persistent_cache_min_compile_time_secs": 0.0,
                "jax_persistent_cache_min_entry_size_bytes": 0, "jax_persistent_cache_enable_xla_caches": "none"}
    before = {name: jax.config.values[name] for name in settings}
    for name, value in settings.items():
        jax.config.update(name, value)
    reset_cache()  # a cache set up (or found absent) by earlier tests in this process
    yield folder
    for name, value in before.items():
        jax.config.update(name, value)
    reset_cache()


_observing = threading.Lock()


def observe_here(task, submission_dir, inputs_path, workdir, limits=None, extra_args=(), compilation_cache=None):
    """A runner for :func:`grader.engine.grade` that observes ``task`` in this process, as a child would.

    For the trusted corpus only (correct variants and mutants, which touch no global state): the probe runs
    in this process on the submission's modules, imported under their own names, and the observations go
    through the same files a child writes, so everything after the child (judging, hints, reproductions, the
    report) is the grader's own. Cheap: JAX's operations stay compiled from one test to the next. Use the
    ``compilation_cache`` fixture with it. What a real child adds (confinement, limits, crashes, the fork
    server) has its own tests; ``tests/test_corpus.py`` checks that both give the same grades.
    """
    from grader.exercises import BY_ID
    from grader.harness import compiled, probes
    from grader.harness.child import load_inputs, observe
    from grader.harness.recorder import Recorder
    from grader.observations import RunResult, read_observations

    start = time.monotonic()
    submission_dir = Path(submission_dir)
    with _observing:
        inputs = load_inputs(inputs_path, task)
        if task in probes.PREPARE:
            probes.PREPARE[task](inputs, list(extra_args))
        recorder = Recorder(submission_dir)
        sys.path.insert(0, str(submission_dir))
        try:
            observe(task, submission_dir, inputs, list(extra_args), recorder)
        finally:
            sys.path.remove(str(submission_dir))
            for name in BY_ID[task].modules:
                sys.modules.pop(name, None)
            compiled.forget()  # a child's programs die with it
        out = Path(workdir) / "observed"
        out.mkdir(parents=True)
        recorder.write(out)
        return RunResult("ok", read_observations(out), time.monotonic() - start)


@pytest.fixture(scope="session")
def judge_with(cache_dir, compilation_cache):
    """``judge_with(path, only=("ex1",), **options) -> Report``: :func:`grade_with`, but the submission is observed
    in this process by :func:`observe_here` (trusted corpus code only)."""

    def run(path, only=None, **kwargs) -> Report:
        options = Options(only=tuple(only) if only else Options.only, cache_dir=cache_dir, **kwargs)
        return grade(path, options, runner=observe_here)

    return run


def submission_with(tmp_path: Path, overrides: dict[str, Path | str]) -> Path:
    """A submission folder: the reference files, with some modules replaced.

    ``overrides`` maps a module name (``ex1_dropout``) to a file to copy or to
    source text.
    """
    folder = tmp_path / "submission"
    folder.mkdir()
    for path in REFERENCE.glob("ex*.py"):
        shutil.copy(path, folder / path.name)
    for module, replacement in overrides.items():
        target = folder / f"{module}.py"
        if isinstance(replacement, Path):
            shutil.copy(replacement, target)
        else:
            target.write_text(replacement)
    return folder


def by_id(report: Report) -> dict:
    return {c.id: c for c in report.checks}


def alive_under(folder: Path) -> list[int]:
    """Processes whose working folder is inside ``folder``, wherever they were reparented."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = Path(os.readlink(entry / "cwd"))
            except OSError:
                continue
            if folder == cwd or folder in cwd.parents:
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def once_per_run(tmp_path_factory, name: str):
    """``with once_per_run(factory, "wheel") as folder:`` a folder that every xdist worker of the run shares,
    held by one worker at a time: the first builds what it holds, the others find it built. On Windows, which
    has no flock, each worker gets a folder of its own."""
    shared = run_folder(tmp_path_factory)
    try:
        import fcntl
    except ImportError:
        yield tmp_path_factory.mktemp(name)
        return
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        (shared / name).mkdir(exist_ok=True)
        yield shared / name


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The package's wheel, built once per run: a build writes into the checkout (``build/``, ``*.egg-info``),
    and two at once break each other."""
    with once_per_run(tmp_path_factory, "wheel") as out:
        if not list(out.glob("jax_autograder-*.whl")):
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                           check=True, capture_output=True)
    (path,) = out.glob("jax_autograder-*.whl")
    return path


@pytest.fixture(scope="session")
def installed_grader(wheel, tmp_path_factory) -> tuple[Path, Path]:
    """``(python, site-packages)`` of a fresh venv with the wheel installed (once per session).

    The venv sees the test venv's libraries (jax, optax, matplotlib...) through a plain path, not its
    editable grader.
    """
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "test-venv-libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True)
    return python, site
