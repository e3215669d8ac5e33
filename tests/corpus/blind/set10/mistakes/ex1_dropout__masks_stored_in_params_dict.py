# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout writes each layer's dropout mask into the caller's params dict (params['layer1']['mask'], params['layer2']['mask']) for later inspection.
# SHOULD-SAY: ex1 purity check fails: forward_with_dropout modifies its params input (adds boolean 'mask' leaves, changing the pytree); values and jit agreement are otherwise right, but training afterwards breaks (jax.grad over params with bool leaves raises) so the accuracy check may error.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    params["layer1"]["mask"] = h != 0  # keep the mask, like a layer cache
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    params["layer2"]["mask"] = h != 0
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
