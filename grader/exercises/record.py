"""The record of one exercise: what the rest of the grader needs to know about it, as plain data.

Standard library only: the sandboxed child reads it before it imports anything else.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The modules of an exercise's package a confined child may read (the rest is the judging side's).
CHILD_SIDE = ("__init__.py", "shared.py", "probe.py")


@dataclass(frozen=True)
class Exercise:
    """One exercise of the lesson, defined in its package ``grader/exercises/<id>/``.

    The package holds, beside this record: ``shared.py`` (observation and case names and the probe's
    parameters, read by both sides), ``probe.py`` (the child side: calls the student's functions and records
    what they return), ``inputs.py`` (its inputs, public or drawn from a seed), ``checks.py`` (its checks and
    the mistakes they recognise) and, where it has them, ``reproduce.py`` (how to see a failed value check in
    Python) and ``lesson.py`` (the lesson's question its observations answer). The judging side names the
    probe by module path and never imports it: the probe imports jax.
    """

    id: str
    """``ex1``..``ex5``, or ``accuracy`` (the end-to-end training)."""
    title: str
    modules: tuple[str, ...]
    """The student modules its run imports; a lesson exercise has one file, ``accuracy`` trains with three."""
    cost: int
    """Rough cost ranking, from the runs' wall times on the reference (benchmarks/bench_grade.py): the slowest
    runs start first."""
    waits: bool = False
    """Its run spends much of its time waiting, not computing (ex4's instrumented steps sleep): when a grade
    runs several exercises at once, it runs beside them, in a lane of its own, so its waits hold up no other."""
    reference: bool = True
    """Judged against the reference's observations (``accuracy`` compares with a calibrated threshold instead)."""
    runs_for_speed: bool = False
    """How fast its compiled code runs is part of what it observes (ex4 times steps; accuracy trains for many
    steps): XLA optimises its programs fully. The others run each program a few times on small inputs, so their
    programs are compiled quickly instead (see ``grader.harness.xla_options``)."""
    machine_dependent: tuple[str, ...] = ()
    """Observations that depend on the machine (timings): a sealed reference keeps none of them."""
    has_recipes: bool = False
    """Its package has ``reproduce.py``: recipes for its value checks."""
    question_from: str = ""
    """Its package has ``lesson.py``, whose ``question`` is answered from this exercise's observations."""
    reads_inputs: tuple[str, ...] = ()
    """What its run reads of the inputs besides its own part (``accuracy/params``): a run loads those parts of the
    inputs' file and nothing else (the accuracy run's images are most of it)."""

    @property
    def input_parts(self) -> tuple[str, ...]:
        """The parts of the inputs (``ex2``, ``accuracy/params``) its run loads."""
        return (self.id, *self.reads_inputs)

    @property
    def package(self) -> str:
        return f"grader.exercises.{self.id}"

    @property
    def probe(self) -> str:
        """The module that runs it in the child (``probe(recorder, modules, inputs, options)``)."""
        return f"{self.package}.probe"

    @property
    def checks(self) -> str:
        """The module whose ``CHECKS`` judge it."""
        return f"{self.package}.checks"

    @property
    def inputs(self) -> str:
        """The module whose ``build(rng, seed)`` makes its inputs."""
        return f"{self.package}.inputs"
