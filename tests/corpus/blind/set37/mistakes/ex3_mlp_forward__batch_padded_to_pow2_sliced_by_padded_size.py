# BLIND-SET: 37
# EXERCISE: ex3
# WHAT: To keep jit from recompiling for every batch size, x is zero-padded up to the next power of two, but the final slice reads the batch size from x after x has been rebound to the padded (and then hidden) array, so nothing is cut off: for a batch size that is not a power of two (e.g. 5) the output has 8 rows instead of 5 (values of the real rows are right).
# SHOULD-SAY: The output has the padded batch size, not B: record n = x.shape[0] before padding and return out[:n] (the loop reuses the name x, so x.shape[0] at the end is the bucket size). Padding to buckets is optional; slicing back to the caller's batch is not.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _bucket(n):
    """Next power of two >= n, so jit compiles once per bucket, not per batch size."""
    return 1 << max(0, (n - 1).bit_length())


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    pad = _bucket(x.shape[0]) - x.shape[0]
    if pad:
        x = jnp.pad(x, ((0, pad), (0, 0)))
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return (x @ last["w"] + last["b"])[: x.shape[0]]
