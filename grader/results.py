"""Plain-data result types passed between grading, scoring and the report writers.

Nothing here renders or mutates itself: writers read these, and ``to_json`` /
``from_json`` are the only serialisation (never pickle).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

SCHEMA_VERSION = 1

Status = Literal["pass", "fail", "error", "skipped"]

RunStatus = Literal["ok", "crashed", "timeout", "memory", "bad_output", "not_run", "harness"]
#: How each way an exercise run can end reads in a sentence ("ex3 crashed"); ``ok`` needs no words.
RUN_ENDINGS: dict[str, str] = {
    "ok": "ran to the end",
    "crashed": "crashed",
    "timeout": "ran too long",
    "memory": "ran out of memory",
    "bad_output": "produced unreadable results",
    "not_run": "was not run",
    "harness": "failed in the grader before any of the submission's code ran",
}


@dataclass(frozen=True)
class RunRecord:
    """How one exercise's run ended: the cause as data, for batch statuses and the writers."""

    status: RunStatus
    detail: str = ""
    """Why, in words for a person (signal, time limit, missing file...); empty when ``ok``."""
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        """The child reported its observations (student exceptions inside it still cost points)."""
        return self.status == "ok"

    def sentence(self, exercise: str) -> str:
        return f"{exercise} {RUN_ENDINGS[self.status]}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunRecord:
        status = data.get("status")
        if status not in RUN_ENDINGS:
            raise ValueError(f"unknown run status {status!r}; expected one of {', '.join(RUN_ENDINGS)}")
        return cls(status=status, detail=str(data.get("detail", "")), seconds=float(data.get("seconds", 0.0)))


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one rubric item."""

    id: str
    """Stable identifier, ``<exercise>.<name>``, e.g. ``ex1.rescale``."""
    exercise: str
    """One of :data:`grader.exercises.IDS`."""
    name: str
    """What was checked, in a short sentence."""
    status: Status
    score: float
    max_score: float
    message: str = ""
    """What was compared and what came out (for failures and errors)."""
    hint: str = ""
    """The likely mistake and what to do about it."""
    seconds: float = 0.0
    """Wall time of the exercise run this check was judged from."""
    mistake: str = ""
    """The id of the known mistake the hint names (``ex3.sigmoid_for_relu``); "" when it names none."""
    reproduce: dict[str, Any] | None = None
    """For a failed value check: how to see the failure in Python (``grader.reproduce``), as plain data."""
    file: str = ""
    """For an error raised by the student's code: the exercise file it was raised in (``ex1_dropout.py``), from
    the innermost frame of the student's own code in the traceback; "" when unknown."""
    line: int = 0
    """The line of that frame in ``file`` (1-based); 0 when unknown."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CheckResult:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class Report:
    """A graded submission: every check's verdict plus context for the reader."""

    checks: tuple[CheckResult, ...]
    submission: str = ""
    answers: str | None = None
    """The prose answers (``answers.md``), shown to a person, never scored."""
    accuracy: dict[str, float] = field(default_factory=dict)
    """Held-out accuracy, threshold and training details of the end-to-end run."""
    timings: dict[str, float] = field(default_factory=dict)
    """Wall seconds per exercise run, and ``total``."""
    notes: tuple[str, ...] = ()
    """Grader-level remarks (missing files, skipped exercises...)."""
    runs: dict[str, RunRecord] = field(default_factory=dict)
    """How each graded exercise's run ended, by exercise id."""
    confinement: dict[str, Any] = field(default_factory=dict)
    """How the exercise runs were confined: ``level`` (full, partial, none), ``description`` and the mechanisms."""
    inputs: dict[str, str] = field(default_factory=dict)
    """What it was graded on: ``{"kind": "public", "note": ...}`` or ``{"kind": "secret seed"}`` (never the seed)."""
    reference: dict[str, Any] = field(default_factory=dict)
    """What it was judged against: ``{"kind": "code"}``, or ``{"kind": "sealed", "versions": {...}}``."""
    lesson: dict[str, Any] = field(default_factory=dict)
    """The lesson's own questions answered from the student's code (``grader.lesson``): shown, not scored."""

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 4)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 4)

    def __repr__(self) -> str:  # short, for a notebook cell that ends with grader.check(...)
        return f"Report(score={self.score:g}, max_score={self.max_score:g}, checks={len(self.checks)})"

    def by_exercise(self) -> dict[str, list[CheckResult]]:
        groups: dict[str, list[CheckResult]] = {}
        for check in self.checks:
            groups.setdefault(check.exercise, []).append(check)
        return groups

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "score": self.score,
            "max_score": self.max_score,
            "checks": [c.to_json() for c in self.checks],
            "submission": self.submission,
            "answers": self.answers,
            "accuracy": dict(self.accuracy),
            "timings": dict(self.timings),
            "notes": list(self.notes),
            "runs": {exercise: run.to_json() for exercise, run in self.runs.items()},
            "confinement": dict(self.confinement),
            "inputs": dict(self.inputs),
            "reference": dict(self.reference),
            "lesson": dict(self.lesson),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(
                f"unsupported report schema_version {data.get('schema_version')!r}; "
                f"this grader reads version {SCHEMA_VERSION}"
            )
        return cls(
            checks=tuple(CheckResult.from_json(c) for c in data["checks"]),
            submission=data.get("submission", ""),
            answers=data.get("answers"),
            accuracy=dict(data.get("accuracy") or {}),
            timings=dict(data.get("timings") or {}),
            notes=tuple(data.get("notes") or ()),
            runs={exercise: RunRecord.from_json(run) for exercise, run in (data.get("runs") or {}).items()},
            confinement=dict(data.get("confinement") or {}),
            inputs=dict(data.get("inputs") or {}),
            reference=dict(data.get("reference") or {}),
            lesson=dict(data.get("lesson") or {}),
        )
