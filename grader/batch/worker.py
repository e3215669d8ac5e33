"""One submission's grading in a process of its own: ``python -m grader.batch.worker JOB.json OUT.json PARENT_PID``.

The batch starts one worker per submission, so a grader failure, a memory
blow-up or a hang in one submission's grading costs that submission only. The
job and the outcome are JSON files (never pickles). The worker dies with the
batch: it asks the kernel for SIGTERM when its parent exits, and on SIGTERM
kills every process it started (the sandboxed children run in sessions of
their own, so no signal reaches them otherwise) before exiting. It is also a
child subreaper, so a daemon that a child leaves behind stays its descendant
and is killed with it.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from pathlib import Path

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the batch still kills the worker's tree itself
        pass


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, found through ``/proc`` (children first seen, then theirs)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_all(pids: list[int]) -> None:
    """SIGKILL each process and its process group (a sandboxed child leads a group of its own)."""
    for pid in pids:
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _on_term(signum: int, frame: object) -> None:
    kill_all(descendants(os.getpid()))
    os._exit(128 + signum)


def main(argv: list[str]) -> int:
    job_path, out_path, parent = Path(argv[0]), Path(argv[1]), int(argv[2])
    signal.signal(signal.SIGTERM, _on_term)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    if os.getppid() != parent:  # the batch died before the request above took effect
        return 1
    from grader.batch.discover import Entry
    from grader.batch.grading import Settings, grade_entry

    job = json.loads(job_path.read_text(encoding="utf-8"))
    entry = Entry(job["id"], tuple(Path(p) for p in job["paths"]), job["kind"])
    outcome = grade_entry(entry, Settings.from_json(job["settings"]), Path(job["scratch"]), job["key"])
    tmp = out_path.with_name(out_path.name + ".tmp")
    tmp.write_text(json.dumps(outcome.to_json()), encoding="utf-8")
    tmp.replace(out_path)
    kill_all(descendants(os.getpid()))  # leftovers of this submission's children, if any
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
