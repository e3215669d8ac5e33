# BLIND-SET: 37
# EXERCISE: ex1
# WHAT: forward_with_dropout memoises its train=False logits in a module dict keyed by (id(params), x.shape); a second evaluation with the same params dict and a different batch of the same shape returns the first batch's logits, so train=False no longer equals the plain forward pass (under jax.jit the cache can also hand back a leaked tracer).
# SHOULD-SAY: The eval path returns stale logits from a cache whose key (params identity and batch shape) does not include the batch contents; with train=False the result must be forward(params, x) for the x given. Remove the module-level cache (jit the function if evaluation speed matters) or key it on everything the output depends on.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp

# Evaluation runs on the same validation batch every epoch: keep its logits.
_EVAL_LOGITS = {}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if not train:
        cache_key = (id(params), tuple(x.shape))
        if cache_key not in _EVAL_LOGITS:
            h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
            h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
            _EVAL_LOGITS[cache_key] = h @ params["layer3"]["w"] + params["layer3"]["b"]
        return _EVAL_LOGITS[cache_key]
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
