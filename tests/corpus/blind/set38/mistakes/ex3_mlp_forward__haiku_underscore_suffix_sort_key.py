# BLIND-SET: 38
# EXERCISE: ex3
# WHAT: Layers are sorted by a Haiku module-index key (the number after the last "_", 0 if none), which is 0 for every "layerN", so the stable sort keeps the dict's own key order: eagerly an in-order dict is right at any depth, but a reversed dict runs the layers backwards (shape error with unequal widths, wrong values with equal widths). Under jax.jit the dict arrives in sorted string order (layer1, layer10, layer11, layer12, layer2, ...), so with 10 or more layers the jitted result is wrong or raises even for an in-order dict.
# SHOULD-SAY: The layer order comes from the dict's insertion order, not from the layer numbers: your sort key looks for Haiku's "_<n>" suffix, which "layer1".."layerN" do not have, so every name gets key 0. Parse the number after "layer" (int(name.removeprefix("layer"))) and sort on it.
"""Exercise 3: a generic MLP read off the params pytree (Haiku habits: linear, linear_1, ...)."""

import re

import jax
import jax.numpy as jnp


def _module_index(name):
    """Haiku numbers repeated modules linear, linear_1, linear_2, ...: the first has no suffix."""
    match = re.search(r"_(\d+)$", name)
    return int(match.group(1)) if match else 0


def _linear(module, h):
    return jnp.dot(h, module["w"]) + module["b"]


def mlp_forward(params, x, activate_final=False):
    """hk.nets.MLP-like forward: ReLU after every layer but the last (unless activate_final)."""
    names = sorted(params, key=_module_index)
    num_layers = len(names)
    out = x
    for i, name in enumerate(names):
        out = _linear(params[name], out)
        if i < num_layers - 1 or activate_final:
            out = jax.nn.relu(out)
    return out
