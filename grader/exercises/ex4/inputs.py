"""ex4's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.exercises.ex4.shared import ASYNC_COST, COUNT_COST

#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 404


def build(rng: np.random.Generator, seed: int | None = None) -> dict[str, Any]:
    """The cost per call of the work the instrumented steps queue, in seconds: a timer must find it."""
    if seed is None:
        return {"async_cost": np.asarray(ASYNC_COST), "count_cost": np.asarray(COUNT_COST)}
    # Far from the public costs (60 and 40 ms), so that a time computed from them (n_steps times the public
    # cost) fits no timer at any seed: its ratios to the known times, at most 0.57 and at least 1.6, are
    # neither those of a correct timer nor of one off by a step, a unit or a per-step average.
    return {"async_cost": np.asarray(rng.uniform(0.105, 0.12)), "count_cost": np.asarray(rng.uniform(0.02, 0.025))}
