# BLIND-SET: 34
# EXERCISE: ex3
# WHAT: The hidden activation is the module-level name `activation`, set to jax.nn.relu in one notebook cell and then rebound by a later cell's `for activation in (relu, gelu, tanh)` comparison loop, which leaves it as jax.nn.tanh at import. Every hidden layer applies tanh instead of ReLU, so outputs differ at every depth >= 2 (depth 1 is unaffected).
# SHOULD-SAY: The hidden layers use whatever the global `activation` holds when the function runs; your activation-comparison loop at module level rebinds it, so it ends as tanh. Call jax.nn.relu directly inside mlp_forward (and don't reuse that name as a loop variable).
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

activation = jax.nn.relu


# --- exercise -----------------------------------------------------------------


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = activation(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]


# notebook: does the activation change the logits much?
spread = {}
for activation in (jax.nn.relu, jax.nn.gelu, jax.nn.tanh):
    spread[activation.__name__] = float(jnp.std(mlp_forward(params, x)))
