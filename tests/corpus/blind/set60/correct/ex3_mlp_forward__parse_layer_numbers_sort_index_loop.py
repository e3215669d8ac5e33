# BLIND-SET: 60
# EXERCISE: ex3
# WHAT: correct: the layer numbers are parsed from the keys with int(name[len('layer'):]), collected with append and sorted as ints. The loop is range(len(numbers)), rebuilds each name with 'layer' + str(n), applies jnp.dot + b, and applies a hand-written ReLU when i != len - 1. Bit-identical to the reference (max |diff| 0) at depths 1/2/3/5/9/10/12, with equal (16) and unequal widths, in numeric, reversed, string-sorted and shuffled dict order. Under jit it is also bit-identical. Params are never modified (the tree structure is unchanged and a second call gives the same result).
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

import jax
import jax.numpy as jnp


def relu(values):
    # negative numbers become 0
    return jnp.maximum(values, 0.0)


def mlp_forward(params, x):
    # the layers are called "layer1", "layer2", ...: get their numbers
    numbers = []
    for name in params.keys():
        number = int(name[len("layer"):])
        numbers.append(number)
    # sort the numbers (as numbers, so 10 comes after 9)
    numbers.sort()

    h = x
    for i in range(len(numbers)):
        name = "layer" + str(numbers[i])
        w = params[name]["w"]
        b = params[name]["b"]
        h = jnp.dot(h, w) + b
        # relu everywhere except after the last layer
        if i != len(numbers) - 1:
            h = relu(h)
    return h
