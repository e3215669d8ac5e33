# BLIND-SET: 39
# EXERCISE: ex1
# WHAT: dropout draws its mask row by row in a jax.lax.scan whose carry is the key, but the scan body returns the incoming key as the new carry instead of the freshly split one, so every row is drawn from the same subkey and gets the identical mask (the mask is shared across the batch / leading axes). The zeroed fraction and the 1/(1-rate) scale are still right, and forward_with_dropout inherits the shared per-row mask at both hidden layers.
# SHOULD-SAY: Every row of your dropout mask is the same: in the lax.scan body you split the carried key but return the old key as the carry, so each step splits the same key and gets the same subkey. Return the new key (`key, sub = jax.random.split(key); return key, row_mask`), or just draw the whole mask at once with `jax.random.bernoulli(key, 1 - rate, x.shape)`.
"""Exercise 1: dropout with split PRNG keys (lax.scan over rows, one subkey per row)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _row_masks(key, n_rows, row_width, keep):
    """One Bernoulli(keep) row per scan step, each from its own subkey."""

    def body(carry_key, _):
        new_key, sub = jax.random.split(carry_key)
        row = jax.random.bernoulli(sub, keep, (row_width,))
        return carry_key, row

    _, rows = jax.lax.scan(body, key, xs=None, length=n_rows)
    return rows


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    width = x.shape[-1] if x.ndim else 1
    n_rows = x.size // width
    mask = _row_masks(key, n_rows, width, keep).reshape(x.shape)
    return jax.lax.select(mask, x / keep, jnp.zeros_like(x)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    with jax.named_scope("layer1"):
        h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
        h = dropout(key1, h, rate, train)
    with jax.named_scope("layer2"):
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = dropout(key2, h, rate, train)
    with jax.named_scope("layer3"):
        return h @ params["layer3"]["w"] + params["layer3"]["b"]
