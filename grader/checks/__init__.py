"""The rubric as code: one module per exercise, each a list of :class:`Check`.

A check is data plus a pure judge: ``judge(ctx) -> Verdict``. The judge reads
what the student's child observed (``ctx.got``), what the reference run
observed (``ctx.want``), the grader's inputs (``ctx.inputs``) and the verdicts
of the checks it declares it reads (``ctx.verdict``); it never runs student
code, nor another judge. A check also declares the checks it requires. Points
live in ``rubric.toml``, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from grader.observations import ObservationError, Observations
from grader.protocol import PROBE_STOPPED


@dataclass(frozen=True)
class Mistake:
    """A known mistake a judge can recognise: a stable id, its name, and the fix.

    A hint that names a cause is always a ``Mistake``, so the cause travels as
    data (``Verdict.mistake``, the report's ``mistake`` field) and a hint never
    guesses: when no known mistake matches, the judge gives a plain string that
    says what differs and what that rules out.
    """

    id: str
    """``<exercise>.<what>``, e.g. ``ex3.sigmoid_for_relu``."""
    name: str
    """A noun phrase for messages: "sigmoid in place of ReLU"."""
    hint: str
    """Why it is wrong and what to do instead."""


@dataclass(frozen=True)
class Verdict:
    """A judge's answer: pass, fail or not judged, why, and (for failures) what to do."""

    passed: bool
    message: str = ""
    hint: str = ""
    fraction: float | None = None
    """Partial credit in [0, 1]; ``None`` means all (pass) or nothing (fail)."""
    mistake: str = ""
    """The id of the :class:`Mistake` the hint names; "" when the hint names none."""
    skipped: bool = False
    """Not judged: the property cannot be seen because of a mistake charged in another check."""
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    """What the judge measured, for the report (the accuracy run's accuracy and final loss)."""

    @property
    def credit(self) -> float:
        if self.fraction is not None:
            return min(1.0, max(0.0, self.fraction))
        return 1.0 if self.passed else 0.0


PASS = Verdict(True)


def fail(message: str, hint: str | Mistake = "", fraction: float | None = None) -> Verdict:
    """A failed verdict; ``hint`` is a :class:`Mistake` when the judge recognised one, else neutral text."""
    if isinstance(hint, Mistake):
        return Verdict(False, message, hint.hint, fraction, hint.id)
    return Verdict(False, message, hint, fraction)


def equals(mistake: Mistake, what: str = "your output") -> str:
    """The words that name a recognised mistake in a message: "your output equals what X gives"."""
    return f"{what} equals what {mistake.name} gives"


def skip(message: str) -> Verdict:
    """Not judged, no credit: what the check is about cannot be seen until another check's mistake is fixed."""
    return Verdict(False, message, skipped=True)


@dataclass(frozen=True)
class Check:
    """One rubric item: an id (``ex1.rescale``), a sentence, and a judge."""

    id: str
    name: str
    judge: Callable[["Context"], Verdict]
    functions: tuple[str, ...] = ()
    """The student functions it exercises, for messages ("dropout raised ...")."""
    error_hint: Callable[[ObservationError], "str | Mistake"] | None = None
    """What to suggest when the student's code raised (``None`` or "": a generic hint by error type)."""
    requires: tuple[str, ...] = ()
    """Checks of the same exercise that must earn some credit before this one is judged (until then it is
    reported as skipped): a function that returns garbage must not collect points for side properties (agreeing
    with itself under jit, leaving params alone) that any constant function has."""
    reads: tuple[str, ...] = ()
    """Checks of the same exercise whose verdicts the judge reads (``ctx.verdict``), judged before it."""

    @property
    def exercise(self) -> str:
        return self.id.split(".", 1)[0]


class StudentError(Exception):
    """An observation the judge needs failed because the student's code raised."""

    def __init__(self, name: str, error: ObservationError) -> None:
        super().__init__(error.summary())
        self.name, self.error = name, error


class Unfinished(BaseException):
    """An observation the judge needs raised ``NotImplementedError``: the student has not written it yet.

    Not an ``Exception``, so no judge can tolerate it (``except StudentError``, ``except Exception``): the
    engine turns it into "not implemented yet", and a stub never earns points.
    """

    def __init__(self, name: str, error: ObservationError) -> None:
        super().__init__(error.summary())
        self.name, self.error = name, error


class Missing(Exception):
    """An observation the judge needs is absent (the reference run lacks it, or a bug)."""


@dataclass(frozen=True)
class Context:
    """What a judge may read. ``got``/``want`` raise if an observation failed."""

    student: Observations
    reference: Observations
    inputs: dict[str, Any]
    verdicts: Mapping[str, "Verdict | BaseException"] = field(default_factory=dict)
    """The outcome of each check the judge reads (:attr:`Check.reads`): its verdict, or what its judge raised."""

    def got(self, name: str) -> Any:
        if name in self.student.errors:
            error = self.student.errors[name]
            if error.type == "NotImplementedError":
                raise Unfinished(name, error)
            raise StudentError(name, error)
        if not self.student.has(name):
            stopped = self.student.errors.get(PROBE_STOPPED)
            if stopped is not None:  # never observed: the probe stopped before it (on what the submission left)
                raise StudentError(name, stopped)
            raise Missing(f"the submission's run did not report {name!r}")
        return self.student[name]

    def want(self, name: str) -> Any:
        if name in self.reference.errors:
            raise Missing(f"the reference run failed on {name!r}: {self.reference.errors[name].summary()}")
        if not self.reference.has(name):
            raise Missing(f"the reference run did not report {name!r}")
        return self.reference[name]

    def _outcome(self, check_id: str) -> Verdict | BaseException:
        """What the judge of ``check_id``, one of the checks this judge reads, gave: its verdict, or what it raised."""
        if check_id not in self.verdicts:
            raise Missing(f"{check_id!r} is not among the checks this judge reads: add it to the check's `reads`")
        return self.verdicts[check_id]

    def verdict(self, check_id: str) -> Verdict:
        """The verdict of ``check_id``, one of the checks this judge reads; what its judge raised, raised again."""
        outcome = self._outcome(check_id)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def passed(self, check_id: str) -> bool:
        """Whether ``check_id``, one of the checks this judge reads, passed: a judge that raised (the student's
        code failed there, charged in that check) did not."""
        outcome = self._outcome(check_id)
        return not isinstance(outcome, BaseException) and outcome.passed
