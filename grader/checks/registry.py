"""Every check and every known mistake, gathered from the exercise packages (``grader/exercises/<id>/checks.py``).

The checks' declarations are validated here, when they are gathered: what a check requires or reads must be
a check of the same exercise, and no check may depend on itself.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

from grader.checks import Check, Context, Mistake, Unfinished, Verdict, common
from grader.exercises import ALL


class CheckDefinitionError(ValueError):
    """A check's ``requires`` or ``reads`` names a check it cannot depend on; aimed at whoever writes checks."""


def _validated(checks: list[Check]) -> list[Check]:
    by_id = {c.id: c for c in checks}
    for check in checks:
        for field, named in (("requires", check.requires), ("reads", check.reads)):
            bad = [r for r in named if r not in by_id or by_id[r].exercise != check.exercise]
            if bad:
                raise CheckDefinitionError(f"{check.id}: {field} {bad}: a check it names must exist and belong to "
                                           f"the same exercise ({check.exercise})")

    def depends(check_id: str, seen: tuple[str, ...]) -> None:
        if check_id in seen:
            raise CheckDefinitionError(f"{check_id} depends on itself: {' -> '.join((*seen, check_id))}")
        check = by_id[check_id]
        for needed in (*check.requires, *check.reads):
            depends(needed, (*seen, check_id))

    for check in checks:
        depends(check.id, ())
    return checks


#: Every exercise's checks, in lesson order: the rubric's order.
CHECKS: list[Check] = _validated([check for e in ALL for check in importlib.import_module(e.checks).CHECKS])
BY_ID: dict[str, Check] = {c.id: c for c in CHECKS}


def judge_alone(check_id: str, ctx: Context) -> Verdict:
    """One check's verdict on ``ctx``'s observations, the checks it reads judged first (for tests and tools)."""
    verdicts: dict[str, Verdict | BaseException] = {}
    for needed in BY_ID[check_id].reads:
        try:
            verdicts[needed] = judge_alone(needed, ctx)
        except (Exception, Unfinished) as exc:  # noqa: BLE001 - raised again where the judge reads it
            verdicts[needed] = exc
    return BY_ID[check_id].judge(replace(ctx, verdicts=verdicts))


def _collect() -> dict[str, Mistake]:
    found: dict[str, Mistake] = {}
    for module in (common, *(importlib.import_module(e.checks) for e in ALL)):
        for value in vars(module).values():
            if isinstance(value, Mistake):
                found.setdefault(value.id, value)
    return found


MISTAKES: dict[str, Mistake] = _collect()
"""Mistake id -> its first definition; one id may have several hints (seen from different evidence)."""
