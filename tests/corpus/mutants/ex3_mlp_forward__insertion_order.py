"""Iterates params in dict insertion order instead of sorting the layer names.

ex3.jit is not judged (skipped): jax.jit rebuilds the dict with its keys
sorted as text, so under jit the 12 layers run in string order and the result
changes, the same mistake seen again.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.dict_order", "max_failing": 1, "hint": "in the order the params dict lists them", "also": ["ex3.jit"]}


def mlp_forward(params, x):
    layers = list(params.values())
    for layer in layers[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]
