# BLIND-SET: 37
# EXERCISE: ex1
# WHAT: The uniform noise is drawn once at import into a pool sized for the lesson's largest activation (128 x 256 = 32768 values) and each call takes a key-chosen window of it; arrays with more than 32768 elements make dropout raise, an array of exactly 32768 elements (the lesson batch's first hidden layer) gets the same mask for every key, and masks for different keys or layers are shifted copies of one another rather than independent draws.
# SHOULD-SAY: The mask must be drawn fresh from the key for each call (jax.random.bernoulli(key, 1 - rate, x.shape)); a precomputed noise pool ties every mask to one import-time draw: different keys give overlapping/identical masks, and inputs larger than the pool fail. Drop the pool: JAX's PRNG draw is cheap and fuses under jit.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# Drawing random numbers on every call is wasteful: draw enough uniforms once
# (the lesson's largest activation is a 128 x 256 hidden layer) and let each key
# pick its own window of the pool.
_POOL_SIZE = 128 * 256
_UNIFORM_POOL = jax.random.uniform(jax.random.PRNGKey(0), (_POOL_SIZE,))


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    n = x.size
    start = jax.random.randint(key, (), 0, _POOL_SIZE - n + 1)
    mask = jax.lax.dynamic_slice(_UNIFORM_POOL, (start,), (n,)).reshape(x.shape) < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
