# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout only zeroes elements and never rescales the survivors; forward_with_dropout compensates by dividing each dropped hidden layer by (1 - rate) itself, so the MLP output is right but dropout on its own is not inverted dropout.
# SHOULD-SAY: dropout zeroes the right fraction with independent per-element coins and handles train=False/rate=0, but its survivors come back unscaled (factor 1 instead of 1/(1-rate)), so dropout alone fails the rescale check; forward_with_dropout gives the right logits only because it does the rescale outside dropout. Move the 1/(1-rate) scaling into dropout and drop it from the forward pass.
"""Exercise 1: inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`."""
    if not train or rate == 0.0:
        return x
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(mask, x, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    # inverted dropout: keep the expected activation the same while training
    scale = 1.0 / (1.0 - rate) if train else 1.0
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train) * scale
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train) * scale
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
