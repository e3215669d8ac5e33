"""Grading processes for a batch: each grades submissions one at a time, given to it as job files.

``python -m grader.batch.worker PARENT_PID`` reads one job path per line on
stdin and, for each, writes the job's outcome file (JSON, never a pickle)
before it reads the next line; it exits at the end of its input. A worker
lives for many submissions, so Python, the grader and the fork server's JAX
import (:mod:`grader.sandbox.forkserver`) are paid once per worker, not once per
submission; the batch still owns each submission's deadline: a worker past it
is killed with everything it started, and that submission alone gets a
``timeout`` row, as a worker that dies gives only its current submission an
``error`` row. After each submission the worker kills whatever that
submission's runs left behind, so nothing of one submission lives into the
next.

The worker dies with the batch: on Linux it asks the kernel for SIGTERM when
its parent exits, and on SIGTERM kills every process it started (the
sandboxed children run in sessions of their own, so no signal reaches them
otherwise) before exiting. It is also a child subreaper there, so a daemon
that a child leaves behind stays its descendant and is killed with it.
Elsewhere (:mod:`grader.sandbox.machine`) the worker ends when the batch closes its
input, and processes are listed with ``ps`` (macOS) or killed as a tree with
``taskkill /T`` (Windows).

:class:`Worker` is the batch's side of one such process.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from grader.sandbox import machine
from grader.sandbox.tree import descendants, kill_trees, new_group, package_parent

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36

#: The worker runs the very grader package the batch runs (:func:`grader.sandbox.tree.package_parent`).
_START = ("import sys; sys.path.insert(0, sys.argv[1]); "
          "from grader.batch.worker import main; sys.exit(main(sys.argv[2:]))")


def worker_job(entry, options, folder: Path, key: str = "") -> dict:
    """The job that has a worker grade ``entry`` (a :class:`~grader.batch.discover.Entry`) with ``options``
    (:class:`~grader.config.Options`), unpacking into ``folder``; ``key`` is copied into its outcome."""
    return {"id": entry.id, "paths": [str(p) for p in entry.paths], "kind": entry.kind, "key": key,
            "options": options.to_json(), "scratch": str(folder)}


class Worker:
    """One worker process, seen from the batch: give it a job, poll for the outcome, stop it.

    ``log`` receives the worker's output (a line naming each submission as it starts), for the error
    row of a worker that dies.
    """

    def __init__(self, log: Path) -> None:
        self.log = log
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _START, package_parent(), str(os.getpid())], stdin=subprocess.PIPE,
                stdout=out, stderr=subprocess.STDOUT, **new_group())
        self.jobs = 0

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def submit(self, job: dict, folder: Path) -> Path:
        """Write ``job`` into ``folder`` and hand it over; returns where its outcome will appear."""
        (folder / "job.json").write_text(json.dumps({**job, "outcome": str(folder / "outcome.json")}),
                                         encoding="utf-8")
        self.proc.stdin.write(f"{folder / 'job.json'}\n".encode())
        self.proc.stdin.flush()  # BrokenPipeError when the worker is gone: the caller starts another
        self.jobs += 1
        return folder / "outcome.json"

    def close(self, timeout: float = 30) -> None:
        """No more jobs: the worker exits once its current one is done (or is stopped after ``timeout``)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()

    def stop(self) -> None:
        """SIGTERM the worker (it kills its children), then SIGKILL whatever of its tree is left."""
        tree = descendants(self.proc.pid)
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        kill_trees([self.proc.pid, *tree])
        self.proc.wait()
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def tail(self, limit: int = 600) -> str:
        """The last lines of the worker's output, for an error row."""
        try:
            text = self.log.read_bytes()[-limit:].decode("utf-8", "replace")
        except OSError:
            return "(no output)"
        return " | ".join(line for line in text.strip().splitlines()[-4:]) or "(no output)"


# --- the worker process -----------------------------------------------------------------------------------------

def _on_term(signum: int, frame: object) -> None:
    kill_trees(descendants(os.getpid()))
    os._exit(128 + signum)


def _grade(job: dict) -> dict:
    from grader.batch.discover import Entry
    from grader.batch.grading import Outcome, grade_entry
    from grader.config import Options

    entry = Entry(job["id"], tuple(Path(p) for p in job["paths"]), job["kind"])
    tmp = Path(job["scratch"]) / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    os.environ["TMPDIR"] = str(tmp)  # the engine's scratch folders stay inside the job's folder
    tempfile.tempdir = None
    try:
        outcome = grade_entry(entry, Options.from_json(job["options"]), Path(job["scratch"]), job["key"])
    except BaseException as exc:  # noqa: BLE001 - grade_entry returns rows; this is memory or worse
        outcome = Outcome(entry.id, "error", f"the grader failed on this submission ({type(exc).__name__}: "
                                             f"{exc}); this is a grader problem, not the student's",
                          key=job["key"], source=entry.describe())
    return outcome.to_json()


def _leftovers() -> list[int]:
    """Processes this worker started that are not its fork server (kept for the next submission)."""
    from grader.sandbox import forkserver

    keep = forkserver.server_pid()
    return [pid for pid in descendants(os.getpid()) if pid != keep]


def main(argv: list[str]) -> int:
    parent = int(argv[0])
    signal.signal(signal.SIGTERM, _on_term)
    machine.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)  # Linux; elsewhere the batch kills the worker's tree
    machine.prctl(_PR_SET_CHILD_SUBREAPER, 1)
    if machine.offers().pdeathsig and os.getppid() != parent:  # the batch died before the request took effect
        return 1
    for line in sys.stdin:
        job_path = Path(line.strip())
        job = json.loads(job_path.read_text(encoding="utf-8"))
        print(f"--- grading {job['id']}", flush=True)
        outcome = _grade(job)
        kill_trees(_leftovers())  # what this submission's runs left, if anything, before the next one starts
        out = Path(job["outcome"])
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(outcome), encoding="utf-8")
        tmp.replace(out)
        gc.collect()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
