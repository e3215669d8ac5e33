# BLIND-SET: 41
# EXERCISE: ex1
# WHAT: dropout() draws one Bernoulli(p) retention variable per unit, with unit meaning (case, unit) = x.shape[:2] as in the paper's r_j^(l), and broadcasts it over any further axes. For 1-D and 2-D inputs (so in the MLP) the mask is bit-identical to the reference's. For an input with 3 or more axes, every element along the trailing axes shares its unit's coin: whole rows along axis 2 are zeroed or kept together instead of each element getting its own flip.
# SHOULD-SAY: For inputs with more than two axes, dropout does not flip an independent coin for each element. Elements that differ only in their trailing indices are all dropped or all kept. The contract says x may have any shape and each element is zeroed independently: draw the mask with shape x.shape (jax.random.bernoulli(key, 1 - rate, x.shape)), not x.shape[:2].
"""Exercise 1: dropout with split PRNG keys (Srivastava et al., 2014).

Paper notation: r_j^(l) ~ Bernoulli(p) for each unit j of layer l and each
training case; p = 1 - rate is the probability of retaining the unit.
"""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: a unit is retained with probability p and rescaled by 1/p."""
    if not train or rate == 0.0:
        return x
    p = 1.0 - rate
    # One retention variable per (training case, unit), as r_j^(l) in the paper;
    # any further axes belong to that unit (e.g. its feature map) and share it.
    unit_shape = x.shape[:2]
    r = jax.random.bernoulli(key, p, unit_shape)
    r = r.reshape(unit_shape + (1,) * (x.ndim - len(unit_shape)))
    return jnp.where(r, x / p, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """784-256-128-10 MLP with dropout after each hidden ReLU, one key per layer."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
