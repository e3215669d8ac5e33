# BLIND-SET: 54
# EXERCISE: ex1
# WHAT: forward_with_dropout skips dropout() and uses a fused ReLU-mask-scale kernel whose survivor scale is a module constant computed at import from the default rate 0.5 (2.0). The masks use the right rate, but at any rate other than 0.5 the surviving hidden units are multiplied by 2 instead of 1/(1-rate), so the training logits differ from the reference's (e.g. rate=0.2 scales by 2 instead of 1.25).
# SHOULD-SAY: In forward_with_dropout the survivors are scaled by a constant precomputed for rate=0.5, not by 1/(1-rate) for the rate passed in. Compute the scale from the rate argument (or just call your dropout function after each hidden ReLU).
"""Exercise 1: inverted dropout; the MLP path fuses ReLU, mask and rescale."""

import jax
import jax.numpy as jnp

_DEFAULT_RATE = 0.5
# survivor scale for the lesson's dropout rate, computed once
_SURVIVOR_SCALE = 1.0 / (1.0 - _DEFAULT_RATE)


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
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _relu_dropout(key, pre, rate):
    """relu + mask + rescale in one elementwise pass."""
    mask = jax.random.bernoulli(key, 1.0 - rate, pre.shape)
    return jnp.where(mask & (pre > 0), pre * _SURVIVOR_SCALE, 0.0).astype(pre.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train or rate == 0.0:
        return forward(params, x)
    k1, k2 = jax.random.split(key)
    h = _relu_dropout(k1, x @ params["layer1"]["w"] + params["layer1"]["b"], rate)
    h = _relu_dropout(k2, h @ params["layer2"]["w"] + params["layer2"]["b"], rate)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
