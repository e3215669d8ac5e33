"""Load and validate the rubric (points per check) and the accuracy check's rule.

``rubric.toml`` holds the points an instructor changes. The accuracy rule (threshold and floor) belongs to
the accuracy check, in ``grader/exercises/accuracy/rule.toml``, and is given to the check's factory. What a
check needs before it is judged (``requires``) is part of the check, in ``grader/exercises/<id>/checks.py``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from grader.checks import Check

#: Said when a rubric still has a ``[requires]`` table.
REQUIRES_MOVED = ("{where}: a [requires] table is no longer read: what a check requires is declared on the "
                  "check itself (Check(..., requires=(...)) in grader/exercises/<exercise>/checks.py); "
                  "rubric.toml holds points only. Remove the table.")
#: Said when a rubric still has an ``[accuracy]`` table.
ACCURACY_MOVED = ("{where}: an [accuracy] table is no longer read here: the accuracy rule is the accuracy check's "
                  "own, in grader/exercises/accuracy/rule.toml. Move threshold and floor there and remove the table.")
RULE = "exercises/accuracy/rule.toml"


class RubricError(ValueError):
    """The rubric file and the checks disagree; aimed at whoever edits the rubric."""


@dataclass(frozen=True)
class AccuracyRule:
    """Full marks from ``threshold``; partial credit grows linearly from ``floor`` (none)."""

    threshold: float
    floor: float
    reference_mean: float
    reference_std: float


@dataclass(frozen=True)
class Rubric:
    points: dict[str, float]

    @property
    def total(self) -> float:
        return sum(self.points.values())


def _read(path: Path | None, shipped: str, needs: str) -> tuple[dict[str, Any], str]:
    text = path.read_text() if path else resources.files("grader").joinpath(shipped).read_text()
    where = str(path) if path else f"grader/{shipped}"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RubricError(f"{where} is malformed ({exc}); it needs {needs}") from exc
    return data, where


_POINTS = "a [points] table of check id = points"
_RULE = "an [accuracy] table with threshold and floor"


def load_accuracy_rule(path: Path | None = None) -> AccuracyRule:
    """The accuracy check's rule, ``grader/exercises/accuracy/rule.toml`` (or ``path``): given to its factory."""
    data, where = _read(path, RULE, _RULE)
    try:
        acc = data["accuracy"]
        rule = AccuracyRule(float(acc["threshold"]), float(acc["floor"]), float(acc.get("reference_mean", 0.0)),
                            float(acc.get("reference_std", 0.0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise RubricError(f"{where} is malformed ({exc}); it needs {_RULE}") from exc
    if not 0 <= rule.floor < rule.threshold <= 1:
        raise RubricError(f"{where}: need 0 <= floor < threshold <= 1, got floor={rule.floor}, "
                          f"threshold={rule.threshold}")
    return rule


def load_rubric(checks: list[Check], path: Path | None = None) -> Rubric:
    """Read ``rubric.toml`` (or ``path``) and check it covers exactly ``checks``."""
    data, where = _read(path, "rubric.toml", _POINTS)
    if "requires" in data:
        raise RubricError(REQUIRES_MOVED.format(where=where))
    if "accuracy" in data:
        raise RubricError(ACCURACY_MOVED.format(where=where))
    try:
        points = {str(k): float(v) for k, v in data["points"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RubricError(f"{where} is malformed ({exc}); it needs {_POINTS}") from exc
    ids = [c.id for c in checks]
    missing = sorted(set(ids) - set(points))
    unknown = sorted(set(points) - set(ids))
    if missing or unknown:
        raise RubricError(f"{where} does not match the checks: missing points for {missing}; "
                          f"points for unknown checks {unknown}. Valid ids: {ids}")
    negative = sorted(k for k, v in points.items() if v < 0)
    if negative:
        raise RubricError(f"{where}: points must be >= 0, got negative points for {negative}")
    return Rubric(points)
