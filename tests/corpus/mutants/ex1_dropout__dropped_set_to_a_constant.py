"""Alpha dropout: dropped elements are set to a constant (then an affine correction), not to 0.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.zero_fraction", "mistake": "", "hint": "not to another value", "max_failing": 1, "also": ["ex1.rescale", "ex1.identity", "ex1.per_element", "ex1.key_only_randomness", "ex1.jit"]}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    # AlphaDropout (self-normalising nets): dropped units go to the SELU
    # saturation value, then an affine map keeps mean and variance unchanged.
    alpha_p = -1.7580993408473766
    a = (keep + alpha_p**2 * keep * rate) ** -0.5
    b = -a * alpha_p * rate
    return (a * jnp.where(mask, x, alpha_p) + b).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
