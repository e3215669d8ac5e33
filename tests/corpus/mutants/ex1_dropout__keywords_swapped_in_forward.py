"""forward_with_dropout passes dropout's keywords the wrong way round, dropout(key, h, rate=train, train=rate):
in training the rate is True (1), so every hidden value is dropped; train=False gives rate 0 and the plain pass.
Where the masks go and which key each comes from cannot be seen with every value dropped, so only the rate is
charged."""

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
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate=train, train=rate)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate=train, train=rate)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.rate_changed", "hint": "rate", "max_failing": 1,
          "also": ["ex1.placement", "ex1.forward_keys"]}
