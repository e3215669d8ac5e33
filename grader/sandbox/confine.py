"""Confine a child process before any student code (or any thread) exists in it.

The sandbox's child calls :func:`enter` first thing, with a :class:`Plan` the
parent wrote: which paths it may read, which it may write, and which
mechanisms to apply. Strongest first, each where the machine offers it:

- **rlimits**: address space, file size, open files, no core dumps;
- **capabilities** dropped, when running as root (no mount, raw sockets,
  module loading, reboot, bypassing file permissions...);
- **Landlock** (no privileges needed): reads only beneath the allowed paths,
  writes only in the scratch and results folders, no program executed; from
  ABI 4 no TCP bind or connect, from ABI 6 no signal to and no abstract socket
  of a process outside the child's own domain;
- **seccomp**: no socket at all (every family), no new process (only threads),
  signals only to itself, no ptrace, io_uring, bpf, namespaces, mounts,
  keyrings or ``open_by_handle_at``.

Landlock and seccomp apply to the calling thread and its later children, so
:func:`enter` runs before the harness imports numpy or jax (which start
threads). Anything requested that cannot be applied is an error: the child
exits before student code runs (fail closed). The parent learns what the
machine offers with :func:`probe`, by confining a throwaway child and trying
what must now fail.

Which of these the machine has is :mod:`grader.sandbox.machine`'s to say: on macOS
only the rlimits apply (and ``RLIMIT_AS`` is not enforced there), on Windows
none does; the parent states what held.

Standard library only: this module runs before anything else is importable.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import platform
import signal
import struct
import sys
from dataclasses import asdict, dataclass, field

from grader.sandbox.machine import offers

# --- Landlock (include/uapi/linux/landlock.h) -------------------------------------------------------------------
_SYS_LANDLOCK_CREATE_RULESET, _SYS_LANDLOCK_ADD_RULE, _SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
FS_MAKE_REG, FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1
#: Filesystem rights each ABI can restrict.
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
READ = FS_READ_FILE | FS_READ_DIR
WRITE = (READ | FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG | FS_REFER
         | FS_TRUNCATE)
#: Landlock ABI from which every file write (truncate included) is restricted.
FULL_FILESYSTEM_ABI = 3

# --- seccomp (linux/seccomp.h, linux/filter.h, linux/audit.h) ---------------------------------------------------
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _PR_CAPBSET_DROP, _PR_CAP_AMBIENT = 38, 22, 24, 47
_PR_SET_PDEATHSIG = 1
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_LD_W_ABS, _JEQ_K, _JSET_K, _RET_K = 0x20, 0x15, 0x45, 0x06
_EPERM, _EACCES, _ENOSYS = 1, 13, 38
_CLONE_THREAD = 0x00010000
_X32_SYSCALL_BIT = 0x40000000
#: System calls by architecture: (audit arch, {name: number}). Unknown architectures get no seccomp filter.
_SYSCALLS = {
    "x86_64": (0xC000003E, dict(
        socket=41, clone=56, fork=57, vfork=58, execve=59, kill=62, ptrace=101, rt_sigqueueinfo=129, mount=165,
        umount2=166, reboot=169, init_module=175, delete_module=176, tkill=200, tgkill=234, kexec_load=246,
        add_key=248, request_key=249, keyctl=250, unshare=272, rt_tgsigqueueinfo=297, perf_event_open=298,
        name_to_handle_at=303, open_by_handle_at=304, setns=308, process_vm_readv=310, process_vm_writev=311,
        finit_module=313, bpf=321, execveat=322, userfaultfd=323, pidfd_send_signal=424, io_uring_setup=425,
        io_uring_enter=426, io_uring_register=427, pidfd_open=434, clone3=435)),
    "aarch64": (0xC00000B7, dict(
        umount2=39, mount=40, unshare=97, kexec_load=104, init_module=105, delete_module=106, ptrace=117, kill=129,
        tkill=130, tgkill=131, rt_sigqueueinfo=138, reboot=142, socket=198, add_key=217, request_key=218,
        keyctl=219, clone=220, execve=221, rt_tgsigqueueinfo=240, perf_event_open=241, name_to_handle_at=264,
        open_by_handle_at=265, setns=268, process_vm_readv=270, process_vm_writev=271, finit_module=273,
        bpf=280, execveat=281, userfaultfd=282, pidfd_send_signal=424, io_uring_setup=425, io_uring_enter=426,
        io_uring_register=427, pidfd_open=434, clone3=435)),
}
#: Refused outright (EPERM): other processes, the kernel's own state, escapes from path-based rules.
_DENIED = ("fork", "vfork", "execve", "execveat", "ptrace", "process_vm_readv", "process_vm_writev", "tkill",
           "pidfd_open", "pidfd_send_signal", "mount", "umount2", "unshare", "setns", "reboot", "kexec_load",
           "init_module", "finit_module", "delete_module", "add_key", "request_key", "keyctl", "bpf",
           "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
           "name_to_handle_at", "open_by_handle_at")
#: Allowed only when their first argument is this process (kill also accepts 0 and -pid: its own group).
_SELF_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")

EXIT_CONFINEMENT_FAILED = 97
"""The child's exit status when it could not confine itself; no student code ran."""


