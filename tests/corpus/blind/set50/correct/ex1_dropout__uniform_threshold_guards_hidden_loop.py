# BLIND-SET: 50
# EXERCISE: ex1
# WHAT: Correct. dropout validates rate and train, returns x itself when train is False or rate == 0, and otherwise builds the keep mask as jax.random.uniform(key, jnp.shape(x)) < 1 - rate (bit-identical to bernoulli, so the same masks as the reference for the same key, for 0-d, 1-d, 2-d and 3-d inputs alike). Survivors are multiplied by a precomputed 1/(1-rate). forward_with_dropout walks the two hidden layers in a loop with jax.random.split(key, 2).
# SHOULD-SAY: Nothing to fix: full marks for ex1.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _keep_mask(key, shape, keep_prob):
    """True where an element survives: one uniform draw per element."""
    coins = jax.random.uniform(key, shape, dtype=jnp.float32)
    return coins < keep_prob


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    rate = float(rate)
    assert 0.0 <= rate < 1.0, f"rate must be in [0, 1), got {rate}"
    if train is False or train is None or not train:
        return x  # evaluation: the input itself
    if rate == 0.0:
        return x  # nothing to drop
    keep_prob = 1.0 - rate
    scale = 1.0 / keep_prob
    survivors = _keep_mask(key, jnp.shape(x), keep_prob)
    scaled = jnp.asarray(x) * scale
    return jnp.where(survivors, scaled, jnp.zeros_like(scaled)).astype(jnp.asarray(x).dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU (and nowhere else)."""
    hidden_keys = jax.random.split(key, 2)  # one fresh key per dropout layer
    h = x
    for position, name in enumerate(("layer1", "layer2")):
        layer = params[name]
        h = jnp.maximum(jnp.dot(h, layer["w"]) + layer["b"], 0.0)
        h = dropout(hidden_keys[position], h, rate, train)
    out = params["layer3"]
    return jnp.dot(h, out["w"]) + out["b"]
