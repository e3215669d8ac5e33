# BLIND-SET: 34
# EXERCISE: ex1
# WHAT: forward_with_dropout splits its key into `k1, k2`, but the second dropout is given `key2`, a module-level key left over from a notebook cell (split from PRNGKey(42) at import). The second hidden layer's mask is the same for every key passed in (and for every call), so the key is not what drives all the randomness and one key is reused across calls.
# SHOULD-SAY: The second dropout uses `key2`, the notebook's global key, not the `k2` you split from the function's `key`; that layer's mask never changes with the key you pass. Use `k2` (the split of the argument) for the second layer and remove the leftover global keys.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# --- cells pasted from the lesson notebook ------------------------------------
key1, key2 = jax.random.split(jax.random.PRNGKey(42))
demo = jnp.ones((4, 8))


# --- exercise -----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


# notebook: two different keys give two different masks
demo_a = dropout(key1, demo, 0.5)
demo_b = dropout(key2, demo, 0.5)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
