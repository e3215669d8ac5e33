# BLIND-SET: 14
# EXERCISE: ex1
# WHAT: dropout gives every element a lottery ticket jax.random.randint(key, x.shape, 0, 1_000_000) and keeps it when the ticket is at least round(rate * 1e6), building the output with jax.lax.select; forward_with_dropout loops over the two hidden layers with keys from one jax.random.split(key, 2).
# SHOULD-SAY: Full marks: correct inverted dropout (fraction zeroed matches rate, exact 1/(1-rate) scaling, train=False/rate=0 return x, an independent coin per element, deterministic per key, no hidden randomness), one fresh key per dropout layer, dropout only after the two hidden ReLUs, and identical results under jax.jit.
"""Exercise 1: dropout with split PRNG keys."""

import jax
import jax.numpy as jnp

_TICKETS = 1_000_000  # resolution of the drop probability (rate is exact to 1e-6)


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0:
        return x
    keep = 1.0 - rate
    losing = int(round(rate * _TICKETS))  # tickets 0 .. losing-1 drop the unit
    tickets = jax.random.randint(key, jnp.shape(x), 0, _TICKETS)
    kept = tickets >= losing
    scaled = x * jnp.asarray(1.0 / keep, dtype=x.dtype)
    return jax.lax.select(kept, scaled, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    layer_keys = jax.random.split(key, 2)
    h = x
    for i, name in enumerate(("layer1", "layer2")):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
        h = dropout(layer_keys[i], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
