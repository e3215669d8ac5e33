"""The lesson's own questions, answered from what the student's code did (shown, never scored).

Each exercise that has one answers it in its package (``grader/exercises/<id>/lesson.py``: ``question``
from the observations of the run its record names, ``describe`` in one sentence); this module asks them all.
"""

from __future__ import annotations

import importlib
from typing import Any

from grader.exercises import ALL


def _asked() -> list[tuple[str, str, Any]]:
    """(exercise, the run that answers it, its lesson module) for each exercise with a question."""
    return [(e.id, e.question_from, importlib.import_module(f"{e.package}.lesson")) for e in ALL if e.question_from]


def answer(observed: dict[str, Any]) -> dict[str, Any]:
    """The questions that the runs' observations (``exercise -> Observations``) answer, by exercise."""
    answered = {exercise: module.question(observed.get(source)) for exercise, source, module in _asked()}
    return {exercise: value for exercise, value in answered.items() if value}


def describe(lesson: dict[str, Any]) -> list[str]:
    """One sentence per question answered, for the terminal and the notebook."""
    return [module.describe(lesson[exercise]) for exercise, _, module in _asked() if lesson.get(exercise)]
