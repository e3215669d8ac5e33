"""Run one grading task on untrusted code in a child process, with limits.

The child is a fresh ``python -I`` interpreter in its own session (process
group), started in a scratch folder, with a wall-clock limit, an address-space
cap and a cap on how much of its output is kept. Whatever happens, the whole
process group is killed afterwards, and so is any process that still carries
the run's marker in its environment (a daemon that escaped the group). How a
process tree is started, listed and killed on this platform (and which limits
hold) is :mod:`grader.machine`'s.

The child reports back through two files it writes in an output folder: a JSON
index and an ``.npz`` of arrays, read here with ``allow_pickle=False``. Nothing
the child prints is ever parsed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from grader import forkserver, machine, untrusted
from grader.confine import Confinement, Plan
from grader.policy import NONE, offered, plan
from grader.protocol import STUDENT_CODE_STARTS
from grader.results import RunStatus

MARKER_VAR = "JAX_GRADER_SANDBOX"
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)
_MAX_JSON_BYTES = 8 << 20
_MAX_NPZ_BYTES = 256 << 20

#: What a process that died of exhaustion prints: Python, the C++ runtime, glibc's loader, XLA.
_OUT_OF_MEMORY = ("MemoryError", "std::bad_alloc", "failed to map segment", "Cannot allocate memory",
                  "RESOURCE_EXHAUSTED")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one child run."""

    timeout: float = 120.0
    """Wall-clock seconds before the child is killed."""
    memory_bytes: int = 6 << 30
    """Address-space cap (``RLIMIT_AS``); JAX reserves generously, so keep it high."""
    output_bytes: int = 64 << 10
    """How much of stdout and of stderr is kept; the rest is counted and dropped."""
    confine: bool = True
    """Confine the child with the strongest mechanisms this machine offers (:mod:`grader.policy`); turning
    it off is for measuring what confinement costs, never for grading."""
    fork: bool = True
    """Fork children from the fork server (:mod:`grader.forkserver`) where that is safe, instead of
    starting a fresh interpreter for each; the results are the same."""


#: One frame of a traceback as the recorder writes it: ``  File "ex1_dropout.py", line 12, in dropout``.
_FRAME = re.compile(r'^  File "([^"\n]+\.py)", line (\d+)', re.MULTILINE)
#: Where a syntax error's message puts its place: ``invalid syntax (ex1_dropout.py, line 3)``.
_SYNTAX_PLACE = re.compile(r"\(([^()\n]+\.py), line (\d+)\)\s*$")
_SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")