class ConfinementError(RuntimeError):
    """A mechanism the plan asked for could not be applied."""


@dataclass(frozen=True)
class Plan:
    """What one child may touch, and which mechanisms confine it; plain data, sent to the child as JSON."""

    read: tuple[str, ...] = ()
    """Paths (folders or files) readable beneath, nothing else."""
    write: tuple[str, ...] = ()
    """Folders writable beneath (scratch and results)."""
    listable: tuple[str, ...] = ()
    """Folders whose entries may be listed, not read (so imports can find the files allowed in them)."""
    landlock: int = 0
    """Landlock ABI to use (0: none)."""
    seccomp: bool = False
    drop_capabilities: bool = False
    memory_bytes: int = 0
    file_bytes: int = 300 << 20
    """Largest file the child may write (``RLIMIT_FSIZE``); above the 256 MiB of results the parent reads."""
    open_files: int = 4096

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Plan:
        data = json.loads(text)
        return cls(**{**data, "read": tuple(data["read"]), "write": tuple(data["write"]),
                      "listable": tuple(data.get("listable", ()))})


@dataclass(frozen=True)
class Confinement:
    """What the machine offers a child, as reports state it."""

    landlock: int = 0
    """Landlock ABI in force (0: none)."""
    seccomp: bool = False
    capabilities_dropped: bool = False
    detail: tuple[str, ...] = field(default=())
    """Why a mechanism is missing, for the reader."""

    @property
    def filesystem(self) -> bool:
        return self.landlock >= FULL_FILESYSTEM_ABI

    @property
    def network(self) -> bool:
        return self.seccomp or self.landlock >= 4

    @property
    def processes(self) -> bool:
        return self.seccomp

    @property
    def level(self) -> str:
        """``full``, ``partial`` or ``none``."""
        held = (self.filesystem, self.network, self.processes)
        return "full" if all(held) else "partial" if any(held) or self.landlock else "none"

    def describe(self) -> str:
        """One line, e.g. ``full (landlock ABI 7, seccomp: no network, no new processes, own signals only)``."""
        parts = []
        if self.landlock:
            parts.append(f"landlock ABI {self.landlock}")
        if self.seccomp:
            parts.append("seccomp: no network, no new processes, own signals only")
        elif self.landlock >= 4:
            parts.append("no TCP")
        if self.capabilities_dropped:
            parts.append("root's capabilities dropped")
        if self.level == "full":
            return f"full ({', '.join(parts)})"
        if self.level == "none":
            return "none" + (f" ({'; '.join(self.detail)})" if self.detail else "")
        missing = [name for name, held in (("filesystem", self.filesystem), ("network", self.network),
                                           ("processes", self.processes)) if not held]
        return f"partial: no {', no '.join(missing)} confinement ({', '.join(parts) or 'nothing'})"

    def to_json(self) -> dict:
        return {"level": self.level, "description": self.describe(), "landlock_abi": self.landlock,
                "seccomp": self.seccomp, "capabilities_dropped": self.capabilities_dropped}


# --- applying a plan (in the child) -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL:
    """The C library, for the Linux mechanisms; called only where :func:`grader.sandbox.machine.offers` has them."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.prctl.restype = ctypes.c_int
    return libc


def _fail(what: str) -> ConfinementError:
    errno = ctypes.get_errno()
    return ConfinementError(f"{what} failed: {os.strerror(errno) if errno else 'unknown error'}")


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is absent or disabled."""
    if not offers().landlock:
        return 0
    abi = _libc().syscall(_SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                        ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(abi), 0)


def seccomp_supported() -> bool:
    return offers().seccomp and platform.machine() in _SYSCALLS


def _set_limits(plan: Plan) -> None:
    """The plan's rlimits, those the machine enforces (:meth:`grader.sandbox.machine.Offers.limits` says which)."""
    if not offers().rlimits:
        return
    import resource

    limits = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, plan.file_bytes)]
    if plan.memory_bytes and offers().memory_limit:
        limits.append((resource.RLIMIT_AS, plan.memory_bytes))
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limits.append((resource.RLIMIT_NOFILE, plan.open_files if hard == resource.RLIM_INFINITY
                   else min(plan.open_files, hard)))
    for which, value in limits:
        resource.setrlimit(which, (value, value))


