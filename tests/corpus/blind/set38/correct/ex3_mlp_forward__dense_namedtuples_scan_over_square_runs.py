# BLIND-SET: 38
# EXERCISE: ex3
# WHAT: Correct: layers are sorted by the integer after "layer" and turned into Dense(kernel, bias) namedtuples via `bias, kernel = jax.tree.leaves(layer)` (sorted leaf order, "b" < "w" like bias < kernel). Runs of consecutive identical square hidden layers are stacked and applied with lax.scan (like nn.scan), the rest one by one, with ReLU after every hidden layer, none after the last, and params never written to.
# SHOULD-SAY: Nothing to fix: numeric layer order read from the params, ReLU after every layer but the last, params left unmodified, and it works under jax.jit.
"""Exercise 3: a generic MLP, with Flax habits (Dense records, nn.scan over repeated layers)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class Dense(NamedTuple):
    kernel: jax.Array
    bias: jax.Array


def _dense(layer, h):
    return h @ layer.kernel + layer.bias


def _as_dense(layer):
    # tree leaves come back in sorted key order: b before w, like bias before kernel in Flax
    bias, kernel = jax.tree.leaves(layer)
    return Dense(kernel=kernel, bias=bias)


def _runs(layers):
    """Group consecutive layers of identical (hence square) shape, so each group can be scanned."""
    runs = []
    for layer in layers:
        if runs and runs[-1][-1].kernel.shape == layer.kernel.shape:
            runs[-1].append(layer)
        else:
            runs.append([layer])
    return runs


def _hidden_block(h, layer):
    return jax.nn.relu(_dense(layer, h)), None


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    layers = [_as_dense(params[name]) for name in names]
    *hidden, head = layers
    h = x
    for run in _runs(hidden):
        if len(run) == 1:
            h, _ = _hidden_block(h, run[0])
        else:
            stacked = jax.tree.map(lambda *leaves: jnp.stack(leaves), *run)
            h, _ = lax.scan(_hidden_block, h, stacked)
    return _dense(head, h)
