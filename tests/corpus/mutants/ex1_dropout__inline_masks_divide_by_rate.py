"""dropout itself is right, but forward_with_dropout draws its two masks inline and divides the survivors by rate
instead of by 1 - rate. At rate 0.5 the two agree, so the default call is right; at any other rate train mode no
longer keeps each unit's average. The report measures (kept fraction) x (scale) per layer at rate 0.1."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.forward_scale_rate", "max_failing": 1,
          "hint": "1 / rate and 1 / (1 - rate) agree"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU, masks drawn here."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    if train and rate > 0:
        h = h * jax.random.bernoulli(key1, 1.0 - rate, h.shape) / rate
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    if train and rate > 0:
        h = h * jax.random.bernoulli(key2, 1.0 - rate, h.shape) / rate
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
