"""What this machine offers the grader: the one module that knows the operating system.

Everything that differs between Linux, macOS and Windows is decided here and
nowhere else: which confinement mechanisms may exist (Landlock, seccomp,
dropping capabilities: Linux only), how processes are listed (``/proc``, else
``ps``, else not at all), whether the fork server can run (``os.fork`` and
``SCM_RIGHTS`` over Unix sockets), which resource limits hold (``resource``:
not on Windows; macOS accepts ``RLIMIT_AS`` but does not enforce it), how a
folder is locked (``fcntl``, ``msvcrt``, else a lock file), whether a process
can ask to die with its parent (``PR_SET_PDEATHSIG``), and whether a run's
whole process tree can be started and killed as one (POSIX sessions; Windows
process groups and ``taskkill /T``: :mod:`grader.sandbox.tree` does it). The
rest of the grader reads :func:`offers` and calls the helpers here and in
:mod:`grader.sandbox.tree`; it never tests the platform itself.

``JAX_GRADER_WITHOUT`` (a comma-separated list of :data:`FACILITIES`) switches
facilities off, to rehearse another platform's path on Linux; ``resource`` and
``fcntl`` then cannot even be imported. The sandbox passes it on to its
children, so a child takes the same path as its parent.

Standard library only: the sandboxed child reads this module before anything
else is importable.
"""

from __future__ import annotations

import functools
import importlib.abc
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WITHOUT_VAR = "JAX_GRADER_WITHOUT"
#: What ``JAX_GRADER_WITHOUT`` may switch off.
FACILITIES = ("landlock", "seccomp", "capabilities", "proc", "ps", "forkserver", "resource", "fcntl", "prctl",
              "sessions")
#: Modules that do not exist where the facility of the same name is switched off.
_MODULES = ("resource", "fcntl")
#: Architectures whose system call numbers the seccomp filter knows (grader.sandbox.confine).
_SECCOMP_MACHINES = ("x86_64", "aarch64")
#: Variables a Windows child cannot start without (Python needs SYSTEMROOT for its random numbers and sockets).
_WINDOWS_ENV = ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "PATHEXT", "COMSPEC", "NUMBER_OF_PROCESSORS",
                "PROCESSOR_ARCHITECTURE")


@dataclass(frozen=True)
class Offers:
    """What this machine offers: plain data, one field per facility."""

    system: str
    """``linux``, ``macos``, ``windows``, or ``sys.platform`` elsewhere."""
    landlock: bool
    """The Landlock system calls may exist (Linux); what they give is observed by :mod:`grader.sandbox.policy`."""
    seccomp: bool
    """A seccomp filter can be built (Linux on x86_64 or aarch64 with seccomp in the kernel)."""
    capabilities: bool
    """Running as root on Linux: the child can drop every capability."""
    process_table: str
    """How processes are listed: ``proc`` (with each one's environment), ``ps`` (parents only) or ``""``."""
    fork_server: bool
    """``os.fork`` and descriptor passing over ``SOCK_SEQPACKET`` Unix sockets (:mod:`grader.sandbox.forkserver`):
    Linux."""
    rlimits: bool
    """The ``resource`` module: file size, open files and core dumps can be capped."""
    memory_limit: bool
    """``RLIMIT_AS`` is enforced (Linux); macOS accepts it and ignores it, Windows has no rlimits."""
    file_lock: str
    """``fcntl``, ``msvcrt``, or ``file`` (an exclusive lock file holding the owner's process id)."""
    pdeathsig: bool
    """``prctl``: a child dies with its parent (``PR_SET_PDEATHSIG``); a batch worker adopts orphans."""
    sessions: bool
    """POSIX sessions and process groups (``os.setsid``, ``os.killpg``)."""
    without: tuple[str, ...] = ()
    """Facilities switched off by ``JAX_GRADER_WITHOUT``."""

    @property
    def name(self) -> str:
        return {"linux": "Linux", "macos": "macOS", "windows": "Windows"}.get(self.system, self.system)

    def missing_limits(self) -> tuple[str, ...]:
        """The limits that do not hold here, each with its reason; empty on Linux."""
        missing = []
        if not self.memory_limit:
            why = ("macOS does not enforce RLIMIT_AS" if self.system == "macos" and self.rlimits
                   else f"no rlimits on {self.name}")
            missing.append(f"memory not capped ({why})")
        if not self.rlimits:
            missing.append("file size and open files not capped")
        if not self.sessions and self.system != "windows":
            missing.append("only the run's own process is killed at its end")
        elif self.process_table != "proc":
            missing.append("a process a run detaches from its group outlives it")
        return tuple(missing)

    def limits(self) -> str:
        """One line: the limits that hold for every run here, and those that do not."""
        held = ["time", "output"]
        if self.rlimits:
            held += ["file size", "open files"]
        if self.memory_limit:
            held.append("memory")
        missing = self.missing_limits()
        return f"limits: {', '.join(held)}" + (f"; {'; '.join(missing)}" if missing else "")


