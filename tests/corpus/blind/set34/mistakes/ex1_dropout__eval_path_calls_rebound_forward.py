# BLIND-SET: 34
# EXERCISE: ex1
# WHAT: forward_with_dropout short-cuts train=False to `forward(params, x)`, but a later notebook cell rebinds the module-level name `forward` to functools.partial(forward_with_dropout, key=key, rate=0.5), so the eval path runs dropout (rate 0.5, the notebook's fixed key). With train=False the logits differ from the plain forward pass (and are random-looking, the same for every key).
# SHOULD-SAY: The train=False branch calls `forward`, which by the time it runs is no longer the plain MLP: the cell `forward = functools.partial(forward_with_dropout, ...)` at the bottom of the file rebinds that name, so evaluation applies dropout with a fixed key. Don't reuse the name `forward` for the demo (call it e.g. `noisy_forward`), or compute the plain pass inline / pass train through to dropout.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import functools

import jax
import jax.numpy as jnp

# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
key, init_key, data_key = jax.random.split(key, 3)


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
x_batch = jax.random.normal(data_key, (32, 784))


def forward(params, x):
    """The lesson's plain forward pass."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- exercise -----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        return forward(params, x)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- notebook: look at the logits with dropout switched on ---------------------
forward = functools.partial(forward_with_dropout, key=key, rate=0.5)
logits = forward(params, x_batch)
