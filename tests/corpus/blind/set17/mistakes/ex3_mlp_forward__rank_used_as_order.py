# BLIND-SET: 17
# EXERCISE: ex3
# WHAT: the layer order is taken from np.argsort(np.argsort(numbers)) (each name's rank) and used as if it were the sorting permutation, so layers run in the inverse permutation: right when the dict is already in numeric order or exactly reversed, wrong for other shuffles (including the string order jax.jit rebuilds dicts in at depth >= 10); with unequal widths it then crashes on a shape mismatch
# SHOULD-SAY: the per-layer computation (x @ w + b, ReLU on every layer but the last) and reading depth from the params are right, but the layers are not applied in numeric order when the dict lists them shuffled: argsort(argsort(...)) gives ranks, not the order; use names[i] for i in np.argsort(numbers) (or simply sorted(params, key=layer number))
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp
import numpy as np

# --- Your code ----------------------------------------------------------------


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = list(params)
    numbers = np.array([int(name.replace("layer", "")) for name in names])
    position = np.argsort(np.argsort(numbers))  # where each layer sits in the net
    ordered = [names[i] for i in position]

    out = x
    last = len(ordered) - 1
    for i, name in enumerate(ordered):
        out = jnp.dot(out, params[name]["w"]) + params[name]["b"]
        if i != last:
            out = jax.nn.relu(out)
    return out