def _system() -> str:
    if sys.platform.startswith("linux"):
        return "linux"
    return {"darwin": "macos", "win32": "windows", "cygwin": "windows"}.get(sys.platform, sys.platform)


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def _without(environ: dict[str, str] | os._Environ) -> tuple[str, ...]:
    names = tuple(n.strip() for n in environ.get(WITHOUT_VAR, "").split(",") if n.strip())
    unknown = [n for n in names if n not in FACILITIES]
    if unknown:
        raise ValueError(f"{WITHOUT_VAR} names {', '.join(unknown)}, which the grader does not know; "
                         f"use a comma-separated list of {', '.join(FACILITIES)}")
    return names


def detect(environ: dict[str, str] | None = None) -> Offers:
    """What this machine offers, minus what ``JAX_GRADER_WITHOUT`` (in ``environ``) switches off."""
    without = _without(os.environ if environ is None else environ)
    on = lambda facility: facility not in without  # noqa: E731
    system = _system()
    linux = system == "linux"
    machine = os.uname().machine if hasattr(os, "uname") else ""
    import socket

    proc = linux and on("proc") and os.path.isdir("/proc/self")
    posix = os.name == "posix"
    ps = posix and on("ps") and any(os.access(os.path.join(d, "ps"), os.X_OK) for d in ("/bin", "/usr/bin"))
    rlimits = on("resource") and _importable("resource")
    return Offers(
        system=system,
        landlock=linux and on("landlock"),
        seccomp=linux and on("seccomp") and machine in _SECCOMP_MACHINES
        and os.path.exists("/proc/sys/kernel/seccomp/actions_avail"),
        capabilities=linux and on("capabilities") and os.geteuid() == 0,
        process_table="proc" if proc else "ps" if ps else "",
        # Linux only: macOS has no SOCK_SEQPACKET Unix sockets, and forking after threads started is unsafe there.
        fork_server=linux and on("forkserver") and hasattr(os, "fork") and hasattr(socket, "send_fds"),
        rlimits=rlimits,
        memory_limit=rlimits and linux,
        file_lock="fcntl" if on("fcntl") and _importable("fcntl") else "msvcrt" if _importable("msvcrt") else "file",
        pdeathsig=linux and on("prctl"),
        sessions=posix and on("sessions") and hasattr(os, "setsid") and hasattr(os, "killpg"),
        without=without,
    )


class _Absent(importlib.abc.MetaPathFinder):
    """Makes the modules of switched-off facilities unimportable, as on a platform that lacks them."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r} ({WITHOUT_VAR})", name=fullname)
        return None


@functools.lru_cache(maxsize=1)
def offers() -> Offers:
    """What this machine offers (detected once per process)."""
    absent = tuple(m for m in _MODULES if m in _without(os.environ))
    if absent:
        for name in absent:
            sys.modules.pop(name, None)
        if not any(isinstance(f, _Absent) for f in sys.meta_path):
            sys.meta_path.insert(0, _Absent(absent))
    return detect()


# --- processes --------------------------------------------------------------------------------------------------

def child_env(home: Path | None = None) -> dict[str, str]:
    """Variables a child needs here besides the sandbox's own: Windows' system folders (and its temporary
    folder and home, set to ``home``), and the rehearsal list :data:`WITHOUT_VAR`."""
    windows = offers().system == "windows"
    names = (*(_WINDOWS_ENV if windows else ()), WITHOUT_VAR)
    env = {name: os.environ[name] for name in names if name in os.environ}
    if windows and home is not None:
        env.update(TEMP=str(home), TMP=str(home), USERPROFILE=str(home))
    return env


def _libc() -> Any:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.restype = ctypes.c_int
    return libc


def prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` where the machine offers it; False where it does not or the call failed."""
    if not offers().pdeathsig:
        return False
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# --- locking a folder -------------------------------------------------------------------------------------------

class Lock:
    """An exclusive lock on a file, held until :meth:`close` or until this process ends."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._handle: Any = None
        self._owner: Path | None = None
        how = offers().file_lock
        if how == "file":
            self._take_owner_file()
            return
        self._handle = self.path.open("a+")
        try:
            if how == "fcntl":
                import fcntl

                fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                import msvcrt

                self._handle.seek(0)
                msvcrt.locking(self._handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            self._handle.close()
            raise BlockingIOError(f"{self.path} is locked by another process") from exc

    def _take_owner_file(self) -> None:
        """Without ``fcntl`` or ``msvcrt``: create ``PATH.pid`` exclusively; one whose owner died is taken over."""
        owner = self.path.with_name(self.path.name + ".pid")
        for _ in range(2):
            try:
                fd = os.open(owner, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if _alive(owner):
                    raise BlockingIOError(f"{self.path} is locked by another process") from None
                owner.unlink(missing_ok=True)  # its owner died without closing it
                continue
            with os.fdopen(fd, "w") as handle:
                handle.write(str(os.getpid()))
            self._owner = owner
            self.path.touch()
            return
        raise BlockingIOError(f"{self.path} is locked by another process")

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self._owner is not None:
            self._owner.unlink(missing_ok=True)
            self._owner = None


def _alive(owner_file: Path) -> bool:
    try:
        pid = int(owner_file.read_text().strip())
    except (OSError, ValueError):  # being written now, or its writer died while writing
        try:
            return time.time() - owner_file.stat().st_mtime < 10
        except OSError:
            return False
    if pid == os.getpid():
        return True
    if offers().system == "windows":
        return True  # os.kill would end it; Windows uses msvcrt locks anyway
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
