# BLIND-SET: 48
# EXERCISE: ex1
# WHAT: The per-layer dropout rates are built with jax.tree.map(lambda _: rate, params, is_leaf=lambda n: "w" in n), which catches every layer dict, the output layer3 too; the forward drops out after every layer that has a rate, so in training the logits are dropped out (zeroed with probability rate, survivors scaled by 1/(1-rate)). Keys come from one split into three. With train=False or rate=0 the result is right.
# SHOULD-SAY: Dropout must sit only after the two hidden ReLUs, never on the logits: your is_leaf filter matches every layer, the output layer included, so layer3 gets a rate and its logits are dropped. Give rates (and keys) only to the hidden layers, e.g. build the tree from the names but the last, or apply dropout only inside the hidden loop.
"""Exercise 1: dropout with split PRNG keys, per-layer config as a pytree."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP without dropout: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def dropout(key, x, rate, train=True):
    """Inverted dropout."""
    if not train or rate == 0.0:
        return x
    keep = 1.0 - rate
    mask = jax.random.bernoulli(key, p=keep, shape=x.shape)
    return jnp.where(mask, x / keep, 0.0).astype(x.dtype)


def _is_layer(node):
    return isinstance(node, dict) and "w" in node


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    """The lesson's MLP with dropout after each hidden ReLU."""
    names = ("layer1", "layer2", "layer3")
    # dropout rate per layer, as a tree shaped like the layers
    rates = jax.tree.map(lambda _: rate, params, is_leaf=_is_layer)
    keys = dict(zip(names, jax.random.split(key, num=len(names))))
    h = x
    for name in names:
        layer = params[name]
        h = h @ layer["w"] + layer["b"]
        if name != names[-1]:
            h = jax.nn.relu(h)
        if name in rates:
            h = dropout(keys[name], h, rates[name], train)
    return h
