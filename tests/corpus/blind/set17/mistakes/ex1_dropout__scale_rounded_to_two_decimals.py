# BLIND-SET: 17
# EXERCISE: ex1
# WHAT: dropout multiplies survivors by round(1/(1-rate), 2) instead of the exact 1/(1-rate), so the rescale is slightly off at rates such as 0.1, 0.3 and 0.7 (exact only where the factor has two decimals, e.g. 0.5, 0.2, 0.75)
# SHOULD-SAY: the mask (independent per element, right drop fraction, key-driven), train/rate==0 handling and the MLP wiring are right, but survivors are scaled by a rounded factor (1.43 instead of 1/0.7=1.4286, 1.11 instead of 1.1111); divide by keep = 1 - rate exactly instead of rounding the scale
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

SCALE_DECIMALS = 2  # keep the printed scale factor readable (2.0, 1.25, ...)


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0:
        return x
    scale = round(1.0 / (1.0 - rate), SCALE_DECIMALS)
    keep_mask = jax.random.uniform(key, x.shape) >= rate
    return jnp.where(keep_mask, x * scale, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    drop_key1, drop_key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(drop_key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(drop_key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
