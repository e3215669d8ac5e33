# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: forward_with_dropout calls jax.random.split(key) as if it advanced the key in place (numpy Generator / torch habit) and throws the result away, so both dropout layers get the same original key.
# SHOULD-SAY: dropout itself is correct (rate, rescaling, train=False/rate=0, independence, same/different key), and train=False equals the plain forward pass, but forward_with_dropout passes the same key to both dropout layers: jax.random.split returns new keys and does not change `key`; assign its result (`k1, k2 = jax.random.split(key)`) and give each layer its own key.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    jax.random.split(key)  # advance the generator before each use
    h = dropout(key, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    jax.random.split(key)
    h = dropout(key, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
