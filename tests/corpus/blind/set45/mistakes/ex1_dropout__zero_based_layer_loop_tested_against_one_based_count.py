# BLIND-SET: 45
# EXERCISE: ex1
# WHAT: forward_with_dropout loops over the layers with a 0-based index l = 0..2 but keeps the MATLAB test "if l < L" (L = 3) for "every layer but the last", which is true for the output layer too; so ReLU and dropout are also applied to the logits, and with train=False the result is relu(logits) instead of forward(params, x).
# SHOULD-SAY: Your forward pass puts ReLU and dropout after the output layer as well: the loop index is 0-based but the "not the last layer" test is the 1-based l < L, so it is true for every layer. Use l < L - 1 with a 0-based index (or loop over the hidden layers and apply the output layer separately) so the logits get neither ReLU nor dropout.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero each element w.p. rate, survivors times 1/(1-rate)."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    mask = jax.random.uniform(key, x.shape) < keep  # rand(size(x)) < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP, written as a loop over layer1..layer3."""
    L = 3
    keys = jax.random.split(key, L)  # one key per layer, never reused
    h = x
    for l in range(L):  # for l = 1:L  (0-based now)
        W = params[f"layer{l + 1}"]["w"]
        b = params[f"layer{l + 1}"]["b"]
        h = h @ W + b
        if l < L:  # every layer but the last
            h = jax.nn.relu(h)
            h = dropout(keys[l], h, rate, train)
    return h
