"""How to grade: the one configuration, plain frozen data.

:class:`Options` says how a submission is graded, by a single grade, a
batch, ``--watch``, ``grader.check()`` in a notebook and ``explain`` alike.
A batch's own settings (where the class is, where its outputs go, how many
submissions at once) sit in :class:`BatchOptions`, nested in ``Options.batch``.
The command line builds one from its arguments in one function
(:func:`grader.cli.options.configure`); a batch worker receives one as JSON
(:meth:`Options.to_json`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.exercises import IDS as EXERCISES
from grader.observations import Limits

#: Largest unpacked .zip submission a batch accepts, in MiB (``--max-archive-mb``).
MAX_ARCHIVE_MB = 50.0
#: The batch's per-student files by default (``--formats`` adds to them).
DEFAULT_FORMATS: tuple[str, ...] = ("json", "markdown")


@dataclass(frozen=True)
class BatchOptions:
    """What only a batch has: the class, the output folder, and how the class is scheduled."""

    submissions: Path | None = None
    out: Path | None = None
    jobs: int = 0
    """Submissions graded at once; 0 means one per CPU core."""
    force: bool = False
    """Grade everything again, even submissions already graded with the same content and options."""
    shard: tuple[int, int] = (1, 1)
    """``(K, N)``: grade only slice K (1-based) of N."""
    formats: tuple[str, ...] = DEFAULT_FORMATS
    isolate: bool = True
    """Grade each submission in a worker process (``--in-process`` turns it off)."""
    submission_timeout: float | None = None
    """Deadline for one submission's whole grading; ``None``: every exercise's timeout in turn, plus 2 minutes."""
    dask: str | None = None
    """Address of a Dask scheduler: grade each submission as a task there (:mod:`grader.batch.distributed`)."""
    max_archive_mb: float = MAX_ARCHIVE_MB
    """Refuse a .zip submission that unpacks to more than this."""


@dataclass(frozen=True)
class Options:
    """How to grade."""

    only: tuple[str, ...] = EXERCISES
    """Exercises (and/or ``accuracy``) to grade."""
    limits: Limits = Limits()
    jobs: int = 0
    """Exercise runs at once; 0 means one per CPU core (in a batch: chosen by the batch)."""
    reference_dir: Path | None = None
    cache_dir: Path | None = None
    """Where reference observations are cached; ``None`` means the user cache folder."""
    use_cache: bool = True
    """False: recompute the reference observations (in a batch: once, kept in its output folder)."""
    reference_digest: str | None = None
    """If set, refuse cached reference results whose digest differs (set by batch grading)."""
    plots_dir: Path | None = None
    require_confinement: bool = False
    """Refuse to grade (:class:`~grader.sandbox.policy.ConfinementRefused`) unless every child runs fully confined."""
    seed: int | None = None
    """Draw every input from this seed (the official grade's secret inputs); ``None``: the public inputs."""
    lesson: bool = True
    """Answer the lesson's questions (shown, never scored: the terminal and notebook reports, ``--plots``);
    a batch, whose reports show them nowhere, leaves them out."""
    keep_compiled: bool = False
    """Against a sealed reference on the public inputs, let the exercise runs keep what they compile for this
    submission path's next grade (:mod:`grader.compiled_cache`): a student's own grades set it, a batch never."""
    batch: BatchOptions = BatchOptions()

    def to_json(self) -> dict[str, Any]:
        """What a grading process needs to grade as this one would (the batch's class and outputs left out)."""
        def text(path: Path | None) -> str | None:
            return None if path is None else str(path)

        return {"only": list(self.only), "timeout": self.limits.timeout,
                "memory_gb": self.limits.memory_bytes / 2**30, "confine": self.limits.confine,
                "fork": self.limits.fork, "jobs": self.jobs, "reference_dir": text(self.reference_dir),
                "cache_dir": text(self.cache_dir), "use_cache": self.use_cache,
                "reference_digest": self.reference_digest, "plots_dir": text(self.plots_dir),
                "require_confinement": self.require_confinement, "seed": self.seed, "lesson": self.lesson,
                "keep_compiled": self.keep_compiled, "max_archive_mb": self.batch.max_archive_mb}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        def path(key: str) -> Path | None:
            return Path(data[key]) if data.get(key) else None

        limits = Limits(timeout=float(data["timeout"]), memory_bytes=int(float(data["memory_gb"]) * 2**30),
                        confine=bool(data.get("confine", True)), fork=bool(data.get("fork", True)))
        return cls(only=tuple(data["only"]), limits=limits, jobs=int(data["jobs"]),
                   reference_dir=path("reference_dir"), cache_dir=path("cache_dir"),
                   use_cache=bool(data.get("use_cache", True)), reference_digest=data.get("reference_digest"),
                   plots_dir=path("plots_dir"), require_confinement=bool(data.get("require_confinement", False)),
                   seed=None if data.get("seed") is None else int(data["seed"]),
                   lesson=bool(data.get("lesson", True)), keep_compiled=bool(data.get("keep_compiled", False)),
                   batch=BatchOptions(max_archive_mb=float(data.get("max_archive_mb", MAX_ARCHIVE_MB))))
