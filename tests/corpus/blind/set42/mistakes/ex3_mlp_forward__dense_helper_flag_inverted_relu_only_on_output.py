# BLIND-SET: 42
# EXERCISE: ex3
# WHAT: The helper is _dense(h, layer, is_last) and applies ReLU unless is_last is True, but the loop passes `i < n - 1` (a "hidden" flag) into that slot after an edit, so every hidden layer gets no ReLU and the output layer gets ReLU. For depth 1 the output is relu(x @ w + b); for deeper nets the hidden layers are linear and all logits are clipped at 0.
# SHOULD-SAY: ReLU is applied only to the output layer and to none of the hidden ones: the call passes `i < n - 1` (True for hidden layers) into _dense's `is_last` parameter, whose meaning is the opposite. Pass `is_last=(i == n - 1)` by keyword, or rename the parameter so that True means "apply ReLU".
"""Exercise 3: a generic MLP that reads its depth from the params pytree."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array


def _layer_index(name: str) -> int:
    """'layer12' -> 12 (numeric, so layer10 sorts after layer9)."""
    return int(name.removeprefix("layer"))


def _dense(h: Array, layer: dict[str, Array], is_last: bool) -> Array:
    """Affine layer; ReLU on every layer except the output layer."""
    z = jnp.dot(h, layer["w"]) + layer["b"]
    if is_last:
        return z
    return jax.nn.relu(z)


def mlp_forward(params, x):
    """Forward pass of an MLP of any depth.

    The depth and the order of the layers come from the params dict itself.
    ``params`` is read, never modified.
    """
    names = sorted(params.keys(), key=_layer_index)
    n = len(names)
    h = x
    for i, name in enumerate(names):
        hidden = i < n - 1
        h = _dense(h, params[name], hidden)
    return h
