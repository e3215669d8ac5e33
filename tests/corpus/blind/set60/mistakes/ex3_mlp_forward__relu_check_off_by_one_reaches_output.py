# BLIND-SET: 60
# EXERCISE: ex3
# WHAT: mlp_forward builds names layer1..layerN from len(params) and loops with range(len(names)), but guards the ReLU with `if i < len(names):`, which is always true, instead of `< len(names) - 1`. The output layer is ReLU'd too: the result equals relu(reference) exactly, with every negative logit clamped to 0 (about 44% of entries on a test net). Max |diff| is 0.26 to 2.9 at every depth 1/2/3/5/9/10/12, for equal and unequal widths, in every dict order, and under jit. Shapes, dtype, layer order and params are right.
# SHOULD-SAY: There must be no ReLU on the last layer, but the check `i < len(names)` is always true, so the output is passed through ReLU too and every negative output becomes 0. It is an off-by-one: the last index is len(names) - 1, so use `if i < len(names) - 1`.
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def relu(values):
    # negative numbers become 0
    return jnp.maximum(values, 0.0)


def mlp_forward(params, x):
    # how many layers there are
    n_layers = len(params)

    # names in number order: layer1, layer2, ..., layerN
    names = []
    for i in range(1, n_layers + 1):
        names.append("layer" + str(i))

    h = x
    for i in range(len(names)):
        layer = params[names[i]]
        h = jnp.dot(h, layer["w"]) + layer["b"]
        # no relu on the output layer
        if i < len(names):
            h = relu(h)
    return h
