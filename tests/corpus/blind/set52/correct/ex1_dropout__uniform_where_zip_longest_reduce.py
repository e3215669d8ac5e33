# BLIND-SET: 52
# EXERCISE: ex1
# WHAT: correct. dropout is a one-line conditional expression with mask uniform(key, x.shape) < 1 - rate, which is exactly how jax.random.bernoulli draws, so masks are bit-identical to the reference's for the same key. forward_with_dropout folds the numerically sorted layers with functools.reduce over zip_longest(layers, split(key)): the output layer gets the fill value None and no dropout.
# SHOULD-SAY: Nothing to fix: full marks for ex1.
"""Exercise 1: dropout with split PRNG keys (zip_longest + reduce)."""

from functools import reduce
from itertools import zip_longest

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout: zero with probability rate, scale survivors by 1/(1-rate)."""
    keep = 1.0 - rate
    return x if not train or rate == 0 else jnp.where(jax.random.uniform(key, x.shape) < keep, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """Fold layer1..layer3; every layer paired with a key is a hidden layer."""
    layers = map(params.__getitem__, sorted(params, key=lambda n: int(n[len("layer"):])))
    step = lambda h, lk: (lambda z: z if lk[1] is None else dropout(lk[1], jax.nn.relu(z), rate, train))(
        h @ lk[0]["w"] + lk[0]["b"]
    )
    return reduce(step, zip_longest(layers, jax.random.split(key)), x)
