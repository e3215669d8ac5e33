# BLIND-SET: 58
# EXERCISE: ex3
# WHAT: _ordered_layers takes list(params.values()) for a dict ("dicts keep insertion order"; lists/tuples are also accepted), so the layer order is the dict's insertion order, not the number in the names. Eagerly, dicts built layer1..layerN in numeric order are bit-identical at every depth. Dicts listed in another order (the contract allows any) are wrong: reversed or shuffled order with equal widths (16) gives max |diff| 0.32 to 3.7 at depths 2 to 12, and with unequal widths (also the lesson's 784-256-128-10) raises ValueError from the shape check. String-sorted dicts are right up to depth 9. Under jax.jit every dict comes back with its keys in string order (layer1, layer10, layer11, layer12, layer2, ...), so 12 layers are wrong even when built in numeric order: max |diff| 0.68 with equal widths, ValueError with unequal ones. Depth 1 is always exact, and params is not modified.
# SHOULD-SAY: mlp_forward must apply the layers in numeric order whatever order the dict lists them in, but you take params.values() in insertion order. Reordered dicts, and any 12-layer net under jax.jit (which rebuilds dicts with string-sorted keys: layer1, layer10, layer11, ...), run the layers in the wrong order. Sort the names by their number, e.g. sorted(params, key=lambda n: int(n.removeprefix("layer"))).
"""Exercise 3: a generic MLP that reads its depth from the params pytree.

Written to take more than the lesson's dict: layers may be a dict with any
names, in the order they were built, or a list/tuple of layers; a layer is ``{"w", "b"}`` (``b`` optional) or a ``(w, b)`` pair;
weights may be ``(in, out)`` or PyTorch's ``(out, in)``; the activations are
configurable and any leading batch axes are kept.
"""

from collections.abc import Mapping

import jax
import jax.numpy as jnp

# --- Your code ----------------------------------------------------------------


def _ordered_layers(params):
    """The layers first to last, for a dict or a list/tuple alike.

    Dicts keep insertion order (Python 3.7+), so the layers come out in the
    order they were built (layer1, layer2, ..., layer10, ...): no name parsing,
    so any layer names work.
    """
    return list(params.values()) if isinstance(params, Mapping) else list(params)


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
