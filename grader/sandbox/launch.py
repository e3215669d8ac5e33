"""Run one grading task on untrusted code in a child process, with limits.

The child is a fresh ``python -I`` interpreter, or a child forked by the fork
server (:mod:`grader.sandbox.forkserver`) where children are confined from
starting processes; either way it leads a process group of its own, starts in
a scratch folder, confines itself first (:mod:`grader.sandbox.confine`, with
the plan of :mod:`grader.sandbox.policy`) and is supervised the same way
(:mod:`grader.sandbox.supervise`: a wall-clock limit and a cap on how much of
its output is kept). Whatever happens, the whole process group is killed
afterwards, and, for a fresh child, so is any process that still carries the
run's marker in its environment (a daemon that escaped the group). How a
process tree is started, listed and killed on this platform (and which limits
hold) is :mod:`grader.sandbox.tree`'s and :mod:`grader.sandbox.machine`'s.

The child reports back through two files it writes in an output folder, read
by :func:`grader.observations.read_observations` (never unpickled). Nothing the
child prints is ever parsed.
"""

from __future__ import annotations

import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from grader.observations import FORGED, ForgedResults, Limits, Observations, RunResult, read_observations
from grader.protocol import STUDENT_CODE_STARTS
from grader.results import RunStatus
from grader.sandbox import forkserver, machine
from grader.sandbox.environment import run_env, server_env
from grader.sandbox.confine import Confinement, Plan
from grader.sandbox.policy import NONE, offered, plan
from grader.sandbox.supervise import Child, supervise
from grader.sandbox.tree import MARKER_VAR, kill_marked, kill_tree, new_group, package_parent

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
    *,
    cache_writable: bool = True,
) -> RunResult:
    """Run ``grader.harness.child`` for ``task`` on the modules in ``submission_dir``.

    ``compilation_cache`` is a folder for JAX's persistent compilation cache. The child fills it with what it
    compiles if ``cache_writable`` (the reference's runs); otherwise it only reads it, never writes it (JAX is
    told to keep nothing, and a confined child may not), so untrusted runs can share one folder.
    ``results_dir`` keeps the child's result files (for the trusted reference
    run); otherwise they go to a private folder outside the child's working
    folder, removed once read.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    out_dir = results_dir or Path(tempfile.mkdtemp(prefix="jax-grader-out-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        return _run(task, submission_dir, inputs_path, workdir, limits, extra_args, compilation_cache, out_dir,
                    cache_writable)
    finally:
        if results_dir is None:
            shutil.rmtree(out_dir, ignore_errors=True)


#: The fresh child's first lines: its results folder and plan come on stdin, so they are in neither the
#: command line nor the environment; it confines itself and sets its limits (grader.sandbox.confine) before any
#: thread or student code exists in it, and no Python runs between fork and exec.
_BOOTSTRAP = (
    "import sys; out = sys.stdin.readline().rstrip('\\n'); plan = sys.stdin.readline(); sys.stdin.close(); "
    "sys.path.insert(0, sys.argv[1]); "
    "from grader.sandbox.confine import enter_or_exit; enter_or_exit(plan); "
    "from grader.harness.child import main; main(sys.argv[2:5] + [out] + sys.argv[5:])"
)


def _run(task: str, submission_dir: Path, inputs_path: Path, workdir: Path, limits: Limits,
         extra_args: tuple[str, ...], compilation_cache: Path | None, out_dir: Path,
         cache_writable: bool) -> RunResult:
    offer = offered() if limits.confine else NONE
    cache = [compilation_cache] if compilation_cache is not None else []
    child_plan = plan(offer, reads=(submission_dir, inputs_path, *([] if cache_writable else cache)),
                      writes=[workdir, out_dir, *(cache if cache_writable else [])], memory_bytes=limits.memory_bytes,
                      hidden=(workdir.parent,))
    argv = [task, str(submission_dir), str(inputs_path), str(out_dir), *extra_args]
    env = run_env(workdir, compilation_cache, cache_writable)
    start = time.monotonic()
    ended = supervise(_start(argv, workdir, env, child_plan, _server(limits, offer)), limits.timeout,
                      limits.output_bytes)
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
    return forkserver.shared(server_env()) if limits.fork and offer.processes else None


def warm_up(limits: Limits = Limits()) -> threading.Thread:
    """Probe the confinement and start the fork server in the background, while the caller prepares its runs.

    The server starts beside the probe, not after it: whether the runs use it is decided by what the probe
    finds (:func:`_server`); one that goes unused is closed when this process exits."""
    if limits.fork and limits.confine:
        forkserver.start_shared(server_env())
    thread = threading.Thread(target=_warm, args=(limits,), daemon=True)
    thread.start()
    return thread


def _warm(limits: Limits) -> None:
    """The probe and the server, ahead of the runs, which ask for both again: what fails here (a probe whose
    scratch folder goes as the process exits, say) is met by them and reported there, not printed from a thread."""
    try:
        _server(limits, offered() if limits.confine else NONE)
    except Exception:  # noqa: BLE001 - ahead-of-time work only; the runs do it again
        pass


def _start(argv: list[str], workdir: Path, env: dict[str, str], child_plan: Plan,
           server: forkserver.ForkServer | None) -> Child:
    """The run's child: forked by ``server`` if there is one and it answers, else a fresh interpreter."""
    if server is not None:
        try:
            return server.start(argv, workdir, env, child_plan.to_json())
        except forkserver.ForkServerError:
            pass  # the server is gone: this run, and later ones, start fresh interpreters
    return _FreshChild(argv, workdir, env, child_plan)


class _FreshChild:
    """A fresh ``python -I`` child; at its end its tree and every process with its marker are killed."""

    def __init__(self, argv: list[str], workdir: Path, env: dict[str, str], child_plan: Plan) -> None:
        self._marker = secrets.token_hex(16)
        cmd = [sys.executable, "-I", "-c", _BOOTSTRAP, package_parent(), *argv[:3], *argv[4:]]
        self._proc = subprocess.Popen(
            cmd, cwd=workdir, env={**env, MARKER_VAR: self._marker}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **new_group(),
        )
        self.stdout, self.stderr = self._proc.stdout, self._proc.stderr
        try:
            self._proc.stdin.write(f"{argv[3]}\n{child_plan.to_json()}\n".encode())
            self._proc.stdin.close()
        except BrokenPipeError:
            pass

    def wait(self, timeout: float | None) -> int | None:
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        kill_tree(self._proc.pid)  # even when it has ended: what it started may still run in its group
        self._proc.wait()
        kill_marked(self._marker)


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
