"""The batch's memory across runs: ``state.jsonl`` and ``manifest.json`` in OUT_DIR.

``state.jsonl`` gets one JSON line per finished submission, appended and
flushed to disk as soon as it lands, so a batch killed at any moment loses at
most the submissions that were still running; a torn last line is ignored.
The last line for an id wins. A finished batch rewrites the file with one line
per current student.

``manifest.json`` says what the folder holds: which shard of which class,
every student id of that shard, and the settings, so ``merge`` can check that
shards fit together and are complete.

A lock (``.lock``: ``flock``, or ``msvcrt.locking`` on Windows) keeps two
batches from writing one OUT_DIR; the kernel releases it when a batch dies.
Where neither exists, ``.lock.pid`` names the batch holding it, and a batch
that died is recognised by its process id (:class:`grader.sandbox.machine.Lock`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from grader.batch.grading import Outcome
from grader.sandbox.machine import Lock

STATE = "state.jsonl"
MANIFEST = "manifest.json"
LOCK = ".lock"
#: Files and folders a batch creates in OUT_DIR; anything else there means it is not ours.
OWN_NAMES = {STATE, MANIFEST, LOCK, f"{LOCK}.pid", ".work", "students", "grades.csv", "summary.md", "summary.html",
             "histogram.png", ".grades.csv.tmp", ".summary.md.tmp", ".summary.html.tmp", f".{STATE}.tmp",
             f".{MANIFEST}.tmp"}


class OutDirError(RuntimeError):
    """OUT_DIR cannot be used; the message says why and what to do."""


def prepare(out: Path, inputs: tuple[Path, ...] = ()) -> Lock:
    """Create or reuse ``out``, check it is ours, and lock it; return the lock's handle (keep it open)."""
    out = Path(out)
    resolved = out.resolve()
    for source in inputs:
        source = source.resolve()
        if resolved == source or resolved.is_relative_to(source) or source.is_relative_to(resolved):
            raise OutDirError(f"the output folder {out} and {source} must not contain one another; "
                              "choose an output folder elsewhere")
    if out.exists() and not out.is_dir():
        raise OutDirError(f"{out} exists and is not a folder")
    if out.is_dir():
        foreign = sorted(p.name for p in out.iterdir() if p.name not in OWN_NAMES)
        if foreign and not (out / MANIFEST).is_file():
            raise OutDirError(f"{out} already holds files that a batch did not write ({', '.join(foreign[:5])}); "
                              "choose an empty or new output folder")
    out.mkdir(parents=True, exist_ok=True)
    try:
        return Lock(out / LOCK)
    except BlockingIOError as exc:
        raise OutDirError(f"another batch is writing to {out}; wait for it or choose another output folder") from exc


def load(out: Path) -> dict[str, Outcome]:
    """The last outcome recorded for each student; unreadable lines (a torn last write) are skipped."""
    path = Path(out) / STATE
    outcomes: dict[str, Outcome] = {}
    if not path.is_file():
        return outcomes
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                outcome = Outcome.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue
            outcomes[outcome.id] = outcome
    return outcomes


class StateFile:
    """Appends outcomes to ``state.jsonl``, each on disk before the next submission is counted done."""

    def __init__(self, out: Path) -> None:
        self.path = Path(out) / STATE
        self._handle: IO[str] | None = None

    def append(self, outcome: Outcome) -> None:
        if self._handle is None:
            self._terminate_torn_line()
            self._handle = self.path.open("a", encoding="utf-8")
        self._handle.write(json.dumps(outcome.to_json(), sort_keys=True) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def _terminate_torn_line(self) -> None:
        if self.path.is_file() and self.path.stat().st_size:
            with self.path.open("rb+") as handle:
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":
                    handle.write(b"\n")

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def compact(self, outcomes: list[Outcome]) -> None:
        """Rewrite the file with exactly these outcomes (one per student, sorted by id)."""
        self.close()
        tmp = self.path.with_name(f".{STATE}.tmp")
        with tmp.open("w", encoding="utf-8") as handle:
            for outcome in sorted(outcomes, key=lambda o: o.id):
                handle.write(json.dumps(outcome.to_json(), sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(self.path)


def write_manifest(out: Path, data: dict[str, Any]) -> None:
    tmp = Path(out) / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(Path(out) / MANIFEST)


def read_manifest(out: Path) -> dict[str, Any]:
    path = Path(out) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise OutDirError(f"{out} holds no {MANIFEST}: it is not the output folder of a batch") from exc
    except ValueError as exc:
        raise OutDirError(f"{path} is unreadable ({exc})") from exc
