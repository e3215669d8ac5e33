# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout casts its training-mode output to bfloat16 ("mixed precision to save activation memory"), so it returns the wrong dtype and survivors are only approximately scaled by 1/(1-rate).
# SHOULD-SAY: The mask is right (fraction zeroed, independence, key handling, train=False/rate=0 identity and MLP placement pass), but in training mode dropout returns bfloat16 instead of float32 and the surviving values are rounded to ~3 significant digits, so the "survivors scaled by exactly 1/(1-rate)" check fails and forward_with_dropout's logits drift from the expected values; keep the input dtype (float32).
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# Activations are stored in bfloat16 during training (as in mixed-precision
# training) to halve the memory of the saved masks/activations.
ACTIVATION_DTYPE = jnp.bfloat16


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(ACTIVATION_DTYPE)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
