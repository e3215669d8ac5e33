# BLIND-SET: 50
# EXERCISE: ex1
# WHAT: dropout views x as (rows, -1) for the mask, which cannot work for a 0-d input, so it adds a scalar branch; that branch keeps or drops the value but never divides by 1-rate. For a 0-d x (an allowed shape) a surviving value comes back as x instead of x/(1-rate) (e.g. 3.0 instead of 6.0 at rate 0.5); every input with at least one axis is right, with the same masks as bernoulli on x.shape.
# SHOULD-SAY: For a 0-d (scalar) input, a kept value is returned unscaled; inverted dropout must scale every survivor by 1/(1-rate) whatever the shape. Make the scalar branch return jnp.where(mask, x / (1 - rate), 0), or better drop the special case and draw the mask with shape x.shape so one code path covers every shape.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability `rate`, scale survivors by 1/(1-rate)."""
    if not train or rate == 0:
        return x
    keep_prob = 1.0 - rate
    if x.ndim == 0:
        # A single number: one coin decides whether it survives.
        survives = jax.random.bernoulli(key, keep_prob)
        return jnp.where(survives, x, 0.0).astype(x.dtype)
    # Work on a (rows, features) view so any leading shape is handled the same way.
    rows = x.reshape(x.shape[0], -1)
    mask = jax.random.bernoulli(key, keep_prob, rows.shape)
    out = jnp.where(mask, rows / keep_prob, 0.0)
    return out.reshape(x.shape).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    key_a, key_b = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key_a, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key_b, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
