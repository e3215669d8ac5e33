# BLIND-SET: 46
# EXERCISE: ex1
# WHAT: correct: the keep mask is U < 1 - rate with U = jax.random.uniform(key, x.shape) (the same draw jax.random.bernoulli makes, so masks are identical to the reference for the same key), survivors are weighted by the inverse inclusion probability 1/(1 - rate) (a Horvitz-Thompson estimator), and the forward splits the key into one key per layer.
# SHOULD-SAY: nothing to fix: dropout and forward_with_dropout meet the contract.
"""Exercise 1: inverted dropout as a Horvitz-Thompson estimator.

Each element is included with probability pi = 1 - rate; weighting included
elements by 1/pi makes the masked activation an unbiased estimator of x.
"""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: included with probability pi = 1 - rate, weight 1/pi."""
    if not train or rate == 0.0:
        return x
    pi = 1.0 - rate                                   # inclusion probability
    u = jax.random.uniform(key, x.shape, dtype=x.dtype)
    included = u < pi                                 # Bernoulli(pi), one per element
    return jnp.where(included, x / pi, jnp.zeros_like(x))


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU; one key per layer."""
    keys = jax.random.split(key, 2)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(keys[0], h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(keys[1], h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
