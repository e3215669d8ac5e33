"""Every check and every known mistake, gathered from the exercise packages (``grader/exercises/<id>/checks.py``)."""

from __future__ import annotations

import importlib

from grader.checks import Check, Mistake, common
from grader.exercises import ALL

#: Every exercise's checks, in lesson order: the rubric's order.
CHECKS: list[Check] = [check for e in ALL for check in importlib.import_module(e.checks).CHECKS]


def _collect() -> dict[str, Mistake]:
    found: dict[str, Mistake] = {}
    for module in (common, *(importlib.import_module(e.checks) for e in ALL)):
        for value in vars(module).values():
            if isinstance(value, Mistake):
                found.setdefault(value.id, value)
    return found


MISTAKES: dict[str, Mistake] = _collect()
"""Mistake id -> its first definition; one id may have several hints (seen from different evidence)."""
