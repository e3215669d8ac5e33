# BLIND-SET: 34
# EXERCISE: ex1
# WHAT: In forward_with_dropout the first hidden activation is called `h1`, but the second layer is computed from `h`, the module-level activation a notebook cell computed at import from the 32-row demo batch. The logits no longer depend on `x` (they are always (32, 10), from the demo batch), and train=False does not equal the plain forward pass.
# SHOULD-SAY: The second layer reads `h`, which inside the function is not defined locally, so Python uses the notebook's module-level `h` (the demo batch's first hidden layer); your input `x` and the first dropout are ignored. Feed the second layer with the local `h1` (and delete the leftover demo cells so such slips raise a NameError).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

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

# first hidden layer of the demo batch, to look at before adding dropout
h = jax.nn.relu(x_batch @ params["layer1"]["w"] + params["layer1"]["b"])


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
    key1, key2 = jax.random.split(key)
    h1 = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h1 = dropout(key1, h1, rate, train)
    h2 = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h2 = dropout(key2, h2, rate, train)
    return h2 @ params["layer3"]["w"] + params["layer3"]["b"]
