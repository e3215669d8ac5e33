# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: Per-layer keys are derived as jax.random.fold_in(key, h.shape[0]); shape[0] is the batch size, the same for both hidden layers, so both dropout layers get the identical key (the width, shape[1], would have differed).
# SHOULD-SAY: ex1 forward_with_dropout key check fails: the two dropout layers are driven by one and the same key (fold_in with the batch size, not a per-layer value), so their masks come from the same random stream. dropout on its own, placement and train=False pass.
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
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    # derive a separate key for each layer from the layer's size
    h = dropout(jax.random.fold_in(key, h.shape[0]), h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(jax.random.fold_in(key, h.shape[0]), h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
