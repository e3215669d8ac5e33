# BLIND-SET: 31
# EXERCISE: ex3
# WHAT: Correct rewrite: layer names sorted by the integer after "layer" (str.partition), each layer turned into a (w, b) pair with operator.itemgetter, `*hidden, (w_out, b_out) = ...` unpacking, hidden layers folded with functools.reduce and ReLU, output layer affine.
# SHOULD-SAY: Nothing to fix: any depth, numeric layer order (layer10 after layer9), ReLU on every layer but the last, params untouched, jit-safe.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import functools
import operator

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    pair = operator.itemgetter("w", "b")
    *hidden, (w_out, b_out) = [
        pair(params[name]) for name in sorted(params, key=lambda name: int(name.partition("layer")[2]))
    ]
    h = functools.reduce(lambda h, wb: jax.nn.relu(h @ wb[0] + wb[1]), hidden, x)
    return h @ w_out + b_out
