"""dropout keeps the scaled values in float16 (to halve the memory of the masked copy): every survivor is
x / (1 - rate) rounded to float16, off by up to about 0.05%, at every rate."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    scaled = (x / keep).astype(jnp.float16)  # half the bytes for the masked copy
    return jnp.where(mask, scaled, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


EXPECT = {"check": "ex1.rescale", "mistake": "ex1.scale_in_sixteen_bits", "hint": "16-bit float", "max_failing": 1}
