# BLIND-SET: 24
# EXERCISE: ex1
# WHAT: dropout draws its keep/drop coin with jax.random.categorical(key, jnp.array([rate, 1 - rate]), shape=x.shape), passing the two probabilities where categorical expects logits; the keep probability becomes sigmoid(1 - 2*rate) instead of 1 - rate (about 0.646 at rate 0.2, 0.354 at rate 0.8), so the dropped fraction is only right at rate 0.5 while survivors are still scaled by 1/(1-rate).
# SHOULD-SAY: The fraction of zeroed elements does not match `rate` (it is right only at rate=0.5), so the layer no longer keeps the expected value: jax.random.categorical takes unnormalised log-probabilities (logits), not probabilities; pass jnp.log([rate, 1 - rate]) or, simpler, use jax.random.bernoulli(key, 1 - rate, x.shape).
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # one two-way draw per element: class 0 = drop (prob rate), class 1 = keep (prob 1 - rate)
    mask = jax.random.categorical(key, jnp.array([rate, keep]), shape=x.shape).astype(bool)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
