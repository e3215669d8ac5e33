"""forward_with_dropout keeps its weights in [-1, 1] in train mode by clipping them and writing the clipped arrays
back into the params dict it was given. The public params are all inside [-1, 1], so nothing visible changes
there; params ten times larger are rewritten. The report measures params after a train-mode call on large params."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex1.params_unchanged", "mistake": "params_mutated", "max_failing": 1,
          "hint": "changed the params it was given"}


def dropout(key, x, rate, train=True):
    """Zero each element with probability `rate`; scale survivors by 1/(1-rate)."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, keep, x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's 784-256-128-10 MLP with dropout after each hidden ReLU."""
    if train:
        for layer in params.values():
            layer["w"] = jnp.clip(layer["w"], -1.0, 1.0)
    key1, key2 = jax.random.split(key)
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = dropout(key1, h, rate, train)
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    h = dropout(key2, h, rate, train)
    return h @ params["layer3"]["w"] + params["layer3"]["b"]
