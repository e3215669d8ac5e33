"""The XLA options a run compiles with, which are part of every compiled program's key in JAX's cache.

A child sets them before JAX starts its backend (:func:`grader.harness.child.set_compilation`); a seal records
them, so that it keeps another machine's compiled programs only while they can still load. Light on purpose:
the grading process reads it and never imports JAX.
"""

from __future__ import annotations

import os
import platform
import re
import sys

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


#: Compile for AVX2 and no further on every x86-64 CPU that has it (nearly every one made since 2013): what one
#: such machine compiled then runs on any other, so the programs a seal ships load on the machine that grades,
#: whatever its CPU (:func:`grader.harness.child.share_across_cpus` keys them by :data:`PORTABLE_CPU`, not by the
#: CPU). Measured on the reference: its observations are the same bit for bit as with AVX-512.
PORTABLE_ISA = ("--xla_cpu_max_isa=AVX2",)
#: The runs that compile for their own CPU even so: the training's. Capped at AVX2 it costs 0.1 to 0.2 CPU-s more
#: on a CPU with AVX-512, and its arithmetic moves (the test accuracy of 20 of 439 corpus files by 0.001 to 0.006),
#: while what a seal holds for it saves a student little: their training step is their own program, compiled
#: by their own grade whatever the seal holds.
OWN_CPU = ("accuracy",)
#: What JAX's compilation cache keys are made with in place of the CPU's own fingerprint, where runs compile
#: with :data:`PORTABLE_ISA`; also the seal's name for that part of its compiled programs. It names the operating
#: system: a compiled program is an object file in the system's own format, calling by its conventions.
PORTABLE_CPU = f"{sys.platform}-x86_64-avx2"
#: The jaxlib releases known to have the option that caps the instruction set (from, before).
_PORTABLE_ISA_KNOWN = ((0, 4, 34), (0, 11))
#: What the CPU must have for programs compiled for AVX2 elsewhere, as NumPy finds it at run time.
_PORTABLE_NEEDS = ("AVX", "AVX2", "FMA3", "F16C")


def _release() -> tuple[int, ...]:
    import jaxlib.version  # the release's number only: jaxlib's own package imports nothing else

    return tuple(int(part) for part in re.findall(r"\d+", jaxlib.version.__version__)[:3])


def older_generators() -> tuple[str, ...]:
    """:data:`LEGACY_EMITTERS` where this jaxlib is known to have the option, else nothing."""
    low, high = _LEGACY_EMITTERS_KNOWN
    return LEGACY_EMITTERS if low <= _release() < high else ()


def portable() -> tuple[str, ...]:
    """:data:`PORTABLE_ISA` on an x86-64 CPU with AVX2, FMA and F16C, where this jaxlib is known to have the option
    and ``$XLA_FLAGS`` sets no instruction set of its own; else nothing (the programs are then this CPU's own, keyed
    by it, as JAX keys them)."""
    low, high = _PORTABLE_ISA_KNOWN
    if platform.machine().lower() not in ("x86_64", "amd64") or not low <= _release() < high:
        return ()
    if any(word.startswith("--xla_cpu_max_isa") and word not in PORTABLE_ISA
           for word in os.environ.get("XLA_FLAGS", "").split()):
        return ()  # the user's own choice stands
    return PORTABLE_ISA if all(_cpu_features().get(name) for name in _PORTABLE_NEEDS) else ()


def _cpu_features() -> dict[str, bool]:
    """The CPU's instruction set extensions, as NumPy detected them when it was imported (empty if it cannot
    say)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:
        try:
            from numpy.core._multiarray_umath import __cpu_features__  # NumPy 1
        except ImportError:
            return {}
    return dict(__cpu_features__)


def for_exercise(exercise: str) -> tuple[str, ...]:
    """What the grader adds to a run of ``exercise``: compile as eagerly; quickly unless its observations include
    speed; with the older code generators where this jaxlib has them; for any x86-64 CPU with AVX2 where this one
    is one (:func:`portable`), unless the run is one of :data:`OWN_CPU`."""
    quick = () if BY_ID[exercise].runs_for_speed else QUICK_COMPILE
    return AS_EAGER + quick + older_generators() + (() if exercise in OWN_CPU else portable())


def added(given: str, flags: tuple[str, ...]) -> str:
    """``$XLA_FLAGS`` as ``given``, then each of ``flags`` it does not hold yet (one given twice would be another
    key)."""
    words = given.split()
    return " ".join(words + [flag for flag in flags if flag not in words])
