# BLIND-SET: 34
# EXERCISE: ex3
# WHAT: mlp_forward merges its params into `layers`, a module-level dict a notebook cell filled at import with the demo 784-256-128-10 params, and then runs every layer in `layers`. Shallower params keep the demo's leftover layers (depth 1 and 2 raise a shape error or give wrong values), and after a deeper call the stale layers stay for later calls (under jit they are leaked tracers).
# SHOULD-SAY: The forward pass walks the global `layers` dict (the notebook's demo params plus whatever earlier calls wrote into it), not the params you were given, so extra layers from elsewhere are applied. Read the layers from the `params` argument only and don't write into a module-level dict.
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

layers = dict(params)  # scratch copy to poke at in the notebook


# --- exercise -----------------------------------------------------------------


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    layers.update(params)
    names = sorted(layers, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ layers[name]["w"] + layers[name]["b"])
    last = layers[names[-1]]
    return x @ last["w"] + last["b"]
