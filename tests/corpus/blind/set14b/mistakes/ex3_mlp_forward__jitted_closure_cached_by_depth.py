# BLIND-SET: 14
# EXERCISE: ex3
# WHAT: mlp_forward caches a jax.jit-compiled forward per depth in a module-level dict, and the cached lambda closes over the params of the first call, so later calls with the same depth reuse stale weights.
# SHOULD-SAY: The first call at each depth is right (numeric order, ReLU placement), but the function keeps a cache keyed only on the number of layers whose jitted lambda captured the first params it saw: a second set of params with the same depth gives the old network's outputs (or a shape error when the widths differ, or a leaked-tracer error under jax.jit). Pass params as an argument of the jitted function (jax.jit(lambda p, x: ...)) or drop the cache.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

_COMPILED = {}  # depth -> compiled forward, so we only trace once per depth


def _apply(params, names, x):
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(n.removeprefix("layer")))
    depth = len(names)
    if depth not in _COMPILED:
        _COMPILED[depth] = jax.jit(lambda inputs: _apply(params, names, inputs))
    return _COMPILED[depth](x)
