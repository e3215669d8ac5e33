# BLIND-SET: 15
# EXERCISE: ex3
# WHAT: mlp_forward re-keys the layers by their zero-padded layer numbers in a new dict and lets jax.tree_util.tree_leaves (which visits dict keys in sorted order) hand them back in numeric order, treating each {"w", "b"} dict as a leaf; each layer is jnp.inner(h, w.T) + b (= h @ w + b).
# SHOULD-SAY: All ex3 checks pass: agrees with the reference at every depth (1, 2, 3, 5, 12) with equal and unequal widths, layer10 comes after layer9, ReLU after every layer but the last and none on the output, depth and order come from params, params is left unmodified, and results agree under jax.jit.
"""Exercise 3: an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def _is_layer(node):
    return isinstance(node, dict) and "w" in node and "b" in node


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    # Sorted string keys are in numeric order once the numbers are zero-padded,
    # and jax.tree_util visits dict keys in sorted order.
    by_number = {f"{int(name[len('layer'):]):09d}": layer for name, layer in params.items()}
    *hidden, last = jax.tree_util.tree_leaves(by_number, is_leaf=_is_layer)
    h = x
    for layer in hidden:
        h = jnp.maximum(jnp.inner(h, layer["w"].T) + layer["b"], 0.0)
    return jnp.inner(h, last["w"].T) + last["b"]
