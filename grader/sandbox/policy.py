"""What a child may touch: the confinement plan of one run, and what this machine offers.

A child reads the Python installation and its site-packages, the few grader
files the harness runs (``grader/harness``, each exercise's child side:
its ``__init__.py``, ``shared.py`` and ``probe.py``, ``protocol.py``,
``data.py``, ``observations.py`` with the ``untrusted.py`` it imports, and the
embedded data), its own copy of the submission and the inputs; it writes
only its scratch and results folders. Everything else of the grader's
(``reference/``, the checks, sealed observations, the reference cache, other
runs' folders, the user's home) is outside what it may read.

:func:`offered` confines a throwaway child once per process with every
mechanism the kernel seems to have, and checks that what must fail does
fail (reading outside, writing outside, opening a socket, forking,
signalling this process), so the level the reports state is one observed,
not assumed.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import site
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Iterable

from grader.sandbox.confine import Confinement, Plan, landlock_abi, seccomp_supported
from grader.exercises import CHILD_FILES
from grader.sandbox.machine import WITHOUT_VAR, child_env, offers
from grader.sandbox.tree import package_parent

_PACKAGE = Path(package_parent()) / "grader"
#: What the harness needs of the grader package itself; nothing else in it is readable.
_HARNESS_FILES = ("__init__.py", "sandbox/__init__.py", "sandbox/confine.py", "sandbox/machine.py", "protocol.py", "data.py",
                  "observations.py", "untrusted.py", "harness", "_data", *CHILD_FILES)
_SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                "/etc/localtime", "/dev/urandom", "/dev/random", "/dev/zero", "/proc/self", "/proc/cpuinfo",
                "/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu", "/sys/fs/cgroup")
_SYSTEM_WRITE = ("/dev/null",)


def _python_roots() -> list[Path]:
    """The interpreter's installation and every site-packages folder the child's imports may come from."""
    roots = {Path(sys.base_prefix), Path(sys.prefix), *map(Path, site.getsitepackages())}
    roots |= {Path(p) for p in sys.path if p and Path(p).is_dir() and "site-packages" in Path(p).parts}
    return sorted(r.resolve() for r in roots if r.exists())


def _beneath(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _allow_except(root: Path, hidden: list[Path]) -> Iterable[str]:
    """``root`` whole if nothing hidden lies beneath it, else its other entries one by one (recursively)."""
    if any(_beneath(root, h) for h in hidden):
        return
    inside = [h for h in hidden if root in h.parents]
    if not inside:
        yield str(root)
        return
    try:
        children = sorted(root.iterdir())
    except OSError:
        return
    for child in children:
        yield from _allow_except(child, hidden)


@functools.lru_cache(maxsize=8)
def _base_reads(hidden: tuple[Path, ...]) -> tuple[str, ...]:
    reads: list[str] = []
    for root in _python_roots():
        reads += _allow_except(root, [*hidden, _PACKAGE])
    reads += [str(_PACKAGE / name) for name in _HARNESS_FILES]
    reads += [p for p in _SYSTEM_READ if not any(_beneath(Path(p), h) for h in hidden)]
    return tuple(dict.fromkeys(reads))


def plan(offer: Confinement, *, reads: Iterable[Path], writes: Iterable[Path], memory_bytes: int,
         hidden: Iterable[Path] = ()) -> Plan:
    """The plan of one run: the base reads plus ``reads``; writes only ``writes`` (and ``/dev/null``).

    ``hidden`` are folders that must stay unreadable even where a Python root contains them (the grade's
    scratch root, the reference cache).
    """
    hidden_paths = tuple(sorted({Path(h).resolve() for h in hidden}))
    return Plan(
        read=_base_reads(hidden_paths) + tuple(str(Path(p)) for p in reads),
        write=tuple(str(Path(p)) for p in writes) + _SYSTEM_WRITE,
        listable=(str(_PACKAGE),),
        landlock=offer.landlock, seccomp=offer.seccomp, drop_capabilities=offer.capabilities_dropped,
        memory_bytes=memory_bytes,
    )


# --- what the machine offers ------------------------------------------------------------------------------------

_SELFTEST = r"""
import json, os, signal, socket, sys
sys.path.insert(0, sys.argv[1])
from grader.sandbox.confine import enter_or_exit
secret, scratch = sys.argv[2], sys.argv[3]
enter_or_exit(sys.stdin.readline())
def refused(action):
    try:
        action()
    except OSError:
        return True
    return False
