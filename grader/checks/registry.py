"""Every known mistake by id, gathered from the check modules (for the corpus tests and the docs)."""

from __future__ import annotations

from grader.checks import Mistake, common, ex1, ex2, ex3, ex4, ex5


def _collect() -> dict[str, Mistake]:
    found: dict[str, Mistake] = {}
    for module in (common, ex1, ex2, ex3, ex4, ex5):
        for value in vars(module).values():
            if isinstance(value, Mistake):
                found.setdefault(value.id, value)
    return found


MISTAKES: dict[str, Mistake] = _collect()
"""Mistake id -> its first definition; one id may have several hints (seen from different evidence)."""
