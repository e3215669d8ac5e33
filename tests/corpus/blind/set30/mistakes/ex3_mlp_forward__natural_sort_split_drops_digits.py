# BLIND-SET: 30
# EXERCISE: ex3
# WHAT: layers are ordered with a "natural sort" key built from re.split(r"\d+", name); without a capturing group re.split throws the digits away, so every key is ["layer", ""] and the (stable) sort keeps the dict's insertion order. Right when params list layer1..layerN in order, wrong (shape error or wrong values) when the dict lists them in any other order.
# SHOULD-SAY: re.split drops the separators unless the pattern has a capturing group, so the layer number never reaches the sort key. Use re.split(r"(\d+)", name) or, simpler, key=lambda n: int(n.removeprefix("layer")).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import re

import jax


def _natural_key(name: str) -> list:
    """Natural-sort key: digit runs compare as numbers, so layer10 > layer9."""
    return [int(tok) if tok.isdigit() else tok for tok in re.split(r"\d+", name)]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=_natural_key)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]