def fork():
    if os.fork() == 0:
        os._exit(0)
print(json.dumps({
    "read_outside": refused(lambda: open(secret).read()),
    "write_outside": refused(lambda: open(secret + ".planted", "w").close()),
    "write_scratch": not refused(lambda: open(os.path.join(scratch, "ok"), "w").close()),
    "socket": refused(lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()),
    "fork": refused(fork),
    "signal_parent": refused(lambda: os.kill(os.getppid(), 0)),
}))
"""


def _try(offer: Confinement) -> dict | None:
    """Confine a throwaway child with ``offer``; what it could and could not do, or None if it could not confine."""
    with tempfile.TemporaryDirectory(prefix="jax-grader-probe-") as tmp:
        secret, scratch = Path(tmp) / "secret", Path(tmp) / "scratch"
        secret.write_text("not for the child")
        scratch.mkdir()
        probe_plan = plan(offer, reads=(), writes=(scratch,), memory_bytes=0, hidden=(Path(tmp),))
        try:
            proc = subprocess.run([sys.executable, "-I", "-c", _SELFTEST, package_parent(), str(secret),
                                   str(scratch)], input=probe_plan.to_json() + "\n", capture_output=True, text=True,
                                  timeout=60, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                                                       **child_env()})
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0:  # EXIT_CONFINEMENT_FAILED, or any other failure to confine
            return None
        try:
            return json.loads(proc.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return None


#: Held while :func:`offered` observes: a run that asks while the warm-up's probe is going waits for its answer.
_OFFERING = threading.Lock()


def offered() -> Confinement:
    """The strongest confinement this machine gives a child, observed on a throwaway child (once per process,
    however many threads ask at once)."""
    with _OFFERING:
        return _offered()


@functools.lru_cache(maxsize=1)
def _offered() -> Confinement:
    machine = offers()
    detail = []
    switched = [name for name in ("landlock", "seccomp") if name in machine.without]
    if switched:
        detail.append(f"{' and '.join(switched)} switched off by {WITHOUT_VAR}")
    elif machine.system != "linux":
        detail.append(f"{machine.name} offers neither Landlock nor seccomp")
    abi = landlock_abi()
    if not abi and machine.landlock:
        detail.append("the kernel offers no Landlock")
    seccomp = seccomp_supported()
    if not seccomp and machine.system == "linux" and "seccomp" not in switched:
        detail.append(f"no seccomp filter for {platform.machine()} here")
    if machine.missing_limits():
        detail.append(machine.limits())
    root = machine.capabilities
    if not (abi or seccomp or root):
        return Confinement(detail=tuple(detail))  # nothing to observe: the limits alone hold
    candidates = [Confinement(abi, seccomp, root), Confinement(abi, False, root), Confinement(0, seccomp, root),
                  Confinement(0, False, root), Confinement(0, False, False)]
    for candidate in dict.fromkeys(candidates):
        seen = _try(candidate)
        if seen is None:
            detail.append(f"a child could not be confined with {candidate.describe()}")
            continue
        if not seen["write_scratch"]:
            detail.append("a confined child could not write its scratch folder")
            continue
        landlock = candidate.landlock if seen["read_outside"] and seen["write_outside"] else 0
        held = seen["socket"] and seen["fork"] and seen["signal_parent"]
        return Confinement(landlock, candidate.seccomp and held, candidate.capabilities_dropped, tuple(detail))
    return Confinement(detail=tuple(detail))


NONE = Confinement(detail=("confinement turned off",))


class ConfinementRefused(RuntimeError):
    """Grading was asked to run fully confined, and this machine cannot."""


def require_full(offer: Confinement) -> None:
    """Raise :class:`ConfinementRefused` unless ``offer`` is full confinement; the message says what to do."""
    if offer.level != "full":
        raise ConfinementRefused(
            f"exercise runs here would be confined only {offer.describe()}; an official grade needs full "
            "confinement (Linux with Landlock ABI 3 or newer and seccomp, x86_64 or aarch64). Grade on such a "
            "machine, or pass --allow-unconfined to grade anyway and accept that a submission could read or "
            "change what it must not.")
