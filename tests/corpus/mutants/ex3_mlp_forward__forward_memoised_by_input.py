"""mlp_forward memoises its output in a module-level dict keyed by the input's bytes (to skip "repeated work"):
the same x with other params returns the first params' output."""

import jax
import numpy as np

EXPECT = {"check": "ex3.jit", "mistake": "stale_result", "hint": "computed on an earlier call", "max_failing": 1}

_SEEN = {}


def mlp_forward(params, x):
    if not isinstance(x, jax.core.Tracer):
        key = (np.asarray(x).tobytes(), len(params))
        if key in _SEEN:
            return _SEEN[key]
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = x
    for j, name in enumerate(names):
        h = h @ params[name]["w"] + params[name]["b"]
        if j < len(names) - 1:
            h = jax.nn.relu(h)
    if not isinstance(x, jax.core.Tracer):
        _SEEN[key] = h
    return h
