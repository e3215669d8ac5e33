"""forward_with_dropout gives dropout the keep probability 1 - rate, where dropout takes the drop rate.

At rate 0.5 the two agree, so train mode looks right; at rate 0 the forward pass drops everything.
ex1.eval_forward measures the rates the forward pass gave its dropout and names the keep probability."""

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.keep_prob_passed", "hint": "keep probability",
          "max_failing": 1}

import jax
import jax.numpy as jnp


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    key1, key2 = jax.random.split(key)
    keep_prob = 1.0 - rate
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, keep_prob, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, keep_prob, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
