# BLIND-SET: 18
# EXERCISE: ex3
# WHAT: adapted from a PyTorch linear-probe tutorial that calls `.detach()` on features, every hidden activation is wrapped in jax.lax.stop_gradient, so the forward values are right but no gradient reaches any layer except the last.
# SHOULD-SAY: the logits are correct at every depth (numeric layer order, ReLU on hidden layers only, no mutation, same under jit), but stop_gradient on the hidden activations blocks backpropagation: jax.grad of a loss built on mlp_forward gives zero gradients for layer1..layer(N-1), so only the output layer would ever train; remove jax.lax.stop_gradient (there is no .detach() to copy in a JAX forward pass).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import re

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------

_NUM = re.compile(r"(\d+)$")


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth."""
    names = sorted(params, key=lambda n: int(_NUM.search(n).group(1)))
    depth = len(names)
    for i, name in enumerate(names, start=1):
        w, b = params[name]["w"], params[name]["b"]
        x = x @ w + b
        if i < depth:
            # features for the next layer (like `.detach()` in the tutorial)
            x = jax.lax.stop_gradient(jax.nn.relu(x))
    return x
