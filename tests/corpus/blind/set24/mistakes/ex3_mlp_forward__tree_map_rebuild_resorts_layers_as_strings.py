# BLIND-SET: 24
# EXERCISE: ex3
# WHAT: the layer names are sorted numerically into a new dict, but that dict is then passed through jax.tree.map(jnp.asarray, ...) "to make sure every leaf is a jnp array" and the layers are read back with .values(); jax.tree.map rebuilds dicts with their keys in sorted (string) order, so for 10 or more layers the order becomes layer1, layer10, layer11, layer12, layer2, ... (shape errors with unequal widths, silently wrong outputs and misplaced ReLU with equal widths). Depths up to 9 are unaffected.
# SHOULD-SAY: With 12 layers the layers run in string order (layer10 right after layer1): the numerically sorted dict you built is re-sorted by jax.tree.map, because pytree flattening of a dict sorts its keys and unflattening rebuilds it in that order. Do not rely on a dict's insertion order after a tree operation; iterate over your numerically sorted list of names (params[name]) instead.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    ordered = {name: params[name] for name in names}
    ordered = jax.tree.map(jnp.asarray, ordered)  # every leaf a jnp array, params untouched
    layers = list(ordered.values())
    for layer in layers[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = layers[-1]
    return x @ last["w"] + last["b"]
