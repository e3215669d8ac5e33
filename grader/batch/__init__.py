"""Batch grading: a whole class in one command (``python -m grader batch``), and shard merging.

``discover`` finds and unpacks submissions, ``grading`` grades one and says
what happened, ``runner`` schedules the class and resumes, ``pool`` keeps the
worker processes (``worker``) busy, ``outputs`` and ``summary`` write what the
instructor reads, ``merge`` combines shards. How to grade is
:class:`grader.config.Options`, the batch's own part in ``Options.batch``.
"""

from __future__ import annotations

from grader.batch.discover import Entry, InvalidSubmission
from grader.batch.grading import STATUSES, Outcome, grade_entry
from grader.batch.merge import MergeError, merge
from grader.batch.runner import BatchResult, run_batch
from grader.batch.worker import Worker, worker_job
from grader.config import BatchOptions, Options

__all__ = [
    "BatchOptions",
    "BatchResult",
    "Entry",
    "InvalidSubmission",
    "MergeError",
    "Outcome",
    "STATUSES",
    "Worker",
    "Options",
    "grade_entry",
    "merge",
    "run_batch",
    "worker_job",
]
