# BLIND-SET: 58
# EXERCISE: ex3
# WHAT: correct: a dict's layers are sorted by the last number in each name (re.findall), and a list/tuple is taken as given. A layer is {w, b} (b optional) or a (w, b) pair. _as_in_out uses w as (in, out) when w.shape[0] matches the width, and transposes only when it doesn't and w.shape[1] does. The compute dtype is the promoted dtype of x and the leaves (float32), with keyword options activation=relu and final_activation=None. Bit-identical to the reference at depths 1/2/3/5/12, with equal (16), unequal and the lesson's widths, B = 1/7, in numeric, reversed, string and shuffled dict orders, eager and jitted. params is untouched (same structure and leaf objects).
# SHOULD-SAY: full marks
"""Exercise 3: a generic MLP that reads its depth from the params pytree.

Written to take more than the lesson's dict: layers may be a dict with any
names that end in a number (``layer7``, ``dense_7``, ``fc7``), or a list/tuple
of layers; a layer is ``{"w", "b"}`` (``b`` optional) or a ``(w, b)`` pair;
weights may be ``(in, out)`` or PyTorch's ``(out, in)``; the activations are
configurable and any leading batch axes are kept.
"""

import re
from collections.abc import Mapping

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _layer_number(name):
    digits = re.findall(r"\d+", str(name))
    if not digits:
        raise ValueError(f"cannot read a layer number from {name!r}")
    return int(digits[-1])


def _ordered_layers(params):
    """The layers first to last: a list/tuple as given, a dict by the number in each name."""
    if isinstance(params, Mapping):
        return [params[name] for name in sorted(params, key=_layer_number)]
    return list(params)


def _unpack(layer):
    if isinstance(layer, Mapping):
        return layer["w"], layer.get("b")
    w, b = layer
    return w, b


def _as_in_out(w, n_in):
    """The weight as (in, out); a PyTorch-style (out, in) weight is transposed."""
    if w.shape[0] == n_in:
        return w
    if w.shape[1] == n_in:
        return w.T
    raise ValueError(f"weight of shape {w.shape} does not take {n_in} inputs")


def mlp_forward(params, x, *, activation=jax.nn.relu, final_activation=None, dtype=None):
    """Forward pass of an MLP of any depth.

    Args:
      params: the layers (see the module docstring); ``layer1``..``layerN`` in
        any dict order for the lesson.
      x: ``(..., d0)``; every leading axis is a batch axis.
      activation: applied after every layer but the last (default ReLU).
      final_activation: optional, applied after the last layer.
      dtype: compute dtype; default the promoted dtype of ``x`` and the params.

    Returns:
      ``(..., dN)``. ``params`` is only read.
    """
    layers = _ordered_layers(params)
    if not layers:
        raise ValueError("params has no layers")
    if dtype is None:
        dtype = jnp.result_type(x, *jax.tree.leaves(params))
    h = jnp.asarray(x, dtype)
    for i, layer in enumerate(layers):
        w, b = _unpack(layer)
        h = h @ _as_in_out(w, h.shape[-1]).astype(dtype)
        if b is not None:
            h = h + b.astype(dtype)
        if i < len(layers) - 1:
            h = activation(h)
        elif final_activation is not None:
            h = final_activation(h)
    return h
