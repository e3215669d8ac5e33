"""forward_with_dropout keeps the output layer of the first params it sees in a module dict ("it does not change
during evaluation") and uses it on every later call: right on the first params, wrong on any other. The report
doubles params['layer3'] and measures logits that did not double."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.output_layer_not_from_params", "max_failing": 1,
          "hint": "Pass params (or the layer) to every helper"}

_HEAD = {}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    head = _HEAD.setdefault("layer3", params["layer3"])
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ head["w"] + head["b"]
