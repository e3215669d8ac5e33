"""ex3's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.inputs import LESSON_WIDTHS, mlp_params

#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 303

CASES = {
    # name: (widths, batch, insertion order)
    "d1": ((20, 7), 5, "numeric"),
    "d2": ((20, 16, 7), 20, "numeric"),
    "d3": (LESSON_WIDTHS, 4, "numeric"),
    "d5": ((20, 30, 9, 25, 12, 7), 45, "reversed"),
    "d12": ((16,) * 13, 6, "numeric"),
}


#: Rows drawn with the other cases, for a case whose batch is larger: d2's batch is as wide as its input (B = d0),
#: so that x and x.T have one shape and code that turns its input round when x.shape[0] equals the first layer's
#: width shows; d5's is above 32 and not a multiple of it, so a batch run in fixed-size chunks that drops or
#: mishandles the remainder shows. Their other rows are drawn last, so every input drawn before them is unchanged.
FIRST_ROWS = {"d2": 5, "d5": 6}


def build(rng: np.random.Generator, seed: int | None = None) -> dict[str, Any]:
    cases = {}
    for name, (widths, b, order) in CASES.items():
        x = rng.standard_normal((FIRST_ROWS.get(name, b), widths[0])).astype(np.float32)
        cases[name] = {"params": mlp_params(rng, widths, bias_scale=0.5, order=order), "x": x}
    for name, rows in FIRST_ROWS.items():
        widths, b, _ = CASES[name]
        more = rng.standard_normal((b - rows, widths[0])).astype(np.float32)
        cases[name] = {**cases[name], "x": np.concatenate([cases[name]["x"], more])}
    return cases
