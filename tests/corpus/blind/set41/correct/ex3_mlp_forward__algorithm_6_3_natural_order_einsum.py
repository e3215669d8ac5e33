# BLIND-SET: 41
# EXERCISE: ex3
# WHAT: Correct. This is Goodfellow et al.'s Algorithm 6.3 (forward propagation through a deep network) with the book's h = g(W^T h + b) written per example as jnp.einsum("io,bi->bo", W, h). The layers are put in numeric order by parsing the integer after "layer", and g = max{0, a} is applied for k < l, with the output layer left linear. The params are only read. It matches the reference to float tolerance at every depth.
# SHOULD-SAY: Nothing to fix: every ex3 check passes, in any depth and layer order, under jit, and params is left unmodified.
"""Exercise 3: a generic MLP (Goodfellow, Bengio & Courville, Algorithm 6.3).

    h^(0) = x
    for k = 1, ..., l:
        a^(k) = b^(k) + W^(k)T h^(k-1)
        h^(k) = f(a^(k))          (f = ReLU for hidden layers, identity for k = l)
"""

import jax
import jax.numpy as jnp


def _layer_index(name):
    """The superscript k of W^(k): 'layer12' -> 12."""
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth, layers in numeric order."""
    names = sorted(params.keys(), key=_layer_index)
    depth = len(names)
    h = x
    for k, name in enumerate(names, start=1):
        W, b = params[name]["w"], params[name]["b"]
        a = b + jnp.einsum("io,bi->bo", W, h)  # W^T h for every example (row) of the batch
        h = jnp.maximum(a, 0.0) if k < depth else a
    return h
