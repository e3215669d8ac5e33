"""Run one grading task on untrusted code in a child process, with limits.

The child is a fresh ``python -I`` interpreter in its own session (process
group), started in a scratch folder, with a wall-clock limit, an address-space
cap and a cap on how much of its output is kept. Whatever happens, the whole
process group is killed afterwards, and so is any process that still carries
the run's marker in its environment (a daemon that escaped the group). How a
process tree is started, listed and killed on this platform (and which limits
hold) is :mod:`grader.machine`'s.

The child reports back through two files it writes in an output folder, read
by :func:`grader.observations.read_observations` (never unpickled). Nothing the
child prints is ever parsed.
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

from grader import forkserver, machine
from grader.confine import Confinement, Plan
from grader.observations import FORGED, ForgedResults, Limits, Observations, RunResult, read_observations
from grader.policy import NONE, offered, plan
from grader.protocol import STUDENT_CODE_STARTS
from grader.results import RunStatus

MARKER_VAR = "JAX_GRADER_SANDBOX"
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)

#: What a process that died of exhaustion prints: Python, the C++ runtime, glibc's loader, XLA.
_OUT_OF_MEMORY = ("MemoryError", "std::bad_alloc", "failed to map segment", "Cannot allocate memory",
                  "RESOURCE_EXHAUSTED")


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
