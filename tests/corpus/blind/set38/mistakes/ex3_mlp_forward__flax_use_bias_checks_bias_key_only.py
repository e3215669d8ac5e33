# BLIND-SET: 38
# EXERCISE: ex3
# WHAT: The Dense helper accepts kernel or w for the weight but adds a bias only if the layer has a "bias" key (Flax's use_bias), so with the lesson's "b" no bias is added in any layer. Order, ReLUs and output shape are right.
# SHOULD-SAY: No bias is added anywhere: your Dense helper adds a bias only if the layer has a "bias" entry (Flax's name), and the lesson's params call it "b". Look the bias up under "b" as well (or only under "b"), so each layer computes h @ w + b.
"""Exercise 3: a generic MLP, written as a stack of Flax-like Dense layers."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int("".join(ch for ch in name if ch.isdigit()))


def _dense(layer, h):
    """nn.Dense.__call__: kernel product, then the bias if the layer has one (use_bias)."""
    kernel = layer["kernel"] if "kernel" in layer else layer["w"]
    y = jnp.dot(h, kernel)
    if "bias" in layer:
        y = y + layer["bias"]
    return y


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    variables = params.get("params", params)  # accept {'params': ...} too, like module.apply
    names = sorted(variables, key=_layer_number)
    *hidden, last = names
    for name in hidden:
        x = jax.nn.relu(_dense(variables[name], x))
    return _dense(variables[last], x)
