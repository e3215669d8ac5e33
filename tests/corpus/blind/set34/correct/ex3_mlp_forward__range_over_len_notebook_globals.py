# BLIND-SET: 34
# EXERCISE: ex3
# WHAT: Correct rewrite in the notebook style: demo params, names, last_name, x and an activation-comparison loop stay at module level, but mlp_forward only reads its arguments: depth = len(params), layers visited as params[f"layer{i}"] for i in 1..depth, jax.nn.relu called directly when i < depth.
# SHOULD-SAY: Nothing to fix: outputs match at every depth and order, params is not modified and jit agrees; the notebook leftovers are unused by the function.
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
names = sorted(params)
last_name = names[-1]
depth = len(params)
activation = jax.nn.relu


# --- exercise -----------------------------------------------------------------


def mlp_forward(params, x):
    """Layers layer1..layerN in numeric order; ReLU after all but the last."""
    depth = len(params)
    h = x
    for i in range(1, depth + 1):
        layer = params[f"layer{i}"]
        h = jnp.dot(h, layer["w"]) + layer["b"]
        if i < depth:
            h = jax.nn.relu(h)
    return h


# notebook: does the activation change the logits much?
spread = {}
for activation in (jax.nn.relu, jax.nn.gelu, jax.nn.tanh):
    spread[activation.__name__] = float(jnp.std(activation(mlp_forward(params, x))))
