"""A child's process tree: started as a group of its own, running this grader package; listed; killed whole.

How each step is done here is :mod:`grader.sandbox.machine`'s to say (POSIX
sessions, Windows process groups and ``taskkill /T``, ``/proc`` or ``ps``);
these functions are the only ones in the grader that start a tree or kill one.

Standard library only.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any, Iterable

from grader.sandbox.machine import offers

#: The variable that marks every process of one fresh run (:func:`kill_marked`).
MARKER_VAR = "JAX_GRADER_SANDBOX"


def package_parent() -> str:
    """The folder holding this very grader package: a child process started by the grader puts it first on its
    path, so it runs the same grader, not one found from its working folder, ``PYTHONPATH`` or an install."""
    return str(Path(__file__).resolve().parents[2])


def new_group() -> dict[str, Any]:
    """``subprocess.Popen`` arguments that start a process leading a tree of its own, so it can be killed whole."""
    if offers().sessions:
        return {"start_new_session": True}
    if offers().system == "windows":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {}


def kill(pid: int) -> None:
    """Kill one process now; a process already gone is fine."""
    try:
        os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows: TerminateProcess
    except (ProcessLookupError, PermissionError, OSError):
        pass


def kill_tree(pid: int) -> None:
    """Kill ``pid`` and what it started: its process group (POSIX), its tree (``taskkill /T``), else itself."""
    if offers().sessions:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    elif offers().system == "windows":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    kill(pid)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children first seen, then theirs); empty where processes cannot be listed."""
    parents: dict[int, int] = {}
    table = offers().process_table
    if table == "proc":
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rfind(")") + 2:].split()[1])
    elif table == "ps":
        try:
            listing = subprocess.run(["ps", "-A", "-o", "pid=,ppid="], capture_output=True, text=True,
                                     timeout=30, check=False).stdout
        except (OSError, subprocess.TimeoutExpired):
            listing = ""
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) == 2 and fields[0].isdigit() and fields[1].isdigit():
                parents[int(fields[0])] = int(fields[1])
    children: dict[int, list[int]] = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def processes_with_variable(assignment: str) -> list[int]:
    """Processes whose environment holds ``NAME=value``; only ``/proc`` shows that, elsewhere none are found."""
    if offers().process_table != "proc":
        return []
    needle, found = assignment.encode(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def kill_trees(pids: Iterable[int]) -> None:
    """:func:`kill_tree` for each process."""
    for pid in pids:
        kill_tree(pid)


def kill_marked(marker: str) -> None:
    """Kill every process whose environment carries this run's marker (where processes' environments are readable)."""
    for pid in processes_with_variable(f"{MARKER_VAR}={marker}"):
        kill(pid)
