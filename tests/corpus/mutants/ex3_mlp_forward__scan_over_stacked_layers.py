"""The hidden layers stacked into one array and run with jax.lax.scan: only layers of equal widths stack.

The 12 equal-width layers and one layer are right. Every other network raises: a hidden layer that changes
the width changes scan's carry, and hidden layers of different widths do not stack. The hint says what
JAX refused, for the first of them (here the carry)."""

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "carry of the same shape", "max_failing": 1}

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    hidden_w = jnp.stack([params[name]["w"] for name in names[:-1]]) if len(names) > 1 else None
    hidden_b = jnp.stack([params[name]["b"] for name in names[:-1]]) if len(names) > 1 else None
    if hidden_w is not None:
        x, _ = jax.lax.scan(lambda h, wb: (jax.nn.relu(h @ wb[0] + wb[1]), None), x, (hidden_w, hidden_b))
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
