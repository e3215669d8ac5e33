"""Load and validate the rubric: points per check and the accuracy threshold."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from grader.checks import Check


class RubricError(ValueError):
    """The rubric file and the checks disagree; aimed at whoever edits the rubric."""


@dataclass(frozen=True)
class AccuracyRule:
    threshold: float
    floor: float
    reference_mean: float
    reference_std: float


@dataclass(frozen=True)
class Rubric:
    points: dict[str, float]
    accuracy: AccuracyRule
    requires: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Check id -> checks that must earn some credit before it is judged."""

    @property
    def total(self) -> float:
        return sum(self.points.values())


def load_rubric(checks: list[Check], path: Path | None = None) -> Rubric:
    """Read ``rubric.toml`` (or ``path``) and check it covers exactly ``checks``."""
    text = path.read_text() if path else resources.files("grader").joinpath("rubric.toml").read_text()
    where = str(path) if path else "grader/rubric.toml"
    try:
        data = tomllib.loads(text)
        points = {str(k): float(v) for k, v in data["points"].items()}
        requires = {str(k): tuple(str(r) for r in v) for k, v in data.get("requires", {}).items()}
        acc = data["accuracy"]
        rule = AccuracyRule(float(acc["threshold"]), float(acc["floor"]), float(acc.get("reference_mean", 0.0)),
                            float(acc.get("reference_std", 0.0)))
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise RubricError(f"{where} is malformed ({exc}); it needs a [points] table and an [accuracy] table "
                          "with threshold and floor") from exc
    ids = [c.id for c in checks]
    missing = sorted(set(ids) - set(points))
    unknown = sorted(set(points) - set(ids))
    if missing or unknown:
        raise RubricError(f"{where} does not match the checks: missing points for {missing}; "
                          f"points for unknown checks {unknown}. Valid ids: {ids}")
    negative = sorted(k for k, v in points.items() if v < 0)
    if negative:
        raise RubricError(f"{where}: points must be >= 0, got negative points for {negative}")
    if not 0 <= rule.floor < rule.threshold <= 1:
        raise RubricError(f"{where}: need 0 <= floor < threshold <= 1, got floor={rule.floor}, "
                          f"threshold={rule.threshold}")
    exercise = {c.id: c.exercise for c in checks}
    for check_id, needed in requires.items():
        bad = [r for r in needed if exercise.get(r) is None or exercise.get(r) != exercise.get(check_id)]
        if bad:
            raise RubricError(f"{where}: [requires] {check_id!r} -> {bad}: a required check must exist and "
                              "belong to the same exercise")
        if check_id in needed or any(check_id in requires.get(r, ()) for r in needed):
            raise RubricError(f"{where}: [requires] {check_id!r} requires itself (directly or via {needed})")
    return Rubric(points, rule, requires)
