"""The exercises of the lesson, one package each (``grader/exercises/<id>/``), in lesson order.

Everything else in the grader reads this registry. Adding an exercise is one package here (see
:class:`~grader.exercises.record.Exercise` for what it holds), its name in :data:`ORDER`, its points in
``rubric.toml`` and its stub and reference files. Standard library only: the sandboxed child reads this
before it imports anything else, and the judging side reads it without importing jax.
"""

from __future__ import annotations

import importlib

from grader.exercises.record import CHILD_SIDE, Exercise

__all__ = ["ALL", "BY_ID", "CHILD_FILES", "IDS", "MODULES", "ORDER", "REFERENCED", "WARMED", "Exercise", "exercises_using", "title_of"]

#: The exercise packages, in lesson order.
ORDER = ("ex1", "ex2", "ex3", "ex4", "ex5", "accuracy")

ALL: tuple[Exercise, ...] = tuple(importlib.import_module(f"{__name__}.{name}").EXERCISE for name in ORDER)
BY_ID = {e.id: e for e in ALL}
IDS = tuple(e.id for e in ALL)
#: The exercises judged against a reference run (the accuracy threshold is calibrated offline).
REFERENCED = tuple(e.id for e in ALL if e.reference)
#: The exercises the reference also runs, for its compilation cache alone: a student's run of them then loads
#: what the reference compiled (the lesson training, its jitted step above all) instead of compiling it.
WARMED = tuple(e.id for e in ALL if not e.reference)
#: The file of each lesson exercise (``ex1`` -> ``ex1_dropout``), in lesson order.
MODULES = {e.id: e.modules[0] for e in ALL if e.reference}
#: The files of this package a confined child reads, relative to the ``grader`` package.
CHILD_FILES = ("exercises/__init__.py", "exercises/record.py",
               *(f"exercises/{e.id}/{name}" for e in ALL for name in CHILD_SIDE))


def exercises_using(exercise: str) -> tuple[str, ...]:
    """The exercises whose run imports ``exercise``'s file: itself, and ``accuracy`` for ex1, ex3 and ex5."""
    module = MODULES.get(exercise)
    return tuple(e.id for e in ALL if e.id == exercise or module in e.modules)


def title_of(exercise: str) -> str:
    """The exercise's title; an unknown id stands for itself."""
    return BY_ID[exercise].title if exercise in BY_ID else exercise
