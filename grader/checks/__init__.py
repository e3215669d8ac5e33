"""The rubric as code: one module per exercise, each a list of :class:`Check`.

A check is data plus a pure judge: ``judge(ctx) -> Verdict``. The judge reads
what the student's child observed (``ctx.got``), what the reference run
observed (``ctx.want``) and the grader's inputs (``ctx.inputs``); it never
runs student code. Points live in ``rubric.toml``, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from grader.sandbox import ObservationError, Observations


@dataclass(frozen=True)
class Verdict:
    """A judge's answer: pass or fail, why, and (for failures) what to do."""

    passed: bool
    message: str = ""
    hint: str = ""
    fraction: float | None = None
    """Partial credit in [0, 1]; ``None`` means all (pass) or nothing (fail)."""

    @property
    def credit(self) -> float:
        if self.fraction is not None:
            return min(1.0, max(0.0, self.fraction))
        return 1.0 if self.passed else 0.0


PASS = Verdict(True)


def fail(message: str, hint: str = "", fraction: float | None = None) -> Verdict:
    return Verdict(False, message, hint, fraction)


@dataclass(frozen=True)
class Check:
    """One rubric item: an id (``ex1.rescale``), a sentence, and a judge."""

    id: str
    name: str
    judge: Callable[["Context"], Verdict]
    functions: tuple[str, ...] = ()
    """The student functions it exercises, for messages ("dropout raised ...")."""
    error_hint: Callable[[ObservationError], str] | None = None
    """What to suggest when the student's code raised (``None``: a generic hint by error type)."""

    @property
    def exercise(self) -> str:
        return self.id.split(".", 1)[0]


class StudentError(Exception):
    """An observation the judge needs failed because the student's code raised."""

    def __init__(self, name: str, error: ObservationError) -> None:
        super().__init__(error.summary())
        self.name, self.error = name, error


class Missing(Exception):
    """An observation the judge needs is absent (the reference run lacks it, or a bug)."""


@dataclass
class Context:
    """What a judge may read. ``got``/``want`` raise if an observation failed."""

    student: Observations
    reference: Observations
    inputs: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)
    seen_errors: list[ObservationError] = field(default_factory=list)
    """Every failed observation a judge asked for, even ones it tolerated."""

    def got(self, name: str) -> Any:
        if name in self.student.errors:
            self.seen_errors.append(self.student.errors[name])
            raise StudentError(name, self.student.errors[name])
        if not self.student.has(name):
            raise Missing(f"the submission's run did not report {name!r}")
        return self.student[name]

    def want(self, name: str) -> Any:
        if name in self.reference.errors:
            raise Missing(f"the reference run failed on {name!r}: {self.reference.errors[name].summary()}")
        if not self.reference.has(name):
            raise Missing(f"the reference run did not report {name!r}")
        return self.reference[name]
