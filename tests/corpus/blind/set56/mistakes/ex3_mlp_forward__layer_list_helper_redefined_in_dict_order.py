# BLIND-SET: 56
# EXERCISE: ex3
# WHAT: mlp_forward iterates over `layers(params)`; the first cell defines `layers` as the layer dicts in numeric order (layer1, layer2, ..., layer10), but a later shape-table cell redefines `layers` as list(params.values()), and the later definition wins. Layers are applied in the dict's insertion order, so any params dict not listed in numeric order (e.g. reversed, or built from string-sorted names with 10+ layers) gives wrong outputs or a shape error.
# SHOULD-SAY: Layers must be applied in numeric order layer1..layerN whatever order the dict lists them; your `layers` helper is redefined later in the file as list(params.values()) (dict order), and that later definition is the one mlp_forward calls. Keep one helper that sorts by the layer number, or give the table helper another name.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (from my notebook)."""

import jax
import jax.numpy as jnp

# --- cell 1 ------------------------------------------------------------------------------


def layers(params):
    """[layer1, layer2, ...] in numeric order (layer10 after layer9!)"""
    n = len(params)
    return [params[f"layer{i}"] for i in range(1, n + 1)]


def mlp_forward(params, x):
    ls = layers(params)
    for layer in ls[:-1]:
        x = jax.nn.relu(jnp.dot(x, layer["w"]) + layer["b"])
    return jnp.dot(x, ls[-1]["w"]) + ls[-1]["b"]


# --- cell 2: check on a 12-layer toy net --------------------------------------------------
key = jax.random.PRNGKey(0)
toy = {}
for i in range(1, 13):
    key, sub = jax.random.split(key)
    toy[f"layer{i}"] = {"w": jax.random.normal(sub, (8, 8)) * 0.3, "b": jnp.zeros(8)}
print("12 layers:", mlp_forward(toy, jnp.ones((3, 8))).shape)


# --- cell 3: table of shapes for the write-up ----------------------------------------------


def layers(params):
    return list(params.values())


for layer in layers(toy):
    print(layer["w"].shape, layer["b"].shape)
