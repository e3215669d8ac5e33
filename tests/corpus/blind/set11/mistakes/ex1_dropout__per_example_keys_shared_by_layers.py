# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: forward_with_dropout vmaps over examples with one split key per example, but that per-example key is used for both dropout layers.
# SHOULD-SAY: ex1 forward: the two dropout layers reuse the same key (per example), so each layer does not get its own key; the masks of the two layers are correlated. dropout itself is fine.
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
    example_keys = jax.random.split(key, x.shape[0])

    def one_example(xi, ki):
        h = jax.nn.relu(xi @ params["layer1"]["w"] + params["layer1"]["b"])
        h = dropout(ki, h, rate, train)
        h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
        h = dropout(ki, h, rate, train)
        return h @ params["layer3"]["w"] + params["layer3"]["b"]

    return jax.vmap(one_example)(x, example_keys)
