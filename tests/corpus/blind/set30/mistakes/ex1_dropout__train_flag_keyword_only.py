# BLIND-SET: 30
# EXERCISE: ex1
# WHAT: dropout's signature is written dropout(key, x, rate, *, train=True): the boolean flag is made keyword-only (a "boolean trap" lint habit). Keyword calls still work, but the positional call the contract allows, dropout(key, x, rate, False), raises TypeError.
# SHOULD-SAY: dropout must accept train positionally, as in the contract's signature dropout(key, x, rate, train=True); remove the bare `*` so that dropout(key, x, rate, False) works.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key: jax.Array, x: jax.Array, rate: float, *, train: bool = True) -> jax.Array:
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate).

    `train` is keyword-only so call sites read clearly (`train=False`) instead of
    passing a bare boolean positionally.
    """
    # Inference mode (or no dropout at all): identity.
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # One independent Bernoulli(keep) coin per element.
    mask = jax.random.bernoulli(key, keep, x.shape)
    # Inverted dropout: rescale survivors so the expectation is unchanged.
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    # One fresh key per dropout layer; the parent key is never used directly.
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train=train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train=train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
