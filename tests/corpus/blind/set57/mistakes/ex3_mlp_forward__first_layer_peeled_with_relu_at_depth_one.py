# BLIND-SET: 57
# EXERCISE: ex3
# WHAT: mlp_forward (jitted, numeric layer order) peels layer1 out of the loop and always applies ReLU to it, then loops over the middle layers with ReLU, and applies the last layer without ReLU only `if rest`. With a single layer (N = 1), layer1 is also the output layer and gets a ReLU: every negative output is clamped to 0 (max |diff| 2.8 to 3.6 on the depth-1 nets tried; about 42% of the outputs of a 16->16 net are negative in the reference and none in this one). Depths 2, 3, 5 and 12, equal or unequal widths, any dict order, and jit all match the reference exactly; params is not modified.
# SHOULD-SAY: With one layer (N = 1) your mlp_forward applies ReLU to the output: layer1 is peeled out of the loop with a ReLU, but when it is the only layer it is also the last one. Apply ReLU to every layer except the last, including when the first layer is the last: e.g. loop over names[:-1] with ReLU and finish with names[-1] without it.
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


def _layer_names(params):
    """layer1..layerN in numeric order (layer10 after layer9)."""
    return sorted(params, key=lambda name: int(name[len("layer"):]))


@jax.jit
def mlp_forward(params, x):
    """ReLU after every layer but the last; one compiled program per architecture."""
    first, *rest = _layer_names(params)
    # layer1 is peeled out of the loop: it is the only one that reads the
    # (B, d0) input, and the loop body below stays branch-free.
    h = _relu(_dense(x, params[first]))
    for name in rest[:-1]:
        h = _relu(_dense(h, params[name]))
    if rest:
        h = _dense(h, params[rest[-1]])
    return h
