# BLIND-SET: 60
# EXERCISE: ex3
# WHAT: mlp_forward takes the last layer out with params.pop('layer' + str(len(params))), then loops over layer1..layerN-1 with ReLU and applies the popped layer. The first call's output is bit-identical to the reference at depths 1 to 12, with equal and unequal widths, in any dict order. But each eager call deletes layerN from the caller's dict (N keys → N - 1, e.g. 12 → 11; depth 1 → an empty dict). A second call on the same params computes a shallower net: wrong values with equal widths (max |diff| 0.46 to 4.7), shape (B, d_{N-1}) instead of (B, d_N) with unequal widths, and KeyError 'layer0' at depth 1. Under jax.jit the caller's dict is untouched (jit passes in a rebuilt copy) and outputs are exact.
# SHOULD-SAY: mlp_forward must not modify params, but params.pop removes the last layer from the caller's dict. After one call the model has lost a layer, and calling it again gives a different network (or a KeyError). Read the last layer with params[name] instead of pop; do not change the dict you are given.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def relu(values):
    # negative numbers become 0
    return jnp.maximum(values, 0.0)


def mlp_forward(params, x):
    n_layers = len(params)

    # take the last layer out, it is the only one without relu
    last_layer = params.pop("layer" + str(n_layers))

    h = x
    for i in range(1, n_layers):
        w = params["layer" + str(i)]["w"]
        b = params["layer" + str(i)]["b"]
        h = relu(jnp.dot(h, w) + b)

    result = jnp.dot(h, last_layer["w"]) + last_layer["b"]
    return result