def _drop_capabilities() -> None:
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        if _libc().prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise _fail("dropping capabilities from the bounding set")
    _libc().prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = struct.pack("=Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = bytes(24)  # two empty {effective, permitted, inheritable} sets
    if _libc().syscall(126 if platform.machine() == "x86_64" else 91, header, data) != 0:  # capset
        raise _fail("capset")


def _landlock(plan: Plan) -> None:
    abi = plan.landlock
    fs = _FS_BY_ABI[max(v for v in _FS_BY_ABI if v <= abi)]
    attr = struct.pack("=QQQ", fs, (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0,
                       (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = _libc().syscall(_SYS_LANDLOCK_CREATE_RULESET, attr[:size], ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise _fail("landlock_create_ruleset")
    try:
        for paths, rights in ((plan.listable, FS_READ_DIR), (plan.read, READ), (plan.write, WRITE)):
            for path in paths:
                _add_path_rule(ruleset, path, rights & fs)
        # No rule for ports: with TCP handled, every bind and connect is refused.
        if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _fail("prctl(PR_SET_NO_NEW_PRIVS)")
        if _libc().syscall(_SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise _fail("landlock_restrict_self")
    finally:
        os.close(ruleset)


def _add_path_rule(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # nothing there to allow
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = struct.pack("=Qi", rights, fd)  # struct landlock_path_beneath_attr is packed
        if _libc().syscall(_SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), rule,
                         ctypes.c_uint32(0)) != 0:
            raise _fail(f"landlock_add_rule({path})")
    finally:
        os.close(fd)


def _seccomp_program() -> bytes:
    """The BPF filter: refuse sockets, processes, foreign signals and the rest of :data:`_DENIED`."""
    arch, numbers = _SYSCALLS[platform.machine()]
    me = os.getpid()
    code: list[tuple[int, int, int, int]] = []

    def op(c: int, k: int, jt: int = 0, jf: int = 0) -> None:
        code.append((c, jt, jf, k))

    errno = lambda e: _RET_ERRNO | e  # noqa: E731
    op(_LD_W_ABS, 4)                                   # seccomp_data.arch
    op(_JEQ_K, arch, 1, 0)
    op(_RET_K, errno(_EPERM))                          # another ABI (e.g. 32-bit): refuse everything
    op(_LD_W_ABS, 0)                                   # seccomp_data.nr
    if platform.machine() == "x86_64":
        op(0x35, _X32_SYSCALL_BIT, 0, 1)               # JGE: x32 system calls
        op(_RET_K, errno(_EPERM))
    for name in _DENIED:
        if name in numbers:
            op(_JEQ_K, numbers[name], 0, 1)
            op(_RET_K, errno(_EPERM))
    op(_JEQ_K, numbers["socket"], 0, 1)
    op(_RET_K, errno(_EACCES))
    op(_JEQ_K, numbers["clone3"], 0, 1)
    op(_RET_K, errno(_ENOSYS))                         # glibc then falls back to clone, checked below
    op(_JEQ_K, numbers["clone"], 0, 4)
    op(_LD_W_ABS, 16)                                  # args[0] (flags), low half
    op(_JSET_K, _CLONE_THREAD, 1, 0)
    op(_RET_K, errno(_EPERM))                          # a new process
    op(_RET_K, _RET_ALLOW)                             # a thread
    for name in _SELF_ONLY:
        allowed = (me, 0, (-me) & 0xFFFFFFFF) if name == "kill" else (me,)
        op(_JEQ_K, numbers[name], 0, 3 + 2 * len(allowed))
        op(_LD_W_ABS, 16)                              # args[0], low half: the target
        for i, target in enumerate(allowed):
            op(_JEQ_K, target, 2 * (len(allowed) - i), 0)
            op(0x05, 0)                                # JA +0 (keeps the jump arithmetic uniform)
        op(_RET_K, errno(_EPERM))
        op(_RET_K, _RET_ALLOW)
    op(_RET_K, _RET_ALLOW)
    return b"".join(struct.pack("=HBBI", c, jt, jf, k) for c, jt, jf, k in code)


def _seccomp() -> None:
    program = _seccomp_program()
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = struct.pack("@HP", len(program) // 8, ctypes.addressof(buffer))  # struct sock_fprog
    if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise _fail("prctl(PR_SET_NO_NEW_PRIVS)")
    if _libc().prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.c_char_p(fprog), 0, 0) != 0:
        raise _fail("prctl(PR_SET_SECCOMP)")


def _die_with_parent() -> None:
    """SIGKILL this process when the one that started it ends, whoever killed that one.

    The run's parent (the grader, or the fork server) is what kills it on a timeout; a run that
    outlived its parent would run on unwatched. If the parent is already gone, exit now.
    """
    if not offers().pdeathsig:
        return  # elsewhere the parent kills the run's tree itself, on time or on its way out
    parent = os.getppid()
    if _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise _fail("prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:
        os._exit(EXIT_CONFINEMENT_FAILED)


def enter(plan: Plan) -> None:
    """Apply ``plan`` to this process, or raise :class:`ConfinementError` (then run nothing untrusted)."""
    _die_with_parent()
    _set_limits(plan)
    if plan.drop_capabilities:
        _drop_capabilities()
    if plan.landlock:
        _landlock(plan)
    if plan.seccomp:
        _seccomp()


def enter_or_exit(plan_json: str) -> None:
    """:func:`enter` for the child's bootstrap: on failure, say why and exit with :data:`EXIT_CONFINEMENT_FAILED`."""
    try:
        enter(Plan.from_json(plan_json))
    except (ConfinementError, OSError, ValueError, KeyError, TypeError) as exc:
        sys.stderr.write(f"jax-autograder: could not confine the child: {exc}\n")
        sys.stderr.flush()
        os._exit(EXIT_CONFINEMENT_FAILED)
