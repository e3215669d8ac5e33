# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Stacks the hidden layers' weights and runs them with jax.lax.scan, which only works when all hidden layers have the same width; unequal widths crash in jnp.stack.
# SHOULD-SAY: fails for layers of unequal widths (cannot stack weights of different shapes); loop over the layers instead
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    first, middle, last = names[0], names[1:-1], names[-1]
    if len(names) == 1:
        return x @ params[first]["w"] + params[first]["b"]
    x = jax.nn.relu(x @ params[first]["w"] + params[first]["b"])
    if middle:
        ws = jnp.stack([params[n]["w"] for n in middle])
        bs = jnp.stack([params[n]["b"] for n in middle])

        def body(h, wb):
            w, b = wb
            return jax.nn.relu(h @ w + b), None

        x, _ = jax.lax.scan(body, x, (ws, bs))
    return x @ params[last]["w"] + params[last]["b"]
