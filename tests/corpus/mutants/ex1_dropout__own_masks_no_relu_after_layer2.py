"""forward_with_dropout draws its masks itself and leaves out the ReLU after layer 2, in train and eval mode
alike: the network is not the lesson's MLP whatever the mode. The report measures the evaluation pass as the plain
pass without that ReLU, rate 0 in train mode as the same, and the train-mode masks meeting negative values."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.eval_forward", "mistake": "ex1.other_network", "max_failing": 1,
          "also": ["ex1.placement", "ex1.params_unchanged"], "hint": "in train and eval mode alike"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    keys = jax.random.split(key)
    hidden = [jax.nn.relu, lambda z: z]
    h = x
    for name, act, k in zip(("layer1", "layer2"), hidden, keys):
        h = act(h @ params[name]["w"] + params[name]["b"])
        if train and rate > 0:
            keep = 1.0 - rate
            h = jnp.where(jax.random.bernoulli(k, keep, h.shape), h / keep, 0.0)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
