# BLIND-SET: 17
# EXERCISE: ex1
# WHAT: with train=False, forward_with_dropout does "Monte-Carlo dropout": it averages 8 stochastic dropout passes (keys split from the given key) instead of returning the plain forward pass
# SHOULD-SAY: dropout itself and the training-mode forward (own key per layer, dropout after each hidden ReLU) are right, but evaluation mode must switch dropout off and return exactly forward(params, x); averaging several dropout passes (MC dropout) only approximates it and depends on the key - return the deterministic forward pass when train is False
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

MC_SAMPLES = 8  # number of stochastic passes averaged at test time (Gal & Ghahramani)


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _stochastic_pass(params, x, key, rate):
    k1, k2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(k1, h, rate, train=True)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(k2, h, rate, train=True)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    if train:
        return _stochastic_pass(params, x, key, rate)
    # Evaluation: keep dropout on and average several passes for a smoother,
    # better-calibrated prediction.
    sample_keys = jax.random.split(key, MC_SAMPLES)
    samples = jax.vmap(lambda k: _stochastic_pass(params, x, k, rate))(sample_keys)
    return jnp.mean(samples, axis=0)
