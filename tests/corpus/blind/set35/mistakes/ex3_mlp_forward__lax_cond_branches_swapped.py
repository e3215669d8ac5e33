# BLIND-SET: 35
# EXERCISE: ex3
# WHAT: the activation is chosen with lax.cond(name != last, identity, relu, h), but lax.cond runs its first function when the predicate is true, so hidden layers get no ReLU and the output layer gets one. Every depth gives wrong outputs (at depth 1 the logits are ReLU-clipped).
# SHOULD-SAY: lax.cond(pred, true_fun, false_fun, operand) calls true_fun when pred holds; with pred = "not the last layer" the ReLU must be the true branch: lax.cond(name != last, jax.nn.relu, lambda a: a, h). Since the layer index is a Python value here, a plain if would do.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
from jax import lax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    last = names[-1]
    for name in names:
        layer = params[name]
        h = lax.dot_general(x, layer["w"], (((1,), (0,)), ((), ()))) + layer["b"]
        x = lax.cond(name != last, lambda a: a, jax.nn.relu, h)
    return x
