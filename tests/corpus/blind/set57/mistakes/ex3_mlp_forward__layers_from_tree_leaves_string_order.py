# BLIND-SET: 57
# EXERCISE: ex3
# WHAT: mlp_forward (jitted) takes the layers from one jax.tree.leaves(params) flatten, pairing the leaves as (b, w) per layer, instead of sorting the names numerically. jax.tree.leaves walks dict keys in string order (layer1, layer10, layer11, layer12, layer2, ...), so for 10 or more layers the layers run out of order. Depths 1, 2, 3, 5 (any dict order, equal or unequal widths) match the reference exactly, and the result does not depend on dict insertion order; with 12 layers of equal width (16) the output is wrong (max |diff| 6.7) in every dict order, and with 12 layers of unequal widths the out-of-order matmuls raise TypeError (shape mismatch). params is not modified.
# SHOULD-SAY: Your layer order comes from jax.tree.leaves, which sorts dict keys as strings, so layer10..layer12 run right after layer1 (fine up to 9 layers, wrong from 10). Order the layers by their number instead: sorted(params, key=lambda n: int(n.removeprefix('layer'))), then read w and b by name.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (tuned)."""

import jax
import jax.numpy as jnp
from jax import lax

# --- My code ------------------------------------------------------------------

# (h @ w) as a bare dot_general: contract h's last axis with w's first.
_MM_DIMS = (((1,), (0,)), ((), ()))


def _dense(h, layer):
    return lax.dot_general(h, layer["w"], _MM_DIMS) + layer["b"]


def _relu(h):
    return lax.max(h, jnp.zeros_like(h))


def _layers(params):
    """(w, b) per layer in order, from a single flatten of the params pytree.

    Cheaper than parsing and sorting the names on every call: jax.tree.leaves
    already walks the dict in a fixed (sorted) order and each layer flattens
    to [b, w].
    """
    leaves = jax.tree.leaves(params)
    return [{"w": w, "b": b} for b, w in zip(leaves[0::2], leaves[1::2])]


@jax.jit
def mlp_forward(params, x):
    """ReLU after every layer but the last; one compiled program per architecture."""
    layers = _layers(params)
    h = x
    for layer in layers[:-1]:
        h = _relu(_dense(h, layer))
    return _dense(h, layers[-1])
