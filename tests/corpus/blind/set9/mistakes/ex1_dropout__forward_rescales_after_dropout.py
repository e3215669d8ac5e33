# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout() is correct, but forward_with_dropout divides each dropped hidden layer by (1 - rate) again when training, so survivors are scaled by 1/(1-rate)^2 (4x at rate 0.5).
# SHOULD-SAY: ex1 MLP check fails: training-mode logits differ from a forward pass with correctly scaled dropout (double rescaling); dropout() itself and train=False pass.
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
    if train:
        h = h / (1.0 - rate)  # inverted dropout: rescale the kept units
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    if train:
        h = h / (1.0 - rate)  # inverted dropout: rescale the kept units
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
