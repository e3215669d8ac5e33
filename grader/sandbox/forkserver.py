"""Import JAX once, fork a child per exercise run: the fork server.

A fresh interpreter spends about a second importing jax, optax and numpy
before it runs anything. The server is one such interpreter per grading
process (a single grade, or a batch worker for its whole batch): it imports
them and the harness once, before any student code and before JAX starts its
backend, then waits for requests. For each run it forks; the child, the only
thread in its process, makes itself a session leader, takes its stdout and
stderr from the grader, closes every other descriptor (the server's control
socket among them), then confines itself and sets its limits exactly as a
fresh child does (:func:`grader.sandbox.confine.enter`) before the harness touches
student code.

The server is used only where children are fully confined from new processes
(seccomp): a forked child then cannot leave a process behind, and the process
group kill is complete. Elsewhere, and if the server cannot start, the sandbox
starts fresh interpreters, with the same results (``tests/test_forkserver.py``).

When the grader goes away (its end of the socket closes), the server kills
every run it forked and exits; a run whose server is gone is killed by the
kernel (each child confines itself with ``PR_SET_PDEATHSIG``).

Protocol, over a ``SOCK_SEQPACKET`` socket pair: a request is one JSON message
with the child's stdout and stderr descriptors attached; the server answers
``{"id", "pid"}`` once forked and ``{"id", "exit", "cpu"}`` (a ``subprocess`` style
return code, and the CPU seconds the child used) once the child is reaped.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from grader.sandbox.machine import offers
from grader.sandbox.tree import kill_tree, kill_trees, package_parent

_MAX_MESSAGE = 1 << 22
#: How a forked child that failed outside the harness's own reporting exits (its traceback is on stderr).
EXIT_CHILD_FAILED = 70


class ForkServerError(RuntimeError):
    """The server is gone or answered nonsense; fall back to fresh interpreters."""


@dataclass
class _Pending:
    task: str = ""
    pid: int | None = None
    returncode: int | None = None
    forked: threading.Event = field(default_factory=threading.Event)
    exited: threading.Event = field(default_factory=threading.Event)


class ForkServer:
    """The grader's side: start the server, ask for a child, wait for it."""

    def __init__(self, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sock = ours
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
             "from grader.sandbox.forkserver import serve; serve(int(sys.argv[2]))", package_parent(),
             str(theirs.fileno())],
            env=env, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, cwd="/", start_new_session=True)
        theirs.close()
        self._lock = threading.Lock()
        self._pending: dict[int, _Pending] = {}
        self._next = 0
        self.alive = True
        #: (task, CPU seconds) of every child that has ended, in order: what ``benchmarks/bench_children.py`` reads.
        self.cpu_seconds: list[tuple[str, float]] = []
        ready = self._sock.recv(_MAX_MESSAGE)
        if json.loads(ready or b"{}").get("ready") is not True:
            self.close()
            raise ForkServerError("the fork server did not start")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while message := self._sock.recv(_MAX_MESSAGE):
                data = json.loads(message)
                pending = self._pending.get(data["id"])
                if pending is None:
                    continue
                if "pid" in data:
                    pending.pid = int(data["pid"])
                    pending.forked.set()
                if "exit" in data:
                    pending.returncode = int(data["exit"])
                    self.cpu_seconds.append((pending.task, float(data.get("cpu", 0.0))))
                    pending.exited.set()
        except (OSError, ValueError, KeyError):
            pass
        self.alive = False
        for pending in list(self._pending.values()):  # wake every waiter: the server is gone
            pending.forked.set()
            pending.exited.set()

    def start(self, argv: list[str], cwd: Path, env: dict[str, str], plan: str) -> ForkedChild:
        """Fork a child running ``grader.harness.child.main(argv)`` with a fresh stdout and stderr, once it exists."""
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            rid, pending = self._spawn(argv, cwd, env, plan, out_w, err_w)
        except ForkServerError:
            for fd in (out_r, err_r):
                os.close(fd)
            raise
        finally:
            os.close(out_w)
            os.close(err_w)
        return ForkedChild(self, rid, pending, os.fdopen(out_r, "rb"), os.fdopen(err_r, "rb"))

    def _spawn(self, argv: list[str], cwd: Path, env: dict[str, str], plan: str, stdout: int,
               stderr: int) -> tuple[int, _Pending]:
        with self._lock:
            self._next += 1
            rid = self._next
            pending = self._pending[rid] = _Pending(task=str(argv[0]) if argv else "")
            # The server works from "/": a relative folder would name another place there.
            request = {"id": rid, "argv": argv, "cwd": os.path.abspath(cwd), "env": env, "plan": plan}
            try:
                socket.send_fds(self._sock, [json.dumps(request).encode()], [stdout, stderr])
            except OSError as exc:
                del self._pending[rid]
                self.alive = False
                raise ForkServerError(f"the fork server is gone ({exc})") from exc
        if not pending.forked.wait(60) or pending.pid is None:
            self._pending.pop(rid, None)
            raise ForkServerError("the fork server did not fork")
        return rid, pending

    def wait(self, rid: int, pending: _Pending, timeout: float | None) -> int | None:
        """The child's return code, or None if it is still running after ``timeout`` seconds."""
        if not pending.exited.wait(timeout):
            return None
        self._pending.pop(rid, None)
        return pending.returncode if pending.returncode is not None else -9

    @property
    def pid(self) -> int:
        return self._proc.pid

    def close(self) -> None:
        self.alive = False
        try:
            self._sock.close()
        finally:
            try:
                self._proc.kill()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass


