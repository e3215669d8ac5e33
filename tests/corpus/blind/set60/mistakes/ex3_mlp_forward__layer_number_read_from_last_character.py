# BLIND-SET: 60
# EXERCISE: ex3
# WHAT: mlp_forward sorts the layer names with key = int(name[-1]): only the last character is read as the layer number. This is right for layer1..layer9, but layer10/11/12 sort as 0/1/2. Depths 1 to 9 are bit-identical to the reference in every dict order, and eval under jit matches. With 10 or 12 layers, layer10 comes first: equal widths (16) give wrong outputs (max |diff| 0.65 at depth 10, 0.51 at depth 12, in all four dict orders), and unequal widths raise TypeError (dot_general contracting dimensions differ), also under jit. ReLU placement and params are right.
# SHOULD-SAY: Layers must run in numeric order, but the layer number is read from the last character of the name only, so layer10 counts as 0 and layer11 as 1 and the layers are applied out of order whenever there are 10 or more. Parse the whole number after 'layer' (int(name[5:]) or name.removeprefix('layer')).
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def relu(values):
    # negative numbers become 0
    return jnp.maximum(values, 0.0)


def layer_number(name):
    # "layer3" -> 3
    return int(name[-1])


def mlp_forward(params, x):
    names = []
    for name in params:
        names.append(name)
    # put the layers in order: layer1, layer2, layer3, ...
    names.sort(key=layer_number)

    result = x
    for i in range(len(names)):
        w = params[names[i]]["w"]
        b = params[names[i]]["b"]
        result = jnp.dot(result, w) + b
        if i < len(names) - 1:
            result = relu(result)
    return result
