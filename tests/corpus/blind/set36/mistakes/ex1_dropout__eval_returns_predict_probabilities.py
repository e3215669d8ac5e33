# BLIND-SET: 36
# EXERCISE: ex1
# WHAT: forward_with_dropout returns softmax probabilities when train=False (as Keras model.predict does with a softmax head) and logits when train=True, so with train=False it no longer equals the plain forward pass (its rows sum to 1).
# SHOULD-SAY: With train=False the output must be the logits of the plain forward pass, not probabilities: remove the softmax on the eval path; the loss applies log_softmax itself (the lesson's model is 'from_logits').
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
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
    # inference mode behaves like Keras model.predict(): class probabilities
    return logits if train else jax.nn.softmax(logits)
