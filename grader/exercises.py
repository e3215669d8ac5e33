"""The exercises of the lesson, one frozen record each: everything else in the grader reads these.

Adding an exercise is one entry here, plus its probe (``grader/harness/probes/<id>.py``), its checks
(``grader/checks/<id>.py``), its points in ``rubric.toml`` and its stub and reference files.
Standard library only: the sandboxed child reads this before it imports anything else.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Exercise:
    id: str
    """``ex1``..``ex5``, or ``accuracy`` (the end-to-end training)."""
    title: str
    modules: tuple[str, ...]
    """The student modules its run imports; a lesson exercise has one file, ``accuracy`` trains with three."""
    cost: int
    """Rough cost ranking: the slowest runs start first."""
    reference: bool = True
    """Judged against the reference's observations (``accuracy`` compares with a calibrated threshold instead)."""

    @property
    def probe(self) -> str:
        """The harness module that runs it in the child."""
        return f"grader.harness.probes.{self.id}"

    @property
    def checks(self) -> str:
        """The module whose ``CHECKS`` judge it."""
        return f"grader.checks.{self.id}"


ALL: tuple[Exercise, ...] = (
    Exercise("ex1", "Dropout with split PRNG keys", ("ex1_dropout",), cost=4),
    Exercise("ex2", "Per-example gradients with vmap", ("ex2_per_example_grads",), cost=3),
    Exercise("ex3", "A generic mlp_forward", ("ex3_mlp_forward",), cost=1),
    Exercise("ex4", "The jit timing harness", ("ex4_jit_speedup",), cost=5),
    Exercise("ex5", "Clipping in an optax chain", ("ex5_clipping",), cost=2),
    Exercise("accuracy", "Training with your pieces", ("ex1_dropout", "ex3_mlp_forward", "ex5_clipping"),
             cost=6, reference=False),
)
BY_ID = {e.id: e for e in ALL}
IDS = tuple(e.id for e in ALL)
#: The file of each lesson exercise (``ex1`` -> ``ex1_dropout``), in lesson order.
MODULES = {e.id: e.modules[0] for e in ALL if e.reference}
