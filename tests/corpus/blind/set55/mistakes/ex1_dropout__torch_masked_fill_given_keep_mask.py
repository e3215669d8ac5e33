# BLIND-SET: 55
# EXERCISE: ex1
# WHAT: a line-by-line port of PyTorch's x.masked_fill(mask, 0) as jnp.where(mask, 0, x) is handed the KEEP mask (bernoulli(1 - rate)), so the elements meant to survive are zeroed and the ones meant to be dropped survive (scaled by 1/(1-rate)); the zeroed fraction is 1 - rate instead of rate (identical in distribution only at rate 0.5).
# SHOULD-SAY: masked_fill fills where the mask is True, so it needs the DROP mask; you passed the keep mask, so at rate 0.2 about 80% of elements are zeroed. Use jnp.where(keep, x / (1 - rate), 0) (or fill where ~keep).
"""Exercise 1: dropout, translated from my PyTorch version."""

import jax
import jax.numpy as jnp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def _masked_fill(x, mask, value):
    """torch.Tensor.masked_fill(mask, value)."""
    return jnp.where(mask, value, x)


def dropout(key, x, rate, train=True):
    if not train or rate == 0:
        return x
    p = rate
    # torch: mask = torch.empty_like(x).bernoulli_(1 - p)
    mask = jax.random.bernoulli(key, 1.0 - p, x.shape)
    out = _masked_fill(x, mask, 0.0)
    return (out / (1.0 - p)).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    k1, k2 = jax.random.split(key, 2)
    out = x
    for name, k in (("layer1", k1), ("layer2", k2)):
        out = jax.nn.relu(out @ params[name]["w"] + params[name]["b"])
        out = dropout(k, out, rate, train=train)
    return out @ params["layer3"]["w"] + params["layer3"]["b"]
