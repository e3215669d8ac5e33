# BLIND-SET: 56
# EXERCISE: ex1
# WHAT: forward_with_dropout computes the logits with a helper `head(h)` that reads the module-level `params` (initialised in an earlier notebook cell with PRNGKey(0)) instead of the params passed in, so layer3's weights and bias are always the notebook's. Logits differ from the reference (train=True and train=False) whenever the caller's layer3 differs from the notebook's.
# SHOULD-SAY: The output layer ignores the params you are given: `head` uses the global `params` from your init cell, not forward_with_dropout's argument. Pass the params (or params["layer3"]) into the helper, e.g. `head(params, h)`.
"""Exercise 1: dropout with split PRNG keys (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- cell 2: params like in the lesson ----------------------------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(jax.random.PRNGKey(0))
x_batch = jax.random.normal(jax.random.PRNGKey(1), (128, 784))


# --- cell 3: dropout ------------------------------------------------------------


def dropout(key, x, rate, train=True):
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


# --- cell 4: MLP with dropout -------------------------------------------------


def head(h):
    """logits from the last hidden layer"""
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    key_a, key_b = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key_a, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key_b, h, rate, train)
    return head(h)


logits = forward_with_dropout(params, x_batch, jax.random.PRNGKey(2), train=False)
print(logits.shape, jnp.allclose(logits, forward(params, x_batch), atol=1e-5))  # (128, 10) True
