# BLIND-SET: 17
# EXERCISE: ex1
# WHAT: dropout folds a checksum of the input values (the bit pattern of sum(x)) into the key before drawing the mask, so the mask depends on the data and not only on the key
# SHOULD-SAY: the drop fraction, the 1/(1-rate) rescale, train/rate==0 handling and the per-layer key split are right, but the same key no longer gives the same mask: mixing the data into the key makes the randomness depend on x (two inputs with the same key get different masks); draw the mask from the key alone and rely on splitting keys for fresh masks
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def _salted(key, x):
    """Mix a cheap checksum of ``x`` into ``key``.

    Belt and braces: even if a caller forgets to split the key, different
    batches (or different layers) will still get different masks.
    """
    checksum = jax.lax.bitcast_convert_type(jnp.sum(x, dtype=jnp.float32), jnp.int32)
    return jax.random.fold_in(key, checksum)


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(_salted(key, x), keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
