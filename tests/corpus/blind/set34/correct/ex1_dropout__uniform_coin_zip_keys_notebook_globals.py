# BLIND-SET: 34
# EXERCISE: ex1
# WHAT: Correct rewrite in the notebook style: module-level leftovers (key, keys, rate, keep, train, params, a demo batch and activation) stay at the top, but both functions only use their own arguments. dropout draws a uniform coin (u < keep is exactly jax.random.bernoulli's rule) and multiplies by mask / keep; the forward pass loops over the two hidden layers zipped with jax.random.split(key, 2).
# SHOULD-SAY: Nothing to fix: all outputs the contract specifies match; the notebook leftovers are unused by the functions (removing them would tidy the file).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
key, init_key, data_key = jax.random.split(key, 3)
rate = 0.3
keep = 1.0 - rate
train = True


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(init_key)
x = jax.random.normal(data_key, (16, 784))
h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
keys = jax.random.split(key, 2)


# --- exercise -----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout: keep each element with probability 1 - rate."""
    if rate == 0.0 or not train:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(key, x.shape)
    mask = (u < keep).astype(x.dtype)
    return x * mask / jnp.asarray(keep, x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """Two hidden ReLU layers each followed by dropout with its own key."""
    keys = jax.random.split(key, 2)
    h = x
    for name, k in zip(("layer1", "layer2"), keys):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(k, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# notebook: quick look
demo_logits = forward_with_dropout(params, x, keys[0], rate, train)
