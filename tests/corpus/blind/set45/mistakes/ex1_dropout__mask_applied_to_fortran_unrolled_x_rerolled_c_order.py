# BLIND-SET: 45
# EXERCISE: ex1
# WHAT: dropout unrolls x column-major (x.ravel(order="F"), MATLAB's x(:)) to apply the mask, then rolls the result back with a plain C-order reshape(x.shape); for any input with two or more axes of size > 1 (e.g. (B, 256)) the kept, rescaled values land in the wrong positions (the masked values of x.T, read row by row, are poured into shape x.shape), while vectors and train=False are right.
# SHOULD-SAY: The output of dropout is not x with elements zeroed: you flatten with order="F" but reshape back with the default order="C", which moves every element to a different position for 2-D and larger inputs. Flatten and reshape in the same order (or skip the flattening and draw the mask with shape x.shape).
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
    """Inverted dropout, done on x(:) like in MATLAB, then reshaped back."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    xv = x.ravel(order="F")                      # x(:)  -- column-major, as in MATLAB
    m = jax.random.bernoulli(key, keep, xv.shape)  # one coin per element
    yv = jnp.where(m, xv / keep, 0.0)
    return yv.reshape(x.shape).astype(x.dtype)   # reshape(y, size(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU."""
    k1, k2 = jax.random.split(key)
    h1 = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h1 = dropout(k1, h1, rate, train)
    h2 = jax.nn.relu(h1 @ params["layer2"]["w"] + params["layer2"]["b"])
    h2 = dropout(k2, h2, rate, train)
    return h2 @ params["layer3"]["w"] + params["layer3"]["b"]
