# BLIND-SET: 18
# EXERCISE: ex3
# WHAT: borrowed from a large-model codebase (Gemma-2 style), the output layer's logits are "soft-capped" as 30 * tanh(logits / 30), which shrinks every logit a little and large logits a lot.
# SHOULD-SAY: layer order, depth from params, ReLU after hidden layers and not after the last, no mutation and jit agreement are right, but the returned values are not the last layer's affine output: the tanh soft-cap changes all logits (by about 0.3% at |z|=3 and much more for large |z|); return x @ w + b of the last layer with no squashing.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

LOGIT_CAP = 30.0


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    n_layers = len(params)
    h = x
    for i in range(1, n_layers + 1):
        layer = params[f"layer{i}"]
        h = h @ layer["w"] + layer["b"]
        if i != n_layers:
            h = jnp.maximum(h, 0.0)
    # keep logits in a numerically safe range (soft cap)
    return LOGIT_CAP * jnp.tanh(h / LOGIT_CAP)