class ForkedChild:
    """A child of the fork server, as :mod:`grader.sandbox.supervise` sees it. It cannot start processes (the
    server is used only where seccomp forbids them), so killing its group while it runs ends all of it."""

    def __init__(self, server: ForkServer, rid: int, pending: _Pending, stdout: BinaryIO, stderr: BinaryIO) -> None:
        self._server, self._rid, self._pending = server, rid, pending
        self.stdout, self.stderr = stdout, stderr

    def wait(self, timeout: float | None) -> int | None:
        return self._server.wait(self._rid, self._pending, timeout)

    def kill(self) -> None:
        if not self._pending.exited.is_set():  # once reaped, its process id may be another process's
            kill_tree(self._pending.pid)


_server: ForkServer | None = None
_server_lock = threading.Lock()


def shared(env: dict[str, str]) -> ForkServer | None:
    """This process's fork server (started on first use), or None when it cannot run here."""
    global _server
    with _server_lock:
        if _server is not None and _server.alive:
            return _server
        if _server is not None:
            _server.close()  # it died: start another
        if not offers().fork_server:
            return None
        try:
            _server = ForkServer(env)
        except (OSError, ForkServerError, ValueError):
            _server = None
            return None
        atexit.register(_server.close)
        return _server


def start_shared(env: dict[str, str]) -> None:
    """Start this process's fork server in the background; :func:`shared` then waits for it to be ready."""
    threading.Thread(target=shared, args=(env,), daemon=True).start()


def children_cpu() -> list[tuple[str, float]]:
    """(task, CPU seconds) of every child this process's fork server has reaped, in order."""
    server = _server
    return list(server.cpu_seconds) if server is not None else []


def server_pid() -> int | None:
    """The process id of this process's fork server, if one is running."""
    server = _server
    return server.pid if server is not None and server.alive else None


# --- the server process -----------------------------------------------------------------------------------------

def serve(fd: int) -> None:
    """The server's loop: import what every child needs, then fork one child per request."""
    import selectors
    import signal

    import grader.sandbox.confine  # noqa: F401 - bound before the children need it
    import grader.harness.child  # numpy, jax, optax and the probes, imported once

    grader.harness.child.make_shared_ir_context()

    # Out of the collector's reach: a child's collections then walk its own objects only, not the hundred thousand
    # it inherits, and leave the server's pages shared (Python's advice for a process that forks without exec).
    gc.freeze()
    sock = socket.socket(fileno=fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: dict[int, int] = {}  # pid -> request id
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    sock.send(json.dumps({"ready": True}).encode())
    while True:
        for key, _ in selector.select():
            if key.fileobj == wake_r:
                os.read(wake_r, 4096)
                _reap(sock, children)
                continue
            message, fds, _, _ = socket.recv_fds(sock, _MAX_MESSAGE, 2)
            if not message:  # the grader is gone, and nobody else would stop these runs on time
                kill_trees(children)
                return
            request = json.loads(message)
            pid = os.fork()
            if pid == 0:
                _child(request, fds)
            for descriptor in fds:
                os.close(descriptor)
            children[pid] = request["id"]
            sock.send(json.dumps({"id": request["id"], "pid": pid}).encode())
        _reap(sock, children)


def _reap(sock: socket.socket, children: dict[int, int]) -> None:
    while children:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        rid = children.pop(pid, None)
        if rid is not None:
            sock.send(json.dumps({"id": rid, "exit": -os.WTERMSIG(status) if os.WIFSIGNALED(status)
                                  else os.WEXITSTATUS(status), "cpu": usage.ru_utime + usage.ru_stime}).encode())


def _child(request: dict, fds: list[int]) -> None:
    """In the forked child: become a fresh run (session, descriptors, folder, environment), confine, run."""
    try:
        import signal

        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        stdout, stderr = fds
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 65536)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import tempfile

        tempfile.tempdir = None  # found again from the run's TMPDIR, not the server's
        from grader.sandbox.confine import enter_or_exit

        enter_or_exit(request["plan"])
        from grader.harness.child import apply_jax_environment, main

        apply_jax_environment()
        main(request["argv"])
    except BaseException:  # noqa: BLE001 - nothing may return into the server's loop
        _report_and_exit()
    _report_and_exit()


def _report_and_exit() -> None:
    """Write the exception being handled (if any) straight to descriptor 2, which no buffer holds back, and exit
    with :data:`EXIT_CHILD_FAILED`: ``os._exit`` flushes nothing."""
    import traceback

    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed or broken stream must not hide the traceback
                pass
        data = (traceback.format_exc() if sys.exc_info()[0] is not None else "").encode("utf-8", "backslashreplace")
        while data:
            data = data[os.write(2, data):]
    finally:
        os._exit(EXIT_CHILD_FAILED)
