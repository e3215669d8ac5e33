# BLIND-SET: 45
# EXERCISE: ex1
# WHAT: correct. The hidden layers are computed in column layout (H = W' * X + b, examples as columns) and transposed back to rows before each dropout, so dropout sees (B, units) as in the reference; the mask is rand(size(x)) < keep (jax.random.uniform, bit-identical to bernoulli), keys come from split(key, 2) indexed 1-based as keys[l - 1], and train=False / rate=0 return x itself.
# SHOULD-SAY: Nothing to fix: dropout is inverted dropout drawn from the given key, each hidden layer gets its own key, dropout sits only after the two hidden ReLUs, and train=False equals forward.
"""Exercise 1: dropout with split PRNG keys (column-vector habits, kept consistent)."""

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
    """Inverted dropout: mask = rand(size(x)) < keep; y = x .* mask / keep."""
    if (not train) or rate == 0:
        return x
    keep = 1.0 - rate
    mask = jax.random.uniform(key, x.shape) < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP; hidden layers as columns, dropout after hidden ReLUs."""
    n_hidden = 2
    keys = jax.random.split(key, n_hidden)  # keys(1), keys(2)
    H = x.T  # (784, B): one example per column
    for l in range(1, n_hidden + 1):  # for l = 1:2
        W = params[f"layer{l}"]["w"].T        # (out, in)
        b = params[f"layer{l}"]["b"][:, None]  # column
        H = jax.nn.relu(W @ H + b)
        H = dropout(keys[l - 1], H.T, rate, train).T  # mask drawn on (B, units)
    W = params["layer3"]["w"].T
    b = params["layer3"]["b"][:, None]
    return (W @ H + b).T
