# BLIND-SET: mistake
# EXERCISE: ex1
# WHAT: dropout uses a Concrete/relaxed-Bernoulli soft mask (temperature 0.1, as in Concrete Dropout) so most elements are only shrunk, not zeroed, and survivors are not scaled by exactly 1/(1-rate).
# SHOULD-SAY: ex1 fails the zero-fraction check (far fewer exact zeros than rate, e.g. ~16% at rate 0.5) and the exact-rescale check (surviving values are x*(1-p)/(1-rate) with a soft p); train=False and rate=0 still pass.
"""Exercise 1 (reference): inverted dropout with one PRNG key per layer."""

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    # relaxed Bernoulli drop probability (differentiable w.r.t. the rate)
    temperature = 0.1
    eps = 1e-7
    u = jax.random.uniform(key, x.shape, minval=eps, maxval=1.0 - eps)
    drop_logit = (jnp.log(rate) - jnp.log1p(-rate) + jnp.log(u) - jnp.log1p(-u)) / temperature
    drop_prob = jax.nn.sigmoid(drop_logit)
    return (x * (1.0 - drop_prob) / keep).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
