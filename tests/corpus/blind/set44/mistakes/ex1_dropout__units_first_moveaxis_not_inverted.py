# BLIND-SET: 44
# EXERCISE: ex1
# WHAT: dropout draws its mask at x.shape, moves the unit axis of x and of the mask to the front (jnp.moveaxis(·, -1, 0)) to combine them units-first, then "moves it back" with the same call, jnp.moveaxis(out, -1, 0). For 1-D and 2-D inputs that call is a transpose, so the result is bit-identical to the reference and so is the MLP. For 3-D and higher inputs the axes come back rotated: a (A, B, D) input returns a (B, D, A) array.
# SHOULD-SAY: For inputs with three or more axes the output is not shaped like x: moveaxis(x, -1, 0) is undone by moveaxis(out, 0, -1), not by repeating moveaxis(·, -1, 0), which is only its own inverse in 2-D. Invert the move (or just draw the mask for x.shape directly; no axis shuffling is needed).
"""Exercise 1: inverted dropout with one PRNG key per layer (units-first mask)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)   # one coin per element of x
    # work units-first, (D, ...): row u holds unit u's coins for every example
    xt, mt = jnp.moveaxis(x, -1, 0), jnp.moveaxis(mask, -1, 0)
    out = jnp.where(mt, xt / keep, 0.0).astype(x.dtype)
    return jnp.moveaxis(out, -1, 0)                   # back to (..., D)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(jnp.tensordot(x, params["layer1"]["w"], axes=1) + params["layer1"]["b"][None])  # (B, 256)
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(jnp.tensordot(h, params["layer2"]["w"], axes=1) + params["layer2"]["b"][None])  # (B, 128)
    h = dropout(key2, h, rate, train)
    return jnp.tensordot(h, params["layer3"]["w"], axes=1) + params["layer3"]["b"][None]            # (B, 10)
