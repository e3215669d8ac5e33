# BLIND-SET: 34
# EXERCISE: ex3
# WHAT: mlp_forward sorts the layer names correctly but decides where to skip the ReLU by comparing each name with `last_name`, a module-level value a notebook cell computed at import from the demo 3-layer params ("layer3"). Only depth 3 is right; at depths 1 and 2 the output gets a ReLU, and at depth 5 or 12 layer3 loses its ReLU while the output layer gets one.
# SHOULD-SAY: The test `name != last_name` compares with the notebook's global `last_name` ("layer3" from the demo params), not with the last layer of the params you were given. Use the local list: skip the ReLU when `name == names[-1]` (or loop over names[:-1] and apply the last layer separately).
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax
import jax.numpy as jnp

# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
sizes = [784, 256, 128, 10]
params = {}
for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
    key, sub = jax.random.split(key)
    params[f"layer{i}"] = {
        "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
        "b": jnp.zeros(n_out),
    }
x = jax.random.normal(key, (4, 784))

names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
last_name = names[-1]


# --- exercise -----------------------------------------------------------------


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names:
        x = x @ params[name]["w"] + params[name]["b"]
        if name != last_name:
            x = jax.nn.relu(x)
    return x
