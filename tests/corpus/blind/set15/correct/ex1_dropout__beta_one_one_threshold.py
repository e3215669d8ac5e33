# BLIND-SET: 15
# EXERCISE: ex1
# WHAT: dropout draws a Beta(1, 1) variate per element (which is exactly Uniform(0, 1)) and keeps the element when it is below 1 - rate; the forward pass folds both hidden layers through one helper with keys from jax.random.split(key, 2) and functools.partial.
# SHOULD-SAY: All ex1 checks pass: zero fraction matches rate, survivors are scaled by exactly 1/(1-rate), train=False and rate=0 return x, masks are per element and depend only on the key, each dropout layer gets its own key, dropout sits after the two hidden ReLUs only, train=False equals forward, and results agree under jax.jit.
"""Exercise 1: inverted dropout with one PRNG key per layer (Beta(1,1) coins)."""

import functools

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # Beta(1, 1) is the uniform distribution on (0, 1): P(u < keep) = keep.
    u = jax.random.beta(key, 1.0, 1.0, x.shape)
    return jnp.where(u < keep, x / keep, jnp.zeros_like(x)).astype(x.dtype)


def _hidden(layer, h, key, drop):
    """One hidden layer: affine, ReLU, then dropout with its own key."""
    return drop(key, jax.nn.relu(h @ layer["w"] + layer["b"]))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    drop = functools.partial(lambda k, h: dropout(k, h, rate, train))
    keys = jax.random.split(key, 2)
    h = x
    for name, k in zip(("layer1", "layer2"), keys):
        h = _hidden(params[name], h, k, drop)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
