"""ex5's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.exercises.ex5.shared import SPIKE_STEP
from grader.inputs import batch, mlp_params

#: The mean of the spike's elements before scaling, in units of their spread.
SPIKE_MEAN = 2.0
#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 505


def build(rng: np.random.Generator, seed: int | None = None) -> dict[str, Any]:
    params = mlp_params(rng, (784, 32, 16, 10))
    grads = {}
    for i in range(6):
        scale = 40.0 if i == SPIKE_STEP else 0.5
        # The spike's elements share a mean twice their spread: a norm taken about the mean (sqrt(n) times the
        # standard deviation) is under half the L2 norm there, so a clip measuring it shows.
        offset = SPIKE_MEAN if i == SPIKE_STEP else 0.0
        leaves = {name: {k: rng.standard_normal(v.shape).astype(np.float32) + offset for k, v in layer.items()}
                  for name, layer in params.items()}
        norm = np.sqrt(sum(float(np.sum(a * a)) for layer in leaves.values() for a in layer.values()))
        grads[str(i)] = {name: {k: (a * scale / norm).astype(np.float32) for k, a in layer.items()}
                         for name, layer in leaves.items()}
        if i == SPIKE_STEP:  # a few huge elements, so element-wise clipping shows too
            w = grads[str(i)]["layer1"]["w"].reshape(-1)
            spots = rng.choice(w.size, 16, replace=False)
            w[spots] = np.sign(rng.standard_normal(16)).astype(np.float32) * 8.0
    x, y = batch(rng, 16)
    return {"params": params, "grads": grads, "x": x, "y": y}
