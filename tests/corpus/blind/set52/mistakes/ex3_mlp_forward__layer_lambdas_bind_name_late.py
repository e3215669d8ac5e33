# BLIND-SET: 52
# EXERCISE: ex3
# WHAT: the layers are built as a list of lambdas `lambda h: h @ params[n]["w"] + params[n]["b"] for n in names`; the closures look n up when called, after the comprehension has finished, so every layer is the last layer. Depth 1 is right; deeper models with equal widths silently apply layerN N times (wrong logits), and models with unequal widths raise a shape error.
# SHOULD-SAY: Every layer in mlp_forward uses the last layer's weights: the lambdas in the comprehension capture the variable n, not its value, and all see its final value. Bind it at creation (lambda h, n=n: ...), use functools.partial, or build the list of params dicts and close over each dict.
"""Exercise 3: a generic MLP (a list of layer closures)."""

from functools import reduce

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    *hidden, last = [lambda h: h @ params[n]["w"] + params[n]["b"] for n in names]
    return last(reduce(lambda h, f: jax.nn.relu(f(h)), hidden, x))
