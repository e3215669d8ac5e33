# BLIND-SET: 19
# EXERCISE: ex1
# WHAT: the survivor scale is min(1/(1-rate), 2.0), so for rates above 0.5 survivors are scaled by 2 instead of 1/(1-rate)
# SHOULD-SAY: The mask, the zero fraction, train=False, rate=0 and the key splitting are right, and the scale is right for rate <= 0.5; but you cap the scale at 2, so for rate > 0.5 (e.g. 0.75 needs 4x) the expected value shrinks. Always scale survivors by exactly 1/(1-rate).
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

MAX_SCALE = 2.0  # don't let the survivors blow up when the rate is large


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train:
        return x
    if rate == 0:
        return x
    keep_prob = 1.0 - rate
    scale = min(1.0 / keep_prob, MAX_SCALE)
    keep = jax.random.bernoulli(key, keep_prob, x.shape)
    return jnp.where(keep, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(["layer1", "layer2"]):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