@dataclass(frozen=True)
class ObservationError:
    """An exception raised by student code while one observation was taken."""

    type: str
    message: str
    traceback: str = ""
    kind: str = ""
    """What kind of crash, as the child classified it from the exception object (its ``crash`` field; see
    grader.checks.common.CRASH_HINTS)."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ObservationError:
        """The error as the harness records it (``grader.harness.recorder.Recorder.describe``), fields checked."""
        for name in _ERROR_FIELDS:
            _text(record[name], f"an error's {name}")
        return cls(_clean(record["type"]), _clean(record["message"]), _clean(record["traceback"]),
                   _clean(record["crash"]))

    def summary(self) -> str:
        text = f"{self.type}: {self.message}".strip()
        return text if len(text) < 600 else text[:600] + " ..."

    def location(self) -> tuple[str, int]:
        """``(file, line)`` of the innermost frame of the student's own code in :attr:`traceback`, or ``("", 0)``.

        The traceback lists only the student's frames (``grader.harness.recorder``), in Python's format; a
        syntax error has none (it is raised while compiling) and names its place in its message instead.
        """
        frames = _FRAME.findall(self.traceback)
        if frames:
            return frames[-1][0], int(frames[-1][1])
        where = _SYNTAX_PLACE.search(self.message) if self.type in _SYNTAX_ERRORS else None
        return (where.group(1), int(where.group(2))) if where else ("", 0)


@dataclass(frozen=True)
class Observations:
    """What a child observed: named values (arrays, trees of arrays, JSON) or errors."""

    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, ObservationError] = field(default_factory=dict)
    import_error: ObservationError | None = None

    def has(self, name: str) -> bool:
        return name in self.values

    def __getitem__(self, name: str) -> Any:
        return self.values[name]


@dataclass(frozen=True)
class RunResult:
    """How a child run ended, and what it observed."""

    status: RunStatus
    observations: Observations
    seconds: float
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    detail: str = ""


def run_task(
    task: str,
    submission_dir: Path,
    inputs_path: Path,
    workdir: Path,
    limits: Limits = Limits(),
    extra_args: tuple[str, ...] = (),
    compilation_cache: Path | None = None,
    results_dir: Path | None = None,
) -> RunResult:
    """Run ``grader.harness.child`` for ``task`` on the modules in ``submission_dir``.

    ``compilation_cache`` is a folder for JAX's persistent compilation cache;
    the child may write to it, so give an untrusted child its own copy.
    ``results_dir`` keeps the child's result files (for the trusted reference
    run); otherwise they go to a private folder outside the child's working
    folder, removed once read.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    out_dir = results_dir or Path(tempfile.mkdtemp(prefix="jax-grader-out-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        return _run(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache, out_dir)
    finally:
        if results_dir is None:
            shutil.rmtree(out_dir, ignore_errors=True)


#: The fresh child's first lines: its results folder and plan come on stdin, so they are in neither the
#: command line nor the environment; it confines itself and sets its limits (grader.confine) before any
#: thread or student code exists in it, and no Python runs between fork and exec.
_BOOTSTRAP = (
    "import sys; out = sys.stdin.readline().rstrip('\\n'); plan = sys.stdin.readline(); sys.stdin.close(); "
    "sys.path.insert(0, sys.argv[1]); "
    "from grader.confine import enter_or_exit; enter_or_exit(plan); "
    "from grader.harness.child import main; main(sys.argv[2:5] + [out] + sys.argv[5:])"
)


@dataclass
class _Ended:
    returncode: int
    timed_out: bool
    stdout: _HeadReader
    stderr: _HeadReader


def _run(task: str, submission_dir: Path, inputs_path: Path, workdir: Path, limits: Limits,
         extra_args: tuple[str, ...], compilation_cache: Path | None, out_dir: Path) -> RunResult:
    offer = offered() if limits.confine else NONE
    writes = [workdir, out_dir] + ([compilation_cache] if compilation_cache is not None else [])
    child_plan = plan(offer, reads=(submission_dir, inputs_path), writes=writes, memory_bytes=limits.memory_bytes,
                      hidden=(workdir.parent,))
    argv = [task, str(submission_dir), str(inputs_path), str(out_dir), *extra_args]
    start = time.monotonic()
    server = _server(limits, offer)
    ended = None
    if server is not None:
        try:
            ended = _forked(server, argv, workdir, compilation_cache, child_plan, limits)
        except forkserver.ForkServerError:
            ended = None  # the server is gone: this run, and later ones, start fresh interpreters
    if ended is None:
        ended = _fresh(argv, workdir, compilation_cache, child_plan, limits)
    seconds = time.monotonic() - start
    stdout, stderr = ended.stdout, ended.stderr
    printed = stdout.text()
    started = printed.startswith(STUDENT_CODE_STARTS)
    common = dict(
        seconds=seconds, returncode=ended.returncode, stdout=printed.removeprefix(STUDENT_CODE_STARTS),
        stderr=stderr.text(), stdout_bytes=max(0, stdout.total - len(STUDENT_CODE_STARTS) * started),
    )
    if ended.timed_out:
        return RunResult("timeout", Observations(), detail=f"killed after the {limits.timeout:.0f} s time limit", **common)
    try:
        observations = read_observations(out_dir)
    except FileNotFoundError:
        status, detail = _crash(ended.returncode, stderr.text()) if started else _harness_failure(ended.returncode,
                                                                                               stderr.text())
        return RunResult(status, Observations(), detail=detail, **common)
    except ForgedResults as exc:
        return RunResult("bad_output", Observations(), detail=f"{FORGED} ({exc})", **common)
    except OSError as exc:
        return RunResult("bad_output", Observations(), detail=f"unreadable results from the child: {exc}", **common)
    if ended.returncode != 0:
        # Results were written, then the process died: trust nothing it wrote.
        status, detail = _crash(ended.returncode, stderr.text())
        return RunResult(status, Observations(), detail=detail, **common)
    return RunResult("ok", observations, **common)


def _server(limits: Limits, offer: Confinement) -> forkserver.ForkServer | None:
    """The fork server, where children are confined from starting processes (so a group kill is complete)."""
    return forkserver.shared(_child_env("", Path("/"), None)) if limits.fork and offer.processes else None


def warm_up(limits: Limits = Limits()) -> threading.Thread:
    """Probe the confinement and start the fork server in the background, while the caller prepares its runs."""
    thread = threading.Thread(target=lambda: _server(limits, offered() if limits.confine else NONE), daemon=True)
    thread.start()
    return thread


def _fresh(argv: list[str], workdir: Path, compilation_cache: Path | None, child_plan: Plan,
           limits: Limits) -> _Ended:
    """A fresh ``python -I`` child; afterwards its tree and every process with its marker are killed."""
    marker = secrets.token_hex(16)
    cmd = [sys.executable, "-I", "-c", _BOOTSTRAP, _PACKAGE_PARENT, *argv[:3], *argv[4:]]
    proc = subprocess.Popen(
        cmd, cwd=workdir, env=_child_env(marker, workdir, compilation_cache), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **machine.new_group(),
    )
    try:
        proc.stdin.write(f"{argv[3]}\n{child_plan.to_json()}\n".encode())
        proc.stdin.close()
    except BrokenPipeError:
        pass
    stdout, stderr = _HeadReader(proc.stdout, limits.output_bytes), _HeadReader(proc.stderr, limits.output_bytes)
    timed_out = False
    try:
        proc.wait(timeout=limits.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _kill_group(proc.pid)
        proc.wait()
        _kill_marked(marker)
        stdout.join()
        stderr.join()
    return _Ended(proc.returncode, timed_out, stdout, stderr)


def _forked(server: forkserver.ForkServer, argv: list[str], workdir: Path, compilation_cache: Path | None,
            child_plan: Plan, limits: Limits) -> _Ended:
    """A child forked by the fork server; it cannot start processes, so killing its group on timeout is complete."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        rid, pending = server.spawn(argv, workdir, _child_env("", workdir, compilation_cache), child_plan.to_json(),
                                    out_w, err_w)
    except forkserver.ForkServerError:
        for fd in (out_r, err_r):
            os.close(fd)
        raise
    finally:
        os.close(out_w)
        os.close(err_w)
    stdout = _HeadReader(os.fdopen(out_r, "rb"), limits.output_bytes)
    stderr = _HeadReader(os.fdopen(err_r, "rb"), limits.output_bytes)
    returncode = server.wait(rid, pending, limits.timeout)
    timed_out = returncode is None
    if timed_out:
        _kill_group(pending.pid)
        returncode = server.wait(rid, pending, 30)
    stdout.join()
    stderr.join()
    return _Ended(-9 if returncode is None else returncode, timed_out, stdout, stderr)


class ForgedResults(ValueError):
    """The results folder holds something the harness never writes: the submission's code wrote it."""


#: What every forged-results message starts with: the submission, not the grader, is charged.
FORGED = "your code wrote the grader's results itself"
#: The limits below sit above anything the harness writes for any student's return value (whose size the
#: 8 MB index already bounds), so only results the harness did not write break them.
_MAX_JSON_DEPTH = 100
"""Nesting of a recorded JSON value (the harness records flat lists and small dicts)."""
_MAX_NAMES = 100_000
"""Observations, tree leaves and arrays in one run's results, each."""
_MAX_ARRAY_DIMS = 32
_ARRAY_KEY = re.compile(r"a[0-9]{1,9}")
_ENTRY_FIELDS = {"array": {"kind", "key"}, "tree": {"kind", "keys"}, "json": {"kind", "value"},
                 "error": {"kind", "type", "message", "traceback", "crash"}}
_ERROR_FIELDS = {"type", "message", "traceback", "crash"}


def read_observations(out_dir: Path) -> Observations:
    """Load a child's results, checked against the schema the harness writes.

    Both files are read as a submission's files are (:mod:`grader.untrusted`: no
    link, no special file, bounded size); the index must be JSON of the
    harness's shape, bounded in depth, count and length, and the arrays plain
    numbers whose declared size fits the cap before any is read. Anything else
    raises :class:`ForgedResults`; a missing file raises ``FileNotFoundError``
    (the run ended before it reported).
    """
    try:
        raw = untrusted.read_bytes(out_dir / "observations.json", _MAX_JSON_BYTES, root=out_dir)
        try:
            index = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise ForgedResults("observations.json is nested too deeply") from None
        except ValueError as exc:  # also UnicodeDecodeError
            raise ForgedResults(f"observations.json is not JSON ({type(exc).__name__})") from None
        values, errors, import_error, keys = _check_index(index)
        arrays = _read_arrays(out_dir, keys)
    except untrusted.UnsafeFile as exc:
        raise ForgedResults(str(exc).replace(str(out_dir) + os.sep, "")) from None
    for name, value in values.items():
        if isinstance(value, _ArrayRef):
            values[name] = arrays[value.key]
        elif name in keys.trees:
            values[name] = {path: arrays[ref.key] for path, ref in value.items()}
    return Observations(values, errors, import_error)


@dataclass(frozen=True)
class _ArrayRef:
    key: str


@dataclass
class _Keys:
    arrays: set[str] = field(default_factory=set)
    trees: set[str] = field(default_factory=set)


def _check_index(index: Any) -> tuple[dict[str, Any], dict[str, ObservationError], ObservationError | None, _Keys]:
    """The index's values (arrays as :class:`_ArrayRef`), errors and import error; :class:`ForgedResults` if off-schema."""
    if not isinstance(index, dict) or set(index) != {"version", "values", "import_error"} \
            or type(index["version"]) is not int or index["version"] != 1 or not isinstance(index["values"], dict):
        raise ForgedResults("observations.json does not have the harness's fields (version, values, import_error)")
    entries = index["values"]
    if len(entries) > _MAX_NAMES:
        raise ForgedResults(f"observations.json records more than {_MAX_NAMES:,} values")
    keys = _Keys()
    values: dict[str, Any] = {}
    errors: dict[str, ObservationError] = {}
    for name, entry in entries.items():
        _text(name, "a value's name")
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind not in _ENTRY_FIELDS or set(entry) != _ENTRY_FIELDS[kind]:
            raise ForgedResults(f"value {name[:80]!r} of observations.json is not one the harness writes")
        if kind == "array":
            values[name] = _ArrayRef(_key(entry["key"]))
            keys.arrays.add(entry["key"])
        elif kind == "tree":
            leaves = entry["keys"]
            if not isinstance(leaves, dict) or len(leaves) > _MAX_NAMES:
                raise ForgedResults(f"tree {name[:80]!r} of observations.json is not a mapping of leaves to arrays")
            values[name] = {_text(path, "a tree path"): _ArrayRef(_key(key))
                            for path, key in leaves.items()}
            keys.arrays.update(leaves.values())
            keys.trees.add(name)
        elif kind == "json":
            _check_json(entry["value"], name)
            values[name] = entry["value"]
        else:
            errors[name] = ObservationError.from_record(entry)
    import_error = index["import_error"]
    if import_error is not None:
        if not isinstance(import_error, dict) or set(import_error) != _ERROR_FIELDS | {"module"}:
            raise ForgedResults("the import error in observations.json is not one the harness writes")
        _text(import_error["module"], "a module name")
    return values, errors, (ObservationError.from_record(import_error) if import_error is not None else None), keys


def _key(key: Any) -> str:
    if not isinstance(key, str) or not _ARRAY_KEY.fullmatch(key):
        raise ForgedResults("observations.json names an array the harness would not name")
    return key


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ForgedResults(f"{what} in observations.json is a {type(value).__name__}, not text")
    return value


def _check_json(value: Any, name: str) -> None:
    """A recorded JSON value: JSON types only, at most :data:`_MAX_JSON_DEPTH` deep (checked without recursion)."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > _MAX_JSON_DEPTH:
            raise ForgedResults(f"value {name[:80]!r} of observations.json is nested more than "
                                f"{_MAX_JSON_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, child in item.items():
                _text(key, "a key")
                pending.append((child, depth + 1))
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            _text(item, "a text value")
        elif item is not None and not isinstance(item, (bool, int, float)):
            raise ForgedResults(f"value {name[:80]!r} of observations.json holds a {type(item).__name__}")


def _read_arrays(out_dir: Path, keys: _Keys) -> dict[str, np.ndarray]:
    """The arrays of ``observations.npz``: numbers only, each member's declared size checked before it is read."""
    arrays: dict[str, np.ndarray] = {}
    budget = _MAX_NPZ_BYTES
    with untrusted.open_regular(out_dir / "observations.npz", root=out_dir, limit=_MAX_NPZ_BYTES) as handle:
        try:
            archive = zipfile.ZipFile(handle)
        except (zipfile.BadZipFile, ValueError, OSError) as exc:
            raise ForgedResults(f"observations.npz is not an archive of arrays ({exc})") from None
        with archive:
            members = archive.infolist()
            if len(members) > _MAX_NAMES:
                raise ForgedResults(f"observations.npz holds more than {_MAX_NAMES:,} arrays")
            for info in members:
                key = info.filename[:-4] if info.filename.endswith(".npy") else ""
                if not _ARRAY_KEY.fullmatch(key) or key in arrays:
                    raise ForgedResults(f"observations.npz holds {info.filename[:80]!r}, not an array the "
                                        "harness writes")
                arrays[key] = _read_array(archive, info, budget)
                budget -= arrays[key].nbytes
    missing = sorted(keys.arrays - set(arrays))
    if missing:
        raise ForgedResults(f"observations.json names arrays that observations.npz lacks ({', '.join(missing[:5])})")
    return arrays


def _read_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> np.ndarray:
    fmt = np.lib.format
    try:
        with archive.open(info) as member:
            version = fmt.read_magic(member)
            read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read_header(member)
            if dtype.kind not in "biuf" or dtype.fields is not None or dtype.subdtype is not None \
                    or len(shape) > _MAX_ARRAY_DIMS:
                raise ForgedResults(f"observations.npz holds {info.filename!r} of dtype {dtype}, not numbers")
            nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if nbytes > budget:
                raise ForgedResults(f"observations.npz holds more than {_MAX_NPZ_BYTES >> 20} MB of arrays")
            data = bytearray(member.read(nbytes + 1))
    except ForgedResults:
        raise
    except Exception as exc:  # noqa: BLE001 - zlib, header and encryption errors: a member the harness never wrote
        raise ForgedResults(f"observations.npz: {info.filename[:80]!r} is not a readable array "
                            f"({type(exc).__name__})") from None
    if len(data) != nbytes:
        raise ForgedResults(f"observations.npz: {info.filename!r} does not hold the size its header declares")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _clean(text: str) -> str:
    """Text a submission controls, made encodable (a lone surrogate would break every writer)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _child_env(marker: str, workdir: Path, compilation_cache: Path | None) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "JAX_PLATFORMS": "cpu",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "JAX_ENABLE_X64": "0",
        "MPLBACKEND": "Agg",  # a submission's plots are drawn nowhere and never block (grader.harness.child)
    }
    if marker:
        env[MARKER_VAR] = marker
    if compilation_cache is not None:
        # Eager JAX compiles every primitive on first use; the cache makes that a file read.
        env["JAX_COMPILATION_CACHE_DIR"] = str(compilation_cache)
        env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
        env["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] = "0"
        # Keep the cache folder's path out of the cache keys, so a copy of the folder still hits.
        env["JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES"] = "none"
    for name in ("VIRTUAL_ENV", "XLA_FLAGS"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(machine.child_env(workdir))
    return env


def _kill_group(pid: int) -> None:
    """Kill the run's process and what it started (its process group, or its tree on Windows)."""
    machine.kill_tree(pid)


def _kill_marked(marker: str) -> None:
    """Kill every process whose environment carries this run's marker (where processes' environments are readable)."""
    for pid in machine.processes_with_variable(f"{MARKER_VAR}={marker}"):
        machine.kill(pid)


def _harness_failure(returncode: int | None, stderr: str) -> tuple[RunStatus, str]:
    """``(status, detail)`` of a child that failed before any student code ran: the grader's fault, traceback kept."""
    trace = stderr.strip()
    trace = trace if len(trace) <= 4000 else "...\n" + trace[-4000:]
    return "harness", (f"the grader's child process exited with status {returncode} before running the submission"
                       + (f"; its error output:\n{trace}" if trace else " and printed nothing"))


def _crash(returncode: int | None, stderr: str) -> tuple[RunStatus, str]:
    """``(status, detail)`` of a child that ended without valid results: ``memory`` or ``crashed``."""
    if returncode is not None and returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        if name == "SIGKILL":
            return "crashed", "the process was killed (SIGKILL): by the system when memory runs out, or by itself"
        if name == "SIGABRT" and any(s in stderr for s in _OUT_OF_MEMORY):
            return "memory", "the process aborted after an allocation failed"
        return "crashed", f"the process died from {name}"
    if any(s in stderr for s in _OUT_OF_MEMORY):
        return "memory", "the process ran out of memory (an allocation failed)"
    tail = stderr.strip().splitlines()[-3:]
    suffix = f"; last output: {' | '.join(tail)}" if tail else ""
    return "crashed", f"the process exited with status {returncode} before reporting any results{suffix}"


class _HeadReader:
    """Drain a pipe in a thread, keeping its first ``limit`` bytes."""

    def __init__(self, pipe: Any, limit: int) -> None:
        self.limit, self.total, self._chunks = limit, 0, bytearray()
        self._thread = threading.Thread(target=self._drain, args=(pipe,), daemon=True)
        self._thread.start()

    def _drain(self, pipe: Any) -> None:
        with pipe:
            while chunk := pipe.read(65536):
                self.total += len(chunk)
                if len(self._chunks) < self.limit:
                    self._chunks += chunk[: self.limit - len(self._chunks)]

    def join(self) -> None:
        self._thread.join(timeout=5)

    def text(self) -> str:
        text = self._chunks.decode("utf-8", "replace")
        if self.total > self.limit:
            text += f"\n[... {self.total - self.limit} more bytes not shown]"
        return text
