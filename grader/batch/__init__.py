"""Batch grading: a whole class in one command (``python -m grader batch``), and shard merging.

``discover`` finds and unpacks submissions, ``grading`` grades one and says
what happened, ``runner`` schedules the class and resumes, ``outputs`` and
``summary`` write what the instructor reads, ``merge`` combines shards.
"""

from __future__ import annotations

from grader.batch.discover import Entry, InvalidSubmission
from grader.batch.grading import STATUSES, Outcome, Settings, grade_entry
from grader.batch.merge import MergeError, merge
from grader.batch.runner import BatchConfig, BatchResult, run_batch

__all__ = [
    "BatchConfig",
    "BatchResult",
    "Entry",
    "InvalidSubmission",
    "MergeError",
    "Outcome",
    "STATUSES",
    "Settings",
    "grade_entry",
    "merge",
    "run_batch",
]
