# BLIND-SET: 45
# EXERCISE: ex1
# WHAT: dropout keeps a module-level RNG state that is seeded from the key of the first call only (R's set.seed-once habit) and advanced with split on every call; later keys are ignored, so the same key gives a different mask on each call, and two different keys can give masks that depend only on call order (under jit the stored state becomes a leaked tracer).
# SHOULD-SAY: Your mask does not come from the key you are given: dropout stores a global RNG state seeded from the first key and keeps advancing it, so calling dropout twice with the same key gives two different masks. JAX has no hidden RNG state: draw the mask directly from the key argument (jax.random.bernoulli(key, 1 - rate, x.shape)) and keep no module-level state.
"""Exercise 1: dropout with split PRNG keys (written the way I'd do it in R/MATLAB)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's plain forward pass (use it as a model) -------------


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


# --- Your code ----------------------------------------------------------------

# like set.seed(...) at the top of an R script: seed once, then keep drawing
_RNG = {"state": None}


def _next_key(key):
    """Seed the generator the first time, then advance it (rng(seed); rand(...); rand(...))."""
    if _RNG["state"] is None:
        _RNG["state"] = key
    _RNG["state"], sub = jax.random.split(_RNG["state"])
    return sub


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability rate, scale survivors by 1/(1-rate)."""
    if (not train) or rate == 0:
        return x
    keep = 1.0 - rate
    u = jax.random.uniform(_next_key(key), x.shape)  # rand(size(x))
    mask = u < keep
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key, 2)  # one key per hidden layer, layers 1..2
    h = x
    for l in range(1, 3):  # for l = 1:2
        layer = params["layer" + str(l)]
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        h = dropout(keys[l - 1], h, rate, train)
    out = params["layer3"]
    return h @ out["w"] + out["b"]
