"""Watch one running child until it ends or its time is up: its output kept to a bound, its deadline, its end.

Both kinds of child, a fresh interpreter (:mod:`grader.sandbox.launch`) and a
child of the fork server (:mod:`grader.sandbox.forkserver`), are started
behind :class:`Child` and supervised by :func:`supervise`, the same way: its
stdout and stderr are drained in threads keeping their first bytes, it gets
until the deadline, and then it is killed with everything it started, whether
it ended or not.

Standard library only.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

#: Seconds a killed child may take to be reaped; one that takes longer counts as killed (``-9``).
_REAP_SECONDS = 30


class Child(Protocol):
    """A running child, however it was started."""

    stdout: BinaryIO
    """The read end of the child's stdout."""
    stderr: BinaryIO
    """The read end of the child's stderr."""

    def wait(self, timeout: float | None) -> int | None:
        """Its return code once it has ended (``subprocess`` style: ``-N`` for signal N), or None if it is still
        running after ``timeout`` seconds."""

    def kill(self) -> None:
        """End it and every process it started; called once, when it has ended or its time is up."""


@dataclass
class Ended:
    """How a child ended, and what it printed."""

    returncode: int
    timed_out: bool
    stdout: HeadReader
    stderr: HeadReader


def supervise(child: Child, timeout: float, output_bytes: int) -> Ended:
    """Wait for ``child`` at most ``timeout`` seconds, keeping ``output_bytes`` of each of its outputs; then kill it
    and what it started, whatever happened."""
    stdout, stderr = HeadReader(child.stdout, output_bytes), HeadReader(child.stderr, output_bytes)
    returncode: int | None = None
    try:
        returncode = child.wait(timeout)
    finally:
        timed_out = returncode is None
        child.kill()
        if timed_out:
            returncode = child.wait(_REAP_SECONDS)
        stdout.join()
        stderr.join()
    return Ended(-9 if returncode is None else returncode, timed_out, stdout, stderr)


class HeadReader:
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
