"""ex1's inputs: the fixed public ones, or drawn from a seed (see :mod:`grader.inputs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.inputs import LESSON_WIDTHS, key_seeds, mlp_params

#: The seed of the public inputs; with a secret seed N, they are drawn from ``default_rng([N, PUBLIC_SEED])``.
PUBLIC_SEED = 101


def build(rng: np.random.Generator, seed: int | None = None) -> dict[str, Any]:
    params = mlp_params(rng, LESSON_WIDTHS, bias_scale=0.0)
    for layer in params.values():  # positive biases: hidden units active, logits away from 0
        layer["b"] = np.abs(rng.standard_normal(layer["b"].shape) * 0.2 + 0.3).astype(np.float32)
    return {
        "x": rng.uniform(0.5, 1.5, (64, 512)).astype(np.float32),
        "params": params,
        "xb": rng.uniform(0.0, 1.0, (32, 784)).astype(np.float32),
        "key_seeds": key_seeds(rng, seed, 2),
    }
