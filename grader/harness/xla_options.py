"""The XLA options a run compiles with, which are part of every compiled program's key in JAX's cache.

A child sets them before JAX starts its backend (:func:`grader.harness.child.set_compilation`); a seal records
them, so that it keeps another machine's compiled programs only while they can still load. Light on purpose:
the grading process reads it and never imports JAX.
"""

from __future__ import annotations

import re

from grader.exercises import BY_ID

#: XLA options for every child's programs: a program that runs several operations rounds each one's result to its
#: type, as running them one by one does (a bfloat16 sum is as coarse compiled as eagerly), so a student's function
#: compiled by ``grader.harness.compiled`` computes what it computes op by op. The test suite's own process compiles
#: with them too.
AS_EAGER = ("--xla_allow_excess_precision=false",)
#: XLA options for the programs of an exercise whose observations do not include how fast they run: eager JAX
#: compiles every operation anew at each shape it meets, and a submission's own code meets dozens, each run a few
#: times on small inputs. XLA's backend at its lowest optimisation level compiles them in about three quarters of
#: the time, into programs that compute the same values more slowly.
QUICK_COMPILE = ("--xla_backend_optimization_level=0", "--xla_llvm_disable_expensive_passes=true")
#: XLA's older CPU code generators: the fusion emitters that jaxlib 0.5.3 made the default take about twice their
#: time to compile a program (a submission written otherwise than the reference compiles most of its own, its
#: training step among them), and compute the same values to within a few units in the last place (the reference's
#: observations made with either differ in one of 170, by one unit). Every run takes them: the training's step
#: runs nearly as fast (its run 0.1 CPU-s slower at most) and compiles in two thirds of the time.
LEGACY_EMITTERS = ("--xla_cpu_use_fusion_emitters=false",)
#: The jaxlib releases known to have the option that chooses the code generators (from, before): an option XLA
#: does not know ends the process that starts its backend, so no other release is given it.
_LEGACY_EMITTERS_KNOWN = ((0, 5, 3), (0, 11))


def older_generators() -> tuple[str, ...]:
    """:data:`LEGACY_EMITTERS` where this jaxlib is known to have the option, else nothing."""
    import jaxlib.version  # the release's number only: jaxlib's own package imports nothing else

    release = tuple(int(part) for part in re.findall(r"\d+", jaxlib.version.__version__)[:3])
    low, high = _LEGACY_EMITTERS_KNOWN
    return LEGACY_EMITTERS if low <= release < high else ()


def for_exercise(exercise: str) -> tuple[str, ...]:
    """What the grader adds to a run of ``exercise``: compile as eagerly; quickly unless its observations include
    speed; with the older code generators where this jaxlib has them."""
    quick = () if BY_ID[exercise].runs_for_speed else QUICK_COMPILE
    return AS_EAGER + quick + older_generators()


def added(given: str, flags: tuple[str, ...]) -> str:
    """``$XLA_FLAGS`` as ``given``, then each of ``flags`` it does not hold yet (one given twice would be another
    key)."""
    words = given.split()
    return " ".join(words + [flag for flag in flags if flag not in words])
