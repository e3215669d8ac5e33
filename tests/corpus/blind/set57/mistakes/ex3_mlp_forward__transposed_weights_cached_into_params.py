# BLIND-SET: 57
# EXERCISE: ex3
# WHAT: To contract over contiguous memory, mlp_forward multiplies by w.T with lax.dot_general and caches that transpose in the caller's params: the first eager call adds a key "wt" to every layer dict (layer["wt"] = layer["w"].T). The outputs equal the reference's within float32 rounding at depths 1/2/3/5/12, all widths and dict orders (max relative diff 6e-7), but after an eager call params has N extra leaves (keys 'b', 'w', 'wt' per layer: 9 leaves instead of 6 for 3 layers). Later calls reuse the cached transpose, so if the caller rebinds params['layerK']['w'] the output still uses the old weights (max |diff| 4.6 after doubling layer2's w on a 16-wide 3-layer net). Under jax.jit only the traced copy is mutated and the caller's params stay unchanged.
# SHOULD-SAY: mlp_forward must not modify params, but it stores a transposed copy of each weight in the caller's params (layer['wt'] = w.T): the pytree gains leaves, and the stale copy is used even after w changes. Don't cache into params; use w directly (x @ w, or lax.dot_general(h, w, (((1,), (0,)), ((), ())))). If you want a transposed layout, compute it locally in the function.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (tuned)."""

import jax
import jax.numpy as jnp
from jax import lax

# --- My code ------------------------------------------------------------------

# h @ w.T with w.T stored as (out, in): contract axis 1 of both operands, so
# both are read along their contiguous last axis.
_DN_T = (((1,), (1,)), ((), ()))


def _relu(h):
    return lax.max(h, jnp.zeros_like(h))


def _wt(layer):
    """The (out, in) transpose of a layer's weight, computed once and kept next to it."""
    wt = layer.get("wt")
    if wt is None:
        wt = layer["wt"] = layer["w"].T
    return wt


def _layer_names(params):
    """layer1..layerN in numeric order (layer10 after layer9)."""
    return sorted(params, key=lambda name: int(name[len("layer"):]))


def mlp_forward(params, x):
    """ReLU after every layer but the last."""
    names = _layer_names(params)
    h = x
    for i, name in enumerate(names):
        layer = params[name]
        h = lax.dot_general(h, _wt(layer), _DN_T) + layer["b"]
        if i < len(names) - 1:
            h = _relu(h)
    return h
