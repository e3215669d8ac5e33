"""ReLU written with np.maximum: right eagerly, but numpy cannot read the traced arrays under jax.jit."""

import numpy as np

EXPECT = {"check": "ex3.jit", "mistake": "numpy_on_tracer", "hint": "jax.numpy", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    for i, name in enumerate(names):
        x = x @ params[name]["w"] + params[name]["b"]
        if i < len(names) - 1:
            x = np.maximum(x, 0.0)
    return x
