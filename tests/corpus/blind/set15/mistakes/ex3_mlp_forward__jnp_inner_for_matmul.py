# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward multiplies with jnp.inner(x, w), which contracts the last axis of both arrays and so computes x @ w.T; it runs only when a layer's weight matrix is square and then gives transposed-weight results.
# SHOULD-SAY: Layer order, depth handling and ReLU placement are right, but every layer multiplies by the transpose of its weights: jnp.inner contracts x's last axis with w's LAST axis (x @ w.T), so with unequal widths it raises a shape error and with equal widths it silently returns wrong values. Use x @ w (jnp.matmul / jnp.dot), which contracts x's last axis with w's first axis (w is (d_in, d_out)).
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(jnp.inner(x, params[name]["w"]) + params[name]["b"])
    last = params[names[-1]]
    return jnp.inner(x, last["w"]) + last["b"]
